// Namespaces on 6.x: the managed namespace list (emqx_mt_api.erl at 6.2.2) and the `ns` query
// parameter of the rule, connector, action and source routes (the `filter/2` of
// emqx_rule_engine_api.erl, emqx_connector_api.erl and emqx_bridge_v2_api.erl at 6.2.2). An object
// made with `ns` belongs to that namespace; a list with `ns` shows that namespace's, with
// `only_global=true` the global ones, and with neither every namespace's, each naming its own.
// Releases before 6.0 ignore `ns` as any undeclared query parameter.
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

let app: FastifyInstance;
let token = '';

test.before(async () => {
  app = await buildTestApp();
  token = await login(app);
});
test.after(async () => app.close());
test.after.each(async () => {
  for (const ns of (await call('GET', '/mt/managed_ns_list')).json()) await call('DELETE', `/mt/ns/${ns}`);
  for (const rule of (await call('GET', '/rules')).json().data) await call('DELETE', `/rules/${rule.id}`);
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, on: FastifyInstance = app, bearer = token) =>
  api(on, method, `/api/v5${url}`, { token: bearer, body });
const sql = 'SELECT * FROM "t/#"';
const ids = (rows: { id: string; namespace?: unknown }[]) => rows.map((r) => `${r.id}@${r.namespace}`).sort();

test('managed namespaces: create 204, a second time 400 already_exists, listed in order, delete 204 also when unknown', async () => {
  assert.is((await call('POST', '/mt/ns/tenant-b')).statusCode, 204);
  assert.is((await call('POST', '/mt/ns/tenant-a')).statusCode, 204);
  const again = await call('POST', '/mt/ns/tenant-a');
  assert.is(again.statusCode, 400);
  assert.equal(again.json(), { code: 'BAD_REQUEST', message: 'already_exists' });
  assert.equal((await call('GET', '/mt/managed_ns_list')).json(), ['tenant-a', 'tenant-b']);
  // paginated_response/4: one more than `limit` means a `link` to the next page.
  const first = await call('GET', '/mt/managed_ns_list?limit=1');
  assert.equal(first.json(), ['tenant-a']);
  assert.is(first.headers.link, '<?last_ns=tenant-a&limit=1>; rel="next"');
  assert.equal((await call('GET', '/mt/managed_ns_list?last_ns=tenant-a&limit=1')).json(), ['tenant-b']);
  assert.equal((await call('GET', '/mt/managed_ns_list?first_ns=tenant-b')).json(), ['tenant-b']);
  assert.is((await call('GET', '/mt/managed_ns_list?first_ns=a&last_ns=b')).statusCode, 400);
  assert.is((await call('DELETE', '/mt/ns/tenant-a')).statusCode, 204);
  assert.is((await call('DELETE', '/mt/ns/never-made')).statusCode, 204);
  assert.equal((await call('GET', '/mt/managed_ns_list')).json(), ['tenant-b']);
});

test('rules: made with ns belong to it; ns lists its own, only_global the global ones, neither lists all with their namespace', async () => {
  await call('POST', '/mt/ns/ns1');
  const made = await call('POST', '/rules?ns=ns1', { id: 'r1', sql });
  assert.is(made.statusCode, 201);
  assert.is(made.json().namespace, 'ns1');
  // The same id is free in the global config (emqx_rule_engine:get_rule(Namespace, Id)).
  assert.is((await call('GET', '/rules/r1')).statusCode, 404);
  const global = await call('POST', '/rules', { id: 'r1', sql, description: 'global one' });
  assert.is(global.statusCode, 201);
  assert.is(global.json().namespace, null);
  assert.equal(ids((await call('GET', '/rules?ns=ns1')).json().data), ['r1@ns1']);
  assert.equal(ids((await call('GET', '/rules?only_global=true')).json().data), ['r1@null']);
  assert.equal(ids((await call('GET', '/rules')).json().data), ['r1@ns1', 'r1@null']);
  assert.is((await call('GET', '/rules/r1?ns=ns1')).json().description, '');
  assert.is((await call('PUT', '/rules/r1?ns=ns1', { description: 'in ns1' })).json().description, 'in ns1');
  assert.is((await call('GET', '/rules/r1')).json().description, 'global one');
  assert.is((await call('DELETE', '/rules/r1?ns=ns1')).statusCode, 204);
  assert.equal(ids((await call('GET', '/rules')).json().data), ['r1@null']);
});

// emqx_dashboard_swagger.erl filter/1 at 6.2.2 composes the schema check before the module's own
// filter: a body the schema refuses is that 400 first, so the writes here send valid bodies.
test('a namespace that is not managed: 400 "Managed namespace not found" on reads and writes alike', async () => {
  const bodies: Record<string, unknown> = { '/rules': { id: 'r1', sql }, '/connectors': { type: 'http', name: 'c', url: 'http://127.0.0.1:9' } };
  for (const [method, url] of [['GET', '/rules?ns=nope'], ['GET', '/rules/r1?ns=nope'], ['POST', '/rules?ns=nope'], ['GET', '/connectors?ns=nope'],
    ['POST', '/connectors?ns=nope'], ['GET', '/actions?ns=nope'], ['DELETE', '/sources/mqtt:s?ns=nope'], ['GET', '/rules?ns=']] as const) {
    const res = await call(method, url, bodies[url.split('?')[0]]);
    assert.is(res.statusCode, 400, `${method} ${url}`);
    assert.equal(res.json(), { code: 'BAD_REQUEST', message: 'Managed namespace not found' }, `${method} ${url}`);
  }
});

test('connectors and actions: a namespace has its own, an action finds its connector in its namespace only', async () => {
  await call('POST', '/mt/ns/ns1');
  const connector = { type: 'http', name: 'c1', url: 'http://127.0.0.1:9' };
  const made = await call('POST', '/connectors?ns=ns1', connector);
  assert.is(made.statusCode, 201);
  assert.is(made.json().namespace, 'ns1');
  const action = { type: 'http', name: 'a1', connector: 'c1', parameters: { path: '/x' } };
  assert.is((await call('POST', '/actions', action)).statusCode, 400, 'no connector c1 in the global config');
  const inNs = await call('POST', '/actions?ns=ns1', action);
  assert.is(inNs.statusCode, 201);
  assert.is(inNs.json().namespace, 'ns1');
  assert.equal((await call('GET', '/connectors?only_global=true')).json(), []);
  assert.equal((await call('GET', '/connectors?ns=ns1')).json().map((c: { name: string; namespace: string }) => `${c.name}@${c.namespace}`), ['c1@ns1']);
  assert.equal((await call('GET', '/actions')).json().map((a: { name: string; namespace: string }) => `${a.name}@${a.namespace}`), ['a1@ns1']);
  assert.is((await call('GET', '/actions/http:a1')).statusCode, 404);
  assert.is((await call('GET', '/actions/http:a1?ns=ns1')).json().connector, 'c1');
  assert.is((await call('DELETE', '/actions/http:a1?ns=ns1')).statusCode, 204);
  assert.is((await call('DELETE', '/connectors/http:c1?ns=ns1')).statusCode, 204);
});

// emqx_authn_api.erl at 6.2.2: the authenticator is global, its built-in database users are kept
// per namespace (add_user/3 with the resolved namespace); a global administrator's DELETE skips
// the managed namespace check (validate_managed_namespace/2).
test('built-in database users: a namespace has its own under the global authenticator; a DELETE may name a gone namespace', async () => {
  await call('POST', '/mt/ns/ns1');
  assert.is((await call('POST', '/authentication', { mechanism: 'password_based', backend: 'built_in_database' })).statusCode, 200);
  const users = '/authentication/password_based:built_in_database/users';
  assert.is((await call('POST', `${users}?ns=ns1`, { user_id: 'alice', password: 'secret-1' })).statusCode, 201);
  assert.equal((await call('GET', users)).json().data, []);
  assert.equal((await call('GET', `${users}?ns=ns1`)).json().data, [{ user_id: 'alice', is_superuser: false }]);
  assert.is((await call('GET', `${users}/alice`)).statusCode, 404);
  assert.is((await call('PUT', `${users}/alice?ns=ns1`, { is_superuser: true })).json().is_superuser, true);
  assert.is((await call('GET', `${users}/alice?ns=ns1`)).json().is_superuser, true);
  assert.is((await call('POST', `${users}?ns=nope`, { user_id: 'bob', password: 'secret-1' })).json().message, 'Managed namespace not found');
  assert.is((await call('GET', `${users}?ns=nope`)).statusCode, 400);
  assert.is((await call('DELETE', `${users}/alice?ns=nope`)).statusCode, 404, 'no check for a DELETE: the user is simply not there');
  assert.is((await call('DELETE', `${users}/alice?ns=ns1`)).statusCode, 204);
  assert.equal((await call('GET', `${users}?ns=ns1`)).json().data, []);
  await call('DELETE', '/authentication/password_based:built_in_database');
});

test('deleting a namespace removes its objects (emqx_mt_config_janitor clean_namespace/1)', async () => {
  await call('POST', '/mt/ns/ns1');
  await call('POST', '/rules?ns=ns1', { id: 'gone', sql });
  await call('DELETE', '/mt/ns/ns1');
  assert.is((await call('GET', '/rules?ns=ns1')).statusCode, 400);
  await call('POST', '/mt/ns/ns1');
  assert.equal((await call('GET', '/rules?ns=ns1')).json().data, []);
});

test('5.5.1, 5.8.9 and 5.10.4 ignore ns (an undeclared query parameter) and answer no namespace field', async () => {
  for (const emqxVersion of ['5.5.1', '5.8.9', '5.10.4'] as const) {
    const old = await buildTestApp({ emqxVersion });
    try {
      const bearer = await login(old);
      const made = await call('POST', '/rules?ns=nope', { id: 'r1', sql }, old, bearer);
      assert.is(made.statusCode, 201, emqxVersion);
      assert.not.ok('namespace' in made.json(), emqxVersion);
      const listed = await call('GET', '/rules?ns=other', undefined, old, bearer);
      assert.equal(listed.json().data.map((r: { id: string }) => r.id), ['r1'], emqxVersion);
      assert.not.ok('namespace' in listed.json().data[0], emqxVersion);
      assert.is((await call('GET', '/connectors?ns=nope', undefined, old, bearer)).statusCode, 200, emqxVersion);
    } finally {
      await old.close();
    }
  }
});

test.run();
