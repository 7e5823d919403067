// API keys (security.md S6): the secret is shown once, Basic auth works on protected routes
// except users, logout and api_key, and disabled, expired or wrong keys are refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login, manualClock } from '../helpers/simulator.ts';

function basic(key: string, secret: string) {
  return { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
}

async function withKey(options: Parameters<typeof buildTestApp>[0] = {}, body: Record<string, unknown> = {}) {
  const app = await buildTestApp(options);
  const token = await login(app);
  const res = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'ci-bot', desc: 'pipeline', enable: true, ...body } });
  return { app, token, res, key: res.json() as Record<string, any> };
}

test('creating a key answers 200 with its secret, which no later answer repeats', async () => {
  const { app, token, res, key } = await withKey();
  assert.is(res.statusCode, 200);
  assert.is(key.name, 'ci-bot');
  assert.match(key.api_key, /^[0-9a-f]{16}$/);
  assert.match(key.api_secret, /^[0-9A-Za-z]{40,}$/);
  assert.is(key.expired_at, 'infinity');
  assert.is(key.enable, true);
  assert.is(key.expired, false);
  assert.match(key.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  const list = await api(app, 'GET', '/api/v5/api_key', { token });
  const one = await api(app, 'GET', '/api/v5/api_key/ci-bot', { token });
  for (const body of [list.body, one.body]) {
    assert.not.ok(body.includes(key.api_secret));
    assert.not.ok(body.includes('api_secret'));
    assert.not.ok(body.includes('sha256$'));
  }
  assert.is(list.json().length, 1);
  await app.close();
});

test('a key and secret authenticate with Basic on protected routes', async () => {
  const { app, key } = await withKey();
  const res = await api(app, 'GET', '/api/v5/nodes', { headers: basic(key.api_key, key.api_secret) });
  assert.is(res.statusCode, 200);
  await app.close();
});

test('a wrong secret or an unknown key is BAD_API_KEY_OR_SECRET with the Basic challenge', async () => {
  const { app, key } = await withKey();
  for (const headers of [basic(key.api_key, 'wrong'), basic('0000000000000000', key.api_secret), { authorization: 'Basic !!!' }]) {
    const res = await api(app, 'GET', '/api/v5/nodes', { headers });
    assert.is(res.statusCode, 401);
    assert.equal(res.json(), { code: 'BAD_API_KEY_OR_SECRET', message: 'Check api_key/api_secret' });
    assert.is(res.headers['www-authenticate'], 'Basic Realm="emqx-dashboard"');
  }
  await app.close();
});

test('a disabled key is refused, and works again when re-enabled', async () => {
  const { app, token, key } = await withKey();
  const headers = basic(key.api_key, key.api_secret);
  const off = await api(app, 'PUT', '/api/v5/api_key/ci-bot', { token, body: { enable: false } });
  assert.is(off.statusCode, 200);
  assert.is(off.json().enable, false);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { headers })).json().code, 'BAD_API_KEY_OR_SECRET');
  await api(app, 'PUT', '/api/v5/api_key/ci-bot', { token, body: { enable: true } });
  assert.is((await api(app, 'GET', '/api/v5/nodes', { headers })).statusCode, 200);
  await app.close();
});

test('an expired key is refused and shows expired: true', async () => {
  const clock = manualClock();
  const expiresAt = Math.floor(clock.now() / 1000) + 3600;
  const { app, token, key } = await withKey({ clock }, { expired_at: expiresAt });
  const headers = basic(key.api_key, key.api_secret);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { headers })).statusCode, 200);
  clock.advance(3600_000);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { headers })).json().code, 'BAD_API_KEY_OR_SECRET');
  assert.is((await api(app, 'GET', '/api/v5/api_key/ci-bot', { token })).json().expired, true);
  await app.close();
});

test('API keys are not allowed on users, logout and api_key paths', async () => {
  const { app, key } = await withKey();
  const headers = basic(key.api_key, key.api_secret);
  const calls: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
    ['GET', '/api/v5/users'],
    ['POST', '/api/v5/users/admin/change_pwd'],
    ['DELETE', '/api/v5/users/admin'],
    ['POST', '/api/v5/logout'],
    ['GET', '/api/v5/api_key'],
    ['DELETE', '/api/v5/api_key/ci-bot'],
  ];
  for (const [method, url] of calls) {
    const res = await api(app, method, url, { headers, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
    assert.is(res.statusCode, 401, url);
    assert.is(res.json().code, 'API_KEY_NOT_ALLOW', url);
    assert.is(res.headers['www-authenticate'], 'Basic Realm="emqx-dashboard"');
  }
  await app.close();
});

test('names must match ^[A-Za-z]+[A-Za-z0-9-_]*$ and be unique', async () => {
  const { app, token } = await withKey();
  for (const name of ['1abc', 'has space', '', '-x']) {
    const res = await api(app, 'POST', '/api/v5/api_key', { token, body: { name, desc: '', enable: true } });
    assert.is(res.statusCode, 400, name);
    assert.match(res.json().message, 'name');
  }
  const dup = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'ci-bot', desc: '', enable: true } });
  assert.equal(dup.json(), { code: 'BAD_REQUEST', message: 'name_already_existed' });
  await app.close();
});

test('the 101st key is refused', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  for (let i = 0; i < 100; i++) {
    const res = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: `k${i}`, desc: '', enable: true } });
    assert.is(res.statusCode, 200);
  }
  const res = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'k100', desc: '', enable: true } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, 'Maximum number of ApiKeys reached.');
  await app.close();
});

test('unknown key names are 404 NOT_FOUND; a deleted key stops working at once', async () => {
  const { app, token, key } = await withKey();
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const res = await api(app, method, '/api/v5/api_key/nope', { token, body: method === 'PUT' ? { enable: true } : undefined });
    assert.is(res.statusCode, 404);
    assert.equal(res.json(), { code: 'NOT_FOUND', message: 'Name NOT FOUND' });
  }
  assert.is((await api(app, 'DELETE', '/api/v5/api_key/ci-bot', { token })).statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { headers: basic(key.api_key, key.api_secret) })).statusCode, 401);
  await app.close();
});

test('an invalid expired_at is a 400 naming the field', async () => {
  const { app, token } = await withKey();
  const res = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'later', desc: '', enable: true, expired_at: 'tomorrow' } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, 'expired_at');
  const rfc = await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'rfc', desc: '', enable: true, expired_at: '2030-01-01T00:00:00+00:00' } });
  assert.is(rfc.statusCode, 200);
  assert.is(new Date(rfc.json().expired_at).getTime(), Date.parse('2030-01-01T00:00:00Z'));
  await app.close();
});

test.run();
