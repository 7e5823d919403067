// System topics (PUT /configs/sys_topics): uptime and datetime at the heartbeat interval, stats
// and metrics at the message interval, and client connected/disconnected
// event messages only while sys_event_messages enables them; intervals change at once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MqttClient } from 'mqtt';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let watcher: MqttClient;
const seen: { topic: string; payload: string; at: number }[] = [];

test.before(async () => {
  sim = await startSimulator({ app: { emqxVersion: '5.5.1' } });
  token = await login(sim.baseUrl);
  watcher = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'sys-watcher' });
  watcher.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString(), at: Date.now() }));
  await new Promise<void>((resolve) => watcher.subscribe('$SYS/#', () => resolve()));
});

test.after(async () => {
  await endMqtt(watcher);
  await sim.close();
});

const put = (body: unknown) => request(sim.baseUrl, 'PUT', '/api/v5/configs/sys_topics', { token, body });
const base = '$SYS/brokers/emqx@node1';

test('the defaults are EMQX\'s', async () => {
  const res = await request(sim.baseUrl, 'GET', '/api/v5/configs/sys_topics', { token });
  assert.equal(res.json, {
    sys_msg_interval: '1m', sys_heartbeat_interval: '30s',
    sys_event_messages: { client_connected: true, client_disconnected: true, client_subscribed: false, client_unsubscribed: false },
  });
});

test('uptime arrives at the configured heartbeat interval', async () => {
  assert.is((await put({ sys_heartbeat_interval: '200ms' })).status, 200);
  const start = Date.now();
  await waitFor(() => seen.filter((m) => m.topic === `${base}/uptime` && m.at >= start).length >= 3, 2000, 'three uptime messages');
  const times = seen.filter((m) => m.topic === `${base}/uptime` && m.at >= start).map((m) => m.at);
  const gap = times[2] - times[1];
  assert.ok(gap >= 150 && gap <= 400, `gap ${gap} ms`);
  assert.ok(Number(seen.filter((m) => m.topic === `${base}/uptime`).at(-1)!.payload) > 0);
  assert.ok(seen.some((m) => m.topic === `${base}/datetime`));
  assert.is(seen.find((m) => m.topic === `${base}/version`)!.payload, '5.5.1');
  assert.is(seen.find((m) => m.topic === '$SYS/brokers')!.payload, 'emqx@node1,emqx@node2,emqx@node3');
  assert.is((await put({ sys_heartbeat_interval: 'disabled' })).status, 200);
  await new Promise((r) => setTimeout(r, 250));
  const count = seen.filter((m) => m.topic === `${base}/uptime`).length;
  await new Promise((r) => setTimeout(r, 500));
  assert.is(seen.filter((m) => m.topic === `${base}/uptime`).length, count, 'disabled stops the heartbeat');
});

test('stats and metrics at sys_msg_interval', async () => {
  assert.is((await put({ sys_msg_interval: '200ms' })).status, 200);
  await waitFor(() => seen.some((m) => m.topic === `${base}/stats/connections/count`), 1000, 'stats');
  await waitFor(() => seen.some((m) => m.topic === `${base}/metrics/messages/received`), 1000, 'metrics');
  assert.is(seen.filter((m) => m.topic === `${base}/stats/connections/count`).at(-1)!.payload, '1');
  await put({ sys_msg_interval: 'disabled' });
});

test('client connected and disconnected events follow sys_event_messages', async () => {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'ev-1', username: 'u1' });
  await endMqtt(c);
  await waitFor(() => seen.some((m) => m.topic === `${base}/clients/ev-1/disconnected`), 1000, 'disconnected event');
  const connected = JSON.parse(seen.find((m) => m.topic === `${base}/clients/ev-1/connected`)!.payload);
  assert.is(connected.clientid, 'ev-1');
  assert.is(connected.username, 'u1');
  assert.is(connected.proto_ver, 4);
  assert.is((await put({ sys_event_messages: { client_connected: false, client_disconnected: false } })).status, 200);
  const c2 = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'ev-2' });
  await endMqtt(c2);
  await new Promise((r) => setTimeout(r, 200));
  assert.not.ok(seen.some((m) => m.topic.includes('/clients/ev-2/')));
});

test('invalid intervals are refused with the path', async () => {
  const res = await put({ sys_heartbeat_interval: '30 seconds' });
  assert.is(res.status, 400);
  // emqx_dashboard_swagger.erl check_request_body/5: BAD_REQUEST, the body checked as `root`.
  assert.is(res.json.code, 'BAD_REQUEST');
  assert.is(JSON.parse(res.json.message).path, 'root.sys_heartbeat_interval');
});

test.run();
