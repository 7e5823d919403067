// Topic names and filters checked as EMQX checks them (emqx_packet check, emqx_topic validate):
// a bad filter in SUBSCRIBE or UNSUBSCRIBE, a bad topic name in PUBLISH disconnect the client (MQTT
// 5 with a DISCONNECT carrying 0x8F, 0x90 or 0x82; 3.1.1 by closing), also when the packet came
// before the CONNACK; the zone's publish caps answer MQTT 5 with their reason code; `$` topics are
// not matched by filters starting with a wildcard, retained messages included; POST /publish
// refuses what MQTT refuses with reason 144.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IClientOptions, MqttClient } from 'mqtt';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator, putZone } from '../helpers/simulator.ts';
import { frame, mqttString, u16 } from '../helpers/wire.ts';

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
const url = () => `mqtt://127.0.0.1:${sim.mqtt}`;
const zone = (mqtt: Record<string, unknown>) => putZone(sim.baseUrl, token, mqtt);

// --- raw MQTT, for packets mqtt.js and mosquitto refuse to send -------------------------------

type Version = 4 | 5;


/** MQTT 5 puts an (empty) property length after the variable header. */
const noProperties = (version: Version) => (version === 5 ? Buffer.from([0]) : Buffer.alloc(0));

function connectFrame(version: Version, clientId: string): Buffer {
  return frame(0x10, mqttString('MQTT'), Buffer.from([version, 0x02]), u16(30), noProperties(version), mqttString(clientId));
}

function subscribeFrame(version: Version, filters: (string | Buffer)[]): Buffer {
  return frame(0x82, u16(1), noProperties(version), ...filters.flatMap((f) => [mqttString(f), Buffer.from([0])]));
}

function unsubscribeFrame(version: Version, filters: (string | Buffer)[]): Buffer {
  return frame(0xa2, u16(2), noProperties(version), ...filters.map((f) => mqttString(f)));
}

function publishFrame(version: Version, topic: string | Buffer, payload = 'x'): Buffer {
  return frame(0x30, mqttString(topic), noProperties(version), Buffer.from(payload));
}

const NAMES: Record<number, string> = { 2: 'connack', 9: 'suback', 11: 'unsuback', 14: 'disconnect' };

/** The packets the broker sent, as `suback`, `disconnect:8f` (MQTT 5 reason code) … */
function describe(bytes: Buffer, version: Version): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const type = bytes[pos] >> 4;
    let length = 0;
    let factor = 1;
    let i = pos + 1;
    for (;;) {
      const byte = bytes[i++];
      length += (byte & 0x7f) * factor;
      factor *= 128;
      if (!(byte & 0x80)) break;
    }
    const body = bytes.subarray(i, i + length);
    const name = NAMES[type] ?? `type${type}`;
    out.push(type === 14 && version === 5 ? `${name}:${body[0].toString(16)}` : name);
    pos = i + length;
  }
  return out;
}

interface Raw {
  socket: net.Socket;
  /** What the broker sent after the CONNACK, once it closed the connection (or 1.5 s passed). */
  answer(): Promise<{ packets: string[]; closed: boolean }>;
}

/** A raw connection that has sent CONNECT (and `more` in the same write) and got CONNACK 0. */
function rawSession(version: Version, clientId: string, more: Buffer[] = []): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(sim.mqtt, '127.0.0.1');
    let data = Buffer.alloc(0);
    let closed = false;
    const gone = new Promise<void>((r) => socket.once('close', () => {
      closed = true;
      r();
    }));
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(Buffer.concat([connectFrame(version, clientId), ...more]));
      waitFor(() => data.length >= 4, 2000, 'CONNACK').then(() => {
        assert.is(data[0], 0x20, 'CONNACK first');
        assert.is(data[3], 0, 'connection accepted');
        resolve({
          socket,
          async answer() {
            await Promise.race([gone, new Promise((r) => setTimeout(r, 1500))]);
            if (!closed) socket.destroy();
            return { packets: describe(data, version).slice(1), closed };
          },
        });
      }, reject);
    });
  });
}

/** Resolves with the reason code of the DISCONNECT an mqtt.js v5 client gets, or null on a bare close. */
function disconnectCode(client: MqttClient): Promise<number | null> {
  return new Promise((resolve, reject) => {
    let code: number | null = null;
    const timer = setTimeout(() => reject(new Error('the broker did not close the connection')), 2000);
    client.once('disconnect', (packet) => {
      code = packet.reasonCode ?? 0;
    });
    client.once('close', () => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

const v5 = (clientId: string, extra: IClientOptions = {}) => connectMqtt(url(), { clientId, protocolVersion: 5, ...extra });
const v4 = (clientId: string) => connectMqtt(url(), { clientId });

function subscribe(client: MqttClient, filter: string | string[]): Promise<number[]> {
  return new Promise((resolve, reject) => client.subscribe(filter, { qos: 0 }, (err, granted) => {
    const codes = (err as Error & { packet?: { granted?: number[] } } | null)?.packet?.granted;
    if (codes) resolve(codes);
    else if (err) reject(err);
    else resolve(granted!.map((g) => g.qos));
  }));
}

const BAD_FILTERS = ['a#', 'a+', 'a/+b', 'a/#/b', '#/a', 'a/b#', '++', 'a/\u0000/b'];

test('SUBSCRIBE with a malformed filter: MQTT 5 gets DISCONNECT 0x8F and no SUBACK, 3.1.1 is closed; one bad filter refuses the packet', async () => {
  for (const version of [5, 4] as const) {
    for (const filter of BAD_FILTERS) {
      const raw = await rawSession(version, `bad-sub-${version}`, []);
      raw.socket.write(subscribeFrame(version, [filter]));
      const { packets, closed } = await raw.answer();
      assert.ok(closed, `${JSON.stringify(filter)} (v${version}) closes`);
      assert.equal(packets, version === 5 ? ['disconnect:8f'] : [], `${JSON.stringify(filter)} (v${version})`);
    }
    // A valid filter next to a bad one is not subscribed either: no SUBACK at all.
    const raw = await rawSession(version, `mixed-sub-${version}`);
    raw.socket.write(subscribeFrame(version, ['ok/x', 'a+']));
    assert.equal((await raw.answer()).packets, version === 5 ? ['disconnect:8f'] : []);
  }
  // Filters that look odd but are valid are granted (shared ones are judged elsewhere).
  const raw = await rawSession(4, 'odd-but-valid');
  raw.socket.write(subscribeFrame(4, ['a//b', '/', '+', '#', '+/+/#', '$SYS/none/#', '$queue/q', '$share/g/s', 'a/+/c/#', 'ü/+']));
  const { packets, closed } = await raw.answer();
  assert.equal(packets, ['suback']);
  assert.not.ok(closed);
});

test('SUBSCRIBE with an empty filter disconnects with 0x8F (mqtt.js, mosquitto_sub -V mqttv5) and closes 3.1.1', async () => {
  const client = await v5('empty-sub-5');
  const code = disconnectCode(client);
  client.subscribe('');
  assert.is(await code, 0x8f);

  const old = await v4('empty-sub-4');
  const gone = disconnectCode(old);
  old.subscribe('');
  assert.is(await gone, null);

  const out = await new Promise<string>((resolve) => execFile('mosquitto_sub', ['-p', String(sim.mqtt), '-V', 'mqttv5', '-t', '', '-d', '-W', '2'], (_err, stdout, stderr) => resolve(stdout + stderr)));
  assert.match(out, 'Received DISCONNECT (143)');
});

test('UNSUBSCRIBE with a malformed or empty filter: MQTT 5 gets DISCONNECT 0x8F and no UNSUBACK, 3.1.1 is closed', async () => {
  for (const version of [5, 4] as const) {
    for (const filter of ['a/+b', 'x#', '', 'a/#/b', Buffer.from([0x61, 0x2f, 0xff])]) {
      const raw = await rawSession(version, `bad-unsub-${version}`);
      raw.socket.write(unsubscribeFrame(version, ['fine/x', filter]));
      const { packets, closed } = await raw.answer();
      assert.ok(closed, `${JSON.stringify(filter)} (v${version}) closes`);
      assert.equal(packets, version === 5 ? ['disconnect:8f'] : [], `${JSON.stringify(filter)} (v${version})`);
    }
  }
  // Unsubscribing a valid filter nobody holds is answered (MQTT 5: 0x11) and keeps the connection.
  const client = await v5('fine-unsub');
  const packet = await new Promise<{ reasonCode?: number }>((resolve, reject) => client.unsubscribe('never/held/+', (err, p) => (err ? reject(err) : resolve(p as { reasonCode?: number }))));
  assert.ok(packet);
  assert.ok(client.connected);
  await endMqtt(client);
});

test('PUBLISH to a topic name with + or #, NUL or ill-formed UTF-8: MQTT 5 gets DISCONNECT 0x90, 3.1.1 is closed, nothing is delivered', async () => {
  const sub = await v4('name-watch');
  const got: string[] = [];
  sub.on('message', (topic) => got.push(topic));
  await subscribe(sub, '#');
  for (const topic of ['a/+', 'a/#', 'a+b', 'x#', '+', '#', 'a/\u0000/b']) {
    const client = await v5('bad-name-5');
    const code = disconnectCode(client);
    client.publish(topic, 'no');
    assert.is(await code, 0x90, JSON.stringify(topic));
    const old = await v4('bad-name-4');
    const gone = disconnectCode(old);
    old.publish(topic, 'no', { qos: 1 });
    assert.is(await gone, null, JSON.stringify(topic));
  }
  const raw = await rawSession(5, 'bad-utf8-name');
  raw.socket.write(publishFrame(5, Buffer.from([0x62, 0x2f, 0xc0, 0xaf])));
  assert.equal((await raw.answer()).packets, ['disconnect:90']);
  // A good publish after all that still arrives, and is the only one.
  const pub = await v5('good-name');
  await new Promise<void>((resolve, reject) => pub.publish('good/name', 'yes', { qos: 1 }, (err) => (err ? reject(err) : resolve())));
  await waitFor(() => got.includes('good/name'), 1000, 'the good message');
  assert.equal(got, ['good/name']);
  await endMqtt(pub);
  await endMqtt(sub);
});

test('PUBLISH with an empty topic and no Topic Alias is a protocol error: MQTT 5 gets DISCONNECT 0x82, 3.1.1 is closed', async () => {
  const raw = await rawSession(5, 'empty-name-5');
  raw.socket.write(publishFrame(5, ''));
  assert.equal(await raw.answer(), { packets: ['disconnect:82'], closed: true });
  const old = await rawSession(4, 'empty-name-4');
  old.socket.write(publishFrame(4, ''));
  assert.equal(await old.answer(), { packets: [], closed: true });
});

test('a bad packet sent before the CONNACK is refused right after it, and the packets after it are not handled', async () => {
  for (const version of [5, 4] as const) {
    const raw = await rawSession(version, `early-bad-${version}`, [subscribeFrame(version, ['a#']), subscribeFrame(version, ['ok/2']), publishFrame(version, 'x/+')]);
    assert.equal(await raw.answer(), { packets: version === 5 ? ['disconnect:8f'] : [], closed: true }, `v${version}`);
  }
});

test('the zone publish caps answer MQTT 5 with their reason code: levels 0x90, QoS 0x9B, retain 0x9A; /publish has the same level limit', async () => {
  await zone({ max_topic_levels: 3, max_qos_allowed: 1, retain_available: false });
  try {
    const deep = await v5('caps-levels');
    const levels = disconnectCode(deep);
    await new Promise<void>((resolve, reject) => deep.publish('a/b/c', 'fits', { qos: 1 }, (err) => (err ? reject(err) : resolve())));
    deep.publish('a/b/c/d', 'deep');
    assert.is(await levels, 0x90);
    assert.is((await call('POST', '/publish', { topic: 'a/b/c', payload: 'x' })).status, 202);
    const api = await call('POST', '/publish', { topic: 'a/b/c/d', payload: 'x' });
    assert.equal([api.status, api.json.reason_code], [400, 144]);

    const qos = await v5('caps-qos');
    const qosCode = disconnectCode(qos);
    qos.publish('q/2', 'x', { qos: 2 });
    assert.is(await qosCode, 0x9b);

    const retain = await v5('caps-retain');
    const retainCode = disconnectCode(retain);
    retain.publish('r/1', 'x', { retain: true });
    assert.is(await retainCode, 0x9a);
  } finally {
    await zone({ max_topic_levels: 128, max_qos_allowed: 2, retain_available: true });
  }
});

/** Runs `body` against a simulator of another release, as `sim` for the helpers above. */
async function onRelease(emqxVersion: '5.5.1' | '5.8.9', body: () => Promise<void>): Promise<void> {
  const kept = { sim, token };
  sim = await startSimulator({ app: { emqxVersion } });
  token = await login(sim.baseUrl);
  try {
    await body();
  } finally {
    await sim.close();
    ({ sim, token } = kept);
  }
}

// [MQTT-4.7.2-1]: emqx_retainer_dispatcher.erl matched retained `$` topics against a leading
// wildcard until PR 13742 (in v5.8.1): 5.5.1 hands them to `#` and `+/…`, 5.8.9 does not.
for (const [emqxVersion, leaks] of [['5.8.9', false], ['5.5.1', true]] as const) {
  test(`${emqxVersion}: a retained message on a $ topic reaches $dollar/#${leaks ? ', and also #, +/x and +/+' : ' but not #, +/x or +/+'} (3.1.1 and 5, mqtt.js and mosquitto_sub)`, () => onRelease(emqxVersion, async () => {
    const pub = await v4('dollar-pub');
    for (const topic of ['$dollar/x', 'plain/x']) {
      await new Promise<void>((resolve, reject) => pub.publish(topic, `kept ${topic}`, { qos: 1, retain: true }, (err) => (err ? reject(err) : resolve())));
    }
    await endMqtt(pub);
    /** The retained messages a new subscription brings: waits for `expected`, then a little more. */
    const seen = async (client: MqttClient, filters: string[], expected: string[]) => {
      const got: string[] = [];
      client.on('message', (topic) => got.push(topic));
      await subscribe(client, filters);
      await waitFor(() => expected.every((t) => got.includes(t)), 1000, 'the retained messages');
      await new Promise((r) => setTimeout(r, 150));
      await endMqtt(client);
      return got.sort();
    };
    const wild = leaks ? ['$dollar/x', 'plain/x'] : ['plain/x'];
    assert.equal(await seen(await v4('dollar-hash-4'), ['#'], wild), wild);
    assert.equal(await seen(await v5('dollar-hash-5'), ['#'], wild), wild);
    assert.equal(await seen(await v5('dollar-plus-5'), ['+/x'], wild), wild);
    assert.equal(await seen(await v4('dollar-plus-4'), ['+/+'], wild), wild);
    assert.equal(await seen(await v5('dollar-own-5'), ['$dollar/#'], ['$dollar/x']), ['$dollar/x']);
    // Both kinds of filter in one SUBSCRIBE: each filter brings the retained messages it matches.
    const both = leaks ? ['$dollar/x', '$dollar/x', 'plain/x'] : ['$dollar/x', 'plain/x'];
    assert.equal(await seen(await v4('dollar-both-4'), ['#', '$dollar/+'], ['$dollar/x', 'plain/x']), both);
    for (const version of ['mqttv311', 'mqttv5']) {
      const out = await new Promise<string>((resolve) => execFile('mosquitto_sub', ['-p', String(sim.mqtt), '-V', version, '-t', '#', '-v', '-W', '1'], (_err, stdout) => resolve(stdout)));
      assert.equal(out.trim().split('\n').sort(), wild.map((t) => `${t} kept ${t}`), version);
    }
  }));
}

test('POST /publish refuses what MQTT refuses with 400, reason 144 topic_name_invalid: also a topic over 65535 bytes', async () => {
  const bad = ['x'.repeat(65536), 'x'.repeat(70000), '€'.repeat(21846), '', 'a/+', 'a#', 'a/\u0000', '\ud800/x'];
  for (const topic of bad) {
    const res = await call('POST', '/publish', { topic, payload: 'x' });
    assert.is(res.status, 400, `${topic.slice(0, 10)}… (${topic.length})`);
    assert.equal([res.json.reason_code, res.json.message], [144, 'topic_name_invalid'], `${topic.slice(0, 10)}… (${topic.length})`);
    const bulk = await call('POST', '/publish/bulk', [{ topic: 'ok', payload: 'x' }, { topic, payload: 'x' }]);
    assert.equal([bulk.status, bulk.json.reason_code], [400, 144]);
  }
  // The longest topic there is, and one of the same byte length in three-byte characters, are fine.
  for (const topic of ['x'.repeat(65535), '€'.repeat(21845)]) {
    assert.is((await call('POST', '/publish', { topic, payload: 'x' })).status, 202);
  }
});

test.run();
