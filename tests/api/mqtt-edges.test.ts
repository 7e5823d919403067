// MQTT edges where the simulator answered otherwise than EMQX (issue 33), each against the broker
// source at v5.5.1 (the same at v5.8.9 and 6.2.2 where a test runs both): one publisher's order
// across QoS 0/1/2, User Properties in wire order, QoS bits 3, will topics, MQTT 3.1 client ids,
// Request Problem Information, a property given twice, PUBLISH properties check_pub_props refuses,
// strict_mode, Maximum Packet Size 0, trace lines with the packet id a QoS 1 delivery goes out
// with; and where EMQX takes what MQTT 5 would refuse, the simulator takes it too.
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EmqxVersion } from '../../simulator/store/profile.ts';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator, putZone } from '../helpers/simulator.ts';
import {
  CONNACK, connackCode, decodePublish, DISCONNECT, disconnectCode, PUBACK, PUBLISH, PUBREC, publishPacket, rawConnect, SUBACK, subscribePacket, type RawMqtt,
  type Version,
} from '../helpers/raw-mqtt.ts';
import type { Property } from '../helpers/wire.ts';

let sim: RunningSimulator;
let token = '';
let open: RawMqtt[] = [];

test.before(async () => {
  sim = await startSimulator({ app: { emqxVersion: '5.5.1' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  for (const raw of open) raw.end();
  open = [];
  await zone({ strict_mode: false, max_clientid_len: 65535 });
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

const zone = (mqtt: Record<string, unknown>) => putZone(sim.baseUrl, token, mqtt);

/** A raw connection that got its CONNACK; `code` is its reason (MQTT 5) or return code. */
async function connected(spec: Parameters<typeof rawConnect>[1], port = sim.mqtt): Promise<{ raw: RawMqtt; code: number | null }> {
  const { raw, connack } = await rawConnect(port, spec);
  open.push(raw);
  return { raw, code: connack ? connackCode(connack) : null };
}

async function subscriber(version: Version, clientId: string, filter: string, qos = 2, properties?: Property[]): Promise<RawMqtt> {
  const { raw, code } = await connected({ version, clientId, properties });
  assert.is(code, 0);
  raw.write(subscribePacket(version, 1, [[filter, qos]]));
  assert.ok(await raw.next(SUBACK));
  return raw;
}

test('one publisher\'s messages reach a subscriber in the order sent, QoS 0, 1 and 2 mixed (emqx_channel handles its packets in turn)', async () => {
  const sub = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'order-sub', protocolVersion: 5 });
  await sub.subscribeAsync('order/#', { qos: 2 });
  const got: string[] = [];
  sub.on('message', (_t, payload) => got.push(payload.toString()));
  const expected: string[] = [];
  for (let run = 0; run < 12; run++) {
    // A new publisher each time: its first messages are authorized on a cache miss.
    const pub = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `order-pub-${run}`, protocolVersion: run % 2 ? 5 : 4 });
    for (const qos of [0, 1, 2] as const) {
      await pub.publishAsync(`order/${run}/q${qos}`, `${run}:${qos}`, { qos });
      expected.push(`${run}:${qos}`);
    }
    await endMqtt(pub);
  }
  await waitFor(() => got.length === expected.length, 3000, 'every message');
  assert.equal(got, expected);
  await endMqtt(sub);
});

/** The payloads of the next `n` PUBLISH packets an MQTT 5 subscriber receives, in arrival order. */
async function payloads(sub: RawMqtt, n: number, ms?: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const packet = await sub.next(PUBLISH, ms);
    assert.ok(packet, `delivery ${i}`);
    out.push(decodePublish(packet, 5).payload.toString());
  }
  return out;
}

test('a burst of QoS 2, 1 and 0 publishes in one write arrives in that order', async () => {
  const sub = await subscriber(5, 'burst-sub', 'burst/#');
  const { raw: pub } = await connected({ version: 4, clientId: 'burst-pub' });
  const qos = [2, 1, 0, 2, 0, 1, 1, 0, 2, 0];
  pub.write(...qos.map((q, i) => publishPacket({ topic: `burst/${i}`, qos: q, id: i + 1, payload: String(i) })));
  assert.equal(await payloads(sub, qos.length), qos.map((_, i) => String(i)));
});


test('a burst mixing retained and plain publishes arrives in the order sent (a retained one is routed after its store)', async () => {
  const sub = await subscriber(5, 'burst-retain-sub', 'burst-retain/#');
  const { raw: pub } = await connected({ version: 5, clientId: 'burst-retain-pub' });
  const spec = [[0, true], [0, false], [1, true], [2, false], [0, true], [2, true], [1, false], [0, false]] as const;
  pub.write(...spec.map(([q, retain], i) => publishPacket({ version: 5, topic: `burst-retain/${i}`, qos: q, retain, id: i + 1, payload: String(i) })));
  assert.equal(await payloads(sub, spec.length), spec.map((_, i) => String(i)));
  // The retained ones were stored all the same.
  const again = await subscriber(5, 'burst-retain-late', 'burst-retain/#');
  const stored = new Set<string>();
  for (let i = 0; i < spec.filter(([, retain]) => retain).length; i++) {
    const packet = await again.next(PUBLISH);
    assert.ok(packet, `retained ${i}`);
    stored.add(decodePublish(packet, 5).payload.toString());
  }
  assert.equal([...stored].sort(), ['0', '2', '4', '5']);
  for (const topic of spec.map((_, i) => `burst-retain/${i}`)) pub.write(publishPacket({ version: 5, topic, retain: true }));
});
test('a message a step takes (delayed) keeps no later message of its connection waiting', async () => {
  const sub = await subscriber(5, 'burst-taken-sub', 'burst-taken/#');
  const { raw: pub } = await connected({ version: 4, clientId: 'burst-taken-pub' });
  pub.write(
    publishPacket({ topic: 'burst-taken/0', qos: 1, id: 1, payload: '0' }),
    publishPacket({ topic: '$delayed/3600/burst-taken/later', qos: 1, id: 2, payload: 'later' }),
    publishPacket({ topic: 'burst-taken/1', qos: 0, payload: '1' }),
    publishPacket({ topic: 'burst-taken/2', qos: 2, id: 3, payload: '2' }),
  );
  assert.equal(await payloads(sub, 3, 1000), ['0', '1', '2']);
  const held = await call('GET', '/mqtt/delayed/messages');
  assert.ok((held.json as { data: { topic: string }[] }).data.some((m) => m.topic === 'burst-taken/later'), held.text);
});

test('packets written to a socket in one tick leave in one writev, corked once, a packet a chunk: no cork and tick per packet, no write per part', async () => {
  const require = createRequire(import.meta.url);
  const lib = createRequire(require.resolve('aedes'))('mqtt-packet') as {
    writeToStream(packet: object, stream: Writable, opts: object): boolean;
    generate(packet: object, opts: object): Buffer;
  };
  const writes: Buffer[][] = [];
  const stream = new Writable({
    writev(chunks, callback) {
      writes.push(chunks.map(({ chunk }) => Buffer.from(chunk as Buffer)));
      callback();
    },
  });
  let corks = 0;
  const cork = stream.cork;
  stream.cork = function () {
    corks++;
    cork.call(this);
  };
  const packets = Array.from({ length: 50 }, (_, i) => ({ cmd: 'publish', topic: `tick/${i}`, payload: Buffer.from(String(i)), qos: 0, retain: false, dup: false }));
  let ticks = 0;
  const nextTick = process.nextTick;
  process.nextTick = ((...args: Parameters<typeof nextTick>) => {
    ticks++;
    return nextTick(...args);
  }) as typeof nextTick;
  try {
    for (const packet of packets) assert.ok(lib.writeToStream(packet, stream, { protocolVersion: 4 }));
  } finally {
    process.nextTick = nextTick;
  }
  assert.is(corks, 1, 'corked once');
  assert.is(ticks, 1, 'one tick to uncork');
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(writes.length, 1, 'one writev');
  assert.is(writes[0].length, packets.length, 'one chunk per packet');
  assert.equal(Buffer.concat(writes[0]), Buffer.concat(packets.map((packet) => lib.generate(packet, { protocolVersion: 4 }))));

  // A big payload is not copied into a joined buffer: the packet leaves as its parts.
  const big = { cmd: 'publish', topic: 'tick/big', payload: Buffer.alloc(64 * 1024, 7), qos: 0, retain: false, dup: false };
  lib.writeToStream(big, stream, { protocolVersion: 4 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(writes.length, 2);
  assert.ok(writes[1].length > 1, 'parts');
  assert.ok(writes[1].some((chunk) => chunk.length === big.payload.length), 'the payload as it was');
  assert.equal(Buffer.concat(writes[1]), lib.generate(big, { protocolVersion: 4 }));

  // A packet writeToStream cannot serialise destroys the stream with its error, as before.
  const failed = new Promise<Error>((resolve) => stream.once('error', resolve));
  assert.is(lib.writeToStream({ cmd: 'publish', topic: 7, qos: 0 }, stream, { protocolVersion: 4 }), false);
  assert.match((await failed).message, /Invalid topic/);
});

test('User Properties keep their order [MQTT-3.3.2-18], live, with topic aliases, and retained', async () => {
  const pairs: [string, string][] = [['a', '1'], ['b', '2'], ['a', '3'], ['c', '4'], ['b', '5']];
  const users = (list: Property[]) => list.filter(([id]) => id === 0x26).map(([, v]) => v);
  const live = await subscriber(5, 'up-live', 'up/#', 1);
  const aliased = await subscriber(5, 'up-alias', 'up/#', 1, [[0x22, 10]]);
  const { raw: pub } = await connected({ version: 5, clientId: 'up-pub' });
  pub.write(publishPacket({ version: 5, topic: 'up/t', qos: 1, id: 7, retain: true, properties: pairs.map((p) => [0x26, p] as Property), payload: 'x' }));
  for (const raw of [live, aliased]) {
    const packet = await raw.next(PUBLISH);
    assert.ok(packet);
    assert.equal(users(decodePublish(packet, 5).properties), pairs);
  }
  const late = await subscriber(5, 'up-late', 'up/t', 1);
  const retained = await late.next(PUBLISH);
  assert.ok(retained);
  assert.equal(users(decodePublish(retained, 5).properties), pairs);
  await call('DELETE', '/mqtt/retainer/message/up%2Ft');
});

test('PUBLISH with QoS bits 3: MQTT 5 hears DISCONNECT 0x9B (emqx_mqtt_caps check_pub), 3.1.1 is closed', async () => {
  const { raw: v5 } = await connected({ version: 5, clientId: 'qos3-v5' });
  v5.write(publishPacket({ version: 5, topic: 'q3/t', qos: 3, id: 1 }));
  const disconnect = await v5.next(DISCONNECT);
  assert.ok(disconnect, 'a DISCONNECT');
  assert.is(disconnectCode(disconnect), 0x9b);
  const { raw: v4 } = await connected({ version: 4, clientId: 'qos3-v4' });
  v4.write(publishPacket({ topic: 'q3/t', qos: 3, id: 1 }));
  assert.ok(await v4.closedWithin(2000));
  assert.is(v4.packets.length, 1, 'nothing after the CONNACK');
});

test('with strict_mode the fixed header and packet ids are checked: DISCONNECT 0x81; without it packet id 0 is acknowledged', async () => {
  const { raw: loose } = await connected({ version: 5, clientId: 'id0-loose' });
  loose.write(publishPacket({ version: 5, topic: 'id0/t', qos: 1, id: 0 }));
  const ack = await loose.next(PUBACK);
  assert.ok(ack, 'emqx_frame checks packet ids only in strict mode');
  assert.is(ack.body.readUInt16BE(0), 0);
  await zone({ strict_mode: true });
  const { raw: strict } = await connected({ version: 5, clientId: 'id0-strict' });
  strict.write(publishPacket({ version: 5, topic: 'id0/t', qos: 1, id: 0 }));
  const disconnect = await strict.next(DISCONNECT);
  assert.ok(disconnect);
  assert.is(disconnectCode(disconnect), 0x81);
  const { raw: header } = await connected({ version: 5, clientId: 'q3-strict' });
  header.write(publishPacket({ version: 5, topic: 'id0/t', qos: 3, id: 1 }));
  const malformed = await header.next(DISCONNECT);
  assert.ok(malformed);
  assert.is(disconnectCode(malformed), 0x81, 'validate_header: bad_frame_header');
});

test('a will topic with wildcards is refused: CONNACK 0x90 in MQTT 5, 3 in 3.1.1 (emqx_packet check_will_msg)', async () => {
  const watcher = await subscriber(4, 'will-watch', 'will/#', 0);
  const v5 = await connected({ version: 5, clientId: 'will-v5', will: { topic: 'will/+/x', payload: 'bye' } });
  assert.is(v5.code, 0x90);
  const v4 = await connected({ version: 4, clientId: 'will-v4', will: { topic: 'will/#', payload: 'bye' } });
  assert.is(v4.code, 3);
  const fine = await connected({ version: 4, clientId: 'will-ok', will: { topic: 'will/ok', payload: 'bye' } });
  assert.is(fine.code, 0);
  fine.raw.end();
  const will = await watcher.next(PUBLISH);
  assert.ok(will);
  assert.is(decodePublish(will, 4).topic, 'will/ok');
  assert.is(await watcher.next(PUBLISH, 300), null, 'no will of a refused CONNECT');
});

test('MQTT 3.1 client ids over 23 characters are taken up to max_clientid_len (emqx_packet check_client_id)', async () => {
  const long = 'a-mqtt-3.1-client-id-of-thirty'.slice(0, 30);
  assert.is((await connected({ version: 3, clientId: long })).code, 0);
  await zone({ max_clientid_len: 25 });
  assert.is((await connected({ version: 3, clientId: `${long}x` })).code, 2);
  assert.is((await connected({ version: 3, clientId: '' })).code, 2, 'MQTT 3.1 never takes an empty id');
});

test('MQTT 5 CONNECT: Request Problem Information 2 is a protocol error, CONNACK 0x82 (check_conn_props)', async () => {
  assert.is((await connected({ version: 5, clientId: 'rpi-2', properties: [[0x17, 2]] })).code, 0x82);
  assert.is((await connected({ version: 5, clientId: 'rri-7', properties: [[0x19, 7]] })).code, 0x82);
  assert.is((await connected({ version: 5, clientId: 'rpi-1', properties: [[0x17, 1], [0x19, 0]] })).code, 0);
});

test('a property given twice counts its last value, as emqx_frame parse_property does', async () => {
  const sub = await subscriber(5, 'dup-sub', 'dup/#', 1);
  const { raw: pub } = await connected({ version: 5, clientId: 'dup-pub' });
  pub.write(publishPacket({ version: 5, topic: 'dup/t', qos: 1, id: 3, properties: [[0x02, 3600], [0x02, 60], [0x03, 'text/a'], [0x03, 'text/b']] }));
  const packet = await sub.next(PUBLISH);
  assert.ok(packet);
  const props = decodePublish(packet, 5).properties;
  const expiry = props.find(([id]) => id === 0x02)?.[1] as number;
  assert.ok(expiry <= 60 && expiry >= 59, `message expiry ${expiry}`);
  assert.equal(props.filter(([id]) => id === 0x03), [[0x03, 'text/b']]);
});

test('PUBLISH properties emqx_packet check_pub_props refuses: Subscription Identifier 0 and a Response Topic with wildcards, DISCONNECT 0x82', async () => {
  for (const [name, properties] of [['subid-0', [[0x0b, 0]]], ['resp-wild', [[0x08, 'reply/#']]]] as [string, Property[]][]) {
    const { raw } = await connected({ version: 5, clientId: name });
    raw.write(publishPacket({ version: 5, topic: 'cp/t', qos: 1, id: 1, properties }));
    const disconnect = await raw.next(DISCONNECT);
    assert.ok(disconnect, name);
    assert.is(disconnectCode(disconnect), 0x82, name);
  }
});

test('what EMQX takes although MQTT 5 forbids it is taken: a Subscription Identifier in a client PUBLISH, payload format 7, `$queue/`', async () => {
  const sub = await subscriber(5, 'lax-sub', 'lax/#', 1);
  const { raw: pub } = await connected({ version: 5, clientId: 'lax-pub' });
  pub.write(publishPacket({ version: 5, topic: 'lax/t', qos: 1, id: 1, properties: [[0x0b, 5], [0x01, 7]], payload: 'p' }));
  assert.ok(await pub.next(PUBACK));
  const packet = await sub.next(PUBLISH);
  assert.ok(packet);
  assert.is(decodePublish(packet, 5).payload.toString(), 'p');
  // emqx_topic:validate takes `$queue/` (an empty filter after the prefix).
  pub.write(subscribePacket(5, 9, [['$queue/', 0]]));
  const suback = await pub.next(SUBACK);
  assert.ok(suback);
  assert.is(suback.body[suback.body.length - 1], 0);
});

test('Maximum Packet Size 0: EMQX writes nothing at all, CONNACK included (emqx_frame is_too_large)', async () => {
  const { raw, connack } = await rawConnect(sim.mqtt, { version: 5, clientId: 'mps-0', properties: [[0x27, 0]] });
  open.push(raw);
  assert.is(connack, null);
  assert.is(raw.packets.length, 0);
});

for (const version of ['5.5.1', '5.8.9'] as EmqxVersion[]) {
  test(`${version}: Session Expiry Interval 0xFFFFFFFF is kept as asked; the zone's session_expiry_interval is for MQTT 3.x`, async () => {
    const local = await startSimulator({ app: { emqxVersion: version } });
    try {
      const { raw } = await rawConnect(local.mqtt, { version: 5, clientId: 'forever', clean: false, properties: [[0x11, 0xffffffff]] });
      const client = await request(local.baseUrl, 'GET', '/api/v5/clients/forever', { token: await login(local.baseUrl) });
      assert.is(client.json.expiry_interval, 0xffffffff);
      raw.end();
    } finally {
      await local.close();
    }
  });
}

test('a trace shows a QoS 1 delivery with the packet id it goes out with; QoS 0 with PacketId=undefined, as EMQX', async () => {
  assert.is((await call('POST', '/trace', { name: 'edge-ids', type: 'clientid', clientid: 'traced-sub' })).status, 200);
  try {
    const sub = await subscriber(4, 'traced-sub', 'tr/#', 1);
    const pub = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'tr-pub' });
    await pub.publishAsync('tr/1', 'one', { qos: 1 });
    await pub.publishAsync('tr/0', 'zero', { qos: 0 });
    const first = await sub.next(PUBLISH);
    assert.ok(first);
    const id = decodePublish(first, 4).id;
    await sub.next(PUBLISH);
    await endMqtt(pub);
    let text = '';
    await waitFor(async () => (text = (await call('GET', '/trace/edge-ids/log?bytes=100000')).json?.items ?? '').includes('Topic=tr/0'), 2000, 'trace lines');
    assert.ok(text.includes(`mqtt_packet_sent, packet: PUBLISH(Q1, R0, D0, Topic=tr/1, PacketId=${id}, Payload=one)`), text);
    assert.ok(text.includes('mqtt_packet_sent, packet: PUBLISH(Q0, R0, D0, Topic=tr/0, PacketId=undefined, Payload=zero)'), text);
  } finally {
    await call('DELETE', '/trace/edge-ids');
  }
});


/** The reason code of a PUBACK or PUBREC body: 0 when MQTT 5 leaves it out (a 2-byte body) [MQTT-3.4.2.1]. */
const ackReason = (body: Buffer) => (body.length > 2 ? body[2] : 0);

test('MQTT 5 QoS 1 and 2 publishes no subscription matches are acknowledged 0x10; matched, rewritten onto a match, or from 3.1.1: no reason', async () => {
  const sub = await subscriber(5, 'rc-sub', 'rc/matched/#', 1);
  const { raw: pub } = await connected({ version: 5, clientId: 'rc-pub' });
  const ack = async (type: typeof PUBACK | typeof PUBREC, topic: string, id: number) => {
    pub.write(publishPacket({ version: 5, topic, qos: type === PUBACK ? 1 : 2, id, payload: 'p' }));
    const packet = await pub.next(type);
    assert.ok(packet, `${topic}: an acknowledgement`);
    assert.is(packet.body.readUInt16BE(0), id);
    return ackReason(packet.body);
  };
  // emqx_channel.erl puback_reason_code/3, pubrec_reason_code/1: [] from emqx_broker:publish/1.
  assert.is(await ack(PUBACK, 'rc/nobody', 1), 0x10);
  assert.is(await ack(PUBREC, 'rc/nobody', 2), 0x10);
  assert.is(await ack(PUBACK, 'rc/matched/a', 3), 0);
  assert.is(await ack(PUBREC, 'rc/matched/b', 4), 0);
  assert.ok(await sub.next(PUBLISH));
  // The same packet id again, now matched: the earlier answer does not stick to the id.
  assert.is(await ack(PUBACK, 'rc/nobody', 5), 0x10);
  assert.is(await ack(PUBACK, 'rc/matched/c', 5), 0);
  // emqx_delayed.erl on_message_publish sets allow_publish => false: not routed now.
  assert.is(await ack(PUBACK, '$delayed/1/rc/matched/d', 6), 0x10);
  // emqx_rewrite runs in message.publish, before the routes are matched.
  const rules = [{ action: 'publish', source_topic: 'rc/raw/#', re: '^rc/raw/(.+)$', dest_topic: 'rc/matched/$1' }];
  assert.is((await call('PUT', '/mqtt/topic_rewrite', rules)).status, 200);
  try {
    assert.is(await ack(PUBACK, 'rc/raw/e', 7), 0);
  } finally {
    await call('PUT', '/mqtt/topic_rewrite', []);
  }
  // MQTT 3.1.1 acknowledgements carry no reason code.
  const { raw: old } = await connected({ version: 4, clientId: 'rc-old' });
  old.write(publishPacket({ version: 4, topic: 'rc/nobody', qos: 1, id: 8, payload: 'p' }));
  const puback = await old.next(PUBACK);
  assert.ok(puback);
  assert.is(puback.body.length, 2);
});

test.run();
