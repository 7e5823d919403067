// Authorization without a way around it (security.md S26): with subscribe on `secret/#` denied,
// `$share/g/secret/#`, `$share/g/secret/x` and `$queue/secret/#` are refused and deliver nothing,
// as EMQX authorizes the filter inside a share (emqx_channel.erl v5.5.1 do_check_sub_authzs,
// emqx_topic:get_shared_real_topic); the cache keeps the decision under that filter; a
// `$delayed/{s}/{topic}` publish is authorized on its topic (emqx_access_control.erl authorize/3);
// a will is published only where its client may publish (emqx_channel.erl publish_will_msg); a
// retained publish a `retain` rule denies is neither delivered nor kept. 3.1.1 and 5.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';
import { DISCONNECT, disconnectCode, rawConnect, subscribePacket } from '../helpers/raw-mqtt.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

const RULES = [
  { permission: 'deny', action: 'subscribe', topic: 'secret/#' },
  { permission: 'deny', action: 'publish', topic: 'denied/#' },
  { permission: 'deny', action: 'publish', topic: 'noretain/#', retain: true },
  { permission: 'deny', action: 'publish', topic: 'noqos2/#', qos: [2] },
];

test.before(async () => {
  sim = await startSimulator({ app: { emqxVersion: '5.5.1' } });
  token = await login(sim.baseUrl);
  assert.is((await call('POST', '/authorization/sources', { type: 'built_in_database', enable: true })).status, 204);
  assert.is((await call('POST', '/authorization/sources/built_in_database/rules/all', { rules: RULES })).status, 204);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  await settings('ignore');
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

async function settings(denyAction: 'ignore' | 'disconnect'): Promise<void> {
  const res = await call('PUT', '/authorization/settings', { no_match: 'allow', deny_action: denyAction, cache: { enable: true, max_size: 32, ttl: '1m', excludes: [] } });
  assert.is(res.status, 200, res.text);
}

async function client(clientId: string, protocolVersion: 4 | 5 = 4, extra: Record<string, unknown> = {}): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, protocolVersion, ...extra });
  c.on('error', () => undefined);
  open.push(c);
  return c;
}

/** The SUBACK's code for one filter: the QoS granted, or 128 (3.1.1) / the MQTT 5 reason code. */
function grant(c: MqttClient, filter: string): Promise<number> {
  return new Promise((resolve) => c.subscribe(filter, { qos: 1 }, (err, granted) => {
    const refused = (err as { packet?: { granted?: number[]; reasonCode?: number } } | null)?.packet?.granted?.[0];
    resolve(refused ?? granted?.[0]?.qos ?? -1);
  }));
}

const received = (c: MqttClient) => {
  const got: string[] = [];
  c.on('message', (topic) => got.push(topic));
  return got;
};

for (const version of [4, 5] as const) {
  test(`MQTT ${version === 5 ? '5' : '3.1.1'}: a deny on secret/# refuses it inside $share and $queue too, and nothing is delivered`, async () => {
    const refused = version === 5 ? 0x87 : 0x80;
    const sub = await client(`share-sub-${version}`, version);
    const got = received(sub);
    for (const filter of ['secret/#', '$share/g/secret/#', '$share/g/secret/x', '$queue/secret/#']) {
      assert.is(await grant(sub, filter), refused, filter);
    }
    assert.is(await grant(sub, '$share/g/open/#'), 1, 'a share of an allowed filter is granted');
    const pub = await client(`share-pub-${version}`);
    await pub.publishAsync('secret/x', 'hidden', { qos: 1 });
    await pub.publishAsync('open/x', 'visible', { qos: 1 });
    await waitFor(() => got.includes('open/x'), 1000, 'the allowed message');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(got, ['open/x']);
    // The cache keeps the decision under the filter inside the share, as EMQX's does.
    const cache = (await call('GET', `/clients/share-sub-${version}/authorization/cache`)).json as { access: string; topic: string; result: string }[];
    const subscribes = cache.filter((e) => e.access === 'subscribe').map((e) => `${e.topic}:${e.result}`).sort();
    assert.equal(subscribes, ['open/#:allow', 'secret/#:deny', 'secret/x:deny']);
  });
}

test('deny_action = disconnect: a $share of a denied filter ends the connection, DISCONNECT 0x87 in MQTT 5', async () => {
  await settings('disconnect');
  const { raw } = await rawConnect(sim.mqtt, { version: 5, clientId: 'share-dc' });
  raw.write(subscribePacket(5, 1, [['$share/g/secret/#', 1]]));
  const disconnect = await raw.next(DISCONNECT);
  assert.ok(disconnect);
  assert.is(disconnectCode(disconnect), 0x87);
  assert.ok(await raw.closedWithin(2000));
});

test('a $delayed publish is authorized on the topic it is delayed to; one without a topic is denied', async () => {
  const sub = await client('delayed-sub');
  const got = received(sub);
  await sub.subscribeAsync('#', { qos: 1 });
  const pub = await client('delayed-pub', 5);
  // MQTT 5 hears PUBACK 0x87 for the denied ones (deny_action = ignore).
  const refused = (topic: string) => pub.publishAsync(topic, 'hidden', { qos: 1 }).then(() => 'accepted', (err: Error) => err.message);
  assert.is(await refused('$delayed/1/denied/x'), 'Publish error: Not authorized');
  await pub.publishAsync('$delayed/1/open/later', 'shown', { qos: 1 });
  assert.is(await refused('$delayed/1'), 'Publish error: Not authorized');
  await waitFor(() => got.includes('open/later'), 3000, 'the allowed delayed message');
  await new Promise((r) => setTimeout(r, 200));
  assert.not.ok(got.includes('denied/x'), got.join());
  assert.is((await call('GET', '/mqtt/delayed/messages')).json.data.length, 0, 'nothing denied is held');
  // A subscription goes the same way: `$delayed/#` has no topic after its interval.
  assert.is(await grant(sub, '$delayed/#'), 0x80);
  assert.is(await grant(sub, '$delayed/+/secret/#'), 0x80, 'authorized as secret/#');
  assert.is(await grant(sub, '$delayed/+/open/#'), 1);
});

test('a will is published only where its client may publish (publish_will_msg)', async () => {
  const watcher = await client('will-watch');
  const got = received(watcher);
  await watcher.subscribeAsync('#', { qos: 1 });
  for (const [id, topic] of [['will-denied', 'denied/will'], ['will-open', 'open/will']]) {
    const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: id, will: { topic, payload: Buffer.from('gone'), qos: 1, retain: false } });
    c.on('error', () => undefined);
    c.stream.destroy();
  }
  await waitFor(() => got.includes('open/will'), 2000, 'the allowed will');
  await new Promise((r) => setTimeout(r, 200));
  assert.not.ok(got.includes('denied/will'), got.join());
});

test('a retained publish a retain rule denies is neither delivered nor kept; the same without retain passes', async () => {
  const watcher = await client('retain-watch');
  const got = received(watcher);
  await watcher.subscribeAsync('noretain/#', { qos: 1 });
  const pub = await client('retain-pub');
  await pub.publishAsync('noretain/t', 'kept?', { qos: 1, retain: true });
  await pub.publishAsync('noretain/t', 'live', { qos: 1, retain: false });
  await waitFor(() => got.length >= 1, 1000, 'the live message');
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(got, ['noretain/t']);
  assert.is((await call('GET', '/mqtt/retainer/messages')).json.data.length, 0);
  const late = await client('retain-late');
  const lateGot = received(late);
  await late.subscribeAsync('noretain/#', { qos: 1 });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(lateGot, []);
});

test('an allowed QoS 0 publish in the cache does not let a denied QoS 2 publish of the topic through (emqx_authz_cache cache_k)', async () => {
  const watcher = await client('qos-watch');
  const got: string[] = [];
  watcher.on('message', (_t, payload) => got.push(payload.toString()));
  await watcher.subscribeAsync('noqos2/#', { qos: 2 });
  const pub = await client('qos-pub');
  await pub.publishAsync('noqos2/t', 'q0', { qos: 0 });
  await pub.publishAsync('noqos2/t', 'q2', { qos: 2 });
  await pub.publishAsync('noqos2/t', 'q0 again', { qos: 0 });
  await waitFor(() => got.length >= 2, 1000, 'the QoS 0 messages');
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(got, ['q0', 'q0 again']);
});

test.run();
