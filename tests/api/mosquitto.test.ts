// Debian's mosquitto clients (installed by .ci/run) against the simulator: a subscriber connected
// over TCP is counted in /stats and /nodes within a second, and a message published by
// mosquitto_pub reaches it; both sides agree (security.md M4).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let sub: ChildProcess | undefined;

test.before(async () => {
  const found = spawnSync('mosquitto_sub', ['--help']);
  // Not a skip: the tools are part of the test environment, .ci/run installs them.
  if (found.error) throw new Error('mosquitto_sub is missing: apt-get install mosquitto-clients');
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

test.run();
