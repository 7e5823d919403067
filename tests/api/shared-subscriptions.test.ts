// Shared subscriptions with real clients (mqtt.js over MQTT 3.1.1 and 5, mosquitto_sub, raw
// packets): one member of each `$share/<group>/` or `$queue/` group gets each message, by the
// zone's strategy (emqx_shared_sub.erl); unacknowledged QoS 1 messages of a member that leaves go to
// another; no retained messages on a shared subscribe; invalid filters are refused as EMQX does;
// the shared subscriptions show in /stats and /monitor_current.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IClientOptions, IConnackPacket, MqttClient } from 'mqtt';
import {
  connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator,
} from '../helpers/simulator.ts';
import { mqttString as str, varint as remainingLength } from '../helpers/wire.ts';

let sim: RunningSimulator;
let sim58: RunningSimulator;
let token = '';
let token58 = '';
const open: MqttClient[] = [];

test.before(async () => {
  sim = await startSimulator({ app: { emqxVersion: '5.5.1' } });
  sim58 = await startSimulator({ app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
  token58 = await login(sim58.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.splice(0).map((c) => endMqtt(c)));
});

test.after(async () => {
  await sim.close();
  await sim58.close();
});

interface Received {
  topic: string;
  payload: string;
  qos: number;
  retain: boolean;
}

/** A connected mqtt.js client (MQTT 3.1.1 unless told) that records what it receives. */
async function member(target: RunningSimulator, clientId: string, options: IClientOptions = {}): Promise<{ client: MqttClient; got: Received[] }> {
  const client = await connectMqtt(`mqtt://127.0.0.1:${target.mqtt}`, { clientId, ...options });
  open.push(client);
  const got: Received[] = [];
  client.on('message', (topic, payload, packet) => got.push({ topic, payload: payload.toString(), qos: packet.qos, retain: packet.retain }));
  return { client, got };
}

async function publishAll(client: MqttClient, topic: string, count: number, qos: 0 | 1 | 2 = 1, prefix = 'm'): Promise<void> {
  for (let i = 0; i < count; i++) await client.publishAsync(topic, `${prefix}${i}`, { qos });
}

async function settle(ms = 150): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

async function putZone(target: RunningSimulator, auth: string, mqtt: Record<string, unknown>): Promise<void> {
  const res = await request(target.baseUrl, 'PUT', '/api/v5/configs/global_zone', { token: auth, body: { mqtt } });
  assert.is(res.status, 200, res.text);
}

async function stats(target: RunningSimulator, auth: string): Promise<Record<string, number>> {
  return (await request(target.baseUrl, 'GET', '/api/v5/stats?aggregate=true', { token: auth })).json;
}

async function metrics(): Promise<Record<string, number>> {
  return (await request(sim.baseUrl, 'GET', '/api/v5/metrics?aggregate=true', { token })).json;
}

/** The CONNACK the client got (mqtt.js keeps it in a private field). */
function connack(client: MqttClient): IConnackPacket {
  return (client as unknown as { connackPacket: IConnackPacket }).connackPacket;
}

/** The SUBACK's code for one filter (mqtt.js rejects codes of 0x80 and above). */
async function granted(client: MqttClient, topic: string): Promise<number> {
  try {
    return (await client.subscribeAsync(topic, { qos: 1 }))[0].qos;
  } catch (err) {
    return (err as { packet: { granted: number[] } }).packet.granted[0];
  }
}

const total = (...lists: Received[][]) => lists.reduce((n, l) => n + l.length, 0);

// ---- raw packets, for filters mqtt.js refuses to send ------------------------------------------

function connectPacket(level: 4 | 5, clientId: string): Buffer {
  const body = Buffer.concat([str('MQTT'), Buffer.from([level, 0x02, 0, 30]), level === 5 ? Buffer.from([0]) : Buffer.alloc(0), str(clientId)]);
  return Buffer.concat([Buffer.from([0x10]), remainingLength(body.length), body]);
}

function subscribePacket(level: 4 | 5, filters: { topic: string; options: number }[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0x00, 0x07])];
  if (level === 5) parts.push(Buffer.from([0]));
  for (const f of filters) parts.push(str(f.topic), Buffer.from([f.options]));
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([0x82]), remainingLength(body.length), body]);
}

/** Connects with raw packets, sends one SUBSCRIBE after the CONNACK, returns what followed it. */
function rawSubscribe(level: 4 | 5, filters: { topic: string; options: number }[]): Promise<{ after: Buffer; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(sim.mqtt, '127.0.0.1', () => socket.write(connectPacket(level, `raw-${Math.random().toString(16).slice(2)}`)));
    let data = Buffer.alloc(0);
    let connackEnd = -1;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ after: connackEnd < 0 ? Buffer.alloc(0) : data.subarray(connackEnd), closed });
    };
    const timer = setTimeout(() => finish(false), 1500);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (connackEnd < 0 && data.length >= 2 && data.length >= 2 + data[1]) {
        assert.is(data[0], 0x20, 'CONNACK first');
        connackEnd = 2 + data[1];
        socket.write(subscribePacket(level, filters));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => finish(true));
  });
}

/** Splits complete MQTT packets off the front of a buffer: [first byte, body] each. */
function splitPackets(data: Buffer): { packets: [number, Buffer][]; rest: Buffer } {
  const packets: [number, Buffer][] = [];
  for (;;) {
    let length = 0;
    let i = 1;
    for (let shift = 0; i < data.length; i++, shift += 7) {
      length += (data[i] & 0x7f) << shift;
      if (!(data[i] & 0x80)) break;
    }
    if (i >= data.length || data.length < i + 1 + length) return { packets, rest: data };
    packets.push([data[0], data.subarray(i + 1, i + 1 + length)]);
    data = data.subarray(i + 1 + length);
  }
}

/** A raw MQTT 3.1.1 clean session subscribed to `filter` at QoS 1 that never acknowledges a PUBLISH. */
function silentMember(target: RunningSimulator, clientId: string, filter: string): Promise<{ payloads: string[]; drop(): void }> {
  return new Promise((resolve, reject) => {
    const payloads: string[] = [];
    const socket = net.connect(target.mqtt, '127.0.0.1', () => socket.write(connectPacket(4, clientId)));
    let data: Buffer = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      const split = splitPackets(Buffer.concat([data, chunk]));
      data = split.rest;
      for (const [first, body] of split.packets) {
        const type = first >> 4;
        if (type === 2) socket.write(subscribePacket(4, [{ topic: filter, options: 1 }]));
        if (type === 9) resolve({ payloads, drop: () => socket.destroy() });
        if (type === 3) {
          const topicLength = body.readUInt16BE(0);
          const qos = (first >> 1) & 3;
          payloads.push(body.subarray(2 + topicLength + (qos > 0 ? 2 : 0)).toString());
        }
      }
    });
  });
}

// ---- distribution ------------------------------------------------------------------------------

test('three $share/g members (MQTT 3.1.1, MQTT 5, mosquitto_sub) and a plain subscriber: round_robin gives each member 10 of 30, the plain one all 30', async () => {
  const v3 = await member(sim, 'sh-v3');
  const v5 = await member(sim, 'sh-v5', { protocolVersion: 5 });
  const plain = await member(sim, 'sh-plain');
  assert.equal((await v3.client.subscribeAsync('$share/g/sh/t', { qos: 1 }))[0].qos, 1);
  assert.equal((await v5.client.subscribeAsync('$share/g/sh/t', { qos: 1 }))[0].qos, 1);
  await plain.client.subscribeAsync('sh/t', { qos: 1 });
  let cli: ChildProcess | null = null;
  const cliLines: string[] = [];
  try {
    cli = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', 'sh-cli', '-V', 'mqttv5', '-q', '1', '-t', '$share/g/sh/t', '-v']);
    let buffered = '';
    cli.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      cliLines.push(...lines.filter(Boolean));
    });
    await waitFor(() => sim.app.store.mqtt.sessions.get('sh-cli')?.subscriptions.has('$share/g/sh/t') === true, 3000, 'mosquitto_sub subscribed');
    const pub = await member(sim, 'sh-pub');
    await publishAll(pub.client, 'sh/t', 30);
    await waitFor(() => total(v3.got, v5.got) + cliLines.length === 30 && plain.got.length === 30, 3000, '30 shared deliveries');
    await settle();
    assert.is(plain.got.length, 30);
    assert.is(total(v3.got, v5.got) + cliLines.length, 30, 'one member per message');
    assert.is(v3.got.length, 10);
    assert.is(v5.got.length, 10);
    assert.is(cliLines.length, 10);
    const payloads = new Set([...v3.got, ...v5.got].map((m) => m.payload).concat(cliLines.map((l) => l.split(' ')[1])));
    assert.is(payloads.size, 30, 'every message went to some member');
    assert.ok(cliLines.every((l) => l.startsWith('sh/t ')), 'delivered on the real topic');
  } finally {
    if (cli) {
      const exited = new Promise((r) => cli!.once('exit', r));
      cli.kill();
      await exited;
    }
  }
});

test('$queue/ is the shared group $queue: its members share the messages', async () => {
  const a = await member(sim, 'q-a');
  const b = await member(sim, 'q-b', { protocolVersion: 5 });
  await a.client.subscribeAsync('$queue/q/t', { qos: 1 });
  await b.client.subscribeAsync('$queue/q/t', { qos: 1 });
  const pub = await member(sim, 'q-pub');
  await publishAll(pub.client, 'q/t', 10);
  await waitFor(() => total(a.got, b.got) === 10, 2000, '$queue deliveries');
  await settle();
  assert.is(total(a.got, b.got), 10);
  assert.is(a.got.length, 5);
  assert.is(b.got.length, 5);
});

test('two groups on one filter each get every message, a wildcard filter included', async () => {
  const a1 = await member(sim, 'two-a1');
  const a2 = await member(sim, 'two-a2');
  const b1 = await member(sim, 'two-b1', { protocolVersion: 5 });
  const b2 = await member(sim, 'two-b2', { protocolVersion: 5 });
  await a1.client.subscribeAsync('$share/a/two/+', { qos: 1 });
  await a2.client.subscribeAsync('$share/a/two/+', { qos: 1 });
  await b1.client.subscribeAsync('$share/b/two/#', { qos: 1 });
  await b2.client.subscribeAsync('$share/b/two/#', { qos: 1 });
  const pub = await member(sim, 'two-pub');
  await publishAll(pub.client, 'two/x', 10);
  await waitFor(() => total(a1.got, a2.got) === 10 && total(b1.got, b2.got) === 10, 2000, 'both groups');
  await settle();
  assert.is(total(a1.got, a2.got), 10);
  assert.is(total(b1.got, b2.got), 10);
  assert.ok(a1.got.length > 0 && a2.got.length > 0 && b1.got.length > 0 && b2.got.length > 0);
});

test('a member gets the message at the lower of its subscription QoS and the message QoS', async () => {
  const low = await member(sim, 'qos-low', { protocolVersion: 5 });
  const high = await member(sim, 'qos-high');
  await low.client.subscribeAsync('$share/q/qos/t', { qos: 0 });
  await high.client.subscribeAsync('$share/q/qos/t', { qos: 2 });
  const pub = await member(sim, 'qos-pub');
  await publishAll(pub.client, 'qos/t', 4, 1);
  await waitFor(() => total(low.got, high.got) === 4, 2000, 'qos deliveries');
  assert.is(low.got.length, 2);
  assert.is(high.got.length, 2);
  assert.ok(low.got.every((m) => m.qos === 0), 'QoS 0 member gets QoS 0');
  assert.ok(high.got.every((m) => m.qos === 1), 'QoS 2 member gets the QoS 1 message at QoS 1');
});

test('an unsubscribed member leaves the group; the rest get everything', async () => {
  const a = await member(sim, 'un-a');
  const b = await member(sim, 'un-b', { protocolVersion: 5 });
  await a.client.subscribeAsync('$share/g/un/t', { qos: 1 });
  await b.client.subscribeAsync('$share/g/un/t', { qos: 1 });
  await b.client.unsubscribeAsync('$share/g/un/t');
  const pub = await member(sim, 'un-pub');
  await publishAll(pub.client, 'un/t', 6);
  await waitFor(() => a.got.length === 6, 2000, 'all to the remaining member');
  await settle();
  assert.is(b.got.length, 0);
});

test('a clean member that leaves with unacknowledged QoS 1 messages hands them to another member', async () => {
  const silent = await silentMember(sim, 'rd-silent', '$share/rd/rd/t');
  const other = await member(sim, 'rd-other', { protocolVersion: 5 });
  try {
    await other.client.subscribeAsync('$share/rd/rd/t', { qos: 1 });
    const pub = await member(sim, 'rd-pub');
    await publishAll(pub.client, 'rd/t', 6);
    await waitFor(() => silent.payloads.length + other.got.length === 6, 2000, 'first round');
    assert.is(silent.payloads.length, 3);
    assert.is(other.got.length, 3);
  } finally {
    silent.drop();
  }
  await waitFor(() => other.got.length === 6, 2000, 'redispatched to the other member');
  await settle();
  assert.is(other.got.length, 6);
  assert.equal(new Set(other.got.map((m) => m.payload)), new Set(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']));
});

test('a persistent member keeps its share while away, queued in its session, and gets it when the session resumes', async () => {
  // emqx_shared_sub.erl (v5.5.1) picks among live subscriber processes, and a disconnected persistent
  // session's channel lives on: emqx_channel.erl handle_deliver (conn_state disconnected) queues the
  // message (only with shared_dispatch_ack_enabled, off by default, would it be nacked and re-sent).
  const away = await member(sim, 'pe-away', { clean: false });
  await away.client.subscribeAsync('$share/pe/pe/t', { qos: 1 });
  const stay = await member(sim, 'pe-stay', { protocolVersion: 5 });
  await stay.client.subscribeAsync('$share/pe/pe/t', { qos: 1 });
  await endMqtt(away.client);
  open.splice(open.indexOf(away.client), 1);
  const pub = await member(sim, 'pe-pub');
  await publishAll(pub.client, 'pe/t', 4);
  await waitFor(() => stay.got.length === 2, 2000, 'the member still connected takes its half');
  const record = await request(sim.baseUrl, 'GET', '/api/v5/clients/pe-away', { token });
  assert.is(record.json.mqueue_len, 2, 'the absent member\'s half waits in its queue');
  const back = await member(sim, 'pe-away', { clean: false });
  assert.ok(connack(back.client).sessionPresent);
  await waitFor(() => back.got.length === 2, 2000, 'the queued half on resume');
  assert.equal([...stay.got, ...back.got].map((m) => m.payload).sort(), ['m0', 'm1', 'm2', 'm3']);
  await publishAll(pub.client, 'pe/t', 4, 1, 'n');
  await waitFor(() => stay.got.length + back.got.length === 8, 2000, 'shared again');
  await settle();
  assert.is(back.got.length, 4, 'the resumed session is a member again, without subscribing');
  await back.client.unsubscribeAsync('$share/pe/pe/t');
});

test('an absent member whose session expired takes no share any more', async () => {
  await putZone(sim, token, { session_expiry_interval: '1s' });
  try {
    const gone = await member(sim, 'px-gone', { clean: false });
    await gone.client.subscribeAsync('$share/px/px/t', { qos: 1 });
    const stay = await member(sim, 'px-stay');
    await stay.client.subscribeAsync('$share/px/px/t', { qos: 1 });
    await endMqtt(gone.client);
    open.splice(open.indexOf(gone.client), 1);
    await waitFor(async () => (await request(sim.baseUrl, 'GET', '/api/v5/clients/px-gone', { token })).status === 404, 4000, 'the session to expire');
    const pub = await member(sim, 'px-pub');
    await publishAll(pub.client, 'px/t', 4);
    await waitFor(() => stay.got.length === 4, 2000, 'the remaining member takes all');
  } finally {
    await putZone(sim, token, { session_expiry_interval: '2h' });
  }
});

test('a shared subscription made over the REST API for an MQTT 5 client delivers to it', async () => {
  const v5 = await member(sim, 'api-v5', { protocolVersion: 5 });
  const res = await request(sim.baseUrl, 'POST', '/api/v5/clients/api-v5/subscribe', { token, body: { topic: '$share/api/api/t', qos: 1 } });
  assert.is(res.status, 200, res.text);
  await waitFor(() => sim.app.store.mqtt.sessions.get('api-v5')?.subscriptions.has('$share/api/api/t') === true, 1000, 'listed');
  const pub = await member(sim, 'api-pub');
  await publishAll(pub.client, 'api/t', 2);
  await waitFor(() => v5.got.length === 2, 2000, 'delivered to the API-made member');
});

test('no retained message is sent on a shared subscribe; live messages are delivered without the retain flag', async () => {
  const pub = await member(sim, 'ret-pub');
  await pub.client.publishAsync('ret/t', 'kept', { qos: 1, retain: true });
  const plain = await member(sim, 'ret-plain');
  await plain.client.subscribeAsync('ret/t', { qos: 1 });
  await waitFor(() => plain.got.length === 1, 2000, 'retained to a plain subscriber');
  const v5 = await member(sim, 'ret-v5', { protocolVersion: 5 });
  const v3 = await member(sim, 'ret-v3');
  await v5.client.subscribeAsync('$share/r/ret/t', { qos: 1, rh: 0 });
  await v3.client.subscribeAsync('$share/r/ret/#', { qos: 1 });
  await v5.client.subscribeAsync('$queue/ret/t', { qos: 1 });
  await settle(300);
  assert.is(v5.got.length, 0, 'nothing retained on a shared subscribe (MQTT 5)');
  assert.is(v3.got.length, 0, 'nothing retained on a shared subscribe (MQTT 3.1.1)');
  await pub.client.publishAsync('ret/t', 'live', { qos: 1, retain: true });
  await waitFor(() => v5.got.length === 2 && v3.got.length === 1, 2000, 'live message to both groups');
  assert.ok([...v5.got, ...v3.got].every((m) => m.payload === 'live' && !m.retain));
  // Clearing the retained message is a message too: wait until it has arrived everywhere, so no
  // client acknowledges it after the test has ended it.
  await pub.client.publishAsync('ret/t', '', { qos: 1, retain: true });
  await waitFor(() => v5.got.length === 4 && v3.got.length === 2 && plain.got.length === 3, 2000, 'the clearing message delivered');
});

// ---- refusals ----------------------------------------------------------------------------------

const INVALID = ['$share/g', '$share//t', '$share/g+/t', '$share/g#/t', '$share/g/', '$share/', '$share/g/$share/h/t'];

test('invalid shared filters: MQTT 5 gets DISCONNECT 0x8F and the connection closes, without SUBACK', async () => {
  for (const topic of INVALID) {
    const { after, closed } = await rawSubscribe(5, [{ topic: 'fine/t', options: 1 }, { topic, options: 1 }]);
    assert.ok(closed, `${topic}: closed`);
    assert.is(after[0], 0xe0, `${topic}: DISCONNECT, not ${after.toString('hex')}`);
    assert.is(after[2], 0x8f, `${topic}: reason Topic Filter invalid`);
  }
});

test('No Local on an MQTT 5 shared subscription is a protocol error: DISCONNECT 0x82', async () => {
  const { after, closed } = await rawSubscribe(5, [{ topic: '$share/g/nl/t', options: 0x05 }]);
  assert.ok(closed);
  assert.is(after[0], 0xe0);
  assert.is(after[2], 0x82);
});

test('invalid shared filters: MQTT 3.1.1 closes the connection without SUBACK', async () => {
  for (const topic of INVALID) {
    const { after, closed } = await rawSubscribe(4, [{ topic, options: 1 }]);
    assert.ok(closed, `${topic}: closed`);
    assert.is(after.length, 0, `${topic}: nothing answered, got ${after.toString('hex')}`);
  }
});

test('MQTT 5 CONNACK says shared subscriptions are available; when the zone turns them off, SUBACK refuses them (0x9E, 0x80 in 3.1.1) and they are not counted', async () => {
  const on = await member(sim, 'cap-on', { protocolVersion: 5 });
  assert.is(connack(on.client).properties?.sharedSubscriptionAvailable, true);
  const before = (await stats(sim, token))['subscriptions.shared.count'];
  await putZone(sim, token, { shared_subscription: false });
  try {
    const off = await member(sim, 'cap-off', { protocolVersion: 5 });
    assert.is(connack(off.client).properties?.sharedSubscriptionAvailable, false);
    assert.is(await granted(off.client, '$share/g/cap/t'), 0x9e);
    const v3 = await member(sim, 'cap-v3');
    assert.is(await granted(v3.client, '$share/g/cap/t'), 0x80);
    await settle(50);
    assert.is((await stats(sim, token))['subscriptions.shared.count'], before);
  } finally {
    await putZone(sim, token, { shared_subscription: true });
  }
});

// ---- counts ------------------------------------------------------------------------------------

test('shared subscriptions count in /stats and 5.8 /monitor_current; their deliveries in messages.delivered, not as dropped', async () => {
  const before = await stats(sim58, token58);
  const a = await member(sim58, 'cnt-a');
  const b = await member(sim58, 'cnt-b', { protocolVersion: 5 });
  assert.is((await a.client.subscribeAsync('$share/c/cnt/t', { qos: 1 }))[0].qos, 1);
  assert.is((await b.client.subscribeAsync('$queue/cnt/t', { qos: 1 }))[0].qos, 1);
  await waitFor(async () => (await stats(sim58, token58))['subscriptions.shared.count'] === before['subscriptions.shared.count'] + 2, 1000, 'shared counted');
  const current = (await request(sim58.baseUrl, 'GET', '/api/v5/monitor_current', { token: token58 })).json;
  assert.is(current.shared_subscriptions, before['subscriptions.shared.count'] + 2);
  await endMqtt(b.client);
  open.splice(open.indexOf(b.client), 1);
  await waitFor(async () => (await stats(sim58, token58))['subscriptions.shared.count'] === before['subscriptions.shared.count'] + 1, 1000, 'a clean session takes its shared subscription away');

  const m0 = await metrics();
  const pub = await member(sim, 'cnt-pub');
  const c = await member(sim, 'cnt-c');
  await c.client.subscribeAsync('$share/c/cnt/t', { qos: 1 });
  await publishAll(pub.client, 'cnt/t', 3);
  await waitFor(() => c.got.length === 3, 2000, 'delivered');
  await pub.client.publishAsync('cnt/nobody', 'x', { qos: 1 });
  await waitFor(async () => (await metrics())['messages.delivered'] >= m0['messages.delivered'] + 3, 1000, 'delivered counted');
  const m1 = await metrics();
  assert.is(m1['messages.delivered'], m0['messages.delivered'] + 3);
  assert.is(m1['messages.dropped.no_subscribers'], m0['messages.dropped.no_subscribers'] + 1, 'only the message nobody subscribes to');
});

// ---- strategies (5.8.9: mqtt.shared_subscription_strategy in the zone) -------------------------

async function group(prefix: string, filter: string, n: number) {
  const members = [];
  for (let i = 0; i < n; i++) {
    const m = await member(sim58, `${prefix}-${i}`, i % 2 ? { protocolVersion: 5 } : {});
    await m.client.subscribeAsync(filter, { qos: 1 });
    members.push(m);
  }
  return members;
}

test('strategy random (and local, on one node): every message to one member, spread over them', async () => {
  for (const strategy of ['random', 'local']) {
    await putZone(sim58, token58, { shared_subscription_strategy: strategy });
    const members = await group(`rnd-${strategy}`, `$share/${strategy}/rnd/t`, 3);
    const pub = await member(sim58, `rnd-${strategy}-pub`);
    await publishAll(pub.client, 'rnd/t', 60);
    await waitFor(() => total(...members.map((m) => m.got)) === 60, 3000, `${strategy} deliveries`);
    await settle();
    assert.is(total(...members.map((m) => m.got)), 60);
    assert.ok(members.every((m) => m.got.length > 0), `${strategy}: ${members.map((m) => m.got.length)}`);
    await Promise.all(open.splice(0).map((c) => endMqtt(c)));
  }
  await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin' });
});

test('strategy round_robin_per_group: the members in subscription order, whoever publishes', async () => {
  await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin_per_group' });
  try {
    const members = await group('rrg', '$share/g/rrg/t', 3);
    const p1 = await member(sim58, 'rrg-p1');
    const p2 = await member(sim58, 'rrg-p2');
    for (let i = 0; i < 6; i++) await (i % 2 ? p2 : p1).client.publishAsync('rrg/t', `m${i}`, { qos: 1 });
    await waitFor(() => total(...members.map((m) => m.got)) === 6, 2000, 'rrpg deliveries');
    assert.equal(members.map((m) => m.got.map((g) => g.payload)), [['m0', 'm3'], ['m1', 'm4'], ['m2', 'm5']]);
  } finally {
    await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin' });
  }
});

test('strategy sticky: one member takes everything until it leaves, then another one does', async () => {
  await putZone(sim58, token58, { shared_subscription_strategy: 'sticky' });
  try {
    const members = await group('st', '$share/g/st/t', 3);
    const pub = await member(sim58, 'st-pub');
    await publishAll(pub.client, 'st/t', 10);
    await waitFor(() => total(...members.map((m) => m.got)) === 10, 2000, 'sticky deliveries');
    const first = members.find((m) => m.got.length > 0)!;
    assert.is(first.got.length, 10);
    await first.client.unsubscribeAsync('$share/g/st/t');
    await publishAll(pub.client, 'st/t', 10, 1, 'n');
    const rest = members.filter((m) => m !== first);
    await waitFor(() => total(...rest.map((m) => m.got)) === 10, 2000, 'sticky after leave');
    await settle();
    assert.is(first.got.length, 10);
    assert.ok(rest.some((m) => m.got.length === 10), `one member takes over: ${rest.map((m) => m.got.length)}`);
  } finally {
    await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin' });
  }
});

test('strategies hash_clientid and hash_topic: the same publisher / topic always reaches the same member', async () => {
  try {
    await putZone(sim58, token58, { shared_subscription_strategy: 'hash_clientid' });
    const byClient = await group('hc', '$share/g/hc/+', 3);
    const pubs = [await member(sim58, 'hc-pub-a'), await member(sim58, 'hc-pub-b'), await member(sim58, 'hc-pub-c')];
    for (let i = 0; i < 12; i++) await pubs[i % 3].client.publishAsync(`hc/${i}`, pubs[i % 3].client.options.clientId as string, { qos: 1 });
    await waitFor(() => total(...byClient.map((m) => m.got)) === 12, 2000, 'hash_clientid deliveries');
    const owner = new Map<string, number>();
    byClient.forEach((m, i) => m.got.forEach((g) => {
      assert.is(owner.get(g.payload) ?? i, i, `publisher ${g.payload} reaches one member`);
      owner.set(g.payload, i);
    }));

    await putZone(sim58, token58, { shared_subscription_strategy: 'hash_topic' });
    const byTopic = await group('ht', '$share/g/ht/+', 3);
    const pub = await member(sim58, 'ht-pub');
    for (let i = 0; i < 12; i++) await pub.client.publishAsync(`ht/${i % 4}`, `m${i}`, { qos: 1 });
    await waitFor(() => total(...byTopic.map((m) => m.got)) === 12, 2000, 'hash_topic deliveries');
    const topicOwner = new Map<string, number>();
    byTopic.forEach((m, i) => m.got.forEach((g) => {
      assert.is(topicOwner.get(g.topic) ?? i, i, `topic ${g.topic} reaches one member`);
      topicOwner.set(g.topic, i);
    }));
  } finally {
    await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin' });
  }
});

test('5.5.1 has the zone\'s shared_subscription_strategy too, and follows it', async () => {
  // emqx_schema.erl (v5.5.1) mqtt_general/0 lists shared_subscription_strategy(), so global_zone
  // serves and takes it; shared_subscription_initial_sticky_pick comes with 5.6.
  const zoneNow = (await request(sim.baseUrl, 'GET', '/api/v5/configs/global_zone', { token })).json.mqtt;
  assert.is(zoneNow.shared_subscription_strategy, 'round_robin');
  assert.is(zoneNow.shared_subscription_initial_sticky_pick, undefined);
  await putZone(sim, token, { shared_subscription_strategy: 'round_robin_per_group' });
  try {
    const a = await member(sim, 'z551-a');
    await a.client.subscribeAsync('$share/z551/z551/t', { qos: 1 });
    const b = await member(sim, 'z551-b');
    await b.client.subscribeAsync('$share/z551/z551/t', { qos: 1 });
    const pub = await member(sim, 'z551-pub');
    await publishAll(pub.client, 'z551/t', 6);
    await waitFor(() => a.got.length + b.got.length === 6, 2000, 'six deliveries');
    assert.equal(a.got.map((m) => m.payload), ['m0', 'm2', 'm4']);
  } finally {
    await putZone(sim, token, { shared_subscription_strategy: 'round_robin' });
  }
});

test('a strategy changed over the API applies to the next message', async () => {
  const members = await group('chg', '$share/g/chg/t', 3);
  const pub = await member(sim58, 'chg-pub');
  await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin' });
  await publishAll(pub.client, 'chg/t', 3);
  await waitFor(() => total(...members.map((m) => m.got)) === 3, 2000, 'round_robin');
  assert.ok(members.every((m) => m.got.length === 1), 'round_robin: one each');
  await putZone(sim58, token58, { shared_subscription_strategy: 'sticky' });
  try {
    await publishAll(pub.client, 'chg/t', 6, 1, 's');
    await waitFor(() => total(...members.map((m) => m.got)) === 9, 2000, 'sticky');
    const counts = members.map((m) => m.got.filter((g) => g.payload.startsWith('s')).length).sort();
    assert.equal(counts, [0, 0, 6]);
  } finally {
    await putZone(sim58, token58, { shared_subscription_strategy: 'round_robin' });
  }
});

test.run();
