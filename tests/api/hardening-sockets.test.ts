// security.md S28 (issue #33, "sockets the API opens"): listeners and gateway listeners created or
// changed through the API listen only where --host allows — under the default 127.0.0.1 a bind on
// 0.0.0.0, on [::] or with no host is a 400 that names --host, and nothing listens there; a busy
// port is a 400 with a sentence (not a 500 EADDRINUSE).
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 1 });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

/** A free TCP port on the loopback address, released again. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** True when something accepts TCP connections on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, host);
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}

test('S28: POST /listeners on 0.0.0.0, [::] or a bare port under --host 127.0.0.1 is a 400 naming --host; nothing listens', async () => {
  const port = await freePort();
  for (const bind of [`0.0.0.0:${port}`, `[::]:${port}`, String(port), `10.1.2.3:${port}`]) {
    const res = await call('POST', '/listeners', { type: 'tcp', name: 'wide', bind });
    assert.is(res.status, 400, `${bind}: ${res.text}`);
    assert.is(res.json.code, 'BAD_REQUEST');
    assert.match(res.json.message, /--host 127\.0\.0\.1/, bind);
    assert.is(await accepts('127.0.0.1', port), false, `${bind}: something listens on ${port}`);
  }
  const ids = (await call('GET', '/listeners')).json.map((l: { id: string }) => l.id);
  assert.equal(ids, ['tcp:default', 'ws:default']);
});

test('S28: a listener on 127.0.0.1 is created and listens; moving it to 0.0.0.0 is a 400 and it keeps listening where it was', async () => {
  const port = await freePort();
  const created = await call('POST', '/listeners', { type: 'tcp', name: 'local', bind: `127.0.0.1:${port}` });
  assert.is(created.status, 200, created.text);
  assert.ok(await accepts('127.0.0.1', port));
  const moved = await call('PUT', '/listeners/tcp:local', { bind: `0.0.0.0:${port}` });
  assert.is(moved.status, 400, moved.text);
  assert.match(moved.json.message, /--host 127\.0\.0\.1/);
  assert.is((await call('GET', '/listeners/tcp:local')).json.bind, `127.0.0.1:${port}`);
  assert.ok(await accepts('127.0.0.1', port), 'the listener still listens where it was');
  assert.is((await call('DELETE', '/listeners/tcp:local')).status, 204);
});

test('S28: gateway listeners on 0.0.0.0 are a 400 naming --host, on load and on add; a busy port is a sentence', async () => {
  const port = await freePort();
  const wide = await call('PUT', '/gateways/stomp', { name: 'stomp', enable: true, listeners: [{ type: 'tcp', name: 'default', bind: `0.0.0.0:${port}` }] });
  assert.is(wide.status, 400, wide.text);
  assert.match(wide.json.message, /--host 127\.0\.0\.1/);
  assert.is(await accepts('127.0.0.1', port), false);
  assert.is((await call('GET', '/gateways/stomp')).json.status, 'unloaded');

  assert.is((await call('PUT', '/gateways/stomp', { name: 'stomp', enable: true, listeners: [] })).status, 204);
  const added = await call('POST', '/gateways/stomp/listeners', { type: 'tcp', name: 'wide', bind: String(port) });
  assert.is(added.status, 400, added.text);
  assert.match(added.json.message, /--host 127\.0\.0\.1/);

  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  try {
    const busy = (blocker.address() as net.AddressInfo).port;
    const res = await call('POST', '/gateways/stomp/listeners', { type: 'tcp', name: 'busy', bind: `127.0.0.1:${busy}` });
    assert.is(res.status, 400, res.text);
    assert.match(res.json.message, new RegExp(`port ${busy} on 127\\.0\\.0\\.1 is already in use`));
  } finally {
    blocker.close();
  }
  assert.is((await call('PUT', '/gateways/stomp/enable/false')).status, 204);
});

test.run();
