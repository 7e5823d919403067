// Slow subscriptions (emqx-api-part1 §13) measured on real mqtt.js deliveries: a subscriber that
// acknowledges QoS 1 messages 300 ms late is recorded with a duration near 300 ms when the
// threshold is 100 ms and not when it is 500 ms; prompt subscribers, QoS 0 and the internal
// transfer time stay below the threshold; top-k, expiry, clearing and the settings' checks.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SlowSubs } from '../../simulator/store/messaging/slow-subs.ts';
import type { PersistedState } from '../../simulator/store/state.ts';
import { connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';
import { parseProfile } from '../../simulator/store/profile.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

test.before(async () => {
  sim = await startSimulator();
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  await request(sim.baseUrl, 'DELETE', '/api/v5/slow_subscriptions', { token });
});

test.after(async () => {
  await sim.close();
});

const get = (p: string) => request(sim.baseUrl, 'GET', p, { token });
const settings = (body: Record<string, unknown>) => request(sim.baseUrl, 'PUT', '/api/v5/slow_subscriptions/settings', { token, body });
const records = async () => (await get('/api/v5/slow_subscriptions')).json.data as { clientid: string; topic: string; timespan: number; node: string; last_update_time: number }[];

/** A client whose PUBACK/PUBREC for every message goes out `delayMs` after the message arrived. */
async function client(clientId: string, delayMs = 0): Promise<MqttClient & { acked: number }> {
  const c = (await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId })) as MqttClient & { acked: number };
  c.on('error', () => {});
  c.acked = 0;
  // mqtt.js acknowledges once handleMessage calls back (customHandleAcks needs MQTT 5).
  c.handleMessage = (_packet, callback) => {
    setTimeout(() => {
      c.acked++;
      callback();
    }, delayMs);
  };
  open.push(c);
  return c;
}

const enable = (extra: Record<string, unknown> = {}) =>
  settings({ enable: true, threshold: '100ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole', ...extra });

test('a subscriber acking QoS 1 after 300 ms is recorded near 300 ms over a 100 ms threshold; a prompt one is not', async () => {
  assert.is((await enable()).status, 200);
  const slow = await client('slow-sub', 300);
  const fast = await client('fast-sub');
  await slow.subscribeAsync('slow/t', { qos: 1 });
  await fast.subscribeAsync('slow/t', { qos: 1 });
  const pub = await client('slow-pub');
  const before = Date.now();
  await pub.publishAsync('slow/t', 'hello', { qos: 1 });
  await waitFor(async () => (await records()).length > 0, 2000, 'a slow record');
  const rows = await records();
  assert.equal(rows.map((r) => [r.clientid, r.topic, r.node]), [['slow-sub', 'slow/t', 'emqx@node1']]);
  assert.ok(rows[0].timespan >= 290 && rows[0].timespan < 600, `timespan ${rows[0].timespan}`);
  assert.ok(rows[0].last_update_time >= before && rows[0].last_update_time <= Date.now());
  assert.is(fast.acked, 1, 'the prompt subscriber got it too');

  // Response time alone is also ~300 ms; the in-process hand-over is far below 100 ms.
  await request(sim.baseUrl, 'DELETE', '/api/v5/slow_subscriptions', { token });
  await enable({ stats_type: 'response' });
  await pub.publishAsync('slow/t', 'again', { qos: 1 });
  await waitFor(async () => (await records()).length > 0, 2000, 'a response-time record');
  assert.ok((await records())[0].timespan >= 290);
  await request(sim.baseUrl, 'DELETE', '/api/v5/slow_subscriptions', { token });
  await enable({ stats_type: 'internal' });
  const acked = slow.acked;
  await pub.publishAsync('slow/t', 'internal', { qos: 1 });
  await waitFor(() => slow.acked === acked + 1, 2000, 'the slow ack');
  assert.equal(await records(), [], 'internal transfer time is under the threshold');
});

test('with a 500 ms threshold the 300 ms subscriber is not recorded; QoS 2 completes with PUBCOMP', async () => {
  await enable({ threshold: '500ms' });
  const slow = await client('slow-500', 300);
  await slow.subscribeAsync('slow/500', { qos: 1 });
  const pub = await client('pub-500');
  await pub.publishAsync('slow/500', 'x', { qos: 1 });
  await waitFor(() => slow.acked === 1, 2000, 'acked');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(await records(), []);

  await enable({ threshold: '200ms' });
  const qos2 = await client('slow-qos2', 300);
  await qos2.subscribeAsync('slow/q2', { qos: 2 });
  await pub.publishAsync('slow/q2', 'x', { qos: 2 });
  await waitFor(async () => (await records()).some((r) => r.clientid === 'slow-qos2'), 2000, 'the QoS 2 record');
  assert.ok((await records())[0].timespan >= 290);
  // QoS 0 is never acknowledged, so never measured.
  await slow.subscribeAsync('slow/q0', { qos: 0 });
  await pub.publishAsync('slow/q0', 'x', { qos: 0 });
  await new Promise((r) => setTimeout(r, 400));
  assert.not.ok((await records()).some((r) => r.topic === 'slow/q0'));
});

test('disabled statistics record nothing, and disabling clears what was recorded', async () => {
  await enable();
  const slow = await client('slow-off', 250);
  await slow.subscribeAsync('slow/off', { qos: 1 });
  const pub = await client('pub-off');
  await pub.publishAsync('slow/off', 'x', { qos: 1 });
  await waitFor(async () => (await records()).length === 1, 2000, 'recorded');
  const off = await settings({ enable: false });
  assert.is(off.status, 200);
  assert.equal(await records(), [], 'disabling starts afresh');
  await pub.publishAsync('slow/off', 'y', { qos: 1 });
  await waitFor(() => slow.acked === 2, 2000, 'acked');
  assert.equal(await records(), []);
});

test('settings: defaults, raw values back, missing fields take defaults, threshold at least 100 ms', async () => {
  const fresh = await startSimulator();
  try {
    const t = await login(fresh.baseUrl);
    const read = await request(fresh.baseUrl, 'GET', '/api/v5/slow_subscriptions/settings', { token: t });
    assert.equal(read.json, { enable: false, threshold: '500ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole' });
    const put = (body: unknown) => request(fresh.baseUrl, 'PUT', '/api/v5/slow_subscriptions/settings', { token: t, body });
    const saved = await put({ enable: true, threshold: '1s', expire_interval: '5000ms', top_k_num: 3, stats_type: 'response' });
    assert.equal(saved.json, { enable: true, threshold: '1s', expire_interval: '5000ms', top_k_num: 3, stats_type: 'response' });
    assert.equal((await put({ enable: true })).json, { enable: true, threshold: '500ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole' });
    for (const body of [{ threshold: '50ms' }, { threshold: 'soon' }, { top_k_num: 0 }, { stats_type: 'fast' }]) {
      const res = await put(body);
      assert.equal([res.status, res.json.code], [400, 'BAD_REQUEST'], JSON.stringify(body));
    }
    // page and limit are accepted and ignored (envelope F).
    const list = await request(fresh.baseUrl, 'GET', '/api/v5/slow_subscriptions?page=2&limit=1', { token: t });
    assert.equal(list.json, { data: [] });
  } finally {
    await fresh.close();
  }
});

test('the store keeps the slowest top_k per client and topic and evicts records older than expire_interval', async () => {
  const clock = manualClock();
  const state = { users: [], api_keys: [] } as PersistedState;
  const store = new SlowSubs({ clock, state, profile: parseProfile(undefined, undefined), persist: async () => undefined, onStateReplaced: () => {}, stateReplaced: async () => {} }, 'emqx@node1');
  await store.update({ enable: true, threshold: '100ms', expire_interval: '10s', top_k_num: 2, stats_type: 'whole' });
  const times = (whole: number) => ({ whole, internal: 0, response: whole });
  store.completed('a', 't', times(150), clock.now());
  store.completed('b', 't', times(400), clock.now());
  store.completed('c', 't', times(300), clock.now());
  store.completed('d', 't', times(90), clock.now());
  assert.equal(store.list().map((r) => [r.clientid, r.timespan]), [['b', 400], ['c', 300]]);
  // A newer measurement of the same pair replaces the older one.
  store.completed('c', 't', times(500), clock.now());
  assert.equal(store.list().map((r) => [r.clientid, r.timespan]), [['c', 500], ['b', 400]]);
  clock.advance(6000);
  store.completed('e', 't2', times(200), clock.now());
  assert.equal(store.list().map((r) => r.clientid), ['c', 'b']);
  clock.advance(5000);
  assert.equal(store.list().map((r) => r.clientid), [], 'c and b expired after 10 s; e was never in the top 2');
  store.completed('e', 't2', times(200), clock.now());
  assert.equal(store.list().map((r) => r.clientid), ['e']);
  assert.equal(state.slow_subs?.top_k_num, 2, 'settings are persisted state');
});

test.run();
