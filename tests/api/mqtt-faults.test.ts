// No MQTT client ends the process (security.md M5): each crash of issue 33 replayed against a
// simulator running as a child process, which must close only the offending connection and keep
// serving the API and other clients; topic aliases are bounded in bytes; a fault inside one
// connection's packet handling closes that connection, is logged once and counted; and the
// process-level net of the command line logs an unhandled rejection or exception and keeps going.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectionFaults } from '../../simulator/broker/index.ts';
import { connectMqtt, endMqtt, login, REPO_ROOT, request, spawnSimulator, startSimulator, waitFor, type SpawnedSimulator } from '../helpers/simulator.ts';
import { ackPacket, connackCode, connectPacket, disconnectPacket, publishPacket, PUBREC, PUBREL, RawMqtt, rawConnect, subscribePacket } from '../helpers/raw-mqtt.ts';

let sim: SpawnedSimulator;
let token = '';

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'empty']);
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.kill();
});

const alive = () => sim.child.exitCode === null && sim.child.signalCode === null;

/** The child is running, answers /status, and a fresh client gets its own message back. */
async function stillServing(what: string): Promise<void> {
  assert.ok(alive(), `${what}: the process exited:\n${sim.stderr()}`);
  assert.is((await request(sim.baseUrl, 'GET', '/status')).status, 200, `${what}: /status`);
  const fresh = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `fresh-${Date.now()}` });
  const got = new Promise<string>((resolve) => fresh.once('message', (_t, payload) => resolve(payload.toString())));
  await fresh.subscribeAsync('fresh/t', { qos: 1 });
  await fresh.publishAsync('fresh/t', 'hello', { qos: 1 });
  assert.is(await got, 'hello', `${what}: a fresh client is served`);
  await endMqtt(fresh);
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

test('MQTT 3.1.1: a 101st QoS 2 PUBLISH and a PUBREL in one write at max_awaiting_rel close that connection only', async () => {
  const watcher: MqttClient = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'watcher-awaiting' });
  const { raw, connack } = await rawConnect(sim.mqtt, { clientId: 'awaiting-rel' });
  assert.is(connack && connackCode(connack), 0);
  const publishes = Array.from({ length: 100 }, (_, i) => publishPacket({ topic: 'await/t', qos: 2, id: i + 1 }));
  raw.write(...publishes);
  for (let i = 0; i < 100; i++) assert.ok(await raw.next(PUBREC), `PUBREC ${i + 1}`);
  // emqx_channel.erl (v5.5.1) do_publish: awaiting_rel full → RC_RECEIVE_MAXIMUM_EXCEEDED, which
  // closes an MQTT 3.1.1 connection; the PUBREL behind it must not take the process down.
  raw.write(publishPacket({ topic: 'await/t', qos: 2, id: 101 }), ackPacket(PUBREL, 5));
  assert.ok(await raw.closedWithin(3000), 'the connection over max_awaiting_rel is closed');
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(watcher.connected, 'another client is untouched');
  await endMqtt(watcher);
  await stillServing('awaiting_rel');
});

test('one mqtt.js 3.1.1 client firing 500 mixed-QoS publishes without waiting for acks', async () => {
  const subscriber = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'flood-sub' });
  await subscriber.subscribeAsync('flood/#', { qos: 2 });
  for (let round = 0; round < 3; round++) {
    const publisher = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `flood-pub-${round}` });
    publisher.on('error', () => undefined);
    for (let i = 0; i < 500; i++) publisher.publish(`flood/${i % 7}`, 'x'.repeat(i % 50), { qos: ((i * 7) % 3) as 0 | 1 | 2 });
    await new Promise((r) => setTimeout(r, 1500));
    publisher.end(true);
    assert.ok(alive(), `round ${round}: the process exited:\n${sim.stderr()}`);
  }
  assert.ok(subscriber.connected, 'the subscriber is untouched');
  await endMqtt(subscriber);
  await stillServing('flood');
});

test('MQTT 5: Session Expiry Interval twice in CONNECT counts the last value (emqx_frame parse_property), then closes cleanly', async () => {
  const { raw, connack } = await rawConnect(sim.mqtt, { version: 5, clientId: 'sei-twice', clean: false, properties: [[0x11, 10], [0x11, 20]] });
  assert.is(connack && connackCode(connack), 0);
  const client = await request(sim.baseUrl, 'GET', '/api/v5/clients/sei-twice', { token });
  assert.is(client.json.expiry_interval, 20);
  raw.end();
  await waitFor(async () => (await request(sim.baseUrl, 'GET', '/api/v5/clients/sei-twice', { token })).json?.connected === false, 2000, 'disconnected');
  await new Promise((r) => setTimeout(r, 200));
  await stillServing('SEI twice in CONNECT');
  // The session stays for the 20 s it asked for.
  assert.is((await request(sim.baseUrl, 'GET', '/api/v5/clients/sei-twice', { token })).status, 200);
});

test('MQTT 5: Session Expiry Interval twice in DISCONNECT counts the last value, and the process keeps serving', async () => {
  const { raw, connack } = await rawConnect(sim.mqtt, { version: 5, clientId: 'sei-disconnect', clean: false, properties: [[0x11, 10]] });
  assert.is(connack && connackCode(connack), 0);
  raw.write(disconnectPacket(5, 0, [[0x11, 30], [0x11, 40]]));
  assert.ok(await raw.closedWithin(2000));
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(alive(), `the process exited:\n${sim.stderr()}`);
  // The session record takes the DISCONNECT's interval once the close is handled (later on a busy machine).
  const expiry = async () => (await request(sim.baseUrl, 'GET', '/api/v5/clients/sei-disconnect', { token })).json?.expiry_interval;
  await waitFor(async () => (await expiry()) === 40, 3000, 'the last Session Expiry Interval').catch(() => undefined);
  assert.is(await expiry(), 40);
  await stillServing('SEI twice in DISCONNECT');
});

test('MQTT 5: a DISCONNECT sent with its CONNECT, before the CONNACK, still sets the session\'s expiry', async () => {
  // The DISCONNECT reaches the broker while the connection is still being set up: Aedes queues it
  // until the CONNACK is out; emqx_channel.erl (maybe_update_expiry_interval) takes its interval
  // all the same.
  const raw = await RawMqtt.tcp(sim.mqtt);
  raw.write(connectPacket({ version: 5, clientId: 'sei-early', clean: false, properties: [[0x11, 10]] }), disconnectPacket(5, 0, [[0x11, 50]]));
  assert.ok(await raw.closedWithin(2000));
  const expiry = async () => (await request(sim.baseUrl, 'GET', '/api/v5/clients/sei-early', { token })).json?.expiry_interval;
  await waitFor(async () => (await expiry()) === 50, 3000, 'the DISCONNECT\'s Session Expiry Interval').catch(() => undefined);
  assert.is(await expiry(), 50);
  await stillServing('DISCONNECT with its CONNECT');
});

test('MQTT 5: the inbound topic alias table is bounded in bytes; past it the connection is closed', async () => {
  const before = rssKb(sim.child.pid as number);
  const { raw, connack } = await rawConnect(sim.mqtt, { version: 5, clientId: 'alias-hog' });
  assert.is(connack && connackCode(connack), 0);
  // 200 aliases of 60 KB topics would hold 12 MB; the table takes 4 MiB of topic names.
  const topic = (i: number) => `alias/${String(i).padStart(5, '0')}/${'x'.repeat(60_000)}`;
  let sent = 0;
  for (; sent < 200 && !raw.closed; sent++) {
    raw.write(publishPacket({ version: 5, topic: topic(sent), properties: [[0x23, sent + 1]] }));
    if (sent % 10 === 9) await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(await raw.closedWithin(3000), 'the connection is closed past the bound');
  assert.ok(sent < 200 || raw.closed, 'closed before every alias was taken');
  assert.ok(rssKb(sim.child.pid as number) - before < 64 * 1024, 'RSS stays within the bound');
  await stillServing('aliases');
});

test('a fault inside one connection\'s packet handling closes that connection only, is logged once and counted', async () => {
  const warnings: string[] = [];
  const local = await startSimulator({ app: { warn: (line) => warnings.push(line) } });
  try {
    const bystander = await connectMqtt(`mqtt://127.0.0.1:${local.mqtt}`, { clientId: 'bystander' });
    await bystander.subscribeAsync('ok/#', { qos: 1 });
    const { raw } = await rawConnect(local.mqtt, { version: 5, clientId: 'victim' });
    // A fault the code cannot have on purpose: the SUBSCRIBE counter throws when it is counted.
    const metrics = local.app.store.mqtt.metrics as Record<string, number>;
    const kept = metrics['packets.subscribe.received'];
    Object.defineProperty(metrics, 'packets.subscribe.received', {
      configurable: true,
      get: () => kept,
      set: () => {
        throw new Error('injected fault');
      },
    });
    raw.write(subscribePacket(5, 1, ['boom/#']), subscribePacket(5, 2, ['boom/again']));
    assert.ok(await raw.closedWithin(2000), 'the faulty connection is closed');
    Object.defineProperty(metrics, 'packets.subscribe.received', { configurable: true, writable: true, enumerable: true, value: kept });
    // emqx_connection.erl (v5.5.1) process_msg: an exception stops that connection's process,
    // which closes its socket without a DISCONNECT.
    assert.not.ok(raw.packets.some((p) => p.type === 14), 'no DISCONNECT, as a crashed EMQX channel sends none');
    assert.is(connectionFaults(local.app.broker), 1, 'counted once');
    const lines = warnings.filter((w) => w.includes('victim'));
    assert.is(lines.length, 1, `one line: ${warnings.join(' | ')}`);
    assert.match(lines[0], /injected fault/);
    const got = new Promise<string>((resolve) => bystander.once('message', (topic) => resolve(topic)));
    await bystander.publishAsync('ok/1', 'x', { qos: 1 });
    assert.is(await got, 'ok/1', 'the other connection is served');
    await endMqtt(bystander);
  } finally {
    await local.close();
  }
});

test('the command line keeps serving after an unhandled rejection or exception, and says so on stderr', async () => {
  const script = [
    "import { keepServing } from './simulator/lib/process-net.ts';",
    'keepServing((line) => process.stderr.write(line + "\\n"));',
    "Promise.reject(new Error('lost rejection'));",
    "setTimeout(() => { throw new Error('lost exception'); }, 20);",
    "setTimeout(() => console.log('still here'), 200);",
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], { cwd: REPO_ROOT });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.is(code, 0, err);
  assert.is(out.trim(), 'still here');
  const lines = err.trim().split('\n');
  assert.is(lines.length, 2, err);
  assert.match(lines[0], /unhandled rejection.*lost rejection/);
  assert.match(lines[1], /uncaught exception.*lost exception/);
});

test.run();
