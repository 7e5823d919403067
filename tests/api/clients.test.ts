// The clients API against real mqtt.js clients on free ports (emqx-api-part1 §9, security.md
// M3, M4): what a client's CONNECT said shows in its row within a second, filters and both page
// envelopes, kicks that close the real socket, and subscriptions made over the API that really
// change what the client receives.
import type { Socket } from 'node:net';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator,
} from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

test.before(async () => {
  // /clients_v2 is 5.8 (store/profile.ts).
  sim = await startSimulator({ nodes: 2, app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  // Offline persistent sessions of one test must not leak into the next one's counts.
  for (const row of (await get('/api/v5/clients?limit=1000')).json.data) await del(`/api/v5/clients/${encodeURIComponent(row.clientid)}`);
});

test.after(async () => {
  await sim.close();
});

const get = (path: string) => request(sim.baseUrl, 'GET', path, { token });
const del = (path: string) => request(sim.baseUrl, 'DELETE', path, { token });
const post = (path: string, body: unknown) => request(sim.baseUrl, 'POST', path, { token, body });

async function client(clientId: string, options: Parameters<typeof connectMqtt>[1] = {}, url = `mqtt://127.0.0.1:${sim.mqtt}`): Promise<MqttClient> {
  const c = await connectMqtt(url, { clientId, ...options });
  // A message that arrives while the test ends it would make mqtt.js write after end.
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** The next message a client receives, as `topic=payload`. */
function nextMessage(c: MqttClient): Promise<string> {
  return new Promise((resolve) => c.once('message', (topic, payload) => resolve(`${topic}=${payload}`)));
}

const CLIENT_FIELDS = [
  'clientid', 'username', 'node', 'ip_address', 'port', 'proto_name', 'proto_ver', 'connected', 'clean_start',
  'keepalive', 'expiry_interval', 'created_at', 'connected_at', 'is_bridge', 'mountpoint', 'heap_size', 'reductions',
  'mailbox_len', 'recv_cnt', 'recv_msg', 'recv_msg.dropped', 'recv_msg.dropped.await_pubrel_timeout', 'recv_msg.qos0',
  'recv_msg.qos1', 'recv_msg.qos2', 'recv_oct', 'recv_pkt', 'send_cnt', 'send_msg', 'send_msg.dropped',
  'send_msg.dropped.expired', 'send_msg.dropped.queue_full', 'send_msg.dropped.too_large', 'send_msg.qos0',
  'send_msg.qos1', 'send_msg.qos2', 'send_oct', 'send_pkt', 'subscriptions_cnt', 'subscriptions_max', 'inflight_cnt',
  'inflight_max', 'mqueue_len', 'mqueue_max', 'mqueue_dropped', 'awaiting_rel_cnt', 'awaiting_rel_max',
];
const RFC3339_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/;

test('a TCP client shows in /clients within a second with what its CONNECT said', async () => {
  const c = await client('row-1', { username: 'alice', clean: false, keepalive: 42 });
  await c.subscribeAsync({ 'row/a': { qos: 1 }, 'row/+/b': { qos: 0 } });
  await waitFor(async () => (await get('/api/v5/clients?clientid=row-1')).json.data[0]?.subscriptions_cnt === 2, 1000, 'row with 2 subscriptions');
  const row = (await get('/api/v5/clients?clientid=row-1')).json.data[0];
  for (const field of CLIENT_FIELDS) assert.ok(field in row, `field ${field}`);
  assert.equal(
    { node: row.node, username: row.username, proto_name: row.proto_name, proto_ver: row.proto_ver, ip: row.ip_address, clean: row.clean_start, keepalive: row.keepalive, expiry: row.expiry_interval, connected: row.connected, listener: row.listener },
    { node: 'emqx@node1', username: 'alice', proto_name: 'MQTT', proto_ver: 4, ip: '127.0.0.1', clean: false, keepalive: 42, expiry: 7200, connected: true, listener: 'tcp:default' },
  );
  assert.is(row.port, (c.stream as Socket).localPort, 'the port is the client side of the socket');
  assert.match(row.created_at, RFC3339_MS);
  assert.match(row.connected_at, RFC3339_MS);
  assert.is(row.disconnected_at, undefined, 'only offline sessions have disconnected_at');
  assert.ok(row.recv_pkt >= 2 && row.recv_cnt === row.recv_pkt, 'CONNECT and SUBSCRIBE were received');
  assert.ok(row.recv_oct > 0 && row.send_oct > 0);
  const detail = await get('/api/v5/clients/row-1');
  assert.is(detail.status, 200);
  assert.equal(Object.keys(detail.json).sort(), Object.keys(row).sort());
  const subs = (await get('/api/v5/clients/row-1/subscriptions')).json;
  assert.equal(subs, [
    { node: 'emqx@node1', topic: 'row/a', clientid: 'row-1', qos: 1, nl: 0, rap: 0, rh: 0, durable: false },
    { node: 'emqx@node1', topic: 'row/+/b', clientid: 'row-1', qos: 0, nl: 0, rap: 0, rh: 0, durable: false },
  ]);
});

test('a WebSocket client with MQTT 3.1 is listed with ws:default and proto_ver 3', async () => {
  await client('ws-31', { protocolVersion: 3, protocolId: 'MQIsdp' }, `ws://127.0.0.1:${sim.ws}/mqtt`);
  await waitFor(async () => (await get('/api/v5/clients/ws-31')).status === 200, 1000, 'ws client listed');
  const row = (await get('/api/v5/clients/ws-31')).json;
  assert.equal([row.listener, row.proto_ver, row.proto_name, row.clean_start, row.expiry_interval], ['ws:default', 3, 'MQIsdp', true, 0]);
});

test('per-client message counters follow what the client sent and received', async () => {
  const sub = await client('count-sub');
  const pub = await client('count-pub');
  // QoS 2, so each message keeps its QoS [MQTT-3.8.4-6].
  await sub.subscribeAsync('count/#', { qos: 2 });
  const got = new Promise<void>((resolve) => {
    let n = 0;
    sub.on('message', () => ++n === 3 && resolve());
  });
  await pub.publishAsync('count/a', 'x', { qos: 0 });
  await pub.publishAsync('count/b', 'y', { qos: 1 });
  await pub.publishAsync('count/c', 'z', { qos: 2 });
  await got;
  await waitFor(async () => (await get('/api/v5/clients/count-sub')).json.send_msg === 3, 1000, 'sent counted');
  const p = (await get('/api/v5/clients/count-pub')).json;
  assert.equal([p.recv_msg, p['recv_msg.qos0'], p['recv_msg.qos1'], p['recv_msg.qos2']], [3, 1, 1, 1]);
  const s = (await get('/api/v5/clients/count-sub')).json;
  assert.equal([s['send_msg.qos0'], s['send_msg.qos1'], s['send_msg.qos2']], [1, 1, 1]);
  assert.ok(s.send_pkt >= 5, 'CONNACK, SUBACK and three PUBLISH packets');
});

test('filters keep count, like_* filters drop it, and hasnext is right on every page', async () => {
  const specs = [
    { id: 'flt-a1', username: 'u1', clean: true, v: 4 },
    { id: 'flt-a2', username: 'u1', clean: false, v: 4 },
    { id: 'flt-b1', username: 'u2', clean: true, v: 3 },
    { id: 'flt-b2', username: 'u2', clean: false, v: 4 },
    { id: 'flt-b3', username: 'u3', clean: true, v: 4 },
    { id: 'other-1', username: 'u3', clean: true, v: 3 },
    { id: 'gone-1', username: 'u9', clean: false, v: 4 },
  ];
  const startedAt = new Date(Date.now() - 1000).toISOString();
  for (const s of specs) await client(s.id, { username: s.username, clean: s.clean, protocolVersion: s.v as 3 | 4, protocolId: s.v === 3 ? 'MQIsdp' : 'MQTT' });
  // One persistent session goes offline and stays listed.
  await endMqtt(open.pop() as MqttClient);
  await waitFor(async () => (await get('/api/v5/clients?conn_state=disconnected')).json.meta.count === 1, 1000, 'offline session');
  const ids = async (query: string) => (await get(`/api/v5/clients?${query}`)).json.data.map((r: { clientid: string }) => r.clientid).sort();

  const all = (await get('/api/v5/clients?limit=3')).json;
  assert.equal(all.meta, { page: 1, limit: 3, hasnext: true, count: 7 });
  assert.equal((await get('/api/v5/clients?limit=3&page=3')).json.meta, { page: 3, limit: 3, hasnext: false, count: 7 });
  assert.equal((await get('/api/v5/clients?limit=3&page=3')).json.data.length, 1);
  assert.equal((await get('/api/v5/clients?limit=7')).json.meta.hasnext, false);

  assert.equal(await ids('username=u1'), ['flt-a1', 'flt-a2']);
  assert.equal(await ids('clientid=flt-a1&clientid=other-1'), ['flt-a1', 'other-1']);
  assert.equal(await ids('clean_start=false'), ['flt-a2', 'flt-b2', 'gone-1']);
  assert.equal(await ids('proto_ver=3'), ['flt-b1', 'other-1']);
  assert.equal(await ids('conn_state=disconnected'), ['gone-1']);
  assert.equal((await get('/api/v5/clients?conn_state=connected')).json.meta.count, 6);
  assert.equal((await get('/api/v5/clients?ip_address=127.0.0.1')).json.meta.count, 7);
  assert.equal((await get('/api/v5/clients?ip_address=10.0.0.1')).json.meta.count, 0);
  assert.equal((await get(`/api/v5/clients?gte_connected_at=${encodeURIComponent(startedAt)}`)).json.meta.count, 7);
  assert.equal((await get(`/api/v5/clients?lte_created_at=${Date.parse(startedAt)}`)).json.meta.count, 0);
  assert.equal((await get('/api/v5/clients?username=u1')).json.meta, { page: 1, limit: 100, hasnext: false, count: 2 });

  const fuzzy = (await get('/api/v5/clients?like_clientid=flt-b&limit=2')).json;
  assert.equal(fuzzy.meta, { page: 1, limit: 2, hasnext: true }, 'no count with a like_ filter');
  const last = (await get('/api/v5/clients?like_clientid=flt-b&limit=2&page=2')).json;
  assert.equal(last.meta, { page: 2, limit: 2, hasnext: false });
  assert.equal(last.data.map((r: { clientid: string }) => r.clientid), ['flt-b3']);
  assert.equal(await ids('like_username=u&username=u2'), ['flt-b1', 'flt-b2']);
  assert.equal((await get('/api/v5/clients?like_ip_address=127.0')).json.data.length, 7);

  const projected = (await get('/api/v5/clients?clientid=flt-a1&fields=clientid,username')).json.data[0];
  assert.equal(projected, { clientid: 'flt-a1', username: 'u1' });
  assert.equal((await get('/api/v5/clients?node=emqx@node2')).json.meta.count, 0, 'no fixture clients with the empty seed');

  const ghost = await get('/api/v5/clients?node=emqx@ghost');
  assert.equal([ghost.status, ghost.json.code], [400, 'NODE_DOWN']);
  const badTime = await get('/api/v5/clients?gte_created_at=yesterday');
  assert.equal(badTime.json, { code: 'INVALID_PARAMETER', message: 'the gte_created_at parameter expected type is timestamp, but the value is yesterday' });
  assert.is((await get('/api/v5/clients?conn_state=sleeping')).status, 400);
  assert.is((await get('/api/v5/clients?fields=clientid,bogus')).json.code, 'INVALID_PARAMETER');
});

test('clients_v2 cursor pages walk every client exactly once and end without a cursor', async () => {
  for (let i = 0; i < 7; i++) await client(`cur-${i}`);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res = (await get(`/api/v5/clients_v2?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json;
    assert.is(res.meta.count, res.data.length);
    assert.is(res.meta.hasnext, undefined, 'envelope D has no hasnext');
    seen.push(...res.data.map((r: { clientid: string }) => r.clientid));
    cursor = res.meta.cursor;
    pages++;
  } while (cursor && pages < 10);
  assert.is(pages, 3);
  assert.equal(seen.sort(), Array.from({ length: 7 }, (_, i) => `cur-${i}`));
  const exact = (await get('/api/v5/clients_v2?limit=7')).json;
  assert.is(exact.meta.cursor, undefined, 'no cursor when the page holds the last row');
  const filtered = (await get('/api/v5/clients_v2?like_clientid=cur-1')).json;
  assert.equal(filtered.data.map((r: { clientid: string }) => r.clientid), ['cur-1']);
  const bad = await get('/api/v5/clients_v2?cursor=not-a-cursor');
  assert.equal([bad.status, bad.json], [400, { code: 'BAD_REQUEST', message: 'bad cursor' }]);
});

test('kick closes the real socket, drops the session, and the row disappears (M3)', async () => {
  const victim = await client('victim', { clean: false });
  await victim.subscribeAsync('kick/#', { qos: 1 });
  const closed = new Promise<void>((resolve) => victim.once('close', () => resolve()));
  const res = await del('/api/v5/clients/victim');
  assert.is(res.status, 204);
  assert.is(res.text, '');
  await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('no close within 1 s')), 1000))]);
  const gone = await get('/api/v5/clients/victim');
  assert.equal([gone.status, gone.json], [404, { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' }]);
  assert.is((await get('/api/v5/stats?aggregate=true')).json['subscriptions.count'], 0);

  // The persistent session is gone in the broker too: its old subscription delivers nothing.
  const back = await client('victim', { clean: false });
  await back.subscribeAsync('sentinel', { qos: 1 });
  const first = nextMessage(back);
  const pub = await client('kick-pub');
  await pub.publishAsync('kick/x', 'old', { qos: 1 });
  await pub.publishAsync('sentinel', 'new', { qos: 1 });
  assert.is(await first, 'sentinel=new');
  assert.is((await get('/api/v5/clients/victim')).json.subscriptions_cnt, 1);
});

test('an offline persistent session can be kicked; unknown ids are 404 everywhere', async () => {
  const keeper = await client('offline-1', { clean: false });
  await endMqtt(open.pop() as MqttClient);
  void keeper;
  await waitFor(async () => (await get('/api/v5/clients/offline-1')).json.connected === false, 1000, 'offline');
  assert.match((await get('/api/v5/clients/offline-1')).json.disconnected_at, RFC3339_MS);
  assert.is((await del('/api/v5/clients/offline-1')).status, 204);
  assert.is((await get('/api/v5/clients/offline-1')).status, 404);
  for (const [method, path, body] of [
    ['GET', '/api/v5/clients/nobody', undefined],
    ['DELETE', '/api/v5/clients/nobody', undefined],
    ['GET', '/api/v5/clients/nobody/subscriptions', undefined],
    ['POST', '/api/v5/clients/nobody/subscribe', { topic: 't' }],
    ['POST', '/api/v5/clients/nobody/subscribe/bulk', [{ topic: 't' }]],
    ['POST', '/api/v5/clients/nobody/unsubscribe', { topic: 't' }],
    ['POST', '/api/v5/clients/nobody/unsubscribe/bulk', [{ topic: 't' }]],
    ['GET', '/api/v5/clients/nobody/authorization/cache', undefined],
  ] as const) {
    const res = await request(sim.baseUrl, method, path, { token, body });
    assert.equal([res.status, res.json?.code], [404, 'CLIENTID_NOT_FOUND'], `${method} ${path}`);
  }
});

test('POST /clients/kickout/bulk kicks every listed client', async () => {
  const a = await client('bulk-a');
  const b = await client('bulk-b');
  const closed = Promise.all([a, b].map((c) => new Promise<void>((resolve) => c.once('close', () => resolve()))));
  assert.is((await post('/api/v5/clients/kickout/bulk', ['bulk-a', 'bulk-b', 'nobody'])).status, 204);
  await closed;
  assert.is((await get('/api/v5/clients?like_clientid=bulk-')).json.data.length, 0);
});

test('a subscription made over the API delivers, and unsubscribing over the API stops it', async () => {
  const sub = await client('api-sub');
  const pub = await client('api-pub');
  const made = await post('/api/v5/clients/api-sub/subscribe', { topic: 'api/+/x', qos: 1 });
  assert.equal([made.status, made.json], [200, { topic: 'api/+/x', qos: 1, nl: 0, rap: 0, rh: 0, node: 'emqx@node1', clientid: 'api-sub' }]);
  const first = nextMessage(sub);
  await pub.publishAsync('api/7/x', 'hello', { qos: 1 });
  assert.is(await first, 'api/7/x=hello');

  const bulk = await post('/api/v5/clients/api-sub/subscribe/bulk', [{ topic: 'sentinel/#' }, { topic: 'other', qos: 2 }]);
  assert.equal(bulk.json.map((r: { topic: string; qos: number }) => [r.topic, r.qos]), [['sentinel/#', 0], ['other', 2]]);
  assert.is((await get('/api/v5/clients/api-sub')).json.subscriptions_cnt, 3);
  assert.equal((await get('/api/v5/subscriptions?clientid=api-sub&qos=2')).json.data.map((s: { topic: string }) => s.topic), ['other']);

  assert.is((await post('/api/v5/clients/api-sub/unsubscribe', { topic: 'api/+/x' })).status, 204);
  const next = nextMessage(sub);
  await pub.publishAsync('api/8/x', 'not for you', { qos: 1 });
  await pub.publishAsync('sentinel/1', 'still here', { qos: 1 });
  assert.is(await next, 'sentinel/1=still here', 'the unsubscribed topic delivered nothing first');
  assert.is((await post('/api/v5/clients/api-sub/unsubscribe/bulk', [{ topic: 'sentinel/#' }, { topic: 'other' }])).status, 204);
  assert.equal((await get('/api/v5/clients/api-sub/subscriptions')).json, []);
  const stats = (await get('/api/v5/stats?aggregate=true')).json;
  assert.equal([stats['subscriptions.count'], stats['topics.count']], [0, 0]);
});

test('bad subscriptions over the API are refused; bulk reports the bad ones and makes the rest', async () => {
  await client('api-bad');
  const invalid = await post('/api/v5/clients/api-bad/subscribe', { topic: 'a/#/b' });
  assert.equal([invalid.status, invalid.json.code], [400, 'INVALID_PARAMETER']);
  const noLocal = await post('/api/v5/clients/api-bad/subscribe', { topic: '$share/g/t', nl: 1 });
  assert.equal([noLocal.status, noLocal.json.code], [400, 'INVALID_PARAMETER']);
  assert.is((await post('/api/v5/clients/api-bad/subscribe', { topic: 't', qos: 3 })).status, 400);
  const mixed = await post('/api/v5/clients/api-bad/subscribe/bulk', [{ topic: 'ok/1' }, { topic: 'bad/#/x', qos: 1 }]);
  assert.is(mixed.status, 200);
  assert.equal(mixed.json.succeed.map((r: { topic: string }) => r.topic), ['ok/1']);
  assert.equal(mixed.json.failed[0].data, ['api-bad', 'bad/#/x', { qos: 1, nl: 0, rap: 0, rh: 0 }]);
  assert.type(mixed.json.failed[0].reason, 'string');
  assert.equal((await get('/api/v5/clients/api-bad/subscriptions')).json.map((s: { topic: string }) => s.topic), ['ok/1']);
});

test('the authorization cache lists what the client was allowed and can be cleared', async () => {
  const c = await client('authz-1');
  await c.publishAsync('cache/me', 'x', { qos: 1 });
  await c.subscribeAsync('cache/#');
  const cache = (await get('/api/v5/clients/authz-1/authorization/cache')).json as { access: string; result: string; topic: string; updated_time: number }[];
  assert.equal(cache.map((e) => [e.access, e.result, e.topic]), [['publish', 'allow', 'cache/me'], ['subscribe', 'allow', 'cache/#']]);
  assert.ok(cache.every((e) => Math.abs(e.updated_time - Date.now()) < 5000));
  assert.is((await del('/api/v5/clients/authz-1/authorization/cache')).status, 204);
  assert.equal((await get('/api/v5/clients/authz-1/authorization/cache')).json, []);
});

test('a client of another node is taken over when a real client connects with its id', async () => {
  const demo = await startSimulator({ nodes: 3, app: { fixtureClients: true, emqxVersion: '5.8.9' } });
  try {
    const demoToken = await login(demo.baseUrl);
    const fetch = (path: string) => request(demo.baseUrl, 'GET', path, { token: demoToken });
    assert.is((await fetch('/api/v5/clients/truck-0107')).json.node, 'emqx@node3');
    const before = (await fetch('/api/v5/clients?limit=1')).json.meta.count;
    const c = await connectMqtt(`mqtt://127.0.0.1:${demo.mqtt}`, { clientId: 'truck-0107' });
    await waitFor(async () => (await fetch('/api/v5/clients/truck-0107')).json.node === 'emqx@node1', 1000, 'taken over');
    assert.is((await fetch('/api/v5/clients?limit=1')).json.meta.count, before, 'one session, now on node 1');
    assert.is((await fetch('/api/v5/clients?node=emqx@node3&clientid=truck-0107')).json.meta.count, 0);
    await endMqtt(c);
  } finally {
    await demo.close();
  }
});

test.run();
