// Schema validation on the 5.8.9 Enterprise profile (emqx_schema_validation at e5.8.9) with real
// MQTT traffic: a SQL check and a JSON Schema check refuse bad payloads (the subscriber never
// sees them), `disconnect` costs an MQTT 5 publisher its connection with 0x83, `ignore` lets the
// message through; per-validation metrics, messages.validation_* and the Prometheus collector
// count what happened, and a failure raises $events/schema_validation_failed. The CRUD, reorder
// and enable routes answer as emqx_schema_validation_http_api.erl does; 5.5.1 has none of it.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, connectMqtt, login, request, simulatorSuite, waitFor } from '../helpers/simulator.ts';

const suite = simulatorSuite(test, { app: { emqxVersion: '5.8.9', edition: 'ee' } }, async ({ call }) => {
  for (const item of (await call('GET', '/schema_validations')).json) await call('DELETE', `/schema_validations/validation/${item.name}`);
});
const { call } = suite;

async function client(clientId: string, protocolVersion: 4 | 5 = 4): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${suite.sim.mqtt}`, { clientId, protocolVersion });
  suite.open.push(c);
  return c;
}

/** A subscriber on `filter` that collects the payloads it receives. */
async function subscriber(filter: string): Promise<string[]> {
  const got: string[] = [];
  const c = await client(`sub-${Math.random().toString(36).slice(2)}`);
  c.on('message', (_t, payload) => got.push(payload.toString()));
  await c.subscribeAsync(filter, { qos: 1 });
  return got;
}

const sqlValidation = (failure_action: string) => ({
  name: 'temp', topics: 't/#', strategy: 'all_pass', failure_action,
  checks: [{ type: 'sql', sql: 'select payload.temp as t where t > 10' }],
});

test('a SQL check drops the payload it does not select; the good one is delivered; metrics count both', async () => {
  const created = await call('POST', '/schema_validations', sqlValidation('drop'));
  assert.is(created.status, 201, created.text);
  assert.equal(created.json, {
    description: '', enable: true, name: 'temp', topics: ['t/#'], strategy: 'all_pass', failure_action: 'drop',
    log_failure: { level: 'info' }, checks: [{ type: 'sql', sql: 'select payload.temp as t where t > 10' }],
  });
  const got = await subscriber('t/#');
  const pub = await client('pub-1');
  await pub.publishAsync('t/1', JSON.stringify({ temp: 5 }), { qos: 1 });
  await pub.publishAsync('t/1', JSON.stringify({ temp: 20 }), { qos: 1 });
  await pub.publishAsync('other/1', JSON.stringify({ temp: 5 }), { qos: 1 });
  await waitFor(() => got.length >= 1, 1000, 'the good message');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, ['{"temp":20}'], 'only the selected payload reaches the subscriber');
  const metrics = (await call('GET', '/schema_validations/validation/temp/metrics')).json;
  assert.equal([metrics.metrics.matched, metrics.metrics.succeeded, metrics.metrics.failed], [2, 1, 1]);
  assert.equal(metrics.node_metrics.map((n: { node: string }) => n.node), suite.sim.app.store.cluster.names());
  const global = (await call('GET', '/metrics')).json[0];
  assert.equal([global['messages.validation_succeeded'], global['messages.validation_failed']], [1, 1]);
  const prom = await request(suite.sim.baseUrl, 'GET', '/api/v5/prometheus/schema_validation', { headers: { accept: 'text/plain' } });
  assert.ok(prom.text.includes('emqx_schema_validation_failed{validation_name="temp"} 1'), prom.text);
  assert.ok(prom.text.includes('emqx_schema_validation_enable{validation_name="temp"} 1'), prom.text);
  const json = await request(suite.sim.baseUrl, 'GET', '/api/v5/prometheus/schema_validation', { headers: { accept: 'application/json' } });
  assert.equal(json.json, { schema_validations: [{ validation_name: 'temp', emqx_schema_validation_enable: 1, emqx_schema_validation_matched: 2, emqx_schema_validation_failed: 1, emqx_schema_validation_succeeded: 1 }] });
  assert.is((await call('POST', '/schema_validations/validation/temp/metrics/reset')).status, 204);
  assert.is((await call('GET', '/schema_validations/validation/temp/metrics')).json.metrics.matched, 0);
});

test('a JSON Schema check from the schema registry refuses a payload that does not fit', async () => {
  const schema = await call('POST', '/schema_registry', {
    name: 'reading', type: 'json', source: JSON.stringify({ type: 'object', required: ['v'], properties: { v: { type: 'number' } } }),
  });
  assert.is(schema.status, 201, schema.text);
  const created = await call('POST', '/schema_validations', {
    name: 'shape', topics: ['r/+'], strategy: 'any_pass', failure_action: 'drop', checks: [{ type: 'json', schema: 'reading' }],
  });
  assert.is(created.status, 201, created.text);
  const got = await subscriber('r/+');
  const pub = await client('pub-2');
  for (const payload of ['{"v":1}', '{"v":"x"}', 'not json', '{"v":2.5}']) await pub.publishAsync('r/a', payload, { qos: 1 });
  await waitFor(() => got.length >= 2, 1000, 'the fitting messages');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, ['{"v":1}', '{"v":2.5}']);
  // A schema still in use keeps the validation working; one that is missing is refused up front.
  const missing = await call('POST', '/schema_validations', { name: 'gone', topics: 'g', strategy: 'all_pass', failure_action: 'drop', checks: [{ type: 'avro', schema: 'nope' }] });
  assert.is(missing.status, 400);
  assert.is(missing.json.message, '{post_config_update,emqx_schema_validation_config,#{missing_schemas => [[<<"nope">>]]}}');
  await call('DELETE', '/schema_registry/reading');
});

test('failure_action disconnect: an MQTT 5 publisher hears DISCONNECT 0x83 and the message goes nowhere', async () => {
  assert.is((await call('POST', '/schema_validations', sqlValidation('disconnect'))).status, 201);
  const got = await subscriber('t/#');
  const pub = await client('pub-3', 5);
  const heard = new Promise<number | undefined>((resolve) => pub.once('disconnect', (packet) => resolve(packet.reasonCode)));
  pub.publish('t/x', '{"temp":1}', { qos: 1 });
  assert.is(await heard, 0x83);
  await waitFor(() => !pub.connected, 1000, 'the connection closed');
  assert.equal(got, []);
});

test('failure_action ignore lets the message through but still counts the failure and raises the rule event', async () => {
  assert.is((await call('POST', '/schema_validations', sqlValidation('ignore'))).status, 201);
  const rule = await call('POST', '/rules', { id: 'failed_v', sql: 'SELECT validation, payload, topic FROM "$events/schema_validation_failed"', actions: [{ function: 'republish', args: { topic: 'seen/failed', payload: '${validation} ${topic}' } }] });
  assert.is(rule.status, 201, rule.text);
  const seen = await subscriber('seen/#');
  const got = await subscriber('t/#');
  const pub = await client('pub-4');
  await pub.publishAsync('t/y', '{"temp":1}', { qos: 1 });
  await waitFor(() => got.length === 1 && seen.length === 1, 1000, 'the message and the event');
  assert.equal(seen, ['temp t/y']);
  assert.is((await call('GET', '/schema_validations/validation/temp/metrics')).json.metrics.failed, 1);
  await call('DELETE', '/rules/failed_v');
});

test('disabled, reordered, replaced: the routes answer as emqx_schema_validation_http_api does', async () => {
  const body = (name: string) => ({ ...sqlValidation('drop'), name });
  assert.is((await call('POST', '/schema_validations', body('a'))).status, 201);
  assert.is((await call('POST', '/schema_validations', body('b'))).status, 201);
  const again = await call('POST', '/schema_validations', body('a'));
  assert.equal([again.status, again.json], [400, { code: 'ALREADY_EXISTS', message: 'Validation already exists' }]);
  assert.equal((await call('GET', '/schema_validations/validation/none')).json, { code: 'NOT_FOUND', message: 'Validation not found' });
  const bad = await call('POST', '/schema_validations/reorder', { order: ['b', 'x', 'b'] });
  assert.equal([bad.status, bad.json], [400, { code: 'BAD_REQUEST', message: 'Bad request', not_found: ['x'], duplicated: ['b'], not_reordered: ['a'] }]);
  assert.is((await call('POST', '/schema_validations/reorder', { order: ['b', 'a'] })).status, 204);
  assert.equal((await call('GET', '/schema_validations')).json.map((v: { name: string }) => v.name), ['b', 'a']);
  assert.is((await call('POST', '/schema_validations/validation/a/enable/false')).status, 204);
  assert.is((await call('GET', '/schema_validations/validation/a')).json.enable, false);
  const replaced = await call('PUT', '/schema_validations', { ...body('b'), failure_action: 'ignore' });
  assert.equal([replaced.status, replaced.json.failure_action], [200, 'ignore']);
  assert.is((await call('PUT', '/schema_validations', body('zz'))).status, 404);
  const foreach = await call('POST', '/schema_validations', { ...body('f'), checks: [{ type: 'sql', sql: 'foreach payload.a as x' }] });
  assert.is(foreach.status, 400);
  assert.ok(foreach.json.message.includes('foreach_not_allowed'), foreach.json.message);
  const none = await call('POST', '/schema_validations', { ...body('n'), checks: [] });
  assert.ok(none.json.message.includes('at least one check must be defined'), none.json.message);
  const unknown = await call('POST', '/schema_validations', { ...body('u'), checks: [{ type: 'sql', sql: 'select 1', schema: 'x' }] });
  assert.equal([unknown.status, JSON.parse(unknown.json.message).reason], [400, 'unknown_fields']);
});

test('5.5.1 has no schema validation; 5.8.9 Community neither (an Enterprise application)', async () => {
  for (const [emqxVersion, edition] of [['5.5.1', 'ee'], ['5.8.9', 'ce']] as const) {
    const app = await buildTestApp({ emqxVersion, edition, seed: 'empty' });
    const t = await login(app);
    assert.is((await api(app, 'GET', '/api/v5/schema_validations', { token: t })).statusCode, 404, `${emqxVersion}-${edition}`);
    assert.is((await api(app, 'GET', '/api/v5/prometheus/schema_validation', { token: t })).statusCode, 404, `${emqxVersion}-${edition}`);
    await app.close();
  }
});

test.run();
