// Dashboard users: list, create, describe, delete, change password; the password rule (S3) and
// token invalidation on password change and deletion (S5).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const GOOD = 'Secret-pass1';

async function withAdmin(options: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp(options);
  return { app, token: await login(app) };
}

test('the default admin exists with description administrator and no password field', async () => {
  const { app, token } = await withAdmin({ emqxVersion: '5.8.9' });
  const res = await api(app, 'GET', '/api/v5/users', { token });
  assert.is(res.statusCode, 200);
  // Enterprise shows the RBAC role and the login backend.
  assert.equal(res.json(), [{ username: 'admin', role: 'administrator', description: 'administrator', backend: 'local' }]);
  await app.close();
  // 6.2.2 adds the user's MFA state and scopes (emqx_dashboard_api.erl at 6.2.2).
  const six = await withAdmin({ emqxVersion: '6.2.2' });
  const [admin] = (await api(six.app, 'GET', '/api/v5/users', { token: six.token })).json();
  assert.equal({ ...admin, scopes: undefined }, { username: 'admin', role: 'administrator', description: 'administrator', backend: 'local', mfa: 'none', scopes: undefined });
  assert.ok(admin.scopes.includes('user_management'), JSON.stringify(admin.scopes));
  await six.app.close();
  // Community: emqx_dashboard_api.erl filter_result/1 drops both.
  const ce = await withAdmin({ emqxVersion: '5.5.1', edition: 'ce' });
  assert.equal((await api(ce.app, 'GET', '/api/v5/users', { token: ce.token })).json(), [{ username: 'admin', description: 'administrator' }]);
  await ce.app.close();
});

test('creating a user answers 200 with username and description only', async () => {
  const { app, token } = await withAdmin({ emqxVersion: '5.5.1', edition: 'ce' });
  const res = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'ops_1', password: GOOD, description: 'night shift' } });
  assert.is(res.statusCode, 200);
  assert.equal(res.json(), { username: 'ops_1', description: 'night shift' });
  assert.not.ok(res.body.includes(GOOD));
  assert.type(await login(app, 'ops_1', GOOD), 'string');
  await app.close();
});

test('a duplicate username is 400 username_already_exists', async () => {
  const { app, token } = await withAdmin();
  const res = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'admin', password: GOOD } });
  assert.is(res.statusCode, 400);
  assert.equal(res.json(), { code: 'BAD_REQUEST', message: 'username_already_exists' });
  await app.close();
});

test('usernames outside ^[_a-zA-Z0-9]*$ or longer than 100 are refused naming the field', async () => {
  const { app, token } = await withAdmin();
  for (const username of ['bad name', 'ünï', 'a-b', '', 'x'.repeat(101)]) {
    const res = await api(app, 'POST', '/api/v5/users', { token, body: { username, password: GOOD } });
    assert.is(res.statusCode, 400, username);
    assert.is(res.json().code, 'BAD_REQUEST');
    assert.match(res.json().message, 'username');
  }
  await app.close();
});

// S3: the password rule of the specification, on create and on change.
const PASSWORDS: Array<[string, boolean]> = [
  ['abcdefgh', false], // letters only
  ['12345678', false], // digits only
  ['!@#$%^&*', false], // symbols only
  ['abc123', false], // too short
  ['a1' + 'x'.repeat(63), false], // 65 characters
  ['pässwörd1', false], // not ASCII
  ['tab\tchar1', false], // not printable
  ['abcdefg1', true],
  ['abcdefg!', true],
  ['1234567!', true],
  ['pass word', true], // space counts as a symbol
  ['a1' + 'x'.repeat(62), true], // exactly 64
];

test('the password rule is enforced on create (S3)', async () => {
  const { app, token } = await withAdmin();
  let n = 0;
  for (const [password, ok] of PASSWORDS) {
    const res = await api(app, 'POST', '/api/v5/users', { token, body: { username: `u${n++}`, password } });
    assert.is(res.statusCode, ok ? 200 : 400, JSON.stringify(password));
    if (!ok) assert.is(res.json().code, 'BAD_REQUEST');
  }
  await app.close();
});

test('the password rule is enforced on change, and the old password is required (S3)', async () => {
  const { app, token } = await withAdmin();
  await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: GOOD } });
  let current = GOOD;
  for (const [password, ok] of PASSWORDS) {
    const res = await api(app, 'POST', '/api/v5/users/op/change_pwd', { token, body: { old_pwd: current, new_pwd: password } });
    assert.is(res.statusCode, ok ? 204 : 400, JSON.stringify(password));
    if (ok) current = password;
  }
  const wrongOld = await api(app, 'POST', '/api/v5/users/op/change_pwd', { token, body: { old_pwd: 'Not-the-old1', new_pwd: GOOD } });
  assert.equal(wrongOld.json(), { code: 'ERROR_PWD_NOT_MATCH', message: 'Old password not match' });
  const same = await api(app, 'POST', '/api/v5/users/op/change_pwd', { token, body: { old_pwd: current, new_pwd: current } });
  assert.equal(same.json(), { code: 'BAD_REQUEST', message: 'The new and old passwords cannot be the same' });
  const unknown = await api(app, 'POST', '/api/v5/users/nobody/change_pwd', { token, body: { old_pwd: GOOD, new_pwd: 'Other-pass2' } });
  assert.is(unknown.statusCode, 404);
  assert.is(unknown.json().code, 'USER_NOT_FOUND');
  await app.close();
});

test('the default password public may stay, but changing to it again follows the rule', async () => {
  const { app, token } = await withAdmin();
  const res = await api(app, 'POST', '/api/v5/users/admin/change_pwd', { token, body: { old_pwd: 'public', new_pwd: 'public2' } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, '8~64');
  await app.close();
});

test('a password change revokes the user\'s tokens; the new password logs in, the old does not (S5)', async () => {
  const { app, token } = await withAdmin();
  const res = await api(app, 'POST', '/api/v5/users/admin/change_pwd', { token, body: { old_pwd: 'public', new_pwd: GOOD } });
  assert.is(res.statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token })).json().code, 'BAD_TOKEN');
  const old = await api(app, 'POST', '/api/v5/login', { body: { username: 'admin', password: 'public' } });
  assert.is(old.statusCode, 401);
  assert.type(await login(app, 'admin', GOOD), 'string');
  await app.close();
});

test('updating a description answers the user; an unknown user is 404 USER_NOT_FOUND', async () => {
  const { app, token } = await withAdmin({ emqxVersion: '5.5.1', edition: 'ce' });
  const res = await api(app, 'PUT', '/api/v5/users/admin', { token, body: { description: 'root of all' } });
  assert.equal(res.json(), { username: 'admin', description: 'root of all' });
  const missing = await api(app, 'PUT', '/api/v5/users/nobody', { token, body: { description: 'x' } });
  assert.is(missing.statusCode, 404);
  assert.equal(missing.json(), { code: 'USER_NOT_FOUND', message: 'username_not_found' });
  await app.close();
});

test('admin and oneself cannot be deleted; unknown users are 404', async () => {
  const { app, token } = await withAdmin({ emqxVersion: '5.8.9' });
  const admin = await api(app, 'DELETE', '/api/v5/users/admin', { token });
  assert.is(admin.statusCode, 400);
  assert.equal(admin.json(), { code: 'NOT_ALLOWED', message: 'Cannot delete user <<"admin">>' });
  // 6.2.2 words it anew (emqx_dashboard_api.erl at 6.2.2, delete of the default administrator).
  const six = await withAdmin({ emqxVersion: '6.2.2' });
  assert.equal((await api(six.app, 'DELETE', '/api/v5/users/admin', { token: six.token })).json(), { code: 'NOT_ALLOWED', message: 'The default administrator user cannot be deleted.' });
  await six.app.close();
  await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: GOOD } });
  const opToken = await login(app, 'op', GOOD);
  const self = await api(app, 'DELETE', '/api/v5/users/op', { token: opToken });
  assert.equal(self.json(), { code: 'NOT_ALLOWED', message: 'Cannot delete self' });
  const unknown = await api(app, 'DELETE', '/api/v5/users/nobody', { token });
  assert.is(unknown.statusCode, 404);
  // emqx_dashboard_admin.erl remove_user/1 aborts with <<"username_not_found">> (v5.5.1, e5.8.9).
  assert.equal(unknown.json(), { code: 'USER_NOT_FOUND', message: 'username_not_found' });
  const pwd = await api(app, 'POST', '/api/v5/users/nobody/change_pwd', { token, body: { old_pwd: 'a-Very-good-1', new_pwd: 'another-Good-2' } });
  // change_pwd/2 says it in its own words.
  assert.equal([pwd.statusCode, pwd.json()], [404, { code: 'USER_NOT_FOUND', message: 'User not found' }]);
  await app.close();
});

test('deleting a user answers 204 and kills that user\'s tokens at once (S5)', async () => {
  const { app, token } = await withAdmin();
  await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: GOOD } });
  const opToken = await login(app, 'op', GOOD);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token: opToken })).statusCode, 200);
  const res = await api(app, 'DELETE', '/api/v5/users/op', { token });
  assert.is(res.statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/nodes', { token: opToken })).statusCode, 401);
  assert.equal((await api(app, 'GET', '/api/v5/users', { token })).json().map((u: { username: string }) => u.username), ['admin']);
  await app.close();
});

test('unknown body fields are refused naming the field, never stored or echoed', async () => {
  // hocon's unknown_fields check: 400 BAD_REQUEST; on Community `role` is unknown too.
  for (const edition of ['ee', 'ce'] as const) {
    const { app, token } = await withAdmin({ emqxVersion: '5.5.1', edition });
    const res = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: GOOD, password_hash: 'x' } });
    assert.is(res.statusCode, 400);
    assert.is(res.json().code, 'BAD_REQUEST');
    assert.match(res.json().message, 'password_hash');
    assert.not.match(res.body, GOOD);
    const role = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: GOOD, role: 'viewer' } });
    assert.is(role.statusCode, edition === 'ee' ? 200 : 400, edition);
    if (edition === 'ce') assert.match(role.json().message, 'unknown_fields');
    assert.equal((await api(app, 'GET', '/api/v5/users', { token })).json().map((u: { username: string }) => u.username), edition === 'ee' ? ['admin', 'op'] : ['admin']);
    await app.close();
  }
});

test.run();
