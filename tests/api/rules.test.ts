// Rules (emqx-api-part2 §5): CRUD with the list filters and envelope, metrics counted from real
// MQTT traffic, republish through the broker to a mosquitto subscriber, console output, events
// of real clients, POST /rule_test with its 412 and 400 answers, /rule_events and /rule_engine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROFILES } from '../../simulator/store/profile.ts';
import { api, buildTestApp, connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];
let subs: ChildProcess[] = [];

test.before(async () => {
  // `actions.discarded` and the rule fields of 5.8 (store/profile.ts).
  sim = await startSimulator({ app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  for (const s of subs) s.kill();
  subs = [];
  for (const rule of (await call('GET', '/rules')).json.data as { id: string }[]) await call('DELETE', `/rules/${rule.id}`);
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
const metrics = async (id: string) => (await call('GET', `/rules/${id}/metrics`)).json.metrics as Record<string, number>;

async function client(clientId: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId });
  c.on('error', () => {});
  open.push(c);
  return c;
}

const publish = (c: MqttClient, topic: string, payload: string) => new Promise<void>((resolve, reject) => c.publish(topic, payload, { qos: 1 }, (err) => (err ? reject(err) : resolve())));

/** A mosquitto_sub on a filter; resolves once the broker lists its subscription. */
async function mosquittoSub(id: string, filter: string): Promise<{ lines: () => string[] }> {
  let out = '';
  const sub = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', id, '-t', filter, '-v']);
  subs.push(sub);
  sub.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await waitFor(async () => (await call('GET', `/clients/${id}`)).json?.subscriptions_cnt === 1, 3000, 'mosquitto_sub subscribed');
  return { lines: () => out.split('\n').filter(Boolean) };
}

test('acceptance: a republish rule sends the selected fields to alerts/${clientid}, only above 30, and counts it', async () => {
  const created = await call('POST', '/rules', {
    id: 'rule_temp',
    sql: 'SELECT payload.temp AS t, clientid FROM "sensors/+" WHERE payload.temp > 30',
    actions: [{ function: 'republish', args: { topic: 'alerts/${clientid}', payload: '', qos: 0, retain: false } }],
  });
  assert.is(created.status, 201);
  assert.equal(created.json.from, ['sensors/+']);
  assert.equal(created.json.actions[0], {
    function: 'republish',
    args: { topic: 'alerts/${clientid}', qos: 0, retain: false, payload: '', mqtt_properties: {}, user_properties: '${user_properties}', direct_dispatch: false },
  });
  assert.match(created.json.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);

  const sub = await mosquittoSub('alert-watch', 'alerts/#');
  const sensor = await client('sensor-1');
  await publish(sensor, 'sensors/a', '{"temp":31}');
  await waitFor(() => sub.lines().length === 1, 3000, 'the alert');
  await publish(sensor, 'sensors/a', '{"temp":29}');
  await publish(sensor, 'other/a', '{"temp":99}');
  // A marker after the 29 proves nothing else came in between.
  await publish(sensor, 'sensors/b', '{"temp":40}');
  await waitFor(() => sub.lines().length === 2, 3000, 'the second alert');
  assert.equal(sub.lines(), ['alerts/sensor-1 {"t":31,"clientid":"sensor-1"}', 'alerts/sensor-1 {"t":40,"clientid":"sensor-1"}']);

  const body = (await call('GET', '/rules/rule_temp/metrics')).json;
  assert.is(body.id, 'rule_temp');
  const m = body.metrics;
  assert.equal(
    [m.matched, m.passed, m.failed, m['failed.no_result'], m['failed.exception'], m['actions.total'], m['actions.success'], m['actions.failed']],
    [3, 2, 1, 1, 0, 2, 2, 0],
  );
  assert.type(m['matched.rate'], 'number');
  assert.is(body.node_metrics[0].node, 'emqx@node1');
  assert.equal(body.node_metrics[0].metrics, m);
  assert.ok(body.node_metrics.slice(1).every((n: { metrics: Record<string, number> }) => n.metrics.matched === 0));

  assert.is((await call('PUT', '/rules/rule_temp/metrics/reset')).status, 204);
  assert.is((await metrics('rule_temp')).matched, 0);
  // Disabled rules do not run.
  assert.is((await call('PUT', '/rules/rule_temp', { enable: false })).json.enable, false);
  await publish(sensor, 'sensors/a', '{"temp":50}');
  await new Promise((r) => setTimeout(r, 100));
  assert.is((await metrics('rule_temp')).matched, 0);
  assert.is(sub.lines().length, 2);
});

test('a failing conversion counts failed.exception; console output goes to the log; other actions are stored, not run', async () => {
  const logged: string[] = [];
  const log = sim.app.store.rules.log;
  sim.app.store.rules.log = (line) => logged.push(line);
  try {
    await call('POST', '/rules', { id: 'conv', sql: 'SELECT int(payload.v) AS v FROM "conv/#"', actions: [{ function: 'console' }, 'http:later'] });
    assert.is((await call('POST', '/trace', { name: 'conv_trace', type: 'clientid', clientid: 'conv-client' })).status, 200);
    const c = await client('conv-client');
    await publish(c, 'conv/1', '{"v":"abc"}');
    await publish(c, 'conv/1', '{"v":"7"}');
    await waitFor(async () => (await metrics('conv')).matched === 2, 2000, 'two evaluations');
    const m = await metrics('conv');
    assert.equal(
      [m.passed, m.failed, m['failed.exception'], m['actions.total'], m['actions.success'], m['actions.failed'], m['actions.failed.out_of_service']],
      [1, 1, 1, 2, 1, 1, 1],
    );
    assert.is(logged.length, 1);
    assert.match(logged[0], '[rule action] conv');
    assert.match(logged[0], 'Action Data: {"v":7}');
    assert.equal((await call('GET', '/rules/conv')).json.actions, [{ function: 'console' }, 'http:later']);
    // The trace following the publisher shows the console output among its packets.
    const traced = (await call('GET', '/trace/conv_trace/log?bytes=100000')).json.items as string;
    assert.match(traced, /\[RULE\] conv-client msg: action_success, rule_id: conv, action: console, output: \{"v":7\}\n/);
    assert.is(traced.split('[RULE]').length, 2);
    await call('DELETE', '/trace/conv_trace');
  } finally {
    sim.app.store.rules.log = log;
  }
});

test('rules on $events/... run for real client events', async () => {
  const events = ['client_connected', 'client_connack', 'session_subscribed', 'session_unsubscribed', 'message_delivered', 'message_acked', 'message_dropped', 'client_check_authz_complete', 'client_disconnected'];
  for (const event of events) {
    assert.is((await call('POST', '/rules', { id: `ev_${event}`, sql: `SELECT * FROM "$events/${event}" WHERE clientid = 'ev-a' OR clientid = 'ev-b'` })).status, 201);
  }
  const a = await client('ev-a');
  await new Promise<void>((resolve) => a.subscribe('ev/x', { qos: 1 }, () => resolve()));
  const b = await client('ev-b');
  await publish(b, 'ev/x', 'hello');
  await publish(b, 'nobody/listens', 'lost');
  await new Promise<void>((resolve) => a.unsubscribe('ev/x', () => resolve()));
  await endMqtt(b);
  await waitFor(async () => (await metrics('ev_client_disconnected')).passed === 1, 2000, 'disconnect event');
  const passed: Record<string, number> = {};
  for (const event of events) passed[event] = (await metrics(`ev_${event}`)).passed;
  assert.equal(passed, {
    client_connected: 2, client_connack: 2, session_subscribed: 1, session_unsubscribed: 1,
    message_delivered: 1, message_acked: 1, message_dropped: 1, client_check_authz_complete: 3, client_disconnected: 1,
  });
});

test('a republish loop through message_delivered is cut after 16 hops and counted as discarded', async () => {
  await call('POST', '/rules', {
    id: 'loop', sql: 'SELECT payload FROM "$events/message_delivered" WHERE topic =~ \'loop/#\'',
    actions: [{ function: 'republish', args: { topic: 'loop/again', payload: '${payload}' } }],
  });
  const watcher = await client('loop-watch');
  let received = 0;
  watcher.on('message', () => received++);
  await new Promise<void>((resolve) => watcher.subscribe('loop/#', { qos: 0 }, () => resolve()));
  await publish(await client('loop-pub'), 'loop/start', 'spin');
  await waitFor(async () => (await metrics('loop'))['actions.discarded'] === 1, 3000, 'the cut');
  await new Promise((r) => setTimeout(r, 100));
  const m = await metrics('loop');
  assert.equal([m.matched, m['actions.success'], m['actions.discarded'], m['actions.total'], received], [17, 16, 1, 17, 17]);
});

test('POST /rules refusals: duplicates, empty id, SQL errors with position, bad bodies, non-JSON', async () => {
  assert.is((await call('POST', '/rules', { id: 'dup', sql: 'SELECT * FROM "t/#"' })).status, 201);
  assert.equal((await call('POST', '/rules', { id: 'dup', sql: 'SELECT * FROM "t/#"' })).json, { code: 'BAD_REQUEST', message: 'rule id already exists' });
  assert.equal((await call('POST', '/rules', { id: '', sql: 'SELECT * FROM "t/#"' })).json, { code: 'BAD_REQUEST', message: 'empty rule id is not allowed' });
  const bad = await call('POST', '/rules', { id: 'bad', sql: 'SELECT * FORM "t/#"' });
  assert.is(bad.status, 400);
  assert.equal(bad.json, { code: 'BAD_REQUEST', message: 'Bad Arguments: {parse_error, syntax error before: \'FORM\' (expected FROM) at line 1, column 10}' });
  for (const body of [{}, { sql: 5 }, { sql: 'SELECT * FROM "t"', actions: [{}] }, { sql: 'SELECT * FROM "t"', actions: [{ function: 'console', args: 'x' }] }, { sql: 'SELECT * FROM "t"', actions: [{ function: 'republish' }] },
    { sql: 'SELECT * FROM "t"', actions: [{ function: 'republish', args: { qos: 1 } }] }, { sql: 'SELECT * FROM "t"', enable: 'maybe' }, []]) {
    const res = await call('POST', '/rules', body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.json.code, 'BAD_REQUEST');
  }
  const text = await sim.app.inject({ method: 'POST', url: '/api/v5/rules', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, payload: 'SELECT' });
  assert.is(text.statusCode, 415);
  assert.is(text.json().code, 'UNSUPPORTED_MEDIA_TYPE');
  assert.equal((await call('GET', '/rules')).json.data.map((r: { id: string }) => r.id), ['dup']);
});

test('GET/PUT/DELETE /rules/{id}: 404s, merge update, PUT creates, generated ids', async () => {
  assert.equal((await call('GET', '/rules/none')).json, { code: 'NOT_FOUND', message: 'Rule Id Not Found' });
  assert.is((await call('GET', '/rules/none')).status, 404);
  assert.is((await call('DELETE', '/rules/none')).status, 404);
  assert.is((await call('GET', '/rules/none/metrics')).status, 404);
  assert.is((await call('PUT', '/rules/none/metrics/reset')).status, 404);
  const generated = await call('POST', '/rules', { sql: 'SELECT * FROM "t/#"', description: 'd1' });
  assert.match(generated.json.id, /^[0-9a-f]{8}$/);
  const id = generated.json.id as string;
  const merged = await call('PUT', `/rules/${id}`, { enable: false, id: 'ignored', metrics: {} });
  assert.equal([merged.json.id, merged.json.enable, merged.json.sql, merged.json.description], [id, false, 'SELECT * FROM "t/#"', 'd1']);
  assert.is((await call('PUT', `/rules/${id}`, { sql: 'SELECT FROM' })).status, 400);
  assert.is((await call('GET', `/rules/${id}`)).json.sql, 'SELECT * FROM "t/#"', 'a refused PUT changes nothing');
  const made = await call('PUT', '/rules/fresh', { sql: 'SELECT * FROM "$events/client_connected", "a/+"' });
  assert.equal([made.status, made.json.id, made.json.from], [200, 'fresh', ['$events/client_connected', 'a/+']]);
  assert.is((await call('DELETE', `/rules/${id}`)).status, 204);
  assert.is((await call('GET', `/rules/${id}`)).status, 404);
});

test('GET /rules filters and pages', async () => {
  await call('POST', '/rules', { id: 'r1', sql: 'SELECT * FROM "t/1"', description: 'first one', actions: ['http:a'] });
  await call('POST', '/rules', { id: 'r2', sql: 'SELECT * FROM "t/2", "$bridges/mqtt:src"', enable: false });
  await call('POST', '/rules', { id: 'x3', sql: 'SELECT * FROM "$events/client_connected"', description: 'third' });
  const ids = async (query: string) => ((await call('GET', `/rules${query}`)).json.data as { id: string }[]).map((r) => r.id);
  assert.equal(await ids(''), ['r1', 'r2', 'x3']);
  assert.equal(await ids('?enable=false'), ['r2']);
  assert.equal(await ids('?from=t/1'), ['r1']);
  assert.equal(await ids('?like_id=r'), ['r1', 'r2']);
  assert.equal(await ids('?like_from=events'), ['x3']);
  assert.equal(await ids('?match_from=t/%2B'), ['r1', 'r2']);
  assert.equal(await ids('?like_description=ir'), ['r1', 'x3']);
  assert.equal(await ids('?action=http:a&action=http:b'), ['r1']);
  assert.equal(await ids('?source=mqtt:src'), ['r2']);
  const page = (await call('GET', '/rules?page=2&limit=2')).json;
  assert.equal(page, { data: [page.data[0]], meta: { page: 2, limit: 2, hasnext: false, count: 3 } });
  assert.is(page.data[0].id, 'x3');
  assert.equal((await call('GET', '/rules?like_id=r&limit=1')).json.meta, { page: 1, limit: 1, hasnext: true });
  assert.is((await call('GET', '/rules?page=0')).status, 400);
  assert.is((await call('GET', '/rules?limit=10001')).status, 400);
});

test('POST /rule_test: output, FOREACH array, events, SQL Not Match, unknown event, parse error', async () => {
  const run = (sql: string, context: Record<string, unknown>) => call('POST', '/rule_test', { sql, context });
  const ok = await run('SELECT payload.msg as msg, clientid FROM "t/#" WHERE msg = \'hello\'', { event_type: 'message_publish', topic: 't/a', payload: '{"msg":"hello"}', clientid: 'c1' });
  assert.equal([ok.status, ok.json], [200, { msg: 'hello', clientid: 'c1' }]);
  // Missing context fields come from the event's example columns.
  assert.equal((await run('SELECT clientid, qos FROM "t/#"', { event_type: 'message_publish', topic: 't/b' })).json, { clientid: 'c_emqx', qos: 1 });
  const notMatch = { code: 'NOT_MATCH', message: 'SQL Not Match' };
  const where = await run('SELECT * FROM "t/#" WHERE payload.msg = \'bye\'', { event_type: 'message_publish', topic: 't/a', payload: '{"msg":"hello"}' });
  assert.equal([where.status, where.json], [412, notMatch]);
  const topic = await run('SELECT * FROM "x/#"', { event_type: 'message_publish', topic: 't/a' });
  assert.equal([topic.status, topic.json], [412, notMatch]);
  const each = await run('FOREACH payload.l AS n DO n + 1 AS m INCASE n > 1 FROM "t/#"', { event_type: 'message_publish', topic: 't/a', payload: '{"l":[1,2,3]}' });
  assert.equal(each.json, [{ m: 3 }, { m: 4 }]);
  const event = await run('SELECT clientid, event FROM "$events/client_connected"', { event_type: 'client_connected', clientid: 'dev-1' });
  assert.equal(event.json, { clientid: 'dev-1', event: 'client.connected' });
  assert.is((await run('SELECT * FROM "t/#"', { event_type: 'client_connected' })).status, 412);
  assert.equal((await run('SELECT * FROM "t/#"', { event_type: 'nope' })).json, { code: 'BAD_REQUEST', message: 'unknown event type' });
  assert.equal((await run('SELECT * FROM "t/#"', {})).status, 400);
  const parse = await run('SELECT a,\n  FROM "t/#"', { event_type: 'message_publish' });
  assert.equal([parse.status, parse.json.message], [400, 'Bad Arguments: {parse_error, syntax error before: \'FROM\' at line 2, column 3}']);
  const failing = await run('SELECT int(clientid) AS n FROM "t/#"', { event_type: 'message_publish', topic: 't/a' });
  assert.is(failing.status, 400);
  assert.is((await call('POST', '/rule_test', { sql: 'SELECT * FROM "t/#"' })).status, 400);
});

test('GET /rule_events and GET/PUT /rule_engine', async () => {
  const events = (await call('GET', '/rule_events')).json as { event: string; columns: string[]; test_columns: Record<string, [unknown, string]>; title: { en: string; zh: string }; sql_example: string }[];
  const names = events.map((e) => e.event);
  for (const e of ['$events/message_publish', '$events/message_delivered', '$events/message_acked', '$events/message_dropped', '$events/delivery_dropped',
    '$events/client_connected', '$events/client_disconnected', '$events/client_connack', '$events/client_check_authz_complete',
    '$events/session_subscribed', '$events/session_unsubscribed', '$bridges/mqtt:*']) assert.ok(names.includes(e), e);
  const connected = events.find((e) => e.event === '$events/client_connected')!;
  assert.ok(connected.columns.includes('connected_at') && connected.columns.includes('proto_ver'));
  assert.equal(connected.test_columns.clientid, ['c_emqx', 'The clientid of the client']);
  assert.is(connected.title.en, 'Client connected');
  const publishEvent = events.find((e) => e.event === '$events/message_publish')!;
  assert.equal(Object.keys(publishEvent.test_columns), ['clientid', 'username', 'topic', 'qos', 'payload']);
});

// emqx_rule_engine_api.erl '/rule_engine'/2 (v5.5.1 to 6.2.2) answers emqx_conf:get([rule_engine])
// less `rules`: the checked config, so the timeout in milliseconds (timeout_duration_ms()) and the
// deprecated, hidden jq_implementation_module left out; 6.x adds ssrf and
// limit_selects_in_namespace (emqx_rule_engine_schema.erl rule_engine_settings/0 at 6.2.2).
const SSRF_6 = {
  enable: false, allow_cidrs: [],
  deny_cidrs: ['127.0.0.0/8', '::1/128', 'fe80::/10', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', '0.0.0.0/32', '224.0.0.0/4', 'ff00::/8', '100.100.100.200/32', '169.254.0.0/16'],
  deny_hosts: ['metadata.tencentyun.com', 'metadata.google.internal', 'metadata.azure.internal'],
};
for (const { version, edition } of PROFILES) {
  test(`${version}-${edition}: GET/PUT /rule_engine answer the checked settings of the release`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition });
    const token = await login(app);
    const six = version.startsWith('6.');
    const fresh = { ignore_sys_message: true, jq_function_default_timeout: 10000, ...(six ? { ssrf: SSRF_6, limit_selects_in_namespace: true } : {}) };
    assert.equal((await api(app, 'GET', '/api/v5/rule_engine', { token })).json(), fresh);
    // A deprecated field is taken and dropped; "20s" is kept as given and answered in ms; the
    // string "false" is a boolean to hocon.
    const put = await api(app, 'PUT', '/api/v5/rule_engine', { token, body: { ignore_sys_message: 'false', jq_function_default_timeout: '20s', jq_implementation_module: 'jq_port' } });
    assert.is(put.statusCode, 200, put.body);
    assert.equal(put.json(), { ...fresh, ignore_sys_message: false, jq_function_default_timeout: 20000 });
    assert.equal((await api(app, 'GET', '/api/v5/rule_engine', { token })).json(), put.json());
    // Every bad value is named, in the release's wording; an unknown field is refused by name.
    const bad = await api(app, 'PUT', '/api/v5/rule_engine', { token, body: { ignore_sys_message: 'sometimes', jq_function_default_timeout: 'soon' } });
    assert.is(bad.statusCode, 400);
    assert.is(bad.json().code, 'BAD_REQUEST');
    for (const word of ['root.ignore_sys_message', 'root.jq_function_default_timeout']) assert.match(bad.json().message, word);
    const unknown = await api(app, 'PUT', '/api/v5/rule_engine', { token, body: { nope: 1 } });
    assert.is(unknown.statusCode, 400);
    for (const word of ['unknown_fields', 'nope']) assert.match(unknown.json().message, word);
    // Only on 6.x is ssrf a field.
    const ssrf = await api(app, 'PUT', '/api/v5/rule_engine', { token, body: { ssrf: { enable: true } } });
    assert.is(ssrf.statusCode, six ? 200 : 400, ssrf.body);
    assert.equal((await api(app, 'GET', '/api/v5/rule_engine', { token })).json(), six ? { ...put.json(), ssrf: { ...SSRF_6, enable: true } } : put.json());
    await app.close();
  });
}

test('rules and rule-engine settings survive a restart with --data-dir', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rules-'));
  try {
    const first = await buildTestApp({ dataDir: dir });
    const t1 = await login(first);
    assert.is((await api(first, 'POST', '/api/v5/rules', { token: t1, body: { id: 'kept', sql: 'SELECT * FROM "k/#"', actions: [{ function: 'console' }] } })).statusCode, 201);
    await api(first, 'PUT', '/api/v5/rule_engine', { token: t1, body: { ignore_sys_message: false } });
    await first.close();
    const second = await buildTestApp({ dataDir: dir });
    const t2 = await login(second);
    const kept = (await api(second, 'GET', '/api/v5/rules/kept', { token: t2 })).json();
    assert.equal([kept.sql, kept.from, kept.actions], ['SELECT * FROM "k/#"', ['k/#'], [{ function: 'console' }]]);
    assert.is((await api(second, 'GET', '/api/v5/rule_engine', { token: t2 })).json().ignore_sys_message, false);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
