// Schema Registry screens: the list (loading, empty, error with retry, delete with confirmation and
// the server's refusal), create with the compile error at its line, edit, the try-it panel's exact
// POST /rule_test requests, a missing schema, and the external registries tab.
import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { session } from '../../web/lib/session.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const PROTO = 'syntax = "proto3";\npackage demo;\nmessage Person {\n  string name = 1;\n  int32 age = 2;\n}\n';
const schemas = [
  { name: 'people', type: 'protobuf', source: PROTO, description: 'persons <b>x</b>' },
  { name: 'readings', type: 'avro', source: '{"type":"int"}', description: '' },
];

/** Logs in at `path`; wouter's hash location keeps the query before the hash (`/?tab=x#/…`). */
async function login(path: string) {
  await signedInAt(path);
  Object.assign(session, { version: '5.8.9', edition: 'ee' });
}

async function choose(el: Element | null, value: string) {
  if (!el) throw new Error('no select');
  await act(async () => {
    (el as HTMLSelectElement).value = value;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const row = (name: string) => document.querySelector(`[data-test=schema_registry-row][data-key="${name}"]`);

test.after.each(() => cleanup());

test('the list shows name, type and description as text; loading, then error with retry, then empty', async () => {
  await login('/schema-registry');
  let reply: { status?: number; body?: unknown; delay?: number } = { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' }, delay: 30 };
  const api = fakeApi({ 'GET /schema_registry': () => reply, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => document.querySelector('[aria-busy=true]'));
  await waitFor(() => byTest('state-retry'));
  reply = { body: [] };
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No schemas yet'));
  reply = { body: schemas };
  api.restore();
  const api2 = fakeApi({ 'GET /schema_registry': () => reply, 'GET /alarms': alarms });
  cleanup();
  await login('/schema-registry');
  await mount(<App />);
  await waitFor(() => row('readings'));
  assert.ok(row('people')!.textContent!.includes('Protobuf'));
  assert.ok(row('readings')!.textContent!.includes('Avro'));
  assert.ok(row('people')!.textContent!.includes('persons <b>x</b>'));
  assert.is(row('people')!.querySelector('b'), null);
  assert.ok(api.calls.every((c) => c.path === '/schema_registry' || c.path === '/alarms'));
  assert.equal(api2.calls.filter((c) => c.path === '/schema_registry').map((c) => c.method), ['GET']);
  api2.restore();
});

test('delete asks first; a refusal names the rules; a success toasts and reloads', async () => {
  await login('/schema-registry');
  let list = schemas;
  let refuse = true;
  const api = fakeApi({
    'GET /schema_registry': () => ({ body: list }),
    'DELETE /schema_registry/people': () => (refuse
      ? { status: 400, body: { code: 'BAD_REQUEST', message: 'Schema is used by rules: r1' } }
      : ((list = schemas.slice(1)), { status: 204 })),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('people'));
  await click(row('people')!.querySelector('[data-test=schema_registry-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Delete schema people?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Schema is used by rules: r1'));
  assert.ok(row('people'));
  refuse = false;
  await click(row('people')!.querySelector('[data-test=schema_registry-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row('people'));
  assert.ok(text().includes('Schema deleted'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/schema_registry/people', '/schema_registry/people']);
  api.restore();
});

test('create: a compile error is shown at its line; then POST with the exact body and go to the detail', async () => {
  await login('/schema-registry/create');
  let posted = 0;
  const api = fakeApi({
    'POST /schema_registry': () => (++posted === 1
      ? { status: 400, body: { code: 'BAD_REQUEST', message: "{failed_to_build_serde, protobuf: illegal token '}', ';' expected (line 4)}" } }
      : { status: 201, body: { name: 'p2', type: 'protobuf', source: PROTO, description: 'd' } }),
    'GET /schema_registry/p2': { body: { name: 'p2', type: 'protobuf', source: PROTO, description: 'd' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('schema-form'));
  assert.ok(byTest('schema-try-later'));
  await submit(byTest('schema-form'));
  assert.ok(text().includes('Name is required'));
  assert.is(api.calls.filter((c) => c.method === 'POST').length, 0);
  await type(byTest('schema-name'), 'p2');
  await choose(byTest('schema-type'), 'protobuf');
  assert.match((byTest('schema-source-input') as HTMLTextAreaElement).value, 'message Person', 'the sample follows the type');
  await type(byTest('schema-description'), 'd');
  await type(byTest('schema-source-input'), PROTO);
  await submit(byTest('schema-form'));
  await waitFor(() => byTest('schema-error'));
  assert.ok(byTest('schema-error')!.textContent!.includes('Schema compilation failed · Line 4'));
  assert.ok(byTest('schema-error')!.textContent!.includes("illegal token '}'"));
  const marked = document.querySelector('.code-gutter li.code-error-line');
  assert.is(marked?.textContent, '4');
  await submit(byTest('schema-form'));
  await waitFor(() => route() === '/schema-registry/detail/p2');
  assert.equal(api.calls.filter((c) => c.method === 'POST').map((c) => c.body), [
    { name: 'p2', type: 'protobuf', source: PROTO, description: 'd' },
    { name: 'p2', type: 'protobuf', source: PROTO, description: 'd' },
  ]);
  await waitFor(() => text().includes('Schema created'));
  api.restore();
});

test('edit: PUT without the name; try-it decodes hex and encodes JSON through POST /rule_test', async () => {
  await login('/schema-registry/detail/people');
  const api = fakeApi({
    'GET /schema_registry/people': { body: schemas[0] },
    'PUT /schema_registry/people': { body: schemas[0] },
    'POST /rule_test': (call) => ((call.body as { sql: string }).sql.includes('schema_decode')
      ? { body: { result: { name: 'Ann', age: 200 } } }
      : { body: { result: '0A03416E6E10C801' } }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('schema-form'));
  assert.is((byTest('schema-name') as HTMLInputElement).disabled, true);
  await type(byTest('schema-description'), 'people v2');
  await submit(byTest('schema-form'));
  await waitFor(() => text().includes('Schema updated'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { type: 'protobuf', source: PROTO, description: 'people v2' });

  assert.ok((byTest('try-run') as HTMLButtonElement).disabled, 'no payload and no message type yet');
  await type(byTest('try-message-type'), 'demo.Person');
  await type(byTest('try-payload'), '0a 03 41 6e 6e 10 c8 01');
  await submit(byTest('schema-try')!.querySelector('form'));
  await waitFor(() => byTest('try-result'));
  assert.equal(JSON.parse(byTest('try-result-text')!.textContent!), { name: 'Ann', age: 200 });
  await choose(byTest('try-mode'), 'encode');
  await type(byTest('try-payload'), '{"name":"Ann","age":200}');
  await submit(byTest('schema-try')!.querySelector('form'));
  await waitFor(() => byTest('try-result-base64'));
  assert.is(byTest('try-result-text')!.textContent, '0A03416E6E10C801');
  assert.is(byTest('try-result-base64')!.textContent, 'CgNBbm4QyAE=');
  assert.equal(api.calls.filter((c) => c.path === '/rule_test').map((c) => c.body), [
    { sql: `SELECT schema_decode('people', hexstr2bin(payload), 'demo.Person') AS result FROM "t/#"`, context: { event_type: 'message_publish', topic: 't/1', payload: '0a03416e6e10c801' } },
    { sql: `SELECT bin2hexstr(schema_encode('people', json_decode(payload), 'demo.Person')) AS result FROM "t/#"`, context: { event_type: 'message_publish', topic: 't/1', payload: '{"name":"Ann","age":200}' } },
  ]);
  api.restore();
});

test('try-it shows the rule tester error; a missing schema says so and links back to the list', async () => {
  await login('/schema-registry/detail/readings');
  const api = fakeApi({
    'GET /schema_registry/readings': { body: schemas[1] },
    'POST /rule_test': { status: 400, body: { code: 'BAD_REQUEST', message: '{select_and_transform_error, {decode_failure, truncated buffer}}' } },
    'GET /schema_registry/gone': { status: 404, body: { code: 'NOT_FOUND', message: 'Schema not found' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('schema-try'));
  assert.not.ok(byTest('try-message-type'), 'only Protobuf asks for a message type');
  await choose(byTest('try-format'), 'base64');
  await type(byTest('try-payload'), 'AAE=');
  await submit(byTest('schema-try')!.querySelector('form'));
  await waitFor(() => byTest('try-result'));
  assert.ok(byTest('try-result-text')!.textContent!.includes('decode_failure, truncated buffer'));
  assert.equal(api.calls.find((c) => c.path === '/rule_test')!.body, {
    sql: `SELECT schema_decode('readings', base64_decode(payload)) AS result FROM "t/#"`,
    context: { event_type: 'message_publish', topic: 't/1', payload: 'AAE=' },
  });
  cleanup();
  await login('/schema-registry/detail/gone');
  await mount(<App />);
  const missing = await waitFor(() => byTest('state-not-found'));
  assert.ok(missing.textContent!.includes('There is no schema named gone'));
  assert.is(byTest('state-retry'), null);
  api.restore();
});

test('external registries: listed from the object, created and edited with the exact bodies', async () => {
  await login('/schema-registry?tab=external');
  let found: Record<string, unknown> = { conf: { type: 'confluent', url: 'http://reg:8081', auth: { mechanism: 'basic', username: 'u', password: '******' } } };
  const api = fakeApi({
    'GET /schema_registry_external': () => ({ body: found }),
    'POST /schema_registry_external': (call) => ((found = { ...found, c2: call.body }), { status: 201, body: call.body }),
    'PUT /schema_registry_external/registry/conf': { body: {} },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  const ext = (name: string) => document.querySelector(`[data-test=schema_registry_external-row][data-key="${name}"]`);
  await waitFor(() => ext('conf'));
  assert.ok(ext('conf')!.textContent!.includes('http://reg:8081'));
  assert.ok(ext('conf')!.textContent!.includes('Basic (u)'));
  await click(byTest('schema_registry_external-create'));
  const form = () => byTest('schema_registry_external-create-form')!.querySelector('form')!;
  await type(form().querySelector('[name=name]'), 'c2');
  await type(form().querySelector('[name=url]'), 'http://other:8081');
  await submit(form());
  await waitFor(() => ext('c2'));
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, { name: 'c2', type: 'confluent', url: 'http://other:8081', auth: 'none' });
  await click(ext('conf')!.querySelector('[data-test=schema_registry_external-edit]'));
  const edit = await waitFor(() => document.querySelector('[data-test=schema_registry_external-edit-form] form'));
  await type(edit.querySelector('[name=url]'), 'http://reg:9091');
  await submit(edit);
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { type: 'confluent', url: 'http://reg:9091', auth: { mechanism: 'basic', username: 'u', password: '******' } });
  api.restore();
});

test.run();
