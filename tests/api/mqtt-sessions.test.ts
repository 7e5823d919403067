// Sessions that lose nothing, with real MQTT clients (mqtt.js 3.1.1 and 5, mosquitto_sub, and a
// raw socket client that acknowledges only when told): the inflight window and its Receive
// Maximum cap, the bounded message queue dropping its oldest, offline delivery in order across
// QoS levels, QoS per matching subscription, retries, QoS 2 receipts awaiting PUBREL, session
// expiry, kick with a delayed will, and what /clients shows of it (emqx_session_mem.erl v5.5.1).
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { MqttClient, type IClientOptions, type IPublishPacket } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';
import { frame, mqttString as str, varint } from '../helpers/wire.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 1 });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves as `promise` does, or rejects after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`timed out after ${ms} ms waiting for ${what}`)))]);
}

async function client(id: string, base = sim): Promise<Record<string, any>> {
  const res = await request(base.baseUrl, 'GET', `/api/v5/clients/${encodeURIComponent(id)}`, { token });
  return { status: res.status, ...res.json };
}

async function metrics(): Promise<Record<string, number>> {
  return (await request(sim.baseUrl, 'GET', '/api/v5/metrics?aggregate=true', { token })).json;
}

/** Changes zone settings for the length of `run`, then puts the previous values back. */
async function withZone(mqtt: Record<string, unknown>, run: () => Promise<void>): Promise<void> {
  const before = (await request(sim.baseUrl, 'GET', '/api/v5/configs/global_zone', { token })).json.mqtt;
  const set = await request(sim.baseUrl, 'PUT', '/api/v5/configs/global_zone', { token, body: { mqtt } });
  assert.is(set.status, 200, set.text);
  try {
    await run();
  } finally {
    const back = Object.fromEntries(Object.keys(mqtt).map((k) => [k, before[k]]));
    await request(sim.baseUrl, 'PUT', '/api/v5/configs/global_zone', { token, body: { mqtt: back } });
  }
}

/** An mqtt.js client whose message listener is in place before CONNACK (queued messages follow it at once). */
function listening(id: string, options: IClientOptions, onMessage: (topic: string, payload: Buffer, packet: IPublishPacket) => void): Promise<MqttClient> {
  const c = new MqttClient(() => net.connect(sim.mqtt, '127.0.0.1'), {
    protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, timerVariant: 'native', clientId: id, ...options,
  });
  c.on('message', onMessage);
  return new Promise((resolve, reject) => {
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
}

const connackOf = (c: MqttClient) => (c as unknown as { connackPacket: { sessionPresent: boolean } }).connackPacket;

async function publisher(id: string): Promise<MqttClient> {
  return connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: id });
}

// ---- A raw MQTT client that acknowledges only when told ------------------------------------------

interface RawPublish {
  id: number;
  qos: number;
  dup: boolean;
  topic: string;
  payload: string;
}


class RawClient {
  readonly publishes: RawPublish[] = [];
  readonly packets: number[] = [];
  sessionPresent = false;
  closed = false;
  private pending = Buffer.alloc(0);

  private constructor(private readonly socket: net.Socket, readonly level: 4 | 5) {
    socket.on('data', (chunk) => this.read(chunk));
    socket.on('close', () => {
      this.closed = true;
    });
    socket.on('error', () => undefined);
  }

  /** Connects and waits for CONNACK; MQTT 5 may carry Receive Maximum and Session Expiry Interval. */
  static async connect(id: string, options: { clean?: boolean; level?: 4 | 5; receiveMaximum?: number; expiry?: number; port?: number } = {}): Promise<RawClient> {
    const level = options.level ?? 4;
    const socket = net.connect(options.port ?? sim.mqtt, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const raw = new RawClient(socket, level);
    let props = Buffer.alloc(0);
    if (level === 5) {
      const parts: Buffer[] = [];
      if (options.expiry !== undefined) parts.push(Buffer.from([0x11, 0, 0, options.expiry >> 8, options.expiry & 0xff]));
      if (options.receiveMaximum !== undefined) parts.push(Buffer.from([0x21, options.receiveMaximum >> 8, options.receiveMaximum & 0xff]));
      const body = Buffer.concat(parts);
      props = Buffer.concat([varint(body.length), body]);
    }
    const flags = options.clean === false ? 0x00 : 0x02;
    socket.write(frame(0x10, Buffer.concat([str('MQTT'), Buffer.from([level, flags, 0, 0]), props, str(id)])));
    await waitFor(() => raw.packets.includes(0x20), 2000, 'CONNACK');
    return raw;
  }

  async subscribe(filter: string, qos: number): Promise<void> {
    const props = this.level === 5 ? Buffer.from([0]) : Buffer.alloc(0);
    this.socket.write(frame(0x82, Buffer.concat([Buffer.from([0, 1]), props, str(filter), Buffer.from([qos])])));
    await waitFor(() => this.packets.includes(0x90), 2000, 'SUBACK');
  }

  /** A QoS 2 PUBLISH that is never released (no PUBREL follows). */
  publishQos2(topic: string, id: number): void {
    const props = this.level === 5 ? Buffer.from([0]) : Buffer.alloc(0);
    this.socket.write(frame(0x34, Buffer.concat([str(topic), Buffer.from([id >> 8, id & 0xff]), props, Buffer.from('x')])));
  }

  ack(id: number): void {
    this.socket.write(Buffer.from([0x40, 2, id >> 8, id & 0xff]));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((r) => {
      this.socket.once('close', () => r());
      this.socket.destroy();
    });
  }

  private read(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.pending.length < 2) return;
      let length = 0;
      let mult = 1;
      let i = 1;
      for (; i < 5 && i < this.pending.length; i++) {
        length += (this.pending[i] & 0x7f) * mult;
        mult *= 128;
        if ((this.pending[i] & 0x80) === 0) break;
      }
      if (i >= this.pending.length || this.pending.length < i + 1 + length) return;
      const first = this.pending[0];
      const body = this.pending.subarray(i + 1, i + 1 + length);
      this.pending = this.pending.subarray(i + 1 + length);
      this.packets.push(first & 0xf0);
      if ((first & 0xf0) === 0x20) this.sessionPresent = (body[0] & 1) === 1;
      if ((first & 0xf0) === 0x30) {
        const qos = (first >> 1) & 3;
        const topicLength = body.readUInt16BE(0);
        const topic = body.subarray(2, 2 + topicLength).toString();
        let at = 2 + topicLength;
        const id = qos > 0 ? body.readUInt16BE(at) : 0;
        if (qos > 0) at += 2;
        if (this.level === 5) {
          let propLength = 0;
          let m = 1;
          for (;;) {
            const b = body[at++];
            propLength += (b & 0x7f) * m;
            m *= 128;
            if ((b & 0x80) === 0) break;
          }
          at += propLength;
        }
        this.publishes.push({ id, qos, dup: (first & 0x08) !== 0, topic, payload: body.subarray(at).toString() });
      }
    }
  }
}

// ---- (a) offline delivery across QoS levels --------------------------------------------------------

for (const version of [4, 5] as const) {
  test(`MQTT ${version === 5 ? '5' : '3.1.1'}: 10 rounds of QoS 1,1,2,2,2 to an offline persistent session all arrive on reconnect, in order`, async () => {
    const id = `off-${version}`;
    const options: IClientOptions = version === 5
      ? { protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } }
      : { clean: false };
    const sub = await listening(id, options, () => undefined);
    await sub.subscribeAsync(`a${version}/#`, { qos: 2 });
    await endMqtt(sub);
    const pub = await publisher(`off-pub-${version}`);
    const sent: { payload: string; qos: number }[] = [];
    for (let round = 0; round < 10; round++) {
      for (const qos of [1, 1, 2, 2, 2] as const) {
        const payload = String(sent.length);
        sent.push({ payload, qos });
        await pub.publishAsync(`a${version}/t`, payload, { qos });
      }
    }
    assert.is((await client(id)).mqueue_len, 50);
    // The order on the wire (mqtt.js hands a QoS 2 message to the application only at PUBREL).
    const wire: { payload: string; qos: number }[] = [];
    let delivered = 0;
    const back = new MqttClient(() => net.connect(sim.mqtt, '127.0.0.1'), {
      protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, timerVariant: 'native', clientId: id, ...options,
    });
    back.on('packetreceive', (packet) => {
      if (packet.cmd === 'publish') wire.push({ payload: packet.payload.toString(), qos: packet.qos });
    });
    back.on('message', () => delivered++);
    await waitFor(() => delivered >= 50, 5000, '50 messages');
    await sleep(200);
    assert.is(delivered, 50);
    assert.equal(wire, sent);
    await endMqtt(back);
    await endMqtt(pub);
  });
}

test('mosquitto_sub -c: a persistent QoS 1 session gets what was published at QoS 1 and 2 while it was gone', async () => {
  const run = promisify(execFile);
  const args = ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', 'mosq-1', '-c', '-q', '1', '-t', 'mosq/#'];
  await run('mosquitto_sub', [...args, '-E']);
  const pub = await publisher('mosq-pub');
  for (let i = 0; i < 6; i++) await pub.publishAsync('mosq/t', `m${i}`, { qos: i % 2 === 0 ? 1 : 2 });
  const offline = await client('mosq-1');
  assert.is(offline.connected, false);
  assert.is(offline.mqueue_len, 6);
  const { stdout } = await run('mosquitto_sub', [...args, '-C', '6', '-W', '10']);
  assert.equal(stdout.trim().split('\n'), ['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  await endMqtt(pub);
});

// ---- (b) the bounded queue ------------------------------------------------------------------------

test('1,200 QoS 1 messages to an offline session: the queue holds the newest 1,000 and counts 200 dropped', async () => {
  const id = 'full-1';
  const sub = await listening(id, { clean: false }, () => undefined);
  await sub.subscribeAsync('full/#', { qos: 1 });
  await endMqtt(sub);
  const before = await metrics();
  const pub = await publisher('full-pub');
  for (let i = 0; i < 1200; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, k) => pub.publishAsync('full/t', String(i + k), { qos: 1 })));
  }
  const view = await client(id);
  assert.is(view.mqueue_len, 1000);
  assert.is(view.mqueue_max, 1000);
  assert.is(view.mqueue_dropped, 200);
  assert.is(view['send_msg.dropped.queue_full'], 200);
  const after = await metrics();
  assert.is(after['delivery.dropped.queue_full'] - before['delivery.dropped.queue_full'], 200);
  assert.is(after['delivery.dropped'] - before['delivery.dropped'], 200);
  const got: number[] = [];
  const back = await listening(id, { clean: false }, (_t, payload) => got.push(Number(payload.toString())));
  await waitFor(() => got.length >= 1000, 10000, '1000 messages');
  await sleep(200);
  assert.is(got.length, 1000);
  assert.is(got[0], 200);
  assert.ok(got.every((n, i) => n === 200 + i), 'the newest 1000, in order');
  assert.is((await client(id)).mqueue_len, 0);
  await endMqtt(back);
  await endMqtt(pub);
});

// ---- (c) the inflight window ------------------------------------------------------------------------

test('a subscriber that does not acknowledge has 32 QoS 1 messages in flight; the rest follow its acks', async () => {
  const raw = await RawClient.connect('win-1');
  await raw.subscribe('win/t', 1);
  const pub = await publisher('win-pub');
  await Promise.all(Array.from({ length: 100 }, (_, i) => pub.publishAsync('win/t', String(i), { qos: 1 })));
  await waitFor(() => raw.publishes.length >= 32, 2000, '32 deliveries');
  await sleep(300);
  assert.is(raw.publishes.length, 32);
  const view = await client('win-1');
  assert.is(view.inflight_cnt, 32);
  assert.is(view.inflight_max, 32);
  assert.is(view.mqueue_len, 68);
  for (const p of raw.publishes.slice(0, 10)) raw.ack(p.id);
  await waitFor(() => raw.publishes.length >= 42, 2000, '10 more');
  await sleep(200);
  assert.is(raw.publishes.length, 42);
  let acked = 10;
  while (acked < 100) {
    const next = raw.publishes.slice(acked);
    for (const p of next) raw.ack(p.id);
    acked += next.length;
    await waitFor(() => raw.publishes.length > acked || acked >= 100, 2000, 'more deliveries');
  }
  assert.equal(raw.publishes.map((p) => p.payload), Array.from({ length: 100 }, (_, i) => String(i)));
  await waitFor(async () => (await client('win-1')).inflight_cnt === 0, 1000, 'an empty window');
  await raw.close();
  await endMqtt(pub);
});

test('MQTT 5 Receive Maximum caps the window below max_inflight', async () => {
  const raw = await RawClient.connect('win-5', { level: 5, receiveMaximum: 5 });
  await raw.subscribe('win5/t', 2);
  const pub = await publisher('win5-pub');
  await Promise.all(Array.from({ length: 12 }, (_, i) => pub.publishAsync('win5/t', String(i), { qos: 1 })));
  await sleep(300);
  assert.is(raw.publishes.length, 5);
  const view = await client('win-5');
  assert.is(view.inflight_cnt, 5);
  assert.is(view.inflight_max, 5);
  assert.is(view.mqueue_len, 7);
  await raw.close();
  await endMqtt(pub);
});

test('inflight messages are sent again with DUP and the same packet ids when the persistent session reconnects', async () => {
  const raw = await RawClient.connect('dup-1', { clean: false });
  await raw.subscribe('dup/t', 1);
  const pub = await publisher('dup-pub');
  for (let i = 0; i < 3; i++) await pub.publishAsync('dup/t', `d${i}`, { qos: 1 });
  await waitFor(() => raw.publishes.length === 3, 2000, '3 deliveries');
  const first = raw.publishes.map((p) => ({ id: p.id, payload: p.payload }));
  await raw.close();
  await waitFor(async () => (await client('dup-1')).connected === false, 1000, 'offline');
  assert.is((await client('dup-1')).inflight_cnt, 3);
  const again = await RawClient.connect('dup-1', { clean: false });
  assert.ok(again.sessionPresent);
  await waitFor(() => again.publishes.length === 3, 2000, '3 resent');
  assert.equal(again.publishes.map((p) => ({ id: p.id, payload: p.payload })), first);
  assert.ok(again.publishes.every((p) => p.dup));
  for (const p of again.publishes) again.ack(p.id);
  await waitFor(async () => (await client('dup-1')).inflight_cnt === 0, 1000, 'acknowledged');
  await again.close();
  await endMqtt(pub);
});

test('a persistent session taken over by a new connection while the old one is up moves its inflight window there', async () => {
  const old = await RawClient.connect('take-1', { clean: false });
  await old.subscribe('take/t', 1);
  const pub = await publisher('take-pub');
  for (let i = 0; i < 3; i++) await pub.publishAsync('take/t', `t${i}`, { qos: 1 });
  await waitFor(() => old.publishes.length === 3, 1000, '3 deliveries');
  const now = await RawClient.connect('take-1', { clean: false });
  await waitFor(() => old.closed, 1000, 'the old connection closed');
  await waitFor(() => now.publishes.length === 3, 1000, '3 resent');
  assert.equal(now.publishes.map((p) => [p.id, p.payload, p.dup]), old.publishes.map((p) => [p.id, p.payload, true]));
  await pub.publishAsync('take/t', 't3', { qos: 1 });
  await waitFor(() => now.publishes.length === 4, 1000, 'a new one');
  assert.is(now.publishes[3].payload, 't3');
  await now.close();
  await endMqtt(pub);
});

test('an MQTT 5 connection that takes over a live session: the old one hears 0x8E before the new CONNACK, and the new subscriptions deliver', async () => {
  for (const clean of [true, false]) {
    const id = `take5-${clean}`;
    const events: string[] = [];
    const options: IClientOptions = { protocolVersion: 5, clean, properties: { sessionExpiryInterval: clean ? 0 : 60 } };
    const old = await listening(id, options, () => undefined);
    old.on('disconnect', (packet) => events.push(`old DISCONNECT ${packet.reasonCode}`));
    old.on('error', () => undefined);
    // With a subscription of its own, the old connection takes longer to close than to write.
    await old.subscribeAsync(`${id}/old`, { qos: 1 });
    const got: string[] = [];
    const now = await listening(id, options, (_t, p) => got.push(p.toString()));
    events.push('new CONNACK');
    await now.subscribeAsync(`${id}/t`, { qos: 1 });
    const pub = await publisher(`${id}-pub`);
    await pub.publishAsync(`${id}/t`, 'after', { qos: 1 });
    await waitFor(() => got.length === 1, 1000, `clean ${clean}: the message on the new connection`);
    // emqx_cm.erl open_session (v5.5.1): the old channel is discarded or taken over before the
    // new session exists, so its DISCONNECT goes out before the new CONNACK.
    assert.equal(events, ['old DISCONNECT 142', 'new CONNACK'], `clean ${clean}`);
    assert.is((await client(id)).connected, true);
    await endMqtt(now);
    await endMqtt(pub);
  }
});

// ---- (d) QoS 0 while offline ------------------------------------------------------------------------

test('QoS 0 messages are queued for an offline session by default, and not when mqueue_store_qos0 is false', async () => {
  const offlineRun = async (id: string) => {
    const got: string[] = [];
    const sub = await listening(id, { clean: false }, (_t, p) => got.push(p.toString()));
    await sub.subscribeAsync(`${id}/#`, { qos: 1 });
    await endMqtt(sub);
    const pub = await publisher(`${id}-pub`);
    for (let i = 0; i < 3; i++) await pub.publishAsync(`${id}/t`, `z${i}`, { qos: 0 });
    await sleep(100);
    const queued = (await client(id)).mqueue_len as number;
    const back = await listening(id, { clean: false }, (_t, p) => got.push(p.toString()));
    await sleep(300);
    await endMqtt(back);
    await endMqtt(pub);
    return { queued, got };
  };
  assert.equal(await offlineRun('q0-on'), { queued: 3, got: ['z0', 'z1', 'z2'] });
  await withZone({ mqueue_store_qos0: false }, async () => {
    const before = await metrics();
    assert.equal(await offlineRun('q0-off'), { queued: 0, got: [] });
    const after = await metrics();
    assert.is(after['delivery.dropped.qos0_msg'] - before['delivery.dropped.qos0_msg'], 3);
  });
});

// ---- (e) QoS per subscription ------------------------------------------------------------------------

test('a QoS 1 wildcard subscriber receives a QoS 2 message at QoS 1', async () => {
  const got: number[] = [];
  const sub = await listening('down-1', {}, (_t, _p, packet) => got.push(packet.qos));
  await sub.subscribeAsync('down/#', { qos: 1 });
  const pub = await publisher('down-pub');
  await pub.publishAsync('down/x', 'two', { qos: 2 });
  await waitFor(() => got.length === 1, 1000, 'the message');
  assert.equal(got, [1]);
  await endMqtt(sub);
  await endMqtt(pub);
});

test('a retained QoS 2 message sent on a QoS 1 wildcard subscription arrives at QoS 1', async () => {
  const pub = await publisher('ret-pub');
  await pub.publishAsync('ret/x', 'kept', { qos: 2, retain: true });
  const got: { qos: number; retain: boolean }[] = [];
  const sub = await listening('ret-1', {}, (_t, _p, packet) => got.push({ qos: packet.qos, retain: packet.retain }));
  await sub.subscribeAsync('ret/#', { qos: 1 });
  await waitFor(() => got.length === 1, 1000, 'the retained message');
  assert.equal(got, [{ qos: 1, retain: true }]);
  await pub.publishAsync('ret/x', '', { qos: 1, retain: true });
  await endMqtt(sub);
  await endMqtt(pub);
});

test('overlapping subscriptions get one copy each, at each one\'s QoS and with its subscription identifier (MQTT 5)', async () => {
  const got: { qos: number; ids: unknown }[] = [];
  const sub = await listening('over-1', { protocolVersion: 5 }, (_t, _p, packet) =>
    got.push({ qos: packet.qos, ids: packet.properties?.subscriptionIdentifier }));
  await sub.subscribeAsync('over/#', { qos: 1, properties: { subscriptionIdentifier: 1 } });
  await sub.subscribeAsync('over/x', { qos: 2, properties: { subscriptionIdentifier: 2 } });
  const pub = await publisher('over-pub');
  await pub.publishAsync('over/x', 'both', { qos: 2 });
  await waitFor(() => got.length === 2, 1000, 'two copies');
  await sleep(100);
  const sorted = got.map((g) => ({ qos: g.qos, ids: Array.isArray(g.ids) ? g.ids : [g.ids] })).sort((a, b) => a.qos - b.qos);
  assert.equal(sorted, [{ qos: 1, ids: [1] }, { qos: 2, ids: [2] }]);
  await endMqtt(sub);
  await endMqtt(pub);
});

// ---- (f) retries ------------------------------------------------------------------------------------

test('an unacknowledged message is sent again with DUP after retry_interval, and no more once acknowledged', async () => {
  await withZone({ retry_interval: '1s' }, async () => {
    const raw = await RawClient.connect('retry-1');
    await raw.subscribe('retry/t', 1);
    const pub = await publisher('retry-pub');
    await pub.publishAsync('retry/t', 'again', { qos: 1 });
    await waitFor(() => raw.publishes.length === 1, 1000, 'the delivery');
    assert.is(raw.publishes[0].dup, false);
    await waitFor(() => raw.publishes.length === 2, 2500, 'the retry');
    assert.equal(raw.publishes[1], { ...raw.publishes[0], dup: true });
    raw.ack(raw.publishes[0].id);
    await sleep(1500);
    assert.is(raw.publishes.length, 2);
    await raw.close();
    await endMqtt(pub);
  });
});

// ---- QoS 2 received from a client -------------------------------------------------------------------

test('QoS 2 messages awaiting PUBREL show in awaiting_rel_cnt and expire after await_rel_timeout', async () => {
  await withZone({ await_rel_timeout: '1s' }, async () => {
    const before = await metrics();
    const raw = await RawClient.connect('rel-1');
    for (const id of [1, 2, 3]) raw.publishQos2('rel/t', id);
    await waitFor(async () => (await client('rel-1')).awaiting_rel_cnt === 3, 1000, '3 awaiting');
    await waitFor(async () => (await client('rel-1')).awaiting_rel_cnt === 0, 3000, 'expired');
    const view = await client('rel-1');
    assert.is(view['recv_msg.dropped.await_pubrel_timeout'], 3);
    const after = await metrics();
    assert.is(after['messages.dropped.await_pubrel_timeout'] - before['messages.dropped.await_pubrel_timeout'], 3);
    await raw.close();
  });
});

test('a QoS 2 message beyond max_awaiting_rel closes the connection', async () => {
  await withZone({ max_awaiting_rel: 2 }, async () => {
    const raw = await RawClient.connect('rel-2');
    raw.publishQos2('rel/t', 1);
    raw.publishQos2('rel/t', 2);
    await waitFor(async () => (await client('rel-2')).awaiting_rel_cnt === 2, 1000, '2 awaiting');
    assert.is((await client('rel-2')).awaiting_rel_max, 2);
    assert.not.ok(raw.closed);
    raw.publishQos2('rel/t', 3);
    await waitFor(() => raw.closed, 1000, 'the connection closed');
  });
});

// ---- Session expiry and kick ------------------------------------------------------------------------

test('an MQTT 3.1.1 persistent session ends after the zone\'s session_expiry_interval', async () => {
  await withZone({ session_expiry_interval: '1s' }, async () => {
    const sub = await listening('exp-1', { clean: false }, () => undefined);
    await sub.subscribeAsync('exp/#', { qos: 1 });
    assert.is((await client('exp-1')).expiry_interval, 1);
    await endMqtt(sub);
    const pub = await publisher('exp-pub');
    await pub.publishAsync('exp/t', 'lost', { qos: 1 });
    assert.is((await client('exp-1')).mqueue_len, 1);
    await waitFor(async () => (await client('exp-1')).status === 404, 3000, 'the session gone');
    const raw = await RawClient.connect('exp-1', { clean: false });
    assert.not.ok(raw.sessionPresent);
    await sleep(200);
    assert.is(raw.publishes.length, 0);
    await raw.close();
    await endMqtt(pub);
  });
});

test('a persistent session without subscriptions is present on return (3.1.1 and 5); Clean Start is not', async () => {
  // emqx_cm.erl (v5.5.1) open_session(false, …): an existing session is resumed, present = true,
  // whatever it subscribed; Aedes alone says present only when it restored subscriptions.
  for (const protocolVersion of [4, 5] as const) {
    const options: IClientOptions = { clean: false, protocolVersion, ...(protocolVersion === 5 ? { properties: { sessionExpiryInterval: 60 } } : {}) };
    const id = `bare-${protocolVersion}`;
    const first = await listening(id, options, () => undefined);
    assert.not.ok(connackOf(first).sessionPresent, 'a new session');
    await endMqtt(first);
    const again = await listening(id, options, () => undefined);
    assert.ok(connackOf(again).sessionPresent, `MQTT ${protocolVersion}: the session is resumed`);
    await endMqtt(again);
    const clean = await listening(id, { ...options, clean: true }, () => undefined);
    assert.not.ok(connackOf(clean).sessionPresent, 'Clean Start discards it');
    await endMqtt(clean);
  }
});

test('kicking an MQTT 5 client publishes its delayed will at once and tells it 0x98', async () => {
  const wills: string[] = [];
  const watcher = await listening('kick-watch', {}, (_t, p) => wills.push(p.toString()));
  await watcher.subscribeAsync('kick/will', { qos: 1 });
  const kicked = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, {
    clientId: 'kick-1', protocolVersion: 5, properties: { sessionExpiryInterval: 60 },
    will: { topic: 'kick/will', payload: Buffer.from('gone'), qos: 1, retain: false, properties: { willDelayInterval: 30 } },
  });
  const reason = new Promise<number | undefined>((resolve) => kicked.once('disconnect', (packet) => resolve(packet.reasonCode)));
  const res = await request(sim.baseUrl, 'DELETE', '/api/v5/clients/kick-1', { token });
  assert.is(res.status, 204);
  assert.is(await within(reason, 2000, 'the DISCONNECT'), 0x98);
  await waitFor(() => wills.length === 1, 1000, 'the will');
  assert.equal(wills, ['gone']);
  assert.is((await client('kick-1')).status, 404);
  kicked.end(true);
  await endMqtt(watcher);
});

// ---- (g) the 5.8.9 message lists --------------------------------------------------------------------

test('5.8.9: mqueue_messages and inflight_messages list the real messages, paged by position', async () => {
  const sim589 = await startSimulator({ nodes: 1, app: { emqxVersion: '5.8.9' } });
  const t = await login(sim589.baseUrl);
  const get = async (path: string) => (await request(sim589.baseUrl, 'GET', `/api/v5/clients/${path}`, { token: t })).json;
  try {
    const sub = await connectMqtt(`mqtt://127.0.0.1:${sim589.mqtt}`, { clientId: 'list-q', clean: false });
    await sub.subscribeAsync('list/#', { qos: 1 });
    await endMqtt(sub);
    const pub = await connectMqtt(`mqtt://127.0.0.1:${sim589.mqtt}`, { clientId: 'list-pub' });
    for (let i = 0; i < 3; i++) await pub.publishAsync('list/t', `p${i}`, { qos: i === 0 ? 0 : 1 });
    const page1 = await get('list-q/mqueue_messages?limit=2');
    assert.equal(page1.data.map((m: any) => [m.topic, m.qos, Buffer.from(m.payload, 'base64').toString(), m.from_clientid, m.mqueue_priority]),
      [['list/t', 0, 'p0', 'list-pub', 0], ['list/t', 1, 'p1', 'list-pub', 0]]);
    assert.match(page1.meta.position, /^\d+_0$/);
    assert.is(page1.meta.start, `${page1.data[0].inserted_at}_0`);
    assert.type(page1.data[0].msgid, 'string');
    assert.type(page1.data[0].publish_at, 'number');
    const page2 = await get(`list-q/mqueue_messages?limit=2&position=${page1.meta.position}&payload=plain`);
    assert.equal(page2.data.map((m: any) => m.payload), ['p2']);
    const none = await get('list-q/mqueue_messages?payload=none');
    assert.is(none.data.length, 3);
    assert.not.ok('payload' in none.data[0]);

    const raw = await RawClient.connect('list-i', { port: sim589.mqtt });
    await raw.subscribe('inf/t', 1);
    for (let i = 0; i < 2; i++) await pub.publishAsync('inf/t', `i${i}`, { qos: 1 });
    await waitFor(() => raw.publishes.length === 2, 1000, '2 in flight');
    const inflight = await get('list-i/inflight_messages?payload=plain');
    assert.equal(inflight.data.map((m: any) => [m.topic, m.qos, m.payload]), [['inf/t', 1, 'i0'], ['inf/t', 1, 'i1']]);
    assert.match(inflight.meta.position, /^\d+$/);
    const after = await get(`list-i/inflight_messages?position=${inflight.data[0].inserted_at}`);
    assert.equal(after.data.map((m: any) => Buffer.from(m.payload, 'base64').toString()), ['i1']);
    await raw.close();
    await endMqtt(pub);
  } finally {
    await sim589.close();
  }
});

test.run();
