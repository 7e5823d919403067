// The limiter of 5.10 and later on real MQTT traffic (simulator/broker/limiter.ts): a listener's
// messages_rate is each connection's own bucket, the zone's mqtt.limiter one bucket for all of its
// clients. Over the rate a QoS 1 publish is answered 0x97 and not routed, a QoS 0 one is dropped
// and counted; within it everything passes; `infinity` is no limit; a zone change applies to open
// connections; max_conn_rate refuses the connections over it. On 6.2.2 and 5.10.4.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MqttClient } from 'mqtt';
import mqtt from 'mqtt';
import { connectMqtt, putZone, simulatorSuite, waitFor } from '../helpers/simulator.ts';

const run = promisify(execFile);

/** The reason code of a QoS 1 publish's PUBACK (mqtt.js reports a failure as an error with `code`). */
function publish1(client: MqttClient, topic: string, payload = 'x', qos: 1 | 2 = 1): Promise<number> {
  return new Promise((resolve) => client.publish(topic, payload, { qos }, (err, packet) => {
    resolve((err as Error & { code?: number } | undefined)?.code ?? (packet as { reasonCode?: number } | undefined)?.reasonCode ?? 0);
  }));
}

for (const emqxVersion of ['6.2.2', '5.10.4']) {
  const t = suite(`limiter ${emqxVersion}`);
  const s = simulatorSuite(t, { app: { emqxVersion } as never }, async () => {
    await s.call('PUT', '/listeners/tcp:default', { type: 'tcp', id: 'tcp:default', messages_rate: 'infinity', max_conn_rate: 'infinity' });
    await putZone(s.sim.baseUrl, s.token, { limiter: {} });
  });
  const url = () => `mqtt://127.0.0.1:${s.sim.mqtt}`;
  const client = async (clientId: string) => {
    const c = await connectMqtt(url(), { clientId, protocolVersion: 5 });
    // A listener update restarts the listener: an acknowledgement in flight then meets a closed socket.
    c.on('error', () => undefined);
    s.open.push(c);
    return c;
  };
  const metrics = async () => (await s.call('GET', '/metrics?aggregate=true')).json as Record<string, number>;
  const listenerRate = async (fields: Record<string, string>) => {
    const put = await s.call('PUT', '/listeners/tcp:default', { type: 'tcp', id: 'tcp:default', ...fields });
    assert.is(put.status, 200, put.text);
  };

  t('a listener messages_rate of 5/s: the 6th and later QoS 1 publishes of a burst get 0x97 and are not delivered; QoS 0 over the rate is dropped and counted', async () => {
    await listenerRate({ messages_rate: '5/s' });
    const sub = await client('lim-sub');
    await new Promise((resolve) => sub.subscribe('lim/#', { qos: 1 }, resolve));
    const got: string[] = [];
    sub.on('message', (topic) => got.push(topic));
    const pub = await client('lim-pub');
    const before = await metrics();
    const codes = await Promise.all(Array.from({ length: 8 }, (_, i) => publish1(pub, `lim/q1/${i}`)));
    assert.equal(codes, [0, 0, 0, 0, 0, 0x97, 0x97, 0x97]);
    // The subscriber has its own bucket: only the publisher's rate counts.
    await waitFor(() => got.length >= 5, 1000, 'the five messages within the rate');
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(got.sort(), ['lim/q1/0', 'lim/q1/1', 'lim/q1/2', 'lim/q1/3', 'lim/q1/4']);
    for (let i = 0; i < 3; i++) pub.publish(`lim/q0/${i}`, 'x', { qos: 0 });
    await waitFor(async () => (await metrics())['messages.dropped.quota_exceeded'] - before['messages.dropped.quota_exceeded'] === 3, 1000, 'three QoS 0 drops');
    const after = await metrics();
    assert.is(after['packets.publish.quota_exceeded'] - before['packets.publish.quota_exceeded'], 6, 'three QoS 1, three QoS 0');
    assert.ok(!got.some((topic) => topic.startsWith('lim/q0/')));
    // QoS 2: PUBREC 0x97, and the client may send its next message at once (no PUBREL owed).
    assert.is(await publish1(pub, 'lim/q2', 'x', 2), 0x97);
    // The connection stays: after a window the bucket has tokens again.
    await new Promise((resolve) => setTimeout(resolve, 1050));
    assert.is(await publish1(pub, 'lim/q1/later'), 0);
  });

  t('within the rate everything passes; infinity is no limit', async () => {
    await listenerRate({ messages_rate: '5/s' });
    const pub = await client('within');
    const codes = await Promise.all(Array.from({ length: 5 }, (_, i) => publish1(pub, `within/${i}`)));
    assert.equal(codes, [0, 0, 0, 0, 0]);
    await listenerRate({ messages_rate: 'infinity' });
    const free = await client('free');
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => publish1(free, `free/${i}`)));
    assert.ok(many.every((code) => code === 0), String(many));
  });

  t('the zone limiter is one bucket for all clients and a change applies to open connections', async () => {
    const a = await client('zone-a');
    const b = await client('zone-b');
    assert.is(await publish1(a, 'zone/a'), 0);
    const put = await s.call('PUT', '/configs/global_zone', { mqtt: { limiter: { messages_rate: '3/10s' } } });
    assert.is(put.status, 200, put.text);
    const codes = [await publish1(a, 'zone/a'), await publish1(b, 'zone/b'), await publish1(a, 'zone/a'), await publish1(b, 'zone/b')];
    assert.equal(codes, [0, 0, 0, 0x97]);
    await putZone(s.sim.baseUrl, s.token, { limiter: { messages_rate: 'infinity' } });
    assert.is(await publish1(b, 'zone/b'), 0);
  });

  t('max_conn_rate 2/10s: the third connection in a row is closed without a CONNACK', async () => {
    await listenerRate({ max_conn_rate: '2/10s' });
    await client('conn-1');
    await client('conn-2');
    const third = mqtt.connect(url(), { clientId: 'conn-3', protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 2000 });
    s.open.push(third);
    const outcome = await new Promise<string>((resolve) => {
      third.once('connect', () => resolve('connected'));
      third.once('close', () => resolve('closed'));
    });
    assert.is(outcome, 'closed');
  });

  t('mosquitto_pub -V mqttv5: QoS 1 publishes over messages_rate 2/s are acknowledged 0x97', async () => {
    await listenerRate({ messages_rate: '2/s' });
    const { stdout, stderr } = await run('mosquitto_pub', ['-V', 'mqttv5', '-h', '127.0.0.1', '-p', String(s.sim.mqtt), '-i', 'mosq-lim',
      '-t', 'mosq/lim', '-m', 'x', '-q', '1', '--repeat', '4', '-d'], { timeout: 5000 }).catch((err: { stdout: string; stderr: string }) => err);
    const acks = [...`${stdout}${stderr}`.matchAll(/received PUBACK \(Mid: \d+, RC:(\d+)\)/g)].map((m) => Number(m[1]));
    // The two within the rate go on and match no subscription: 0x10 (emqx_channel.erl puback_reason_code/3).
    assert.equal(acks, [16, 16, 151, 151], `${stdout}${stderr}`);
  });

  t('a PUBLISH costs the limiter no copy of the zone: 200 publishes read it at most once (a copy per message cut the throughput to a third)', async () => {
    const zone = (s.sim.app as unknown as { store: { zone: { get(): unknown } } }).store.zone;
    const get = zone.get;
    let reads = 0;
    zone.get = function (this: unknown) {
      reads++;
      return get.call(this);
    };
    try {
      const pub = await client('zone-reads');
      for (let i = 0; i < 200; i++) pub.publish('zone/reads', 'x', { qos: 0 });
      await publish1(pub, 'zone/reads');
    } finally {
      zone.get = get;
    }
    assert.ok(reads <= 1, `${reads} copies of the zone for 201 publishes`);
  });

  t('a burst of 3/10s over a rate of 2/10s: 2 + (3 + 2) tokens at first (emqx_limiter.erl config/2 adds the rate to the burst), then 0x97; last, as a listener keeps a burst once set (updates are merged)', async () => {
    await listenerRate({ messages_rate: '2/10s', messages_burst: '3/10s' });
    const pub = await client('burst');
    const codes = await Promise.all(Array.from({ length: 8 }, (_, i) => publish1(pub, `burst/${i}`)));
    assert.equal(codes, [0, 0, 0, 0, 0, 0, 0, 0x97]);
  });

  t.run();
}
