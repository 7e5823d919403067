// The zone's mqtt limits on real MQTT traffic (PUT /configs/global_zone → mqtt): an over-size
// packet disconnects the client and is counted, long client ids are refused, wildcard and
// too-deep filters get 0x80 (up to the most levels the broker routes), retain and QoS above the
// limits disconnect, the subscription quota refuses the next filter; and the retainer's enable,
// payload size, count and expiry apply.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MqttClient } from 'mqtt';
import { MAX_ROUTED_TOPIC_LEVELS } from '../../simulator/broker/mqtt-limits.ts';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator, putZone } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator();
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
const zone = (mqtt: Record<string, unknown>) => putZone(sim.baseUrl, token, mqtt);
const metrics = async () => (await call('GET', '/metrics?aggregate=true')).json as Record<string, number>;
const url = () => `mqtt://127.0.0.1:${sim.mqtt}`;

/** Resolves when the broker closes the client's connection; fails after two seconds. */
function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the broker did not close the connection')), 2000);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function subscribe(client: MqttClient, filter: string, qos: 0 | 1 | 2 = 0): Promise<number> {
  // mqtt.js reports a 0x80 in the SUBACK as an error carrying that code.
  return new Promise((resolve, reject) => client.subscribe(filter, { qos }, (err, granted) => {
    const code = (err as Error & { packet?: { granted?: number[] } } | null)?.packet?.granted?.[0];
    if (code !== undefined) resolve(code);
    else if (err) reject(err);
    else resolve(granted![0].qos);
  }));
}

test('max_packet_size 1KB: a 2 KB publish disconnects the client and is counted; 500 bytes pass', async () => {
  await zone({ max_packet_size: '1KB' });
  const sub = await connectMqtt(url(), { clientId: 'size-sub' });
  await subscribe(sub, 'size/#');
  const got: string[] = [];
  sub.on('message', (topic) => got.push(topic));
  const before = await metrics();
  const pub = await connectMqtt(url(), { clientId: 'size-pub' });
  pub.publish('size/small', Buffer.alloc(500));
  await waitFor(() => got.includes('size/small'), 1000, 'small message');
  const gone = closed(pub);
  pub.publish('size/big', Buffer.alloc(2048));
  await gone;
  const after = await metrics();
  assert.is(after['packets.publish.error'], before['packets.publish.error'] + 1);
  assert.not.ok(got.includes('size/big'));
  await endMqtt(sub);
  await zone({ max_packet_size: '1MB' });
});

test('max_clientid_len refuses a longer client id with CONNACK 2', async () => {
  await zone({ max_clientid_len: 23 });
  const err = await connectMqtt(url(), { clientId: 'x'.repeat(24) }).then(() => null, (e: Error & { code?: number }) => e);
  assert.ok(err);
  assert.is(err!.code, 2);
  await endMqtt(await connectMqtt(url(), { clientId: 'y'.repeat(23) }));
  await zone({ max_clientid_len: 65535 });
});

test('wildcard_subscription false: t/# gets 0x80, t/a is granted', async () => {
  await zone({ wildcard_subscription: false });
  const client = await connectMqtt(url(), { clientId: 'wild' });
  assert.is(await subscribe(client, 't/#', 1), 128);
  assert.is(await subscribe(client, 't/+/x', 1), 128);
  assert.is(await subscribe(client, 't/a', 1), 1);
  await endMqtt(client);
  await zone({ wildcard_subscription: true });
});

test('max_topic_levels: deeper filters get 0x80, deeper publishes disconnect', async () => {
  await zone({ max_topic_levels: 3 });
  const client = await connectMqtt(url(), { clientId: 'levels' });
  assert.is(await subscribe(client, 'a/b/c/d'), 128);
  assert.is(await subscribe(client, 'a/b/c'), 0);
  const gone = closed(client);
  client.publish('a/b/c/d', 'deep');
  await gone;
  await zone({ max_topic_levels: 128 });
});

test('max_topic_levels 65535: topics deeper than the broker routes (MAX_ROUTED_TOPIC_LEVELS) are refused without harm', async () => {
  await zone({ max_topic_levels: 65535 });
  const deep = Array.from({ length: MAX_ROUTED_TOPIC_LEVELS + 1 }, () => 'x').join('/');
  const api = await call('POST', '/publish', { topic: deep, payload: 'x' });
  assert.is(api.status, 400, api.text);
  assert.match(api.json.message, `more than ${MAX_ROUTED_TOPIC_LEVELS} levels`);
  const pub = await connectMqtt(url(), { clientId: 'routed-pub' });
  const gone = closed(pub);
  pub.publish(deep, 'deep');
  await gone;
  const ok = await connectMqtt(url(), { clientId: 'routed-ok' });
  assert.is(await subscribe(ok, Array.from({ length: MAX_ROUTED_TOPIC_LEVELS }, () => 'x').join('/')), 0);
  await endMqtt(ok);
  await zone({ max_topic_levels: 128 });
});

test('max_subscriptions: the filter over the quota gets 0x80, re-subscribing a held one is fine', async () => {
  await zone({ max_subscriptions: 2 });
  const client = await connectMqtt(url(), { clientId: 'quota' });
  assert.is(await subscribe(client, 'q/1'), 0);
  assert.is(await subscribe(client, 'q/2'), 0);
  assert.is(await subscribe(client, 'q/3'), 128);
  assert.is(await subscribe(client, 'q/1', 1), 1);
  await endMqtt(client);
  await zone({ max_subscriptions: 'infinity' });
});

test('retain_available false and max_qos_allowed 1: such publishes disconnect', async () => {
  await zone({ retain_available: false, max_qos_allowed: 1 });
  const a = await connectMqtt(url(), { clientId: 'retain-off' });
  const goneA = closed(a);
  a.publish('r/x', 'keep', { retain: true });
  await goneA;
  const b = await connectMqtt(url(), { clientId: 'qos-off' });
  await new Promise<void>((resolve) => b.publish('r/q1', 'ok', { qos: 1 }, () => resolve()));
  const goneB = closed(b);
  b.publish('r/q2', 'no', { qos: 2 });
  await goneB;
  assert.is((await call('GET', '/mqtt/retainer/messages')).json.data.length, 0);
  await zone({ retain_available: true, max_qos_allowed: 2 });
});

test('retainer limits: disabled, payload size and count keep messages out of the store; expiry removes them', async () => {
  const pub = await connectMqtt(url(), { clientId: 'retainer-pub' });
  const send = (topic: string, size: number) => new Promise<void>((resolve) => pub.publish(topic, Buffer.alloc(size, 'a'), { retain: true, qos: 1 }, () => resolve()));
  const topics = async () => ((await call('GET', '/mqtt/retainer/messages')).json.data as { topic: string }[]).map((m) => m.topic).sort();
  let res = await call('PUT', '/mqtt/retainer', { enable: false });
  assert.is(res.status, 200);
  await send('ret/off', 10);
  assert.equal(await topics(), []);
  res = await call('PUT', '/mqtt/retainer', { enable: true, max_payload_size: '100B', backend: { max_retained_messages: 2 } });
  assert.is(res.status, 200, res.text);
  assert.is(res.json.backend.storage_type, 'ram');
  await send('ret/big', 200);
  await send('ret/1', 10);
  await send('ret/2', 10);
  await send('ret/3', 10);
  assert.equal(await topics(), ['ret/1', 'ret/2']);
  // A new subscriber gets only what the store kept.
  const sub = await connectMqtt(url(), { clientId: 'retainer-sub' });
  const got: string[] = [];
  sub.on('message', (topic) => got.push(topic));
  await subscribe(sub, 'ret/#');
  await waitFor(() => got.length === 2, 1000, 'retained delivered');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got.sort(), ['ret/1', 'ret/2']);
  await endMqtt(sub);
  await call('PUT', '/mqtt/retainer', { msg_expiry_interval: '1s' });
  await waitFor(async () => (await topics()).length === 0, 3000, 'retained messages expired');
  const bad = await call('PUT', '/mqtt/retainer', { max_payload_size: 'lots' });
  assert.is(bad.status, 400);
  // emqx_dashboard_swagger.erl check_request_body/5: BAD_REQUEST, the body checked as `root`.
  assert.is(bad.json.code, 'BAD_REQUEST');
  assert.is(JSON.parse(bad.json.message).path, 'root.max_payload_size');
  await call('PUT', '/mqtt/retainer', { msg_expiry_interval: '0s', max_payload_size: '1MB', backend: { max_retained_messages: 0 } });
  await endMqtt(pub);
});

test.run();
