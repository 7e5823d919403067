import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { parseUsers } from '../../web/features/access-control/authentication/importUsers.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { session } from '../../web/lib/session.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const builtIn = { id: 'password_based:built_in_database', mechanism: 'password_based', backend: 'built_in_database', enable: true, user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } };
const jwt = { id: 'jwt', mechanism: 'jwt', enable: true, algorithm: 'hmac-based', secret: '******', secret_base64_encoded: false, use_jwks: false, from: 'password', verify_claims: {}, acl_claim_name: 'acl', disconnect_after_expire: true };
const http = { id: 'password_based:http', mechanism: 'password_based', backend: 'http', enable: false, method: 'post', url: 'http://127.0.0.1:8080', headers: { 'content-type': 'application/json' }, body: {}, ssl: { enable: false } };
const status = (s: string, metrics = { total: 0, success: 0, failed: 0, nomatch: 0 }) => ({ body: { status: s, metrics: { ...metrics, rate: 0, rate_max: 0, rate_last5m: 0 }, node_metrics: [{ node: 'emqx@127.0.0.1', metrics }], node_status: [{ node: 'emqx@127.0.0.1', status: s }] } });
const BI = '/authentication/password_based%3Abuilt_in_database';

/** Logs in at `path`; wouter's hash location keeps the query before the hash (`/?tab=users#/…`). */
async function login(path: string) {
  await signedInAt(path);
}
const row = (id: string) => document.querySelector(`[data-test=authentication-row][data-key="${id}"]`);
const chainApi = (extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) => fakeApi({
  'GET /authentication': { body: [builtIn, jwt, http] },
  [`GET ${BI}/status`]: status('connected'),
  'GET /authentication/jwt/status': status('connected'),
  'GET /authentication/password_based%3Ahttp/status': status('disconnected'),
  'GET /alarms': alarms,
  ...extra,
});

test.after.each(() => cleanup());

/** Picks an option as a user would (change event inside act). */
async function choose(select: HTMLSelectElement | null, value: string) {
  await act(async () => {
    select!.value = value;
    select!.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

test('the chain lists authenticators in order with mechanism, backend, status and enable switch', async () => {
  await login('/authentication');
  const api = chainApi();
  await mount(<App />);
  await waitFor(() => row('password_based:http'));
  const keys = [...document.querySelectorAll('[data-test=authentication-row]')].map((r) => r.getAttribute('data-key'));
  assert.equal(keys, ['password_based:built_in_database', 'jwt', 'password_based:http']);
  const heads = [...document.querySelectorAll('[data-test=authentication-table] th')].map((th) => th.textContent);
  assert.equal(heads, ['Mechanism', 'Backend', 'Status', 'Enable', 'Actions']);
  assert.match(row('password_based:built_in_database')!.textContent!, /Password-Based.*Built-in Database.*Connected/);
  assert.match(row('password_based:http')!.textContent!, /HTTP Server.*Disabled/);
  assert.is(row('password_based:http')!.querySelector<HTMLInputElement>('[data-test=authentication-enable]')!.checked, false);
  // The first cannot move up, the last cannot move down.
  assert.not.ok(row('password_based:built_in_database')!.querySelector('[data-test=authentication-up]'));
  assert.not.ok(row('password_based:http')!.querySelector('[data-test=authentication-bottom]'));
  assert.ok(api.calls.some((c) => c.path === `${BI}/status`));
  cleanup();
  api.restore();
});

test('moves send EMQX positions: before the previous, after the next, front and rear', async () => {
  await login('/authentication');
  const api = chainApi({
    'PUT /authentication/jwt/position/before%3Apassword_based%3Abuilt_in_database': { status: 204 },
    'PUT /authentication/jwt/position/after%3Apassword_based%3Ahttp': { status: 204 },
    'PUT /authentication/password_based%3Ahttp/position/front': { status: 204 },
    'PUT /authentication/password_based%3Abuilt_in_database/position/rear': { status: 204 },
  });
  await mount(<App />);
  await waitFor(() => row('jwt'));
  await click(row('jwt')!.querySelector('[data-test=authentication-up]'));
  await click(row('jwt')!.querySelector('[data-test=authentication-down]'));
  await click(row('password_based:http')!.querySelector('[data-test=authentication-top]'));
  await click(row('password_based:built_in_database')!.querySelector('[data-test=authentication-bottom]'));
  await waitFor(() => api.calls.filter((c) => c.method === 'PUT').length === 4);
  assert.equal(api.calls.filter((c) => c.method === 'PUT').map((c) => c.path), [
    '/authentication/jwt/position/before%3Apassword_based%3Abuilt_in_database',
    '/authentication/jwt/position/after%3Apassword_based%3Ahttp',
    '/authentication/password_based%3Ahttp/position/front',
    '/authentication/password_based%3Abuilt_in_database/position/rear',
  ]);
  await waitFor(() => text().includes('Order updated'));
  cleanup();
  api.restore();
});

test('disabling asks first, then PUTs the whole config with enable false (secrets left as ******)', async () => {
  await login('/authentication');
  session.version = '5.8.9';
  const api = chainApi({ 'PUT /authentication/jwt': { status: 204 } });
  await mount(<App />);
  await waitFor(() => row('jwt'));
  await click(row('jwt')!.querySelector('[data-test=authentication-enable]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Disable the authenticator jwt?'));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'PUT'));
  await click(row('jwt')!.querySelector('[data-test=authentication-enable]'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  const { id: _id, ...config } = jwt;
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { ...config, enable: false });
  await waitFor(() => text().includes('Authenticator disabled'));
  cleanup();
  api.restore();
});

test('delete asks for confirmation and calls DELETE /authentication/{id}', async () => {
  await login('/authentication');
  const api = chainApi({ 'DELETE /authentication/password_based%3Ahttp': { status: 204 } });
  await mount(<App />);
  await waitFor(() => row('password_based:http'));
  await click(row('password_based:http')!.querySelector('[data-test=authentication-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Delete the authenticator password_based:http?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Authenticator deleted'));
  assert.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/authentication/password_based%3Ahttp'));
  cleanup();
  api.restore();
});

test('an empty chain says so; a failed load shows the error with retry', async () => {
  await login('/authentication');
  let fail = true;
  const api = fakeApi({
    'GET /authentication': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } } : { body: [] }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  assert.ok(text().includes('Failed to load'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No authenticator yet: every client may connect'));
  cleanup();
  api.restore();
});

test('the wizard creates a built-in database authenticator with sha256 and salt suffix', async () => {
  await login('/authentication/create');
  const api = fakeApi({
    'GET /authentication': { body: [jwt] },
    'POST /authentication': (call) => ({ body: { ...(call.body as object), id: 'password_based:built_in_database' } }),
    'GET /authentication/jwt/status': status('connected'),
    [`GET ${BI}/status`]: status('connected'),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  // JWT already exists: it is offered disabled.
  await waitFor(() => byTest('choice-jwt')?.querySelector<HTMLInputElement>('input')!.disabled);
  await click(byTest('wizard-next'));
  await waitFor(() => byTest('choice-built_in_database'));
  assert.ok(byTest('choice-built_in_database')!.querySelector<HTMLInputElement>('input')!.checked);
  await click(byTest('wizard-next'));
  const form = await waitFor(() => byTest('authn-config-form'));
  assert.is(form.querySelector<HTMLSelectElement>('[name="password_hash_algorithm.name"]')!.value, 'sha256');
  assert.is(form.querySelector<HTMLSelectElement>('[name="password_hash_algorithm.salt_position"]')!.value, 'suffix');
  assert.not.ok(form.querySelector('[name="password_hash_algorithm.iterations"]'), 'pbkdf2 fields hidden');
  await submit(form);
  // A new built-in database has no users: it refuses everyone, and Create asks first.
  await waitFor(() => byTest('confirm-dialog'));
  assert.match(text(), /It has no users yet, so it refuses every client/);
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, {
    mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username',
    password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' }, enable: true,
  });
  await waitFor(() => route().startsWith('/authentication?') || route() === '/authentication');
  assert.ok(text().includes('Authenticator created'));
  cleanup();
  api.restore();
});

const clients = (n: number, anonymous: number) => ({
  body: { data: Array.from({ length: n }, (_, i) => ({ clientid: `c${i}`, username: i < anonymous ? null : `user${i}`, connected: true })), meta: { page: 1, limit: 1000, count: n, hasnext: false } },
});

test('creating the first authenticator says how many connected clients without a username it will refuse, before anything is sent', async () => {
  await login('/authentication/create');
  const api = fakeApi({ 'GET /authentication': { body: [{ ...http, enable: false }] }, 'GET /clients': clients(25, 20), 'POST /authentication': { body: {} }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('choice-password_based'));
  await click(byTest('wizard-next'));
  await click(byTest('choice-mysql')!.querySelector('input'));
  await click(byTest('wizard-next'));
  const form = await waitFor(() => byTest('authn-config-form'));
  await type(form.querySelector('[name=password]'), 'dbpass');
  await submit(form);
  await waitFor(() => byTest('confirm-dialog'));
  assert.match(byTest('confirm-dialog')!.textContent!, /^20 connected clients have no username: once this is enabled, the broker refuses them when they connect again\./);
  assert.not.match(text(), /no users yet/, 'MySQL holds its own users');
  assert.is(api.calls.find((c) => c.path === '/clients')!.query.get('conn_state'), 'connected');
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'POST'), 'nothing changes without a yes');
  assert.ok(byTest('authn-config-form'), 'the form stays as it was');
  cleanup();
  api.restore();
});

test('switching on a built-in database without users warns with the count and what it means, then PUTs enable', async () => {
  await login('/authentication');
  const off = { ...builtIn, enable: false };
  const api = chainApi({
    'GET /authentication': { body: [off, { ...jwt, enable: false }] },
    [`GET ${BI}/users`]: { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } },
    'GET /clients': clients(30, 20),
    [`PUT ${BI}`]: { body: {} },
  });
  await mount(<App />);
  const toggle = () => row('password_based:built_in_database')!.querySelector<HTMLInputElement>('[data-test=authentication-enable]')!;
  await waitFor(() => row('password_based:built_in_database'));
  await act(async () => void toggle().dispatchEvent(new Event('change', { bubbles: true })));
  await waitFor(() => byTest('confirm-dialog'));
  assert.match(byTest('confirm-dialog')!.textContent!, /20 connected clients have no username.*It has no users yet, so it refuses every client/);
  assert.is(byTest('confirm-ok')!.textContent, 'Enable anyway');
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  assert.is((api.calls.find((c) => c.method === 'PUT')!.body as { enable: boolean }).enable, true);
  cleanup();
  api.restore();
});

test('the pbkdf2 hash asks for iterations and sends mac_fun, iterations and dk_length; MySQL sends its connection', async () => {
  await login('/authentication/create');
  const api = fakeApi({ 'GET /authentication': { body: [] }, 'POST /authentication': { body: {} }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('choice-password_based'));
  await click(byTest('wizard-next'));
  await click(byTest('choice-mysql')!.querySelector('input'));
  await click(byTest('wizard-next'));
  const form = await waitFor(() => byTest('authn-config-form'));
  const select = form.querySelector<HTMLSelectElement>('[name="password_hash_algorithm.name"]')!;
  await choose(select, 'pbkdf2');
  await waitFor(() => form.querySelector('[name="password_hash_algorithm.iterations"]'));
  await type(form.querySelector('[name="password_hash_algorithm.dk_length"]'), '32');
  await type(form.querySelector('[name=password]'), 'dbpass');
  await submit(form);
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  const body = api.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
  assert.equal(body.password_hash_algorithm, { name: 'pbkdf2', mac_fun: 'sha256', iterations: 4096, dk_length: 32 });
  assert.is(body.backend, 'mysql');
  assert.is(body.server, '127.0.0.1:3306');
  assert.is(body.password, 'dbpass');
  assert.is(body.query_timeout, '5s');
  assert.equal(body.ssl, { enable: false }, 'TLS details are not sent while TLS is off');
  cleanup();
  api.restore();
});

test('detail shows the counters; changing the salt position asks first, then PUTs without the id', async () => {
  await login('/authentication/detail/password_based%3Abuilt_in_database');
  const api = fakeApi({
    [`GET ${BI}`]: { body: builtIn },
    [`GET ${BI}/status`]: status('connected', { total: 7, success: 5, failed: 2, nomatch: 0 }),
    [`PUT ${BI}`]: { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('metric-success'));
  assert.match(byTest('metric-total')!.textContent!, /Total\s*7/);
  assert.match(byTest('metric-success')!.textContent!, /5/);
  assert.match(byTest('metric-failed')!.textContent!, /2/);
  assert.ok(byTest('tab-users'), 'built-in database has a users tab');
  await click(byTest('tab-settings'));
  const form = await waitFor(() => byTest('authn-settings-form'));
  const salt = form.querySelector<HTMLSelectElement>('[name="password_hash_algorithm.salt_position"]')!;
  await choose(salt, 'prefix');
  await submit(form);
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Changing the password hash or salt position makes the existing data unusable'));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'PUT'));
  await submit(form);
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  const { id: _id, ...config } = builtIn;
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { ...config, password_hash_algorithm: { name: 'sha256', salt_position: 'prefix' } });
  cleanup();
  api.restore();
});

test('users tab: server-side fuzzy search and superuser filter, add and edit with the exact bodies', async () => {
  await login('/authentication/detail/password_based%3Abuilt_in_database?tab=users');
  let users = [{ user_id: 'alice', is_superuser: false }];
  const api = fakeApi({
    [`GET ${BI}`]: { body: builtIn },
    [`GET ${BI}/users`]: () => ({ body: { data: users, meta: { page: 1, limit: 20, count: users.length, hasnext: false } } }),
    [`POST ${BI}/users`]: (call) => ((users = [...users, { user_id: 'bob', is_superuser: true }]), { status: 201, body: call.body }),
    [`PUT ${BI}/users/alice`]: { body: { user_id: 'alice', is_superuser: true } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => document.querySelector('[data-test=authn-users-row][data-key=alice]'));
  await type(document.querySelector('form.filters [name=like_user_id]'), 'ali');
  await submit(document.querySelector('form.filters'));
  await waitFor(() => api.calls.some((c) => c.path === `${BI}/users` && c.query.get('like_user_id') === 'ali'));
  await click(byTest('authn-users-create'));
  const form = byTest('authn-users-create-form')!.querySelector('form')!;
  await submit(form);
  assert.ok(text().includes('Password is required'));
  await type(form.querySelector('[name=user_id]'), 'bob');
  await type(form.querySelector('[name=password]'), 'secret1');
  await click(form.querySelector('[name=is_superuser]'));
  await submit(form);
  await waitFor(() => document.querySelector('[data-test=authn-users-row][data-key=bob]'));
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, { user_id: 'bob', password: 'secret1', is_superuser: true });
  assert.ok(text().includes('User created'));
  await click(document.querySelector('[data-test=authn-users-row][data-key=alice] [data-test=authn-users-edit]'));
  const edit = byTest('authn-users-edit-form')!.querySelector('form')!;
  await click(edit.querySelector('[name=is_superuser]'));
  await submit(edit);
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { is_superuser: true }, 'an empty password is not sent');
  cleanup();
  api.restore();
});

test('import files: CSV and JSON are read into users; a wrong header or broken JSON is refused', () => {
  assert.equal(parseUsers('u.csv', 'user_id,password,is_superuser\nu1,p1,true\nu2,p2,false\n', 'plain'), [
    { user_id: 'u1', password: 'p1', is_superuser: true }, { user_id: 'u2', password: 'p2', is_superuser: false },
  ]);
  assert.equal(parseUsers('u.json', '[{"user_id":"u1","password_hash":"h","salt":"s","is_superuser":false}]', 'hash')[0].password_hash, 'h');
  assert.throws(() => parseUsers('u.csv', 'name,pass\nu1,p1', 'plain'), /The CSV header must be user_id,password,is_superuser/);
  assert.throws(() => parseUsers('u.json', '[{"user_id":', 'plain'), /The file cannot be read/);
  assert.throws(() => parseUsers('u.csv', 'user_id,password,is_superuser\nu1,p1', 'plain'), /line 2/);
});

test('in Chinese the chain and the wizard speak Chinese', async () => {
  await login('/authentication');
  setLocale('zh');
  const api = chainApi();
  await mount(<App />);
  await waitFor(() => row('jwt'));
  assert.ok(text().includes('客户端认证'));
  assert.match(row('password_based:built_in_database')!.textContent!, /密码认证.*内置数据库.*已连接/);
  assert.ok(text().includes('上移') || text().includes('下移'));
  setLocale('en');
  cleanup();
  api.restore();
});

test.run();
