// Roles of Enterprise (emqx_dashboard_rbac.erl check_rbac/4): a `viewer` reads every route and
// changes nothing, except its own password and its logout; a `publisher` API key may only publish;
// Community has no roles, so the field itself is refused there.
import { test } from 'uvu';
import type { EmqxVersion } from '../../simulator/store/profile.ts';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const PASSWORD = 'Viewer-pass1';

async function withViewer(options: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp({ seed: 'demo', nodes: 2, loginRateLimit: { max: 1_000_000 }, ...options });
  const admin = await login(app);
  const made = await api(app, 'POST', '/api/v5/users', { token: admin, body: { username: 'watcher', password: PASSWORD, role: 'viewer' } });
  assert.is(made.statusCode, 200);
  assert.is(made.json().role, 'viewer');
  const token = await login(app, 'watcher', PASSWORD);
  return { app, admin, token };
}

// The broker's RBAC lets a viewer read everything up to 5.8; a backup holds secrets in clear and
// the password hashes, so its download is the administrator's (hardening-privilege.test.ts). From
// 5.9 a viewer's scopes leave out the administrator's own (?ADMIN_ONLY_SCOPES in
// emqx_dashboard_api.erl at 6.2.2: users, SSO and API keys).
const VIEWER_REFUSED: [EmqxVersion, string[]][] = [
  ['5.8.9', ['/api/v5/data/files/:filename']],
  ['6.2.2', ['/api/v5/users', '/api/v5/api_key', '/api/v5/api_key/:name', '/api/v5/sso', '/api/v5/sso/:backend', '/api/v5/data/files/:filename']],
];
for (const [emqxVersion, expected] of VIEWER_REFUSED) {
  test(`${emqxVersion}: a viewer reads every GET route without a 403, except the download of a backup file (S27) and the administrator's scopes`, async () => {
    const { app, token } = await withViewer({ emqxVersion });
    const refused: string[] = [];
    for (const route of app.apiRoutes) {
      if (route.method !== 'GET' || route.public || !route.url.startsWith('/api/v5/')) continue;
      const res = await api(app, 'GET', route.url.replace(/:(\w+)/g, 'x'), { token });
      if (res.statusCode === 403) refused.push(route.url);
    }
    assert.equal(refused, expected);
    await app.close();
  });
}

test('a viewer changes nothing: every write is 403 UNAUTHORIZED_ROLE and the state stays', async () => {
  const { app, token } = await withViewer();
  const allowed: string[] = [];
  const before = JSON.stringify(app.store.state);
  for (const route of app.apiRoutes) {
    if (route.method === 'GET' || route.method === 'HEAD' || route.public || !route.url.startsWith('/api/v5/')) continue;
    if (route.url === '/api/v5/logout' || route.url === '/api/v5/users/:username/change_pwd') continue;
    const res = await api(app, route.method as 'POST', route.url.replace(/:(\w+)/g, 'x'), { token, body: {} });
    if (res.statusCode !== 403 || res.json().code !== 'UNAUTHORIZED_ROLE') allowed.push(`${route.method} ${route.url} → ${res.statusCode}`);
  }
  assert.equal(allowed, []);
  assert.is(JSON.stringify(app.store.state), before);
  const res = await api(app, 'DELETE', '/api/v5/users/admin', { token });
  assert.equal(res.json(), { code: 'UNAUTHORIZED_ROLE', message: "You don't have permission to access this resource" });
  await app.close();
});

test('a viewer may change its own password and log out, not another user\'s password', async () => {
  const { app, token } = await withViewer();
  const other = await api(app, 'POST', '/api/v5/users/admin/change_pwd', { token, body: { old_pwd: 'public', new_pwd: 'Another-pass2' } });
  assert.is(other.statusCode, 403);
  const own = await api(app, 'POST', '/api/v5/users/watcher/change_pwd', { token, body: { old_pwd: PASSWORD, new_pwd: 'Viewer-pass2' } });
  assert.is(own.statusCode, 204);
  const again = await login(app, 'watcher', 'Viewer-pass2');
  assert.is((await api(app, 'POST', '/api/v5/logout', { token: again, body: { username: 'watcher' } })).statusCode, 204);
  await app.close();
});

test('API key roles: a viewer key reads only, a publisher key only publishes', async () => {
  const app = await buildTestApp();
  const admin = await login(app);
  const key = async (name: string, role: string) => {
    const res = await api(app, 'POST', '/api/v5/api_key', { token: admin, body: { name, role } });
    assert.is(res.statusCode, 200);
    assert.is(res.json().role, role);
    return `Basic ${Buffer.from(`${res.json().api_key}:${res.json().api_secret}`).toString('base64')}`;
  };
  const viewer = await key('reader', 'viewer');
  const publisher = await key('sender', 'publisher');
  const call = (auth: string, method: 'GET' | 'POST', url: string, body?: unknown) => api(app, method, url, { headers: { authorization: auth }, body });
  assert.is((await call(viewer, 'GET', '/api/v5/nodes')).statusCode, 200);
  const write = await call(viewer, 'POST', '/api/v5/banned', { as: 'clientid', who: 'x' });
  assert.equal(write.json(), { code: 'UNAUTHORIZED_ROLE', message: "This API Key don't have permission to access this resource" });
  assert.is((await call(publisher, 'GET', '/api/v5/nodes')).statusCode, 403);
  assert.is((await call(publisher, 'POST', '/api/v5/publish', { topic: 't/1', payload: 'x' })).statusCode, 202);
  await app.close();
});

test('Community has no roles: every user is an administrator and `role` is an unknown field', async () => {
  const app = await buildTestApp({ emqxVersion: '5.5.1', edition: 'ce' });
  const admin = await login(app);
  const res = await api(app, 'POST', '/api/v5/users', { token: admin, body: { username: 'watcher', password: PASSWORD, role: 'viewer' } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, 'unknown_fields');
  const login2 = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
  assert.is(login2.json().role, undefined);
  assert.equal(login2.json().license, { edition: 'ce' });
  await app.close();
});

test.run();
