// Actions and sources (emqx-api-part2 §4.3–§4.6, §5.3, §7): CRUD with the resource_opts defaults,
// the connector check, the rule guard on delete (and also_delete_dep_actions), enable/disable,
// metrics and their reset; an http action that sends the rendered request to a local HTTP server
// for each matching MQTT message (webhook-style `_WH_D` objects), retries and failures counted;
// an mqtt connector pointed at a second simulator that bridges both ways (egress action, ingress
// source feeding a `$bridges/mqtt:<name>` rule).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let sim: RunningSimulator;
let token = '';
let target: http.Server;
let targetPort = 0;
let received: Received[] = [];
/** Status the test server answers with (changed by a test). */
let answer = 200;
let open: MqttClient[] = [];

test.before(async () => {
  // Actions carry `rules` and the summaries exist from 5.8 (store/profile.ts).
  sim = await startSimulator({ app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
  target = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  received = [];
  answer = 200;
  for (const r of (await call('GET', '/rules')).json.data) await call('DELETE', `/rules/${r.id}`);
  for (const a of (await call('GET', '/actions')).json) await call('DELETE', `/actions/${a.type}:${a.name}`);
  for (const s of (await call('GET', '/sources')).json) await call('DELETE', `/sources/${s.type}:${s.name}`);
  for (const c of (await call('GET', '/connectors')).json) await call('DELETE', `/connectors/${c.type}:${c.name}`);
});

test.after(async () => {
  await sim.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

async function client(url: string, clientId: string): Promise<MqttClient> {
  const c = await connectMqtt(url, { clientId });
  c.on('error', () => {});
  open.push(c);
  return c;
}

const publish = (c: MqttClient, topic: string, payload: string) => new Promise<void>((resolve, reject) => c.publish(topic, payload, { qos: 1 }, (err) => (err ? reject(err) : resolve())));
const subscribe = (c: MqttClient, filter: string) => new Promise<void>((resolve, reject) => c.subscribe(filter, { qos: 1 }, (err) => (err ? reject(err) : resolve())));

async function httpConnector(name: string): Promise<void> {
  const res = await call('POST', '/connectors', { type: 'http', name, url: `http://127.0.0.1:${targetPort}/base`, headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 201);
}

test('action CRUD: 201 with defaults, connector check, rules listed, delete guard and also_delete_dep_actions', async () => {
  await httpConnector('conn');
  const created = await call('POST', '/actions', { type: 'http', name: 'act', connector: 'conn', parameters: { path: '/x' } });
  assert.is(created.status, 201);
  const a = created.json;
  assert.equal([a.type, a.name, a.connector, a.enable, a.description], ['http', 'act', 'conn', true, '']);
  assert.equal(a.parameters.method, 'post');
  assert.equal(a.parameters.max_retries, 2);
  assert.equal(a.parameters.path, '/x');
  assert.equal(a.resource_opts, {
    worker_pool_size: 16, health_check_interval: '15s', query_mode: 'async', request_ttl: '45s', inflight_window: 100, max_buffer_bytes: '256MB',
  });
  assert.equal([a.status, a.status_reason, a.error], ['connected', '', '']);
  assert.equal(a.rules, []);
  assert.ok(typeof a.created_at === 'number' && a.created_at === a.last_modified_at);

  const dup = await call('POST', '/actions', { type: 'http', name: 'act', connector: 'conn', parameters: {} });
  assert.equal([dup.status, dup.json.code, dup.json.message], [400, 'ALREADY_EXISTS', 'bridge already exists']);
  const noConn = await call('POST', '/actions', { type: 'http', name: 'a2', connector: 'none', parameters: {} });
  assert.equal([noConn.status, noConn.json.code], [400, 'BAD_REQUEST']);
  assert.is(JSON.parse(noConn.json.message).reason, 'connector_not_found_or_wrong_type');
  const missing = await call('GET', '/actions/http:none');
  assert.equal([missing.status, missing.json.code], [404, 'NOT_FOUND']);
  assert.match(missing.json.message, "bridge named 'none' of type http does not exist");
  assert.match((await call('GET', '/actions/bad')).json.message, 'Invalid bridge ID');

  const updated = await call('PUT', '/actions/http%3Aact', { connector: 'conn', parameters: { path: '/y', method: 'put' }, type: 'http', name: 'act', status: 'x' });
  assert.is(updated.status, 200);
  assert.equal([updated.json.parameters.path, updated.json.parameters.method], ['/y', 'put']);

  await call('POST', '/rules', { id: 'r_use', sql: 'SELECT * FROM "t/#"', actions: ['http:act', { function: 'console' }] });
  assert.equal((await call('GET', '/actions/http:act')).json.rules, ['r_use']);
  assert.equal((await call('GET', '/connectors/http:conn')).json.actions, ['act']);
  const refused = await call('DELETE', '/actions/http:act');
  assert.equal([refused.status, refused.json.code, refused.json.message, refused.json.rules],
    [400, 'BAD_REQUEST', 'Cannot delete action while active rules are depending on it', ['r_use']]);
  assert.is((await call('DELETE', '/actions/http:act?also_delete_dep_actions=true')).status, 204);
  assert.equal((await call('GET', '/rules/r_use')).json.actions, [{ function: 'console' }]);
  assert.is((await call('GET', '/actions/http:act')).status, 404);
  assert.equal((await call('GET', '/connectors/http:conn')).json.actions, []);
});

test('enable/disable, start, metrics keys and reset, summary, types, probe', async () => {
  await httpConnector('conn');
  await call('POST', '/actions', { type: 'http', name: 'act', connector: 'conn', parameters: {} });
  assert.is((await call('PUT', '/actions/http:act/enable/false')).status, 204);
  const off = (await call('GET', '/actions/http:act')).json;
  assert.equal([off.enable, off.status, off.status_reason], [false, 'disconnected', 'Not installed']);
  assert.equal((await call('POST', '/actions/http:act/start')).json.message, 'Forbidden operation, bridge not enabled');
  assert.is((await call('PUT', '/actions/http:act/enable/true')).status, 204);
  assert.is((await call('POST', '/actions/http:act/start')).status, 204);

  await call('PUT', '/connectors/http:conn/enable/false');
  const down = (await call('GET', '/actions/http:act')).json;
  assert.equal([down.status, down.status_reason], ['disconnected', 'Resource not operational']);
  await call('PUT', '/connectors/http:conn/enable/true');

  const m = (await call('GET', '/actions/http:act/metrics')).json;
  for (const key of ['matched', 'success', 'failed', 'dropped', 'dropped.other', 'dropped.expired', 'dropped.queue_full', 'dropped.resource_not_found',
    'dropped.resource_stopped', 'queuing', 'queuing_bytes', 'inflight', 'retried', 'late_reply', 'received', 'rate', 'rate_last5m', 'rate_max']) {
    assert.is(m.metrics[key], 0, key);
  }
  assert.ok(m.node_metrics.length >= 1 && m.node_metrics[0].node);
  assert.is((await call('PUT', '/actions/http:act/metrics/reset')).status, 204);
  assert.is((await call('GET', '/actions/http:none/metrics')).status, 404);

  const summary = (await call('GET', '/actions_summary')).json;
  assert.equal(summary.map((s: { name: string; status: string }) => [s.name, s.status]), [['act', 'connected']]);
  const types = (await call('GET', '/action_types')).json as string[];
  assert.ok(types.includes('http') && types.includes('mqtt') && types.includes('mysql'));
  assert.ok(((await call('GET', '/source_types')).json as string[]).includes('mqtt'));

  assert.is((await call('POST', '/actions_probe', { type: 'http', name: 'p', connector: 'conn', parameters: {} })).status, 204);
  await call('PUT', '/connectors/http:conn', { url: 'http://127.0.0.1:1/' });
  const failed = await call('POST', '/actions_probe', { type: 'http', name: 'p', connector: 'conn', parameters: {} });
  assert.equal([failed.status, failed.json.code], [400, 'TEST_FAILED']);
});

test('webhook: an MQTT message matching the rule sends the rendered request; an empty body is the whole output', async () => {
  // The three objects the webhook page creates (part2 §7) are ordinary connector/action/rule.
  await httpConnector('hook_WH_D');
  await call('POST', '/actions', {
    type: 'http', name: 'hook_WH_D', connector: 'hook_WH_D',
    parameters: { path: '/in/${clientid}', method: 'post', headers: { 'x-client': '${clientid}' }, body: '{"temp":${payload.temp},"from":"${clientid}"}' },
  });
  await call('POST', '/actions', { type: 'http', name: 'whole', connector: 'hook_WH_D', parameters: { method: 'put' } });
  await call('POST', '/rules', { id: 'hook_WH_D', sql: 'SELECT * FROM "sensors/#"', actions: ['http:hook_WH_D'] });
  await call('POST', '/rules', { id: 'whole_rule', sql: 'SELECT payload.temp AS t, clientid FROM "sensors/+" WHERE payload.temp > 30', actions: ['http:whole'] });

  const sensor = await client(`mqtt://127.0.0.1:${sim.mqtt}`, 'sensor-9');
  await publish(sensor, 'sensors/a', '{"temp":31}');
  await publish(sensor, 'other/a', '{"temp":50}');
  await waitFor(() => received.length === 2, 3000, 'two requests');
  const hook = received.find((r) => r.method === 'POST')!;
  assert.is(hook.url, '/base/in/sensor-9');
  assert.equal(JSON.parse(hook.body), { temp: 31, from: 'sensor-9' });
  assert.is(hook.headers['x-client'], 'sensor-9');
  assert.is(hook.headers['content-type'], 'application/json');
  const whole = received.find((r) => r.method === 'PUT')!;
  assert.is(whole.url, '/base');
  assert.equal(JSON.parse(whole.body), { t: 31, clientid: 'sensor-9' });

  await publish(sensor, 'sensors/b', '{"temp":20}');
  await waitFor(() => received.length === 3, 3000, 'the third request');
  assert.equal(JSON.parse(received[2].body), { temp: 20, from: 'sensor-9' });
  await waitFor(async () => (await call('GET', '/actions/http:hook_WH_D/metrics')).json.metrics.success === 2, 2000, 'success counted');
  const m = (await call('GET', '/actions/http:hook_WH_D/metrics')).json.metrics;
  assert.equal([m.matched, m.success, m.failed, m.inflight], [2, 2, 0, 0]);
  const rm = (await call('GET', '/rules/hook_WH_D/metrics')).json.metrics;
  assert.equal([rm['actions.total'], rm['actions.success']], [2, 2]);

  // The receiver fails: max_retries (2) more attempts, then failed.
  answer = 503;
  received = [];
  await publish(sensor, 'sensors/c', '{"temp":1}');
  await waitFor(async () => (await call('GET', '/actions/http:hook_WH_D/metrics')).json.metrics.failed === 1, 3000, 'failure counted');
  assert.is(received.length, 3);
  const failed = (await call('GET', '/actions/http:hook_WH_D/metrics')).json.metrics;
  assert.equal([failed.matched, failed.success, failed.failed, failed.retried], [3, 2, 1, 2]);
  assert.is((await call('GET', '/rules/hook_WH_D/metrics')).json.metrics['actions.failed'], 1);

  assert.is((await call('PUT', '/actions/http:hook_WH_D/metrics/reset')).status, 204);
  assert.is((await call('GET', '/actions/http:hook_WH_D/metrics')).json.metrics.matched, 0);

  // A disabled action is out of service for the rule and sends nothing.
  answer = 200;
  received = [];
  await call('PUT', '/actions/http:hook_WH_D/enable/false');
  await publish(sensor, 'sensors/d', '{"temp":2}');
  await waitFor(async () => (await call('GET', '/rules/hook_WH_D/metrics')).json.metrics['actions.failed.out_of_service'] === 1, 2000, 'out of service');
  assert.is(received.length, 0);
});

test('an mqtt connector to a second simulator bridges both ways: egress action and ingress source', async () => {
  const remote = await startSimulator();
  try {
    const remoteUrl = `mqtt://127.0.0.1:${remote.mqtt}`;
    const conn = await call('POST', '/connectors', { type: 'mqtt', name: 'remote', server: `127.0.0.1:${remote.mqtt}`, clientid_prefix: 'br-', username: 'bridge', password: 'secret' });
    assert.is(conn.status, 201);
    assert.equal([conn.json.proto_ver, conn.json.clean_start, conn.json.password], ['v4', true, '******']);
    await waitFor(async () => (await call('GET', '/connectors/mqtt:remote')).json.status === 'connected', 3000, 'the bridge client connected');
    // The probe makes a real MQTT connection.
    assert.is((await call('POST', '/connectors_probe', { type: 'mqtt', name: 'p', server: `127.0.0.1:${remote.mqtt}` })).status, 204);
    const refused = await call('POST', '/connectors_probe', { type: 'mqtt', name: 'p', server: `127.0.0.1:${remote.http}` });
    assert.equal([refused.status, refused.json.code], [400, 'TEST_FAILED']);

    // Egress: local/# → remote broker, topic and payload from templates.
    const egress = await call('POST', '/actions', { type: 'mqtt', name: 'out', connector: 'remote', parameters: { topic: 'from-a/${topic}', payload: '${payload.v}', qos: 1, retain: false } });
    assert.is(egress.status, 201);
    assert.is(egress.json.status, 'connected');
    await call('POST', '/rules', { id: 'egress', sql: 'SELECT * FROM "local/#"', actions: ['mqtt:out'] });
    const remoteSub = await client(remoteUrl, 'remote-watch');
    const got: string[] = [];
    remoteSub.on('message', (topic, payload) => got.push(`${topic} ${payload.toString()}`));
    await subscribe(remoteSub, 'from-a/#');
    const localPub = await client(`mqtt://127.0.0.1:${sim.mqtt}`, 'local-pub');
    await publish(localPub, 'local/x', '{"v":"hello"}');
    await waitFor(() => got.length === 1, 3000, 'the egress message on the remote');
    assert.equal(got, ['from-a/local/x hello']);
    await waitFor(async () => (await call('GET', '/actions/mqtt:out/metrics')).json.metrics.success === 1, 2000, 'egress success');

    // Ingress: the source subscribes remote up/#; a rule on $bridges/mqtt:in republishes locally.
    const ingress = await call('POST', '/sources', { type: 'mqtt', name: 'in', connector: 'remote', parameters: { topic: 'up/#', qos: 1 } });
    assert.is(ingress.status, 201);
    assert.equal(ingress.json.resource_opts, { health_check_interval: '15s' });
    await call('POST', '/rules', {
      id: 'ingress', sql: 'SELECT topic, payload.n AS n FROM "$bridges/mqtt:in"',
      actions: [{ function: 'republish', args: { topic: 'bridged/${topic}', payload: '${n}', qos: 1 } }],
    });
    assert.equal((await call('GET', '/sources/mqtt:in')).json.rules, ['ingress']);
    const localSub = await client(`mqtt://127.0.0.1:${sim.mqtt}`, 'local-watch');
    const local: string[] = [];
    localSub.on('message', (topic, payload) => local.push(`${topic} ${payload.toString()}`));
    await subscribe(localSub, 'bridged/#');
    const remotePub = await client(remoteUrl, 'remote-pub');
    // The source's SUBSCRIBE reaches the remote asynchronously: publish until it arrives.
    await waitFor(async () => {
      await publish(remotePub, 'up/1', '{"n":7}');
      await new Promise((r) => setTimeout(r, 100));
      return local.length > 0;
    }, 3000, 'the ingress message locally');
    assert.is(local[0], 'bridged/up/1 7');
    const sm = (await call('GET', '/sources/mqtt:in/metrics')).json.metrics;
    assert.ok(sm.received >= 1 && sm.received === sm.matched);
    assert.equal((await call('GET', '/connectors/mqtt:remote')).json.sources, ['in']);
    const kept = await call('DELETE', '/sources/mqtt:in');
    assert.equal([kept.status, kept.json.rules], [400, ['ingress']]);
    assert.match(kept.json.message, 'active rules are depending on it');
  } finally {
    await remote.close();
  }
});

test.run();
