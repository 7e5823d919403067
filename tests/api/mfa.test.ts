// Dashboard MFA (TOTP) from 5.9 (issue #31 acceptance 6), password expiry and the login lock as
// emqx_dashboard_api.erl, emqx_dashboard_admin.erl and emqx_dashboard_mfa.erl answer at e5.10.4
// and 6.2.2. The codes come from the tests' own TOTP (helpers/totp.ts), not the simulator's lib/totp.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { api, buildTestApp, login, manualClock } from '../helpers/simulator.ts';
import { code, fromBase32 } from '../helpers/totp.ts';

const post = (app: FastifyInstance, body: Record<string, unknown>) => api(app, 'POST', '/api/v5/login', { body });

test('the test TOTP gives RFC 6238 Appendix B codes, so it is a fair judge', async () => {
  const key = new TextEncoder().encode('12345678901234567890');
  assert.is(await code(key, 59_000, 8), '94287082');
  assert.is(await code(key, 1111111109_000, 8), '07081804');
  assert.is(await code(key, 20000000000_000, 8), '65353130');
  assert.equal(fromBase32('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'), key);
});

for (const version of ['5.10.4', '6.2.2'] as const) {
  test(`${version}: enable TOTP, log out, log in with an independently computed code; a wrong code is BAD_MFA_TOKEN`, async () => {
    const clock = manualClock();
    const app = await buildTestApp({ emqxVersion: version, clock });
    const token = await login(app);
    // emqx_dashboard_api.erl change_mfa/2: 204, and reinit_mfa/3 ends every token of the user.
    const enable = await api(app, 'POST', '/api/v5/users/admin/mfa', { token, body: { mechanism: 'totp' } });
    assert.is(enable.statusCode, 204);
    assert.is((await api(app, 'GET', '/api/v5/users', { token })).statusCode, 401);

    // The first password-only login hands out the setup secret (make_token_missing_error/1).
    const setup = await post(app, { username: 'admin', password: 'public' });
    assert.is(setup.statusCode, 401);
    const prompt = setup.json();
    assert.is(prompt.code, 'BAD_MFA_TOKEN');
    assert.is(prompt.message.mechanism, 'totp');
    assert.is(prompt.message.error, 'missing_mfa_token');
    assert.match(prompt.message.secret, /^[A-Z2-7]{32}$/);
    const key = fromBase32(prompt.message.secret);

    const first = await post(app, { username: 'admin', password: 'public', mfa_token: await code(key, clock.now()) });
    assert.is(first.statusCode, 200, first.body);
    const session = first.json().token;
    // The secret never leaves in the user list, only the state does.
    const users = (await api(app, 'GET', '/api/v5/users', { token: session })).json();
    assert.is(users[0].mfa, 'totp');
    assert.not.match(JSON.stringify(users), prompt.message.secret);
    assert.is((await api(app, 'POST', '/api/v5/logout', { token: session, body: { username: 'admin' } })).statusCode, 204);

    // Once a code was verified, a login without one gets no secret again.
    clock.advance(60_000);
    const missing = await post(app, { username: 'admin', password: 'public' });
    assert.equal(missing.json(), { code: 'BAD_MFA_TOKEN', message: { mechanism: 'totp', error: 'missing_mfa_token' } });
    const right = await code(key, clock.now());
    const wrong = right === '000000' ? '000001' : '000000';
    const refused = await post(app, { username: 'admin', password: 'public', mfa_token: wrong });
    assert.is(refused.statusCode, 401);
    assert.equal(refused.json(), { code: 'BAD_MFA_TOKEN', message: { mechanism: 'totp', error: 'bad_mfa_token' } });
    // Last step's code is over: pot's window is 0 (emqx_dashboard_mfa.erl verify_totp/2).
    const stale = await post(app, { username: 'admin', password: 'public', mfa_token: await code(key, clock.now() - 30_000) });
    assert.is(stale.json().code, 'BAD_MFA_TOKEN');
    const again = await post(app, { username: 'admin', password: 'public', mfa_token: right });
    assert.is(again.statusCode, 200, again.body);
    assert.type(again.json().token, 'string');
    await app.close();
  });
}

test('6.2.2: a wrong password with a right code is BAD_USERNAME_OR_PWD and counts toward the lock; MFA errors do not', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock });
  await api(app, 'POST', '/api/v5/users/admin/mfa', { token: await login(app), body: { mechanism: 'totp' } });
  const key = fromBase32((await post(app, { username: 'admin', password: 'public' })).json().message.secret);
  assert.is((await post(app, { username: 'admin', password: 'public', mfa_token: await code(key, clock.now()) })).statusCode, 200);
  // register_unsuccessful_login/2 counts only <<"password_error">>: ten wrong codes lock nothing.
  for (let i = 0; i < 10; i++) assert.is((await post(app, { username: 'admin', password: 'public', mfa_token: 'x' })).json().code, 'BAD_MFA_TOKEN');
  for (let i = 0; i < 5; i++) {
    const res = await post(app, { username: 'admin', password: `wrong${i}`, mfa_token: await code(key, clock.now()) });
    assert.equal(res.json(), { code: 'BAD_USERNAME_OR_PWD', message: 'Auth failed' });
  }
  // emqx_dashboard_api.erl format_login_failed_error/1: the lock is checked before anything else.
  const locked = await post(app, { username: 'admin', password: 'public', mfa_token: await code(key, clock.now()) });
  assert.is(locked.statusCode, 401);
  assert.equal(locked.json(), { code: 'LOGIN_LOCKED', message: 'Login locked' });
  await app.close();
});

test('6.2.2: with dashboard.password_expired_time the login says how many seconds the password has left', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock });
  assert.is((await post(app, { username: 'admin', password: 'public' })).json().password_expire_in_seconds, undefined);
  // Set in the stored root: /configs/dashboard still answers the 5.5 tree, which lacks the field.
  (app.store.state as { config_roots?: Record<string, unknown> }).config_roots = { dashboard: { password_expired_time: '1d' } };
  // verify_password_expiration/2: the first login starts the clock and gets the whole duration.
  assert.is((await post(app, { username: 'admin', password: 'public' })).json().password_expire_in_seconds, 86_400);
  clock.advance(3_600_000);
  assert.is((await post(app, { username: 'admin', password: 'public' })).json().password_expire_in_seconds, 82_800);
  // Past the end it goes negative and the login still succeeds.
  clock.advance(2 * 86_400_000);
  const late = await post(app, { username: 'admin', password: 'public' });
  assert.is(late.statusCode, 200);
  assert.is(late.json().password_expire_in_seconds, 82_800 - 2 * 86_400);
  await app.close();
});

test('5.8.9 knows no MFA: mfa_token is an unknown field and /users/{u}/mfa does not exist', async () => {
  const app = await buildTestApp({ emqxVersion: '5.8.9' });
  const res = await post(app, { username: 'admin', password: 'public', mfa_token: '123456' });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, 'mfa_token');
  const mfa = await api(app, 'POST', '/api/v5/users/admin/mfa', { token: await login(app), body: { mechanism: 'totp' } });
  assert.is(mfa.statusCode, 404);
  await app.close();
});

test.run();
