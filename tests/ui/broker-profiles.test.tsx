// The console against the broker profiles it supports: 5.5.1 and 5.8.9, Enterprise and Community,
// administrator and viewer. Replies are shaped as the named version answers.
import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { menu } from '../../web/app/routes.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { clearSchemas } from '../../web/lib/schemas.ts';
import { clearSession, login, restoreSession, session } from '../../web/lib/session.ts';
import { readSettings, writeSettings } from '../../web/lib/storage.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { chooseFile } from '../helpers/fakeXhr.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const page = <T,>(data: T[]) => ({ body: { data, meta: { page: 1, limit: 1000, count: data.length, hasnext: false } } });

/** Logged in at `to` on a broker of this version, edition and (Enterprise) role. */
async function on(to: string, profile: { version: string; edition: 'ee' | 'ce'; role?: string }) {
  clearSchemas();
  await signedInAt(to);
  writeSettings({ edition: profile.edition, ...(profile.role ? { role: profile.role } : {}) } as never);
  Object.assign(session, profile);
}
const V55 = { version: '5.5.1', edition: 'ee' } as const;
const V58 = { version: '5.8.9', edition: 'ee' } as const;
const writes = (api: { calls: { method: string; path: string; body: unknown }[] }) => api.calls.filter((c) => c.method !== 'GET');
async function choose(select: Element | null, value: string) {
  await act(async () => {
    (select as HTMLSelectElement).value = value;
    select!.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
test.after.each(cleanup);

// 5.5.1 actions carry only `status` and `node_status` beside their configuration.
const http55 = { type: 'http', name: 'hook_WH_D', connector: 'hook_WH_D', enable: true, parameters: { method: 'post', headers: {} }, status: 'connected', node_status: [] };

test('5.5.1: the webhook list shows a webhook whose rule is known only from /rules', async () => {
  await on('/webhook', V55);
  const api = fakeApi({
    'GET /connectors': { body: [{ type: 'http', name: 'hook_WH_D', enable: true, url: 'http://127.0.0.1:9000/in', headers: {}, status: 'connected' }] },
    'GET /actions': { body: [http55] },
    'GET /rules': page([{ id: 'hook_WH_D', sql: 'SELECT * FROM "t/#"', actions: ['http:hook_WH_D'], enable: true, from: ['t/#'] }]),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('webhook-row'));
  assert.is(byTest('webhook-row')!.getAttribute('data-key'), 'hook');
  api.restore();
});

test('5.5.1: the actions list knows the rules from /rules and offers delete with its rules (also_delete_dep_actions)', async () => {
  await on('/rule/actions', V55);
  const out = { ...http55, name: 'out', connector: 'web' };
  const api = fakeApi({
    'GET /actions': { body: [out] },
    'GET /rules': page([{ id: 'r1', sql: 'SELECT * FROM "t"', actions: ['http:out', 'console'], enable: true, from: ['t'] }, { id: 'r2', actions: ['mqtt:other'], enable: true, from: ['t'] }]),
    'DELETE /actions/http:out': { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('actions-row') && text().includes('r1'));
  assert.not.ok(byTest('actions-row')!.textContent!.includes('r2'));
  await click(byTest('actions-delete'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('is used by rules. Delete it and also remove it from those rules?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'DELETE'));
  assert.is(api.calls.find((c) => c.method === 'DELETE')!.query.get('also_delete_dep_actions'), 'true');
  api.restore();
});

async function createBuiltInAuthz() {
  const api = fakeApi({ 'GET /authorization/sources': { body: { sources: [] } }, 'POST /authorization/sources': { status: 204 }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('choice-built_in_database'));
  await click(byTest('choice-built_in_database')!.querySelector('input'));
  await click(byTest('wizard-next'));
  await submit(await waitFor(() => byTest('authz-config-form')));
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  api.restore();
  return api.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
}

test('5.5.1: creating a built-in database authorization source sends no max_rules; 5.8.9 does', async () => {
  await on('/authorization/create', V55);
  const body55 = await createBuiltInAuthz();
  assert.equal(body55, { type: 'built_in_database', enable: true });
  cleanup();
  await on('/authorization/create', V58);
  const body58 = await createBuiltInAuthz();
  assert.is(body58.max_rules, 100);
});

test('5.5.1: creating a JWT authenticator sends no disconnect_after_expire and does not offer it', async () => {
  await on('/authentication/create', V55);
  const api = fakeApi({ 'GET /authentication': { body: [] }, 'POST /authentication': (c) => ({ body: { ...(c.body as object), id: 'jwt' } }), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('choice-jwt'));
  await click(byTest('choice-jwt')!.querySelector('input'));
  await click(byTest('wizard-next'));
  const form = await waitFor(() => byTest('authn-config-form'));
  assert.not.ok(form.querySelector('[name=disconnect_after_expire]'));
  await type(form.querySelector('[name=secret]'), 'shh');
  await submit(form);
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  const body = api.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
  assert.is(body.mechanism, 'jwt');
  assert.not.ok('disconnect_after_expire' in body);
  api.restore();
});

test('5.5.1: a plugin detail renders without an error and never asks for /schema or /config', async () => {
  await on('/plugins/detail/a_plug-1.0.0', V55);
  const api = fakeApi({
    'GET /plugins/a_plug-1.0.0': { body: { name: 'a_plug', rel_vsn: '1.0.0', description: 'd', running_status: [{ node: 'emqx@127.0.0.1', status: 'running' }] } },
    // 5.5.1 routes GET …/schema to the start/stop handler's path, which has no GET: 405.
    'GET /plugins/a_plug-1.0.0/schema': { status: 405 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('plugin-readme'));
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.not.ok(byTest('state-error'));
  assert.not.ok(api.calls.some((c) => /\/(schema|config)$/.test(c.path)));
  api.restore();
});

test('5.5.1: importing users (204, no body) still shows a summary, counted from the users list', async () => {
  await on('/authentication/detail/password_based%3Abuilt_in_database?tab=users', V55);
  const BI = '/authentication/password_based%3Abuilt_in_database';
  let count = 3;
  const api = fakeApi({
    [`GET ${BI}`]: { body: { id: 'password_based:built_in_database', mechanism: 'password_based', backend: 'built_in_database', enable: true, user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } } },
    [`GET ${BI}/users`]: () => ({ body: { data: [], meta: { page: 1, limit: 1, count, hasnext: false } } }),
    [`POST ${BI}/import_users`]: () => ((count += 2), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await click(await waitFor(() => byTest('authn-import')));
  const form = await waitFor(() => byTest('authn-import-form'));
  const file = new File(['user_id,password,is_superuser\nu1,p1,false\nu2,p2,true\n'], 'users.csv', { type: 'text/csv' });
  await act(async () => chooseFile(form.querySelector('[data-test=import-file]'), file));
  await submit(form);
  const result = await waitFor(() => byTest('import-result'));
  assert.is(result.textContent, '2 users in the file; 2 added, the authenticator now has 5 users');
  api.restore();
});

test('5.5.1: exporting a backup offers no table or key choice and sends an empty body', async () => {
  await on('/backup', V55);
  const api = fakeApi({ 'GET /data/files': page([]), 'POST /data/export': { body: { node: 'emqx@127.0.0.1', filename: 'b.tar.gz', created_at: '2026-03-01T10:00:00.000+00:00' } }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  await click(byTest('backup-create'));
  const form = (await waitFor(() => byTest('backup-create-form')))!.querySelector('form')!;
  assert.not.ok(form.querySelector('[name=root_keys]'));
  assert.not.ok(form.querySelector('[name=table_sets]'));
  await submit(form);
  await waitFor(() => writes(api).length === 1);
  assert.equal(writes(api)[0].body, {});
  api.restore();
});

const menuApi = () => fakeApi({ 'GET /alarms': alarms });
const menuLinks = () => [...document.querySelectorAll('nav a')].map((a) => a.getAttribute('href'));
const menuPaths = () => menu().flatMap((section) => section.items.map((s) => s.path));
const ENTERPRISE = ['/license', '/schema-registry', '/audit'];

test('Community: the menu has no license, schema registry or audit entries; Enterprise 5.5.1 has them', async () => {
  await on('/settings', { version: '5.5.1', edition: 'ce' });
  let api = menuApi();
  await mount(<App />);
  // The System group is open on /settings.
  await waitFor(() => menuLinks().includes('#/settings'));
  assert.not.ok(menuLinks().includes('#/license'));
  assert.not.ok(menuLinks().includes('#/audit'));
  for (const path of ENTERPRISE) assert.not.ok(menuPaths().includes(path), path);
  api.restore();
  cleanup();
  await on('/settings', V55);
  api = menuApi();
  await mount(<App />);
  await waitFor(() => menuLinks().includes('#/license'));
  assert.ok(menuLinks().includes('#/audit'));
  for (const path of ENTERPRISE) assert.ok(menuPaths().includes(path), path);
  api.restore();
});

test('Community: an Enterprise route says it is not available on this broker, without calling it', async () => {
  await on('/schema-registry', { version: '5.8.9', edition: 'ce' });
  const api = fakeApi({ 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('screen-unavailable'));
  assert.ok(text().includes('not available on this broker'));
  assert.not.ok(api.calls.some((c) => c.path.startsWith('/schema_registry')));
  api.restore();
});

test('Community: creating a connector offers only the http and mqtt types', async () => {
  await on('/connector/create', { version: '5.5.1', edition: 'ce' });
  const api = fakeApi({ 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('type-picker'));
  assert.equal([...document.querySelectorAll('.type-card')].map((b) => b.getAttribute('data-test')), ['type-http', 'type-mqtt']);
  api.restore();
});

test('Viewer: a list page offers no create, edit or delete; a 403 UNAUTHORIZED_ROLE reads as a sentence', async () => {
  await on('/banned-clients', { ...V55, role: 'viewer' });
  const api = fakeApi({
    'GET /banned': page([{ as: 'clientid', who: 'c1', by: 'admin', reason: '', at: '2026-03-01T10:00:00+00:00', until: '2027-03-01T10:00:00+00:00' }]),
    'GET /api_key': { status: 403, body: { code: 'UNAUTHORIZED_ROLE', message: "You don't have permission to access this resource" } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('banned-row'));
  assert.not.ok(byTest('banned-create'));
  assert.not.ok(byTest('banned-delete'));
  assert.not.ok(document.querySelector('[data-test^=banned-bulk]'));
  api.restore();
  cleanup();
  await on('/api-key', { ...V55, role: 'viewer' });
  const api2 = fakeApi({ 'GET /api_key': { status: 403, body: { code: 'UNAUTHORIZED_ROLE', message: "You don't have permission to access this resource" } }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  assert.ok(text().includes('Your role may only view: this needs an administrator'), text());
  // The code only in the folded raw text under Details (issue #34).
  assert.not.ok(byTest('state-error')!.querySelector('p')!.textContent!.includes('UNAUTHORIZED_ROLE'));
  setLocale('zh');
  api2.restore();
});

test('login keeps the role across a reload, like the edition; logout forgets it', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': { body: { token: 't', version: '5.5.1', license: { edition: 'ee' }, role: 'viewer' } } });
  await login('viewer1', 'secret-123');
  assert.is(session.role, 'viewer');
  Object.assign(session, { role: '', edition: '' });
  await restoreSession();
  assert.equal([session.version, session.edition, session.role], ['5.5.1', 'ee', 'viewer']);
  clearSession();
  assert.is(readSettings().role, undefined);
  api.restore();
});

test('Enterprise: users show and set their role; Community shows no role', async () => {
  await on('/users', V55);
  const api = fakeApi({
    'GET /users': { body: [{ username: 'admin', description: '', role: 'administrator' }, { username: 'v', description: '', role: 'viewer' }] },
    'POST /users': (c) => ({ body: c.body }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => document.querySelector('[data-test=users-row][data-key=v]'));
  assert.ok(document.querySelector('[data-test=users-row][data-key=v]')!.textContent!.includes('Viewer'));
  await click(byTest('users-create'));
  const form = byTest('users-create-form')!.querySelector('form')!;
  await type(form.querySelector('[name=username]'), 'ro');
  await type(form.querySelector('[name=password]'), 'secret-123');
  await type(form.querySelector('[name=confirm]'), 'secret-123');
  await choose(form.querySelector('[name=role]'), 'viewer');
  await submit(form);
  await waitFor(() => writes(api).length === 1);
  assert.is((writes(api)[0].body as { role: string }).role, 'viewer');
  api.restore();
  cleanup();
  await on('/users', { version: '5.5.1', edition: 'ce' });
  const api2 = fakeApi({ 'GET /users': { body: [{ username: 'admin', description: '' }] }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('users-row'));
  await click(byTest('users-create'));
  assert.not.ok(byTest('users-create-form')!.querySelector('[name=role]'));
  api2.restore();
});

test.run();
