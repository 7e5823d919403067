// Delayed publish (emqx-api-part1 §16, emqx_delayed) with real mqtt.js clients: a `$delayed/2/…`
// message arrives two seconds later and is listed meanwhile; most cases run on a manual clock so
// they need not wait. Settings, the limit, disabling, single-message reads and deletes, stats
// and metrics.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  api, buildTestApp, connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor, type ManualClock, type RunningSimulator,
} from '../helpers/simulator.ts';

let sim: RunningSimulator;
let clock: ManualClock;
let token = '';
let open: MqttClient[] = [];

test.before(async () => {
  clock = manualClock();
  sim = await startSimulator({ app: { clock } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  await put({ enable: false });
  await put({ enable: true, max_delayed_messages: 0 });
  await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [] });
});

test.after(async () => {
  await sim.close();
});

const put = (body: unknown) => request(sim.baseUrl, 'PUT', '/api/v5/mqtt/delayed', { token, body });
const get = (p: string) => request(sim.baseUrl, 'GET', p, { token });
const del = (p: string) => request(sim.baseUrl, 'DELETE', p, { token });

interface Listed {
  msgid: string;
  node: string;
  publish_at: string;
  delayed_interval: number;
  delayed_remaining: number;
  expected_at: string;
  topic: string;
  qos: number;
  from_clientid: string;
  from_username: string | null;
}
const list = async (query = '') => (await get(`/api/v5/mqtt/delayed/messages${query}`)).json as { data: Listed[]; meta: Record<string, unknown> };

async function client(clientId: string, target = sim, options: Parameters<typeof connectMqtt>[1] = {}): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${target.mqtt}`, { clientId, ...options });
  c.on('error', () => {});
  open.push(c);
  return c;
}

function inbox(c: MqttClient): string[] {
  const got: string[] = [];
  c.on('message', (topic, payload) => got.push(`${topic}=${payload}`));
  return got;
}

/** Moves the manual clock and lets the broker publish what became due. */
function advance(ms: number) {
  clock.advance(ms);
  sim.app.store.delayed.wake();
}

test('settings: enabled without a limit by default; PUT changes and keeps them', async () => {
  assert.equal((await get('/api/v5/mqtt/delayed')).json, { enable: true, max_delayed_messages: 0 });
  const res = await put({ max_delayed_messages: 5 });
  assert.is(res.status, 200);
  assert.equal(res.json, { enable: true, max_delayed_messages: 5 }, 'a partial body keeps enable');
  assert.equal((await get('/api/v5/mqtt/delayed')).json, { enable: true, max_delayed_messages: 5 });
  const negative = await put({ max_delayed_messages: -1 });
  assert.is(negative.status, 400);
  assert.equal(negative.json, { code: 'BAD_REQUEST', message: 'Max delayed must be equal or greater than 0' });
  assert.is((await put({ enable: 'yes' })).status, 400);
});

test('the settings survive a restart', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-delayed-'));
  try {
    const first = await buildTestApp({ dataDir: dir });
    await api(first, 'PUT', '/api/v5/mqtt/delayed', { token: await login(first), body: { enable: false, max_delayed_messages: 7 } });
    await first.close();
    const second = await buildTestApp({ dataDir: dir });
    assert.equal((await api(second, 'GET', '/api/v5/mqtt/delayed', { token: await login(second) })).json(), { enable: false, max_delayed_messages: 7 });
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// `$delayed/+/#` rather than `$delayed/#`: EMQX authorizes a `$delayed/` filter on what follows its
// second level (emqx_access_control.erl authorize/3), so `$delayed/#` is refused and `$delayed/+/#`
// is authorized as `#`.
test('a $delayed/60/… message is held, listed with §16 fields, and delivered to its topic when due', async () => {
  const sub = await client('dl-sub');
  const got = inbox(sub);
  await sub.subscribeAsync(['d/#', '$delayed/+/#'], { qos: 1 });
  const pub = await client('dl-pub', sim, { username: 'ann' });
  const start = clock.now();
  await pub.publishAsync('$delayed/60/d/t', 'later', { qos: 1 });
  const listed = await list();
  assert.equal(listed.meta, { page: 1, limit: 100, hasnext: false, count: 1 });
  const m = listed.data[0];
  assert.equal(
    { ...m, msgid: undefined, publish_at: undefined, expected_at: undefined },
    { msgid: undefined, node: 'emqx@node1', publish_at: undefined, delayed_interval: 60, delayed_remaining: 60, expected_at: undefined, topic: 'd/t', qos: 1, from_clientid: 'dl-pub', from_username: 'ann' },
  );
  assert.match(m.msgid, /^[0-9A-F]{32}$/);
  assert.is(Date.parse(m.publish_at), start);
  assert.is(Date.parse(m.expected_at), start + 60_000);
  advance(20_500);
  assert.is((await list()).data[0].delayed_remaining, 39, 'the remaining time falls');
  assert.equal(got, [], 'nothing delivered yet, not even on $delayed/…');
  advance(39_500);
  await waitFor(() => got.length === 1, 1000, 'the delivery');
  assert.equal(got, ['d/t=later']);
  assert.equal((await list()).data, []);
});

test('POST /publish to $delayed/30/… is held as over MQTT: 202 no_matching_subscribers now, delivered when due', async () => {
  const sub = await client('dl-api-sub');
  const got = inbox(sub);
  await sub.subscribeAsync('api/d', { qos: 1 });
  const res = await request(sim.baseUrl, 'POST', '/api/v5/publish', { token, body: { topic: '$delayed/30/api/d', payload: 'from the API', qos: 1 } });
  // emqx_mgmt_api_publish.erl: the delayed hook stops the message, so the publish result is [].
  assert.equal([res.status, res.json], [202, { reason_code: 16, message: 'no_matching_subscribers' }]);
  const held = (await list()).data;
  assert.equal(held.map((m) => [m.topic, m.delayed_interval, m.from_clientid]), [['api/d', 30, 'http_api']]);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(got, []);
  // Whole seconds: a later test counts in them from this clock.
  advance(31_000);
  await waitFor(() => got.length === 1, 1000, 'the delivery');
  assert.equal(got, ['api/d=from the API']);
});

test('real time: $delayed/2/d/t arrives 2 s ± 0.5 s later and is listed with a falling remaining time meanwhile', async () => {
  const real = await startSimulator();
  const realToken = await login(real.baseUrl);
  try {
    const sub = await client('rt-sub', real);
    let arrived = 0;
    sub.on('message', (topic) => topic === 'd/t' && (arrived = Date.now()));
    await sub.subscribeAsync('d/t', { qos: 1 });
    const pub = await client('rt-pub', real);
    const sent = Date.now();
    await pub.publishAsync('$delayed/2/d/t', 'tick', { qos: 1 });
    const read = async () => ((await request(real.baseUrl, 'GET', '/api/v5/mqtt/delayed/messages', { token: realToken })).json as { data: Listed[] }).data;
    const first = await read();
    assert.is(first.length, 1);
    await new Promise((r) => setTimeout(r, 1100));
    const second = await read();
    assert.ok(second.length === 1 && second[0].delayed_remaining < first[0].delayed_remaining, `${first[0].delayed_remaining} then ${second[0]?.delayed_remaining}`);
    await waitFor(() => arrived > 0, 3000, 'the delayed message');
    const late = arrived - sent;
    assert.ok(late >= 1500 && late <= 2500, `arrived after ${late} ms`);
    const stats = (await request(real.baseUrl, 'GET', '/api/v5/stats?aggregate=true', { token: realToken })).json;
    assert.is(stats['delayed.count'], 0, 'nothing held any more');
  } finally {
    await Promise.all(open.map((c) => endMqtt(c)));
    open = [];
    await real.close();
  }
});

test('one message by node and id: payload as base64, PAYLOAD_TOO_LARGE above 2048 bytes, delete', async () => {
  const pub = await client('dl-one');
  await pub.publishAsync('$delayed/30/one', 'hi', { qos: 0 });
  await pub.publishAsync('$delayed/30/big', Buffer.alloc(2049, 1), { qos: 1 });
  await waitFor(async () => (await list()).data.length === 2, 1000, 'two held');
  const [one, big] = (await list()).data;
  const detail = await get(`/api/v5/mqtt/delayed/messages/${one.node}/${one.msgid}`);
  assert.is(detail.status, 200);
  assert.is(detail.json.payload, Buffer.from('hi').toString('base64'));
  assert.is(detail.json.topic, 'one');
  assert.is((await get(`/api/v5/mqtt/delayed/messages/${big.node}/${big.msgid.toLowerCase()}`)).json.payload, 'PAYLOAD_TOO_LARGE');
  const badNode = await get(`/api/v5/mqtt/delayed/messages/nobody@nowhere/${one.msgid}`);
  assert.equal([badNode.status, badNode.json.code], [400, 'INVALID_NODE']);
  const badId = await get(`/api/v5/mqtt/delayed/messages/${one.node}/xyz`);
  assert.equal(badId.json, { code: 'MESSAGE_ID_SCHEMA_ERROR', message: 'Message ID xyz schema error' });
  const otherNode = await get(`/api/v5/mqtt/delayed/messages/emqx@node2/${one.msgid}`);
  assert.equal([otherNode.status, otherNode.json.code], [404, 'MESSAGE_ID_NOT_FOUND']);
  assert.is((await del(`/api/v5/mqtt/delayed/messages/${one.node}/${one.msgid}`)).status, 204);
  const again = await del(`/api/v5/mqtt/delayed/messages/${one.node}/${one.msgid}`);
  assert.equal(again.json, { code: 'MESSAGE_ID_NOT_FOUND', message: `Message ID ${one.msgid} not found` });
  assert.equal((await list()).data.map((m) => m.topic), ['big']);
});

test('a deleted message is never published; delete by topic removes every message of that topic', async () => {
  const sub = await client('dl-watch');
  const got = inbox(sub);
  await sub.subscribeAsync('gone/#', { qos: 1 });
  const pub = await client('dl-del');
  await pub.publishAsync('$delayed/10/gone/a', '1', { qos: 1 });
  await pub.publishAsync('$delayed/20/gone/a', '2', { qos: 1 });
  await pub.publishAsync('$delayed/10/gone/b', '3', { qos: 1 });
  assert.is((await del(`/api/v5/mqtt/delayed/messages/${encodeURIComponent('gone/a')}`)).status, 204);
  assert.equal((await list()).data.map((m) => m.topic), ['gone/b']);
  const none = await del(`/api/v5/mqtt/delayed/messages/${encodeURIComponent('gone/a')}`);
  assert.equal(none.json, { code: 'MESSAGE_NOT_FOUND', message: 'Not found messages for gone/a' });
  assert.is((await del(`/api/v5/mqtt/delayed/messages/${encodeURIComponent('gone/+')}`)).json.code, 'INVALID_TOPIC_NAME');
  advance(30_000);
  await waitFor(() => got.length === 1, 1000, 'gone/b');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, ['gone/b=3']);
});

test('max_delayed_messages: new delayed messages are refused when full', async () => {
  await put({ max_delayed_messages: 2 });
  const sub = await client('dl-full-sub');
  const got = inbox(sub);
  await sub.subscribeAsync('full/#', { qos: 1 });
  const pub = await client('dl-full');
  for (const n of [1, 2, 3]) await pub.publishAsync(`$delayed/5/full/${n}`, String(n), { qos: 1 });
  assert.equal((await list()).data.map((m) => m.topic), ['full/1', 'full/2']);
  advance(5_000);
  await waitFor(() => got.length === 2, 1000, 'the two held ones');
  await pub.publishAsync('$delayed/5/full/4', '4', { qos: 1 });
  assert.equal((await list()).data.map((m) => m.topic), ['full/4'], 'room again once they left');
  advance(5_000);
  await waitFor(() => got.length === 3, 1000, 'the fourth');
  assert.equal(got.sort(), ['full/1=1', 'full/2=2', 'full/4=4'], 'the refused one is dropped');
});

test('disabling deletes the delayed list; while disabled $delayed/… is an ordinary topic', async () => {
  const sub = await client('dl-off-sub');
  const got = inbox(sub);
  await sub.subscribeAsync(['off/#', '$delayed/+/#'], { qos: 1 });
  const pub = await client('dl-off');
  await pub.publishAsync('$delayed/5/off/a', 'a', { qos: 1 });
  assert.is((await list()).data.length, 1);
  assert.equal((await put({ enable: false })).json, { enable: false, max_delayed_messages: 0 });
  assert.equal((await list()).data, []);
  advance(10_000);
  await pub.publishAsync('$delayed/5/off/b', 'b', { qos: 1 });
  await waitFor(() => got.length === 1, 1000, 'the literal delivery');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, ['$delayed/5/off/b=b'], 'the deleted one never comes');
});

test('stats delayed.count and metrics messages.delayed count held messages', async () => {
  const metric = async () => (await get('/api/v5/metrics?aggregate=true')).json['messages.delayed'] as number;
  const before = await metric();
  const pub = await client('dl-count');
  await pub.publishAsync('$delayed/9/c/1', 'x', { qos: 1 });
  await pub.publishAsync('$delayed/9/c/2', 'y', { qos: 0 });
  await waitFor(async () => (await list()).data.length === 2, 1000, 'two held');
  assert.is((await get('/api/v5/stats?aggregate=true')).json['delayed.count'], 2);
  assert.is(await metric(), before + 2);
  advance(9_000);
  await waitFor(async () => (await get('/api/v5/stats?aggregate=true')).json['delayed.count'] === 0, 1000, 'released');
});

test('a Unix time instead of seconds, a malformed topic, and topic rewrite at release', async () => {
  await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', {
    token, body: [{ action: 'publish', source_topic: 'r/#', re: '^r/(.+)$', dest_topic: 'rewritten/$1' }],
  });
  const sub = await client('dl-misc-sub');
  const got = inbox(sub);
  await sub.subscribeAsync(['rewritten/#', 'r/#', 'at/#', '$delayed/+/#'], { qos: 1 });
  const pub = await client('dl-misc');
  const at = Math.round(clock.now() / 1000) + 90;
  await pub.publishAsync(`$delayed/${at}/at/t`, 'abs', { qos: 1 });
  await pub.publishAsync('$delayed/3/r/x', 'rw', { qos: 1 });
  await pub.publishAsync('$delayed/soon/x', 'bad', { qos: 1 });
  const listed = (await list()).data;
  assert.equal(listed.map((m) => [m.topic, m.delayed_interval]), [['r/x', 3], ['at/t', 90]]);
  await waitFor(() => got.length === 1, 1000, 'the malformed one, at once');
  assert.equal(got, ['$delayed/soon/x=bad']);
  advance(90_000);
  await waitFor(() => got.length === 3, 1000, 'both due');
  assert.equal(got.slice(1), ['rewritten/x=rw', 'at/t=abs'], 'rewritten as it is published');
});

test('the publish API delays too', async () => {
  const res = await request(sim.baseUrl, 'POST', '/api/v5/publish', { token, body: { topic: '$delayed/15/api/t', payload: 'p' } });
  assert.ok(res.status === 200 || res.status === 202, String(res.status));
  const [m] = (await list()).data;
  assert.equal([m.topic, m.from_clientid, m.delayed_interval], ['api/t', 'http_api', 15]);
});

test('the routes need credentials', async () => {
  for (const [method, url] of [['GET', '/mqtt/delayed'], ['PUT', '/mqtt/delayed'], ['GET', '/mqtt/delayed/messages'],
    ['GET', '/mqtt/delayed/messages/emqx@node1/00'], ['DELETE', '/mqtt/delayed/messages/emqx@node1/00'], ['DELETE', '/mqtt/delayed/messages/t']]) {
    assert.is((await request(sim.baseUrl, method, `/api/v5${url}`, { body: method === 'PUT' ? {} : undefined })).status, 401, `${method} ${url}`);
  }
});

test.run();
