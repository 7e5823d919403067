// MQTT 5 as EMQX 5.5 speaks it, with real clients (mqtt.js at protocol 5, and a raw socket where
// mqtt.js hides the wire): the CONNACK carries the zone's capabilities and Server Keep Alive, an
// empty client id is assigned an EMQX-like one, topic aliases work both ways, the client's
// Maximum Packet Size holds, a will leaves its delay behind, and DISCONNECT reason codes follow
// emqx_channel (keepalive timeout, protocol errors, the will kept on an error disconnect).
import { createRequire } from 'node:module';
import net from 'node:net';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { IConnackPacket, Packet } from 'mqtt-packet';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator, putZone } from '../helpers/simulator.ts';

// mqtt.js' own packet codec, for the raw connections.
const require = createRequire(import.meta.url);
const { generate, parser } = createRequire(require.resolve('mqtt'))('mqtt-packet') as typeof import('mqtt-packet');

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];
let sockets: net.Socket[] = [];

// The zone settings the tests change, at their defaults.
const ZONE_DEFAULTS = {
  max_qos_allowed: 2, retain_available: true, max_topic_alias: 65535, max_packet_size: '1MB',
  wildcard_subscription: true, shared_subscription: true, server_keepalive: 'disabled',
  max_topic_levels: 128, max_subscriptions: 'infinity',
};

test.before(async () => {
  sim = await startSimulator({ app: { emqxVersion: '5.5.1' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  for (const s of sockets) s.destroy();
  sockets = [];
  await zone(ZONE_DEFAULTS);
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
const zone = (mqtt: Record<string, unknown>) => putZone(sim.baseUrl, token, mqtt);
const metrics = async () => (await call('GET', '/metrics?aggregate=true')).json as Record<string, number>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The CONNACK properties mqtt.js keeps for a connected client. */
const connackProperties = (c: MqttClient) => (c as unknown as { connackPacket: IConnackPacket }).connackPacket.properties;

async function v5(clientId: string, options: IClientOptions = {}): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, protocolVersion: 5, ...options });
  c.on('error', () => {});
  open.push(c);
  return c;
}

function subscribe(c: MqttClient, filter: string, qos: 0 | 1 | 2 = 0): Promise<void> {
  return new Promise((resolve, reject) => c.subscribe(filter, { qos }, (err) => (err ? reject(err) : resolve())));
}

/** Messages a client receives, with the packet as it came off the wire (before alias resolution). */
function collect(c: MqttClient): { topic: string; payload: string; wireTopic: string; properties: Record<string, unknown> }[] {
  const got: { topic: string; payload: string; wireTopic: string; properties: Record<string, unknown> }[] = [];
  let wire: { topic: string; properties: Record<string, unknown> }[] = [];
  c.on('packetreceive', (p) => {
    if (p.cmd === 'publish') wire.push({ topic: p.topic, properties: { ...p.properties } });
  });
  c.on('message', (topic, payload) => {
    const [first, ...rest] = wire;
    wire = rest;
    got.push({ topic, payload: payload.toString(), wireTopic: first?.topic, properties: first?.properties ?? {} });
  });
  return got;
}

/** A raw MQTT 5 connection: what it sends is exactly what the test wrote. */
interface Raw {
  connack: IConnackPacket;
  packets: Packet[];
  closed: () => boolean;
  send(packet: Packet): void;
  next(cmd: Packet['cmd'], ms?: number): Promise<Packet>;
}

async function raw(clientId: string, extra: Record<string, unknown> = {}, allowHalfOpen = false): Promise<Raw> {
  const socket = net.connect({ port: sim.mqtt, host: '127.0.0.1', allowHalfOpen });
  sockets.push(socket);
  const packets: Packet[] = [];
  let isClosed = false;
  const p = parser({ protocolVersion: 5 });
  p.on('packet', (packet: Packet) => packets.push(packet));
  socket.on('data', (chunk) => p.parse(chunk));
  socket.on('close', () => {
    isClosed = true;
  });
  socket.on('error', () => {});
  const send = (packet: Packet) => socket.write(generate(packet, { protocolVersion: 5 }));
  const next = async (cmd: Packet['cmd'], ms = 2000) => {
    await waitFor(() => packets.some((x) => x.cmd === cmd), ms, cmd);
    const i = packets.findIndex((x) => x.cmd === cmd);
    return packets.splice(i, 1)[0];
  };
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 5, clean: true, clientId, keepalive: 0, ...extra } as Packet);
  const connack = (await next('connack')) as IConnackPacket;
  return { connack, packets, closed: () => isClosed, send, next };
}

test('CONNACK: the zone\'s capabilities as EMQX announces them, and a changed zone in the next CONNACK', async () => {
  const a = await v5('caps-a');
  assert.equal(connackProperties(a), {
    retainAvailable: true, maximumPacketSize: 1048576, topicAliasMaximum: 65535,
    wildcardSubscriptionAvailable: true, subscriptionIdentifiersAvailable: true, sharedSubscriptionAvailable: true,
  });
  await zone({ max_qos_allowed: 1, retain_available: false, max_topic_alias: 8, max_packet_size: '2KB', wildcard_subscription: false, shared_subscription: false, server_keepalive: 30 });
  const b = await v5('caps-b', { keepalive: 120 });
  assert.equal(connackProperties(b), {
    retainAvailable: false, maximumPacketSize: 2048, topicAliasMaximum: 8, maximumQoS: 1, serverKeepAlive: 30,
    wildcardSubscriptionAvailable: false, subscriptionIdentifiersAvailable: true, sharedSubscriptionAvailable: false,
  });
  const c311 = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'caps-311' });
  open.push(c311);
  assert.is(connackProperties(c311), undefined, 'MQTT 3.1.1 has no CONNACK properties');
});

test('CONNACK Receive Maximum from 5.6 on: the zone\'s max_inflight, or the client\'s smaller Receive Maximum (none in 5.5.1)', async () => {
  // emqx_channel.erl (v5.8.9) enrich_connack_caps adds 'Receive-Maximum' => receive_maximum/2
  // (the smaller of the client's and max_inflight); v5.5.1 sends none (checked above).
  const newer = await startSimulator({ app: { emqxVersion: '5.8.9' } });
  const clients: MqttClient[] = [];
  try {
    const connect = async (clientId: string, properties?: Record<string, number>) => {
      const c = await connectMqtt(`mqtt://127.0.0.1:${newer.mqtt}`, { clientId, protocolVersion: 5, properties });
      clients.push(c);
      return connackProperties(c)?.receiveMaximum;
    };
    assert.is(await connect('rm-default'), 32);
    assert.is(await connect('rm-small', { receiveMaximum: 5 }), 5);
    assert.is(await connect('rm-large', { receiveMaximum: 500 }), 32);
    const newerToken = await login(newer.baseUrl);
    const res = await request(newer.baseUrl, 'PUT', '/api/v5/configs/global_zone', { token: newerToken, body: { mqtt: { max_inflight: 100 } } });
    assert.is(res.status, 200, res.text);
    assert.is(await connect('rm-zone'), 100);
    assert.is(await connect('rm-zone-small', { receiveMaximum: 50 }), 50);
  } finally {
    await Promise.all(clients.map((c) => endMqtt(c)));
    await newer.close();
  }
});

test('Server Keep Alive from the zone is the keepalive: a silent client gets DISCONNECT 0x8D (keepalive timeout)', async () => {
  await zone({ server_keepalive: 1 });
  const c = await raw('ka-silent');
  assert.is(c.connack.properties?.serverKeepAlive, 1);
  // 1.5 × the keepalive without a packet.
  const disconnect = await c.next('disconnect', 3000);
  assert.is((disconnect as { reasonCode?: number }).reasonCode, 0x8d);
  await waitFor(c.closed, 1000, 'the close');
});

test('an empty client id is assigned an EMQX-like id (base 62), under which the client is listed', async () => {
  const c = await v5('');
  const id = connackProperties(c)?.assignedClientIdentifier as string;
  assert.match(id, /^[0-9A-Za-z]{16,22}$/);
  await waitFor(async () => (await call('GET', `/clients/${id}`)).status === 200, 2000, 'the client listed');
  assert.is((await call('GET', `/clients/${id}`)).json.proto_ver, 5);
});

test('topic aliases from the client: resolved within the zone\'s maximum, 0x94 beyond it, 0x82 for an alias never set', async () => {
  const sub = await v5('alias-in-sub');
  await subscribe(sub, 'alias/#');
  const got = collect(sub);
  const pub = await raw('alias-in-pub');
  pub.send({ cmd: 'publish', topic: 'alias/a', payload: Buffer.from('1'), qos: 0, retain: false, dup: false, properties: { topicAlias: 1 } } as Packet);
  pub.send({ cmd: 'publish', topic: '', payload: Buffer.from('2'), qos: 0, retain: false, dup: false, properties: { topicAlias: 1 } } as Packet);
  await waitFor(() => got.length === 2, 2000, 'both messages');
  assert.equal(got.map((m) => [m.topic, m.payload]), [['alias/a', '1'], ['alias/a', '2']]);
  assert.not.ok('topicAlias' in got[1].properties, 'the publisher\'s alias is not forwarded');

  await zone({ max_topic_alias: 2 });
  const over = await raw('alias-in-over');
  assert.is(over.connack.properties?.topicAliasMaximum, 2);
  over.send({ cmd: 'publish', topic: 'alias/b', payload: Buffer.from('3'), qos: 0, retain: false, dup: false, properties: { topicAlias: 3 } } as Packet);
  assert.is(((await over.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x94);

  const unknown = await raw('alias-in-unknown');
  unknown.send({ cmd: 'publish', topic: '', payload: Buffer.from('4'), qos: 0, retain: false, dup: false, properties: { topicAlias: 2 } } as Packet);
  assert.is(((await unknown.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x82);
  await waitFor(unknown.closed, 1000, 'the close');
});

test('topic aliases to the client: topic and a new alias first, then the alias alone, plain topics past its maximum', async () => {
  const sub = await v5('alias-out-sub', { properties: { topicAliasMaximum: 2 } });
  await subscribe(sub, 'out/#', 1);
  const got = collect(sub);
  const pub = await v5('alias-out-pub');
  // One at a time, so the order on the wire is the order sent.
  const sent = [['out/a', 0], ['out/a', 1], ['out/b', 1], ['out/b', 0], ['out/c', 0], ['out/a', 0]] as const;
  for (const [i, [topic, qos]] of sent.entries()) {
    await pub.publishAsync(topic, `${topic} ${qos}`, { qos });
    await waitFor(() => got.length === i + 1, 2000, `message ${i + 1}`);
  }
  assert.equal(got.map((m) => m.topic), ['out/a', 'out/a', 'out/b', 'out/b', 'out/c', 'out/a']);
  assert.equal(got.map((m) => [m.wireTopic, m.properties.topicAlias]), [
    ['out/a', 1], ['', 1], ['out/b', 2], ['', 2], ['out/c', undefined], ['', 1],
  ]);
  // Without a Topic Alias Maximum the client gets no aliases.
  const plain = await v5('alias-out-plain');
  await subscribe(plain, 'out/#');
  const plainGot = collect(plain);
  await pub.publishAsync('out/a', 'x');
  await pub.publishAsync('out/a', 'y');
  await waitFor(() => plainGot.length === 2, 2000, 'two messages');
  assert.equal(plainGot.map((m) => [m.wireTopic, m.properties.topicAlias]), [['out/a', undefined], ['out/a', undefined]]);
});

test('the client\'s Maximum Packet Size: a larger message is not sent to it and is counted as delivery.dropped.too_large', async () => {
  const sub = await v5('maxsize-sub', { properties: { maximumPacketSize: 64 } });
  await subscribe(sub, 'size5/#', 1);
  const got = collect(sub);
  const other = await v5('maxsize-other');
  await subscribe(other, 'size5/#', 1);
  const otherGot = collect(other);
  const before = await metrics();
  const pub = await v5('maxsize-pub');
  await pub.publishAsync('size5/t', 'small', { qos: 1 });
  await pub.publishAsync('size5/t', 'x'.repeat(100), { qos: 1 });
  await pub.publishAsync('size5/t', 'small again', { qos: 0 });
  await waitFor(() => otherGot.length === 3, 2000, 'all three to the other subscriber');
  await waitFor(() => got.length === 2, 2000, 'the two small ones');
  await sleep(200);
  assert.equal(got.map((m) => m.payload), ['small', 'small again']);
  const after = await metrics();
  assert.is(after['delivery.dropped.too_large'] - before['delivery.dropped.too_large'], 1);
  assert.is(after['delivery.dropped'] - before['delivery.dropped'], 1);
});

test('a will is published without its Will Delay Interval, after the delay, with its other properties', async () => {
  const sub = await v5('will5-sub');
  await subscribe(sub, 'will5/#');
  const got = collect(sub);
  const dying = await v5('will5-dying', {
    properties: { sessionExpiryInterval: 5 },
    will: { topic: 'will5/t', payload: Buffer.from('gone'), qos: 0, retain: false, properties: { willDelayInterval: 1, contentType: 'text/plain', userProperties: { k: 'v' } } },
  });
  const lost = Date.now();
  dying.stream.destroy();
  await waitFor(() => got.length === 1, 3000, 'the will');
  assert.ok(Date.now() - lost >= 900, 'held for the delay');
  assert.is(got[0].payload, 'gone');
  assert.is(got[0].properties.willDelayInterval, undefined);
  assert.is(got[0].properties.contentType, 'text/plain');
  assert.equal({ ...(got[0].properties.userProperties as object) }, { k: 'v' });
});

test('DISCONNECT with an error reason code publishes the will; with 0x00 it does not', async () => {
  const sub = await v5('willrc-sub');
  await subscribe(sub, 'willrc/#');
  const got = collect(sub);
  const will = (topic: string) => ({ topic, payload: Buffer.from(topic), qos: 0 as const, retain: false });
  const failing = await v5('willrc-error', { will: will('willrc/error') });
  const normal = await v5('willrc-normal', { will: will('willrc/normal') });
  open = open.filter((c) => c !== failing && c !== normal);
  await new Promise<void>((resolve) => failing.end(false, { reasonCode: 0x80 }, () => resolve()));
  await new Promise<void>((resolve) => normal.end(false, { reasonCode: 0 }, () => resolve()));
  await waitFor(() => got.length === 1, 2000, 'the will of the error disconnect');
  await sleep(300);
  assert.equal(got.map((m) => m.topic), ['willrc/error']);
});

test('DISCONNECT that sets a Session Expiry Interval after CONNECT said 0 gets DISCONNECT 0x82 (protocol error)', async () => {
  const c = await raw('sei-late');
  c.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 60 } } as Packet);
  assert.is(((await c.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x82);
  await waitFor(c.closed, 1000, 'the close');
});

test('a second CONNECT on a connection gets DISCONNECT 0x82 (protocol error)', async () => {
  const c = await raw('twice');
  c.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 5, clean: true, clientId: 'twice', keepalive: 0 } as Packet);
  assert.is(((await c.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x82);
  await waitFor(c.closed, 1000, 'the close');
});

async function denyPublishing(topic: string, denyAction: 'ignore' | 'disconnect', action = 'publish'): Promise<void> {
  const sources = (await call('GET', '/authorization/sources')).json.sources as { type: string }[];
  if (!sources.some((x) => x.type === 'built_in_database')) {
    assert.is((await call('POST', '/authorization/sources', { type: 'built_in_database', enable: true })).status, 204);
  }
  const rule = { rules: [{ permission: 'deny', action, topic }] };
  assert.is((await call('POST', '/authorization/sources/built_in_database/rules/all', rule)).status, 204);
  const settings = (await call('GET', '/authorization/settings')).json;
  assert.is((await call('PUT', '/authorization/settings', { ...settings, deny_action: denyAction })).status, 200);
}

test('deny_action ignore: a refused QoS 1 publish is acknowledged 0x87, without a Reason String, and the connection stays', async () => {
  await denyPublishing('mqtt5/denied', 'ignore');
  const sub = await v5('denied-sub');
  await subscribe(sub, 'mqtt5/#');
  const got = collect(sub);
  const c = await raw('denied-pub');
  c.send({ cmd: 'publish', topic: 'mqtt5/denied', payload: Buffer.from('no'), qos: 1, messageId: 7, retain: false, dup: false } as Packet);
  const ack = (await c.next('puback')) as { reasonCode?: number; messageId?: number; properties?: Record<string, unknown> };
  assert.is(ack.messageId, 7);
  assert.is(ack.reasonCode, 0x87);
  assert.is(ack.properties?.reasonString, undefined);
  c.send({ cmd: 'publish', topic: 'mqtt5/allowed', payload: Buffer.from('yes'), qos: 1, messageId: 8, retain: false, dup: false } as Packet);
  assert.is(((await c.next('puback')) as { reasonCode?: number }).reasonCode, 0);
  await waitFor(() => got.length === 1, 2000, 'the allowed message');
  assert.equal(got.map((m) => m.topic), ['mqtt5/allowed']);
  assert.is(c.closed(), false);
});

test('deny_action disconnect: a refused publish gets DISCONNECT 0x87 and no acknowledgement', async () => {
  await denyPublishing('mqtt5/denied', 'disconnect');
  try {
    const c = await raw('denied-disconnect');
    c.send({ cmd: 'publish', topic: 'mqtt5/denied', payload: Buffer.from('no'), qos: 1, messageId: 9, retain: false, dup: false } as Packet);
    assert.is(((await c.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x87);
    await waitFor(c.closed, 1000, 'the close');
    assert.not.ok(c.packets.some((p) => p.cmd === 'puback'), 'nothing after the DISCONNECT');
  } finally {
    await denyPublishing('mqtt5/denied', 'ignore');
  }
});

test('deny_action disconnect: a SUBSCRIBE with a refused filter gets DISCONNECT 0x87, no SUBACK, and none of its filters', async () => {
  // emqx_channel.erl (v5.5.1) check_sub_authzs: any refused filter with deny_action = disconnect
  // ends the connection before process_subscribe, so the allowed filters of the packet are not made.
  await denyPublishing('mqtt5/nosub', 'disconnect', 'subscribe');
  try {
    const c = await raw('denied-subscriber');
    c.send({ cmd: 'subscribe', messageId: 3, subscriptions: [{ topic: 'mqtt5/ok', qos: 1 }, { topic: 'mqtt5/nosub', qos: 1 }] } as Packet);
    assert.is(((await c.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x87);
    await waitFor(c.closed, 1000, 'the close');
    assert.not.ok(c.packets.some((p) => p.cmd === 'suback'), 'no SUBACK');
    const subs = (await call('GET', '/subscriptions?clientid=denied-subscriber')).json.data as unknown[];
    assert.equal(subs, []);
    // MQTT 3.1.1 has no DISCONNECT from the server: the connection is closed.
    const old = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'denied-311', protocolVersion: 4, reconnectPeriod: 0 });
    old.on('error', () => {});
    open.push(old);
    let closed = false;
    old.on('close', () => {
      closed = true;
    });
    old.subscribe('mqtt5/nosub', { qos: 0 });
    await waitFor(() => closed, 2000, 'the 3.1.1 close');
  } finally {
    await denyPublishing('mqtt5/nosub', 'ignore', 'subscribe');
  }
});

test('a packet over max_packet_size from a connected client: DISCONNECT 0x95 (packet too large), then the close', async () => {
  // emqx_channel.erl (v5.5.1) handle_in({frame_error, frame_too_large}) while connected:
  // handle_out(disconnect, {?RC_PACKET_TOO_LARGE, frame_too_large}).
  await zone({ max_packet_size: '1KB' });
  const c = await raw('too-large');
  const before = await metrics();
  c.send({ cmd: 'publish', topic: 'big/t', payload: Buffer.alloc(2048, 1), qos: 0, retain: false, dup: false } as Packet);
  assert.is(((await c.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x95);
  await waitFor(c.closed, 1000, 'the close');
  const after = await metrics();
  assert.is(after['packets.publish.error'] - before['packets.publish.error'], 1);
});

test('a QoS 2 PUBLISH whose packet id still awaits PUBREL gets PUBREC 0x91 and is not published again', async () => {
  // emqx_session_mem.erl (v5.5.1) publish/4: RC_PACKET_IDENTIFIER_IN_USE for an id in awaiting_rel;
  // emqx_channel.erl do_publish answers PUBREC with it and counts packets.publish.inuse.
  const sub = await v5('inuse-sub');
  await subscribe(sub, 'inuse/t', 2);
  const got = collect(sub);
  const before = await metrics();
  const c = await raw('inuse-pub');
  const publish = { cmd: 'publish', topic: 'inuse/t', payload: Buffer.from('once'), qos: 2, messageId: 21, retain: false, dup: false } as Packet;
  c.send(publish);
  assert.is(((await c.next('pubrec')) as { reasonCode?: number }).reasonCode ?? 0, 0);
  c.send({ ...publish, dup: true } as Packet);
  assert.is(((await c.next('pubrec')) as { reasonCode?: number }).reasonCode, 0x91);
  c.send({ cmd: 'pubrel', messageId: 21 } as Packet);
  await c.next('pubcomp');
  await waitFor(() => got.length === 1, 2000, 'the message');
  await sleep(200);
  assert.is(got.length, 1, 'published once');
  assert.is((await metrics())['packets.publish.inuse'] - before['packets.publish.inuse'], 1);
});

test('after a DISCONNECT the server closes gracefully: a client still sending is read to its end and gets a FIN, not a reset', async () => {
  // Destroying a socket with unread input resets it, and a busy client then loses the DISCONNECT.
  const c = await raw('late-talker', {}, true);
  let failed = false;
  let ended = false;
  const socket = sockets[sockets.length - 1];
  socket.on('error', () => {
    failed = true;
  });
  socket.on('end', () => {
    ended = true;
  });
  c.send({ cmd: 'publish', topic: 'late/t', payload: Buffer.alloc(0), qos: 0, retain: false, dup: false, properties: { topicAlias: 0 } } as Packet);
  assert.is(((await c.next('disconnect')) as { reasonCode?: number }).reasonCode, 0x94);
  await waitFor(() => ended, 1000, 'the FIN');
  // The client has not closed its side yet and still writes.
  await sleep(100);
  for (let i = 0; i < 50; i++) c.send({ cmd: 'publish', topic: 'late/t', payload: Buffer.alloc(1000), qos: 0, retain: false, dup: false } as Packet);
  await sleep(300);
  assert.is(failed, false, 'no reset');
  assert.equal(c.packets.filter((p) => p.cmd !== 'disconnect'), [], 'nothing after the DISCONNECT');
});

test('a SUBACK refused by the zone says why in MQTT 5: 0x8F too many levels, 0xA2 wildcards off, 0x97 quota; 3.1.1 keeps 0x80', async () => {
  // emqx_mqtt_caps.erl check_sub and emqx_session_mem.erl subscribe (v5.5.1).
  await zone({ max_topic_levels: 3, wildcard_subscription: false, max_subscriptions: 2 });
  const c = await v5('suback-codes');
  // mqtt.js turns some reason codes into an error: the SUBACK is read as it arrives.
  const subacks: number[][] = [];
  c.on('packetreceive', (p) => p.cmd === 'suback' && subacks.push((p as unknown as { granted: number[] }).granted));
  const subscribe = (topics: Record<string, { qos: 0 | 1 }>) => new Promise<void>((resolve) => c.subscribe(topics, () => resolve()));
  await subscribe({ 'a/b/c/d': { qos: 1 }, 'w/+': { qos: 1 }, 'ok/1': { qos: 1 } });
  await subscribe({ 'ok/2': { qos: 0 } });
  await subscribe({ 'ok/3': { qos: 0 } });
  assert.equal(subacks, [[0x8f, 0xa2, 1], [0], [0x97]]);
  const old = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'suback-311' });
  open.push(old);
  const refused = new Promise<number[]>((resolve) => old.on('packetreceive', (p) => p.cmd === 'suback' && resolve((p as unknown as { granted: number[] }).granted)));
  old.subscribe({ 'a/b/c/d': { qos: 1 }, 'w/+': { qos: 1 } }, () => undefined);
  assert.equal(await refused, [0x80, 0x80]);
});

test.run();
