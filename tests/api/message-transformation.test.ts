// Message transformation on the 5.8.9 Enterprise profile (emqx_message_transformation at e5.8.9)
// with real MQTT traffic: a JSON payload is rewritten field by field with variform expressions,
// its topic, QoS and a user property are set, two transformations run one after the other, and a
// payload that does not decode is dropped; the dry run answers what one transformation makes.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileVariform, renderVariform } from '../../simulator/rules/variform.ts';
import { connectMqtt, request, simulatorSuite, waitFor } from '../helpers/simulator.ts';

const suite = simulatorSuite(test, { app: { emqxVersion: '5.8.9', edition: 'ee' } }, async ({ call }) => {
  for (const item of (await call('GET', '/message_transformations')).json) await call('DELETE', `/message_transformations/transformation/${item.name}`);
});
const { call } = suite;

interface Got {
  topic: string;
  payload: string;
  qos: number;
  props?: Record<string, unknown>;
}

async function client(clientId: string, protocolVersion: 4 | 5 = 5): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${suite.sim.mqtt}`, { clientId, protocolVersion });
  suite.open.push(c);
  return c;
}

async function subscriber(filter: string): Promise<Got[]> {
  const got: Got[] = [];
  const c = await client(`sub-${Math.random().toString(36).slice(2)}`);
  c.on('message', (topic, payload, packet) => got.push({ topic, payload: payload.toString(), qos: packet.qos, props: packet.properties?.userProperties as Record<string, unknown> | undefined }));
  await c.subscribeAsync(filter, { qos: 2 });
  return got;
}

const json = { type: 'json' };

test('a transformation rewrites a JSON payload, its topic, QoS and a user property on the way through', async () => {
  const created = await call('POST', '/message_transformations', {
    name: 'shape', topics: ['in/#'], failure_action: 'drop', payload_decoder: json, payload_encoder: json,
    operations: [
      { key: 'payload.celsius', value: 'payload.temp' },
      { key: 'payload.who', value: 'upper(clientid)' },
      { key: 'topic', value: "concat(['out/', nth(2, split(topic, '/'))])" },
      { key: 'qos', value: "iif(payload.urgent, '1', '0')" },
      { key: 'user_property.via', value: 'concat([\'emqx-\', username])' },
    ],
  });
  assert.is(created.status, 201, created.text);
  assert.equal(created.json.operations[2], { key: 'topic', value: "concat(['out/', nth(2, split(topic, '/'))])" });
  const got = await subscriber('out/#');
  const pub = await client('dev-1');
  await pub.publishAsync('in/room1', JSON.stringify({ temp: 21.5, urgent: true }), { qos: 2 });
  await waitFor(() => got.length === 1, 1000, 'the transformed message');
  assert.equal([got[0].topic, got[0].qos], ['out/room1', 1]);
  assert.equal(JSON.parse(got[0].payload), { temp: 21.5, urgent: true, celsius: 21.5, who: 'DEV-1' });
  // The username is unset: concat makes it the empty string.
  assert.equal({ ...got[0].props }, { via: 'emqx-' });
  const metrics = (await call('GET', '/message_transformations/transformation/shape/metrics')).json.metrics;
  assert.equal([metrics.matched, metrics.succeeded, metrics.failed], [1, 1, 0]);
  const global = (await call('GET', '/metrics')).json[0];
  assert.is(global['messages.transformation_succeeded'], 1);
  const prom = await request(suite.sim.baseUrl, 'GET', '/api/v5/prometheus/message_transformation', { headers: { accept: 'text/plain' } });
  // emqx_prometheus_message_transformation.erl labels its points validation_name, as its source does.
  assert.ok(prom.text.includes('emqx_message_transformation_succeeded{validation_name="shape"} 1'), prom.text);
});

test('two transformations run in list order; a payload that is not JSON is dropped and counted', async () => {
  const base = { topics: 'chain/t', failure_action: 'drop', payload_decoder: json, payload_encoder: json };
  assert.is((await call('POST', '/message_transformations', { ...base, name: 'first', operations: [{ key: 'payload.n', value: "concat([payload.n, 'a'])" }] })).status, 201);
  assert.is((await call('POST', '/message_transformations', { ...base, name: 'second', operations: [{ key: 'payload.n', value: "concat([payload.n, 'b'])" }] })).status, 201);
  const got = await subscriber('chain/t');
  const pub = await client('dev-2', 4);
  await pub.publishAsync('chain/t', 'not json', { qos: 1 });
  await pub.publishAsync('chain/t', '{"n":"x"}', { qos: 1 });
  await waitFor(() => got.length === 1, 1000, 'the good message');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got.map((g) => g.payload), ['{"n":"xab"}']);
  assert.is((await call('POST', '/message_transformations/reorder', { order: ['second', 'first'] })).status, 204);
  await pub.publishAsync('chain/t', '{"n":"y"}', { qos: 1 });
  await waitFor(() => got.length === 2, 1000, 'after the reorder');
  assert.is(got[1].payload, '{"n":"yba"}');
  const first = (await call('GET', '/message_transformations/transformation/first/metrics')).json.metrics;
  assert.equal([first.matched, first.succeeded, first.failed], [3, 2, 1]);
  assert.is((await call('GET', '/metrics')).json[0]['messages.transformation_failed'], 1);
});

test('the dry run answers the message one transformation makes, or its failure', async () => {
  const transformation = {
    name: 'dry', topics: 't', failure_action: 'drop', payload_decoder: json, payload_encoder: json,
    operations: [{ key: 'payload.x', value: 'payload.y' }, { key: 'retain', value: 'true' }],
  };
  const ok = await call('POST', '/message_transformations/dryrun', { transformation, message: { topic: 't', payload: '{"y":3}' } });
  assert.equal([ok.status, ok.json], [200, { payload: '{"y":3,"x":3}', qos: 0, topic: 't', retain: true, user_property: {} }]);
  const failed = await call('POST', '/message_transformations/dryrun', { transformation, message: { topic: 't', payload: '{' } });
  assert.equal([failed.status, failed.json.msg, failed.json.decoder], [400, 'payload_decode_failed', 'json']);
  // The root of an expression is a variable, a call or a boolean: a bare string does not parse.
  const literal = await call('POST', '/message_transformations', { ...transformation, operations: [{ key: 'topic', value: "'x'" }] });
  assert.is(literal.status, 400);
  const badKey = await call('POST', '/message_transformations', { ...transformation, operations: [{ key: 'headers.x', value: 'topic' }] });
  assert.ok(badKey.json.message.includes('allowed_root_keys'), badKey.json.message);
});

test('variform: coalesce and iif are lazy, unbound variables are empty, numbers render as text', () => {
  const render = (expr: string, bindings: Record<string, unknown>) => renderVariform(compileVariform(expr), { bindings, now: () => 0 });
  assert.is(render('coalesce(a.b, c, \'z\')', { c: '' }), 'z');
  assert.is(render('iif(is_empty(a), \'none\', a)', {}), 'none');
  assert.is(render('num_gt(n, 2)', { n: 3 }), 'true');
  assert.is(render('concat([n, \'-\', s])', { n: 1.5, s: 'x' }), '1.5-x');
  assert.throws(() => compileVariform("'bare'"), /syntax error/);
});

test.run();
