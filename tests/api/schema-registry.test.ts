// Schema registry API (part 2 §8) and the schema_* SQL functions (§5.5): real compilation of Avro,
// Protobuf and JSON Schema, the codes of the notes, decoding of real MQTT payloads by a rule with
// a republish output, and POST /rule_test evaluating the same functions.
import { isUtf8 } from 'node:buffer';
import avro from 'avsc';
import type { MqttClient } from 'mqtt';
import protobuf from 'protobufjs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

const AVRO = JSON.stringify({ type: 'record', name: 'Reading', fields: [{ name: 'device', type: 'string' }, { name: 'temp', type: 'int' }] });
const PROTO = 'syntax = "proto3";\npackage demo;\nmessage Person {\n  string name = 1;\n  int32 age = 2;\n}\n';
const JSONSCHEMA = JSON.stringify({ type: 'object', required: ['t'], properties: { t: { type: 'number' } } });

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

test.before(async () => {
  // External registries are 5.8 (store/profile.ts).
  sim = await startSimulator({ app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  for (const rule of (await call('GET', '/rules')).json.data as { id: string }[]) await call('DELETE', `/rules/${rule.id}`);
  for (const s of (await call('GET', '/schema_registry')).json as { name: string }[]) await call('DELETE', `/schema_registry/${s.name}`);
});

test.after(async () => {
  await sim.close();
});

async function client(clientId: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId });
  c.on('error', () => {});
  open.push(c);
  return c;
}

test('create 201, list, get, put, the codes of the notes, delete 204', async () => {
  const created = await call('POST', '/schema_registry', { name: 'avro1', type: 'avro', source: AVRO, description: 'readings' });
  assert.is(created.status, 201);
  assert.equal(created.json, { name: 'avro1', type: 'avro', source: AVRO, description: 'readings' });
  const again = await call('POST', '/schema_registry', { name: 'avro1', type: 'avro', source: AVRO });
  assert.is(again.status, 400);
  assert.equal(again.json, { code: 'ALREADY_EXISTS', message: 'Schema already exists' });
  assert.equal((await call('GET', '/schema_registry')).json, [{ name: 'avro1', type: 'avro', source: AVRO, description: 'readings' }]);
  const put = await call('PUT', '/schema_registry/avro1', { type: 'json', source: JSONSCHEMA });
  assert.is(put.status, 200);
  assert.equal(put.json, { name: 'avro1', type: 'json', source: JSONSCHEMA, description: '' });
  assert.equal((await call('GET', '/schema_registry/avro1')).json.type, 'json');
  const missing = await call('GET', '/schema_registry/nope');
  assert.is(missing.status, 404);
  assert.equal(missing.json, { code: 'NOT_FOUND', message: 'Schema not found' });
  assert.is((await call('PUT', '/schema_registry/nope', { type: 'json', source: JSONSCHEMA })).status, 404);
  assert.is((await call('DELETE', '/schema_registry/nope')).status, 404);
  const badName = await call('POST', '/schema_registry', { name: 'bad name', type: 'json', source: JSONSCHEMA });
  assert.is(badName.status, 400);
  assert.is(JSON.parse(badName.json.message).kind, 'validation_error');
  assert.is((await call('DELETE', '/schema_registry/avro1')).status, 204);
  assert.equal((await call('GET', '/schema_registry')).json, []);
});

test('an invalid source is refused with 400 naming the error and its line', async () => {
  const proto = await call('POST', '/schema_registry', { name: 'p', type: 'protobuf', source: 'syntax = "proto3";\nmessage A {\n  int32 x = 1\n}' });
  assert.is(proto.status, 400);
  assert.is(proto.json.code, 'BAD_REQUEST');
  assert.match(proto.json.message, "illegal token '}', ';' expected (line 4)");
  const av = await call('POST', '/schema_registry', { name: 'a', type: 'avro', source: JSON.stringify({ type: 'record', name: 'R', fields: [{ name: 'x', type: 'nosuch' }] }) });
  assert.is(av.status, 400);
  assert.match(av.json.message, 'undefined type name: nosuch');
  const js = await call('POST', '/schema_registry', { name: 'j', type: 'json', source: '{\n  "type": "object",\n  "properties": {\n' });
  assert.is(js.status, 400);
  assert.match(js.json.message, /line \d/);
  const js2 = await call('POST', '/schema_registry', { name: 'j', type: 'json', source: '{"type": "nope"}' });
  assert.is(js2.status, 400);
  assert.match(js2.json.message, 'schema is invalid');
  assert.equal((await call('GET', '/schema_registry')).json, []);
});

test('acceptance: Avro and Protobuf payloads over MQTT decoded by rules and republished as JSON', async () => {
  assert.is((await call('POST', '/schema_registry', { name: 's', type: 'avro', source: AVRO })).status, 201);
  assert.is((await call('POST', '/schema_registry', { name: 'pb', type: 'protobuf', source: PROTO })).status, 201);
  const republish = (topic: string) => ({ function: 'republish', args: { topic, qos: 0, retain: false, payload: '${d}', mqtt_properties: {}, user_properties: '', direct_dispatch: false } });
  assert.is((await call('POST', '/rules', { id: 'avro_rule', sql: `SELECT schema_decode('s', payload) AS d FROM "in/#"`, actions: [republish('out/avro')] })).status, 201);
  assert.is((await call('POST', '/rules', { id: 'pb_rule', sql: `SELECT schema_decode('pb', payload, 'demo.Person') AS d FROM "pb/#"`, actions: [republish('out/pb')] })).status, 201);

  const sub = await client('sr-sub');
  const got: Record<string, string> = {};
  sub.on('message', (topic, payload) => { got[topic] = payload.toString('utf8'); });
  await new Promise<void>((resolve, reject) => sub.subscribe('out/#', { qos: 0 }, (err) => (err ? reject(err) : resolve())));

  const pub = await client('sr-pub');
  const avroBytes = avro.Type.forSchema(JSON.parse(AVRO)).toBuffer({ device: 'dév-1', temp: -3 });
  const Person = protobuf.parse(PROTO).root.lookupType('demo.Person');
  const pbBytes = Buffer.from(Person.encode(Person.fromObject({ name: 'Ann', age: 200 })).finish());
  assert.not.ok(isUtf8(pbBytes), 'the sample is binary, not text');
  await new Promise<void>((resolve, reject) => pub.publish('in/1', avroBytes, { qos: 1 }, (err) => (err ? reject(err) : resolve())));
  await new Promise<void>((resolve, reject) => pub.publish('pb/1', pbBytes, { qos: 1 }, (err) => (err ? reject(err) : resolve())));
  await waitFor(() => got['out/avro'] !== undefined && got['out/pb'] !== undefined, 3000, 'republished messages');
  assert.equal(JSON.parse(got['out/avro']), { device: 'dév-1', temp: -3 });
  assert.equal(JSON.parse(got['out/pb']), { name: 'Ann', age: 200 });
  const metrics = (await call('GET', '/rules/pb_rule/metrics')).json.metrics as Record<string, number>;
  assert.is(metrics.passed, 1);
  assert.is(metrics['actions.success'], 1);
});

test('POST /rule_test evaluates schema_encode, schema_decode and schema_check', async () => {
  await call('POST', '/schema_registry', { name: 'pb', type: 'protobuf', source: PROTO });
  await call('POST', '/schema_registry', { name: 'js', type: 'json', source: JSONSCHEMA });
  const ctx = (payload: string) => ({ event_type: 'message_publish', topic: 't/1', payload });
  const enc = await call('POST', '/rule_test', { sql: `SELECT bin2hexstr(schema_encode('pb', json_decode(payload), 'demo.Person')) AS hex FROM "t/#"`, context: ctx('{"name":"Ann","age":200}') });
  assert.is(enc.status, 200);
  assert.equal(enc.json, { hex: '0A03416E6E10C801' });
  const dec = await call('POST', '/rule_test', { sql: `SELECT schema_decode('pb', hexstr2bin('0A03416E6E10C801'), 'demo.Person') AS d FROM "t/#"`, context: ctx('') });
  assert.equal(dec.json, { d: { name: 'Ann', age: 200 } });
  const b64 = await call('POST', '/rule_test', { sql: `SELECT schema_decode('pb', base64_decode('CgNBbm4QyAE='), 'demo.Person') AS d FROM "t/#"`, context: ctx('') });
  assert.equal(b64.json, { d: { name: 'Ann', age: 200 } });
  const check = await call('POST', '/rule_test', { sql: `SELECT schema_check('js', payload) AS ok, schema_check('js', '{"t":"x"}') AS bad FROM "t/#"`, context: ctx('{"t":1}') });
  assert.equal(check.json, { ok: true, bad: false });
  const unknown = await call('POST', '/rule_test', { sql: `SELECT schema_decode('nope', payload) AS d FROM "t/#"`, context: ctx('x') });
  assert.is(unknown.status, 400);
  assert.match(unknown.json.message, 'schema_not_found');
});

test('delete is refused while a rule uses the schema, naming the rules', async () => {
  await call('POST', '/schema_registry', { name: 'used', type: 'json', source: JSONSCHEMA });
  await call('POST', '/rules', { id: 'r_used', sql: `SELECT schema_check('used', payload) AS ok FROM "t/#"` });
  const refused = await call('DELETE', '/schema_registry/used');
  assert.is(refused.status, 400);
  assert.equal(refused.json, { code: 'BAD_REQUEST', message: 'Schema is used by rules: r_used' });
  await call('DELETE', '/rules/r_used');
  assert.is((await call('DELETE', '/schema_registry/used')).status, 204);
});

test('external registries: object by name, 201, password redacted and kept on "******"', async () => {
  const created = await call('POST', '/schema_registry_external', { name: 'conf', type: 'confluent', url: 'http://reg:8081', auth: { mechanism: 'basic', username: 'u', password: 'secret' } });
  assert.is(created.status, 201);
  assert.equal(created.json, { type: 'confluent', url: 'http://reg:8081', auth: { mechanism: 'basic', username: 'u', password: '******' } });
  assert.is((await call('POST', '/schema_registry_external', { name: 'conf', type: 'confluent', url: 'http://x' })).json.message, 'External registry already exists');
  assert.equal((await call('GET', '/schema_registry_external')).json, { conf: created.json });
  await call('PUT', '/schema_registry_external/registry/conf', { type: 'confluent', url: 'http://reg:9091', auth: { mechanism: 'basic', username: 'u2', password: '******' } });
  const state = (sim as unknown as { app?: { store: { state: { schema_registry_external: Record<string, { auth: { password: string } }> } } } }).app;
  if (state) assert.is(state.store.state.schema_registry_external.conf.auth.password, 'secret');
  assert.equal((await call('GET', '/schema_registry_external/registry/conf')).json.url, 'http://reg:9091');
  assert.is((await call('GET', '/schema_registry_external/registry/nope')).status, 404);
  assert.is((await call('DELETE', '/schema_registry_external/registry/conf')).status, 204);
  assert.is((await call('DELETE', '/schema_registry_external/registry/conf')).status, 204);
  assert.equal((await call('GET', '/schema_registry_external')).json, {});
});

test.run();
