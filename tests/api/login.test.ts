// POST /login and /logout, tokens and brute-force protection (security.md S1, S2, S4, S5).
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login, manualClock } from '../helpers/simulator.ts';

const MINUTE = 60_000;

test('a correct login returns a token, the broker version and the edition', async () => {
  const app = await buildTestApp({ emqxVersion: '5.5.1' });
  const res = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
  assert.is(res.statusCode, 200);
  const body = res.json();
  assert.type(body.token, 'string');
  assert.is(body.version, '5.5.1');
  // 5.5.1 Enterprise: emqx_dashboard_api.erl login/2 also sends the role.
  assert.equal(body.license, { edition: 'ee' });
  assert.is(body.role, 'administrator');
  await app.close();
});

test('a wrong password and an unknown user get the same 401 body (S1)', async () => {
  const app = await buildTestApp();
  const wrongPassword = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'nope' } });
  const unknownUser = await api(app, 'POST', '/api/v5/login', { body: { username: 'ghost', password: 'public' } });
  assert.is(wrongPassword.statusCode, 401);
  assert.is(unknownUser.statusCode, 401);
  assert.equal(wrongPassword.json(), { code: 'BAD_USERNAME_OR_PWD', message: 'Auth failed' });
  assert.equal(unknownUser.json(), wrongPassword.json());
  await app.close();
});

test('a login without a password is a 400 that names the field', async () => {
  const app = await buildTestApp();
  const res = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin' } });
  assert.is(res.statusCode, 400);
  assert.is(res.json().code, 'BAD_REQUEST');
  assert.match(res.json().message, 'password');
  await app.close();
});

test('every login issues a new random token of at least 128 bits (S5)', async () => {
  const app = await buildTestApp();
  const a = await login(app);
  const b = await login(app);
  assert.is.not(a, b);
  assert.ok(Buffer.from(a, 'base64url').length >= 16);
  await app.close();
});

test('five failures lock the user for the lock period even with the right password (S2)', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock });
  for (let i = 0; i < 5; i++) {
    const res = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: `wrong${i}` } });
    assert.is(res.json().code, 'BAD_USERNAME_OR_PWD');
  }
  const locked = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
  assert.is(locked.statusCode, 401);
  assert.equal(locked.json(), { code: 'LOGIN_LOCKED', message: 'Login locked' });
  clock.advance(9 * MINUTE);
  const stillLocked = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
  assert.is(stillLocked.json().code, 'LOGIN_LOCKED');
  clock.advance(1 * MINUTE + 1);
  assert.type(await login(app), 'string');
  await app.close();
});

test('failures spread beyond the window do not lock, and a success resets the count (S2)', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock });
  const fail = () => api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'bad' } });
  for (let i = 0; i < 4; i++) await fail();
  clock.advance(5 * MINUTE + 1);
  for (let i = 0; i < 4; i++) await fail();
  await login(app);
  for (let i = 0; i < 4; i++) await fail();
  assert.type(await login(app), 'string');
  await app.close();
});

test('unknown usernames lock like real ones, so a lock does not reveal who exists (S2)', async () => {
  const app = await buildTestApp();
  for (let i = 0; i < 5; i++) await api(app, 'POST', '/api/v5/login', { body: { username: 'ghost', password: 'x' } });
  const res = await api(app, 'POST', '/api/v5/login', { body: { username: 'ghost', password: 'x' } });
  assert.is(res.json().code, 'LOGIN_LOCKED');
  await app.close();
});

test('one IP over the login rate limit gets 429 without locking other users (S2)', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, loginRateLimit: { max: 6, windowMs: MINUTE } });
  for (let i = 0; i < 6; i++) {
    await api(app, 'POST', '/api/v5/login', { body: { username: `user${i}`, password: 'x' } });
  }
  const limited = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
  assert.is(limited.statusCode, 429);
  assert.is(limited.json().code, 'TOO_MANY_REQUESTS');
  assert.ok(Number(limited.headers['retry-after']) > 0);
  clock.advance(MINUTE);
  assert.type(await login(app), 'string');
  await app.close();
});

test('a token expires after the idle time with TOKEN_TIME_OUT (S5)', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, tokenIdleMs: 10 * MINUTE });
  const token = await login(app);
  clock.advance(10 * MINUTE + 1);
  const res = await api(app, 'GET', '/api/v5/nodes', { token });
  assert.is(res.statusCode, 401);
  assert.equal(res.json(), { code: 'TOKEN_TIME_OUT', message: 'Token expired, get new token by POST /login' });
  await app.close();
});

test('each verified request slides the idle expiry forward (S5)', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, tokenIdleMs: 10 * MINUTE });
  const token = await login(app);
  for (let i = 0; i < 5; i++) {
    clock.advance(9 * MINUTE);
    assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).statusCode, 200);
  }
  await app.close();
});

test('a token dies at its absolute lifetime however busy it is (S5)', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, tokenIdleMs: 10 * MINUTE, tokenMaxMs: 30 * MINUTE });
  const token = await login(app);
  for (let i = 0; i < 3; i++) {
    clock.advance(9 * MINUTE);
    assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).statusCode, 200);
  }
  clock.advance(4 * MINUTE);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).json().code, 'TOKEN_TIME_OUT');
  await app.close();
});

test('an unknown token is BAD_TOKEN and a missing header AUTHORIZATION_HEADER_ERROR', async () => {
  const app = await buildTestApp();
  const bad = await api(app, 'GET', '/api/v5/nodes', { token: 'not-a-token' });
  assert.is(bad.statusCode, 401);
  assert.equal(bad.json(), { code: 'BAD_TOKEN', message: 'Get a token by POST /login' });
  const missing = await api(app, 'GET', '/api/v5/nodes');
  assert.is(missing.statusCode, 401);
  assert.is(missing.json().code, 'AUTHORIZATION_HEADER_ERROR');
  assert.ok(missing.headers['www-authenticate']);
  await app.close();
});

test('logout answers 204 and the old token is refused afterwards (S5)', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const other = await login(app);
  const res = await api(app, 'POST', '/api/v5/logout', { token, body: { username: 'admin' } });
  assert.is(res.statusCode, 204);
  assert.is(res.body, '');
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).json().code, 'BAD_TOKEN');
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token: other })).json().code, 'BAD_TOKEN');
  await app.close();
});

test('logout with a username the token does not belong to is WRONG_TOKEN_OR_USERNAME', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const res = await api(app, 'POST', '/api/v5/logout', { token, body: { username: 'someone' } });
  assert.is(res.statusCode, 401);
  assert.equal(res.json(), { code: 'WRONG_TOKEN_OR_USERNAME', message: 'Ensure your token & username' });
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).statusCode, 200);
  await app.close();
});

test('no password, hash or token ever appears in a log line (S4)', async () => {
  let logs = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  const app = await buildTestApp({ logger: { level: 'trace', stream } });
  const marker = 'Marker-Pass-7391';
  await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: marker } });
  const token = await login(app);
  await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: marker, description: '' } });
  await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op2', password: 'short' } });
  await api(app, 'POST', '/api/v5/users/op/change_pwd', { token, body: { old_pwd: marker, new_pwd: `${marker}x` } });
  await api(app, 'POST', '/api/v5/login', { body: { username: 'op', password: `${marker}x` } });
  await api(app, 'GET', '/api/v5/users', { token });
  await app.close();
  assert.ok(logs.includes('incoming request'), 'the logger captured request logs');
  assert.not.ok(logs.includes(marker), 'password in logs');
  assert.not.ok(logs.includes(token), 'token in logs');
  assert.not.ok(logs.includes('scrypt$'), 'hash in logs');
  assert.not.ok(logs.includes('short'), 'rejected password in logs');
});

test.run();
