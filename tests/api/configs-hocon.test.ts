// The whole configuration (emqx-api-part1 §22.2): GET /configs as HOCON text that reads back to
// what the per-root GETs answer (or as JSON), PUT /configs with HOCON text in merge and replace
// mode whose changes show in the per-root GETs and take effect (log level, $SYS heartbeat), `******`
// keeping secrets, an invalid PUT that changes nothing, read-only keys, and POST /configs_reset.
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseHocon } from '../../simulator/lib/hocon.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

let app: FastifyInstance;
let token = '';

test.before.each(async () => {
  app = await buildTestApp({ emqxVersion: '5.5.1' });
  token = await login(app);
});

test.after.each(async () => {
  await app.close();
});

const get = (url: string, headers: Record<string, string> = {}) => api(app, 'GET', `/api/v5${url}`, { token, headers });
const putText = (text: string, query = '') => app.inject({
  method: 'PUT', url: `/api/v5/configs${query}`, payload: text,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
});
const reset = (root: string, query = '') => api(app, 'POST', `/api/v5/configs_reset/${root}${query}`, { token });
const json = async (url: string) => (await get(url)).json();

const PER_ROOT: Record<string, string> = {
  log: '/configs/log', sys_topics: '/configs/sys_topics', dashboard: '/configs/dashboard', alarm: '/configs/alarm',
  sysmon: '/configs/sysmon', limiter: '/configs/limiter', retainer: '/mqtt/retainer', prometheus: '/prometheus',
  opentelemetry: '/opentelemetry',
};

test('GET /configs is HOCON text that reads back to what the per-root GETs answer', async () => {
  const res = await get('/configs');
  assert.is(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  const whole = parseHocon(res.body);
  for (const [root, url] of Object.entries(PER_ROOT)) assert.equal(whole[root], await json(url), root);
  const zone = await json('/configs/global_zone');
  for (const part of ['mqtt', 'flapping_detect', 'force_shutdown', 'force_gc']) assert.equal(whole[part], zone[part], part);
  const listeners = whole.listeners as Record<string, Record<string, Record<string, unknown>>>;
  assert.is(listeners.tcp.default.bind, '0.0.0.0:1883');
  assert.is(listeners.ws.default.bind, '0.0.0.0:8083');
  // Secrets are masked and the text is readable: nested objects, two-space indents.
  assert.match(res.body, /^dashboard \{$/m);
  assert.match(res.body, /^ {2}default_password = "\*\*\*\*\*\*"$/m);
  assert.not.match(res.body, /default_password = "public"/);
});

test('GET /configs?key= gives one root; Accept picks JSON; other Accept types and unknown keys are refused', async () => {
  const one = await get('/configs?key=sys_topics', { accept: 'text/plain' });
  assert.equal(parseHocon(one.body), { sys_topics: await json('/configs/sys_topics') });
  assert.match(one.body, /^sys_topics \{\n {2}sys_msg_interval = 1m\n/);
  const asJson = await get('/configs?key=force_gc', { accept: 'application/json' });
  assert.match(String(asJson.headers['content-type']), /^application\/json/);
  assert.equal(asJson.json(), { force_gc: { enable: true, count: 16000, bytes: '16MB' } });
  const all = (await get('/configs', { accept: 'application/json' })).json();
  assert.equal(all.log, await json('/configs/log'));
  assert.ok((await get('/configs', { accept: '*/*' })).body.startsWith('listeners {'));
  const bad = await get('/configs', { accept: 'application/xml' });
  assert.is(bad.statusCode, 400);
  assert.is(bad.json().code, 'INVALID_ACCEPT');
  const missing = await get('/configs?key=nosuchroot');
  assert.is(missing.statusCode, 404);
  assert.is(missing.json().code, 'NOT_FOUND');
  assert.is((await get('/configs?node=emqx@node1')).statusCode, 200);
  assert.is((await get('/configs?node=nobody@nowhere')).statusCode, 404);
});

test('PUT /configs merges HOCON into each root through the per-root paths, and the change takes effect', async () => {
  const beats: number[] = [];
  app.broker.subscribe('$SYS/brokers/+/uptime', (_packet, done) => {
    beats.push(Date.now());
    done();
  }, () => {});
  const res = await putText(`
    sys_topics.sys_heartbeat_interval = 100ms
    log { console { enable = true, level = error } }
    mqtt { max_packet_size = 2MB }
    force_gc.count = 20000
    alarm { size_limit = 500 }
  `);
  assert.is(res.statusCode, 200, res.body);
  assert.is(res.body, '');
  const sys = await json('/configs/sys_topics');
  assert.is(sys.sys_heartbeat_interval, '100ms');
  assert.is(sys.sys_msg_interval, '1m', 'merge keeps the keys not named');
  assert.is((await json('/configs/log')).console.level, 'error');
  assert.is(app.log.level, 'error', 'the log root sets what the simulator logs');
  const zone = await json('/configs/global_zone');
  assert.is(zone.mqtt.max_packet_size, '2MB');
  assert.is(zone.mqtt.max_inflight, 32);
  assert.is(zone.force_gc.count, 20000);
  assert.is((await json('/configs/alarm')).size_limit, 500);
  // The $SYS heartbeat follows the new interval.
  const start = Date.now();
  while (beats.length < 3 && Date.now() - start < 2000) await new Promise((r) => setTimeout(r, 20));
  assert.ok(beats.length >= 3, `heartbeats: ${beats.length}`);
});

test('the whole text read back and written again changes nothing, secrets included', async () => {
  const before = await get('/configs');
  const res = await putText(before.body);
  assert.is(res.statusCode, 200, res.body);
  assert.is((await get('/configs')).body, before.body);
  // `******` kept the dashboard password: admin's default password still logs in through the store.
  assert.is(app.store.configRoots.get('dashboard').default_password, 'public');
});

test('replace mode resets the keys a root leaves out', async () => {
  assert.is((await putText('sysmon.vm.long_schedule = 500ms\nsysmon.vm.long_gc = 10ms')).statusCode, 200);
  assert.is((await json('/configs/sysmon')).vm.long_gc, '10ms');
  assert.is((await putText('sysmon { vm { long_schedule = 300ms } }', '?mode=replace')).statusCode, 200);
  const sysmon = await json('/configs/sysmon');
  assert.is(sysmon.vm.long_schedule, '300ms');
  assert.is(sysmon.vm.long_gc, 'disabled', 'left out, so back to the default');
});

test('an invalid root refuses the whole PUT with errors naming the path, and nothing changes', async () => {
  const state = JSON.stringify(app.store.state);
  const whole = (await get('/configs')).body;
  const res = await putText('sys_topics.sys_heartbeat_interval = 5s\nlog.console.level = loud\nforce_shutdown.max_mailbox_size = -1');
  assert.is(res.statusCode, 400);
  const body = JSON.parse(res.body);
  assert.is(body.code, 'UPDATE_FAILED');
  assert.is(body.errors.log.path, 'log.console.level');
  // hocon_tconf.erl check_enum_symbol/2: a text that names no atom the broker knows.
  assert.is(body.errors.log.reason, 'unable_to_convert_to_enum_symbol');
  assert.is(body.errors.force_shutdown.path, 'force_shutdown.max_mailbox_size');
  assert.match(body.message, /log\.console\.level/);
  assert.not.ok(body.errors.sys_topics);
  assert.is(JSON.stringify(app.store.state), state);
  assert.is((await get('/configs')).body, whole);
  assert.is((await json('/configs/sys_topics')).sys_heartbeat_interval, '30s');
});

test('HOCON syntax errors, unknown roots and non-object roots are 400 with the place', async () => {
  const syntax = await putText('log {\n  console.level = info\n');
  assert.is(syntax.statusCode, 400);
  const body = JSON.parse(syntax.body);
  assert.equal({ line: body.errors.hocon.line, column: body.errors.hocon.column }, { line: 3, column: 1 });
  assert.match(body.message, /^line 3, column 1: missing "\}"/);
  const unknown = JSON.parse((await putText('nosuchroot { a = 1 }')).body);
  assert.is(unknown.errors.nosuchroot.reason, 'unknown config root');
  const scalar = JSON.parse((await putText('log = 1')).body);
  assert.is(scalar.errors.log.reason, 'expected an object');
  assert.is((await putText('# nothing')).statusCode, 200);
});

test('read-only keys refuse the PUT unless ignore_readonly=true, which skips them', async () => {
  const password = await putText('dashboard { default_password = "changed", cors = true }');
  assert.is(password.statusCode, 400);
  assert.is(JSON.parse(password.body).errors.dashboard.reason, 'read only');
  assert.is((await json('/configs/dashboard')).cors, false);
  const listener = await putText('listeners.tcp.default.max_connections = 10');
  assert.is(listener.statusCode, 400);
  assert.is(JSON.parse(listener.body).errors.listeners.path, 'listeners.tcp.default');
  const skipped = await putText('dashboard { default_password = "changed", cors = true }\nlisteners.tcp.default.max_connections = 10', '?ignore_readonly=true');
  assert.is(skipped.statusCode, 200, skipped.body);
  assert.is((await json('/configs/dashboard')).cors, true);
  assert.is(app.store.configRoots.get('dashboard').default_password, 'public');
  assert.is.not((await json('/listeners/tcp:default')).max_connections, 10);
});

test('POST /configs_reset/{root} restores the reference defaults, of a root or one dot path', async () => {
  assert.is((await putText('sys_topics { sys_heartbeat_interval = 5s, sys_msg_interval = 2m }\nmqtt.max_inflight = 64\nmqtt.idle_timeout = 30s')).statusCode, 200);
  const one = await reset('sys_topics', '?conf_path=sys_heartbeat_interval');
  assert.is(one.statusCode, 200);
  const sys = await json('/configs/sys_topics');
  assert.equal([sys.sys_heartbeat_interval, sys.sys_msg_interval], ['30s', '2m'], 'only the path is reset');
  assert.is((await reset('sys_topics')).statusCode, 200);
  assert.is((await json('/configs/sys_topics')).sys_msg_interval, '1m');
  assert.is((await reset('mqtt', '?conf_path=max_inflight')).statusCode, 200);
  const mqtt = (await json('/configs/global_zone')).mqtt;
  assert.equal([mqtt.max_inflight, mqtt.idle_timeout], [32, '30s']);
  assert.is((await reset('mqtt')).statusCode, 200);
  assert.is((await json('/configs/global_zone')).mqtt.idle_timeout, '15s');
  assert.is((await reset('log', '?conf_path=console.level')).statusCode, 200);
  assert.is((await json('/configs/log')).console.level, 'warning');
});

test('reset errors: a path without a default, an unknown root, the listeners', async () => {
  const noDefault = await reset('sys_topics', '?conf_path=no_such_key');
  assert.is(noDefault.statusCode, 400);
  assert.is(noDefault.json().code, 'NO_DEFAULT_VALUE');
  assert.is((await reset('mqtt', '?conf_path=nope')).json().code, 'NO_DEFAULT_VALUE');
  const unknown = await reset('nosuchroot');
  assert.is(unknown.statusCode, 400);
  assert.is(unknown.json().code, 'BAD_REQUEST');
  assert.is((await reset('listeners')).json().code, 'REST_FAILED');
});

test('every whole-configuration route needs a token', async () => {
  for (const [method, url] of [['GET', '/configs'], ['PUT', '/configs'], ['POST', '/configs_reset/log']] as const) {
    const res = await app.inject({ method, url: `/api/v5${url}` });
    assert.is(res.statusCode, 401, `${method} ${url}`);
  }
});

test.run();
