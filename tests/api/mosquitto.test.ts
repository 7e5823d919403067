// Debian's mosquitto clients (installed by .ci/run) against the simulator: a subscriber connected
// over TCP is counted in /stats and /nodes within a second, and a message published by
// mosquitto_pub reaches it; the client list shows their CONNECT flags, the retainer what they
// retain, and POST /publish reaches them; both sides agree (security.md M4).
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let sub: ChildProcess | undefined;

test.before(async () => {
  const missing = await new Promise<boolean>((resolve) => {
    const probe = spawn('mosquitto_sub', ['--help']);
    probe.on('error', () => resolve(true));
    probe.on('close', () => resolve(false));
  });
  // Not a skip: the tools are part of the test environment, .ci/run installs them.
  if (missing) throw new Error('mosquitto_sub is missing: apt-get install mosquitto-clients');
  sim = await startSimulator();
  token = await login(sim.baseUrl);
});

test.after(async () => {
  sub?.kill();
  await sim?.close();
});

const stats = async () => (await request(sim.baseUrl, 'GET', '/api/v5/stats?aggregate=true', { token })).json as Record<string, number>;

test('mosquitto_sub connects, is counted, and receives what mosquitto_pub sends', async () => {
  const before = await stats();
  let received = '';
  sub = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', 'cli-sub', '-t', 'cli/#', '-v']);
  sub.stdout!.on('data', (chunk: Buffer) => (received += chunk.toString()));
  await waitFor(async () => (await stats())['connections.count'] === before['connections.count'] + 1, 1000);
  const after = await stats();
  assert.is(after['subscriptions.count'], before['subscriptions.count'] + 1);
  const nodes = (await request(sim.baseUrl, 'GET', '/api/v5/nodes', { token })).json as { node: string; connections: number }[];
  assert.is(nodes[0].connections, 1);
  // Asynchronously: the simulator runs in this process and must keep serving meanwhile.
  const pub = spawn('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-t', 'cli/hello', '-m', 'hi there']);
  const code = await new Promise((resolve) => pub.on('close', resolve));
  assert.is(code, 0);
  await waitFor(async () => received.includes('cli/hello hi there'), 1000);
  sub.kill();
  await waitFor(async () => (await stats())['connections.count'] === before['connections.count'], 1000);
});

test('mosquitto clients on both sides of the API: listed with their flags, retained, and reached by POST /publish', async () => {
  let received = '';
  const durable = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', 'cli-durable', '-u', 'carol', '-c', '-q', '1', '-k', '33', '-t', 'cli/api/#', '-v']);
  sub = durable;
  durable.stdout!.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const row = async () => (await request(sim.baseUrl, 'GET', '/api/v5/clients/cli-durable', { token })).json;
  await waitFor(async () => (await row())?.subscriptions_cnt === 1, 1000, 'mosquitto_sub listed');
  const listed = await row();
  assert.equal(
    [listed.username, listed.clean_start, listed.proto_ver, listed.keepalive, listed.ip_address, listed.connected],
    ['carol', false, 4, 33, '127.0.0.1', true],
  );
  assert.equal((await request(sim.baseUrl, 'GET', '/api/v5/clients/cli-durable/subscriptions', { token })).json[0].qos, 1);
  const published = await request(sim.baseUrl, 'POST', '/api/v5/publish', { token, body: { topic: 'cli/api/x', payload: 'from the API', qos: 1 } });
  assert.is(published.status, 200);
  await waitFor(async () => received.includes('cli/api/x from the API'), 1000, 'delivered to mosquitto_sub');

  const pub = spawn('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', 'cli-retain', '-u', 'dave', '-r', '-q', '1', '-t', 'cli/state', '-m', 'on']);
  assert.is(await new Promise((resolve) => pub.on('close', resolve)), 0);
  const retained = (await request(sim.baseUrl, 'GET', `/api/v5/mqtt/retainer/message/${encodeURIComponent('cli/state')}`, { token })).json;
  assert.equal([retained.from_clientid, retained.from_username, retained.qos, Buffer.from(retained.payload, 'base64').toString()], ['cli-retain', 'dave', 1, 'on']);
  durable.kill();
  await waitFor(async () => (await row())?.connected === false, 1000, 'offline persistent session');
  assert.is((await request(sim.baseUrl, 'DELETE', '/api/v5/clients/cli-durable', { token })).status, 204);
});

test('-V mqttv5: User Properties reach mosquitto_sub in the order mosquitto_pub sent them [MQTT-3.3.2-18], QoS 2 both ways', async () => {
  let received = '';
  const v5 = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-V', 'mqttv5', '-i', 'cli-v5', '-q', '2', '-t', 'cli/v5/#', '-F', '%t %q %p %P']);
  sub = v5;
  v5.stdout!.on('data', (chunk: Buffer) => (received += chunk.toString()));
  await waitFor(async () => (await request(sim.baseUrl, 'GET', '/api/v5/clients/cli-v5', { token })).json?.subscriptions_cnt === 1, 1000, 'mosquitto_sub -V mqttv5 listed');
  const props = ['a', '1', 'b', '2', 'a', '3'].flatMap((v, i) => (i % 2 ? [v] : ['-D', 'publish', 'user-property', v]));
  const pub = spawn('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), '-V', 'mqttv5', '-q', '2', '-t', 'cli/v5/up', '-m', 'ordered', ...props]);
  assert.is(await new Promise((resolve) => pub.on('close', resolve)), 0);
  await waitFor(async () => received.includes('cli/v5/up'), 1000, 'delivered');
  assert.is(received.trim(), 'cli/v5/up 2 ordered a:1 b:2 a:3');
  v5.kill();
});

test.run();
