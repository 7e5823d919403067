// Listener configuration with real effect (emqx-api-part1 §22.1): a bind change moves the socket
// (mosquitto_sub and mqtt.js connect on the new port and fail on the old one), stop/start/restart
// close and open it, max_connections is enforced, and create/read/update/delete and
// /listeners_status answer as EMQX does.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, connectMqtt, endMqtt, login, request, spawnSimulator, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 2 });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs mosquitto_sub for one connection attempt; resolves with its exit code (0 = connected). */
function mosquittoSub(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    // -C 1 -W 1: wait at most a second for one message; a refused connection exits at once.
    const child = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(port), '-t', 'probe/#', '-C', '1', '-W', '1', '-i', `probe-${port}`]);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve(/refused|Error|error/.test(stderr) ? (code || 1) : code));
  });
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('changing the tcp bind really moves the listener: the new port accepts MQTT, the old one is closed', async () => {
  const old = sim.mqtt;
  const port = await freePort();
  const res = await call('PUT', '/listeners/tcp:default', { id: 'tcp:default', type: 'tcp', bind: `127.0.0.1:${port}` });
  assert.is(res.status, 200, res.text);
  assert.is(res.json.bind, `127.0.0.1:${port}`);
  assert.is(res.json.running, true);
  assert.is(await tcpOpen(old), false, 'old port closed');
  const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'moved' });
  await endMqtt(client);
  // mosquitto_sub: -W 1 ends with 27 (timeout) after connecting; a refused connection is not 27.
  assert.is(await mosquittoSub(port), 27);
  assert.is.not(await mosquittoSub(old), 27);
  const listed = (await call('GET', '/listeners?type=tcp')).json;
  assert.is(listed[0].bind, `127.0.0.1:${port}`);
  sim.mqtt = port;
});

test('stop closes the socket and sets enable=false; start and restart open it again', async () => {
  assert.is((await call('POST', '/listeners/tcp:default/stop')).status, 200);
  assert.is(await tcpOpen(sim.mqtt), false);
  const stopped = (await call('GET', '/listeners/tcp:default')).json;
  assert.is(stopped.enable, false);
  assert.is(stopped.running, false);
  assert.is((await call('POST', '/listeners/tcp:default/start')).status, 200);
  assert.is(await tcpOpen(sim.mqtt), true);
  assert.is((await call('GET', '/listeners/tcp:default')).json.enable, true);
  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'before-restart' });
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  assert.is((await call('POST', '/listeners/tcp:default/restart')).status, 200);
  await closed;
  await endMqtt(await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'after-restart' }));
});

test('the ws listener rebinds too', async () => {
  const port = await freePort();
  assert.is((await call('PUT', '/listeners/ws:default', { id: 'ws:default', type: 'ws', bind: `127.0.0.1:${port}` })).status, 200);
  await endMqtt(await connectMqtt(`ws://127.0.0.1:${port}/mqtt`, { clientId: 'ws-moved' }));
  assert.is(await tcpOpen(sim.ws), false);
});

test('max_connections refuses the connection over the limit', async () => {
  assert.is((await call('PUT', '/listeners/tcp:default', { id: 'tcp:default', type: 'tcp', max_connections: 1 })).status, 200);
  const first = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'mc-1' });
  await waitFor(async () => (await call('GET', '/listeners/tcp:default')).json.current_connections === 1, 1000);
  // The server drops the socket over the limit: no CONNACK, the connection closes.
  const second = await new Promise<string>((resolve) => {
    const socket = net.connect(sim.mqtt, '127.0.0.1');
    socket.on('connect', () => socket.write(Buffer.from([0x10, 0x0e, 0, 4, 0x4d, 0x51, 0x54, 0x54, 4, 2, 0, 60, 0, 2, 0x6d, 0x32])));
    socket.on('data', () => {
      socket.destroy();
      resolve('connack');
    });
    socket.on('close', () => resolve('closed'));
    socket.on('error', () => resolve('closed'));
  });
  assert.is(second, 'closed');
  await endMqtt(first);
  assert.is((await call('PUT', '/listeners/tcp:default', { id: 'tcp:default', type: 'tcp', max_connections: 'infinity' })).status, 200);
});

test('create, status by type, mismatched id, invalid values, and delete', async () => {
  const port = await freePort();
  const created = await call('POST', '/listeners', { type: 'tcp', name: 'extra', bind: `127.0.0.1:${port}` });
  assert.is(created.status, 200, created.text);
  assert.is(created.json.id, 'tcp:extra');
  assert.is(created.json.acceptors, 16);
  await endMqtt(await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'extra-client' }));
  assert.equal((await call('POST', '/listeners', { type: 'tcp', name: 'extra', bind: '1' })).json, { code: 'BAD_LISTENER_ID', message: 'Already Exist' });
  const status = (await call('GET', '/listeners_status')).json;
  const tcp = status.find((s: { type: string }) => s.type === 'tcp');
  assert.equal(tcp.ids, ['tcp:default', 'tcp:extra']);
  assert.equal(tcp.node_status.map((n: { node: string }) => n.node), ['emqx@node1', 'emqx@node2']);
  const mismatch = await call('PUT', '/listeners/tcp:extra', { id: 'tcp:other', type: 'tcp' });
  assert.equal(mismatch.json, { code: 'BAD_LISTENER_ID', message: "Path and body's listener id not match" });
  const bad = await call('PUT', '/listeners/tcp:extra', { id: 'tcp:extra', type: 'tcp', acceptors: 0 });
  assert.is(bad.status, 400);
  // emqx_mgmt_api_listeners.erl listener_schema/1: the body is a union picked by `type`, checked
  // under `root` by emqx_dashboard_swagger.erl check_request_body/5.
  assert.is(bad.json.code, 'BAD_REQUEST');
  assert.is(JSON.parse(bad.json.message).path, 'root.acceptors');
  const badDuration = await call('PUT', '/listeners/tcp:extra', { id: 'tcp:extra', type: 'tcp', tcp_options: { send_timeout: '15x' } });
  assert.is(JSON.parse(badDuration.json.message).path, 'root.tcp_options.send_timeout');
  assert.is((await call('DELETE', '/listeners/tcp:extra')).status, 204);
  assert.is(await tcpOpen(port), false);
  assert.equal((await call('GET', '/listeners/tcp:extra')).json, { code: 'BAD_LISTENER_ID', message: 'Listener id not found' });
});

test('any update of a running listener restarts it, dropping its connections', async () => {
  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'update-drop' });
  const dropped = new Promise<void>((resolve) => client.once('close', () => resolve()));
  assert.is((await call('PUT', '/listeners/tcp:default', { id: 'tcp:default', type: 'tcp', mountpoint: '' })).status, 200);
  await dropped;
  await endMqtt(await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'update-after' }));
});

test('a spawned simulator (main.ts as a program) rebinds too', async () => {
  const child = await spawnSimulator(['--seed', 'empty']);
  try {
    const t = await login(child.baseUrl);
    const port = await freePort();
    const res = await request(child.baseUrl, 'PUT', '/api/v5/listeners/tcp:default', { token: t, body: { id: 'tcp:default', type: 'tcp', bind: `127.0.0.1:${port}` } });
    assert.is(res.status, 200, res.text);
    assert.is(await mosquittoSub(port), 27);
    assert.is.not(await mosquittoSub(child.mqtt), 27);
  } finally {
    await child.kill();
  }
});

test('listener changes persist in the state', async () => {
  const app = await buildTestApp();
  const t = await login(app);
  const res = await api(app, 'PUT', '/api/v5/listeners/tcp:default', { token: t, body: { id: 'tcp:default', type: 'tcp', max_connections: 500, mountpoint: 'm/' } });
  assert.is(res.statusCode, 200);
  assert.is(app.store.state.listeners?.['tcp:default'].max_connections, 500);
  assert.is(res.json().mountpoint, 'm/');
  await app.close();
});

test.run();
