// ExHook (emqx-api-part1 §20): servers CRUD in boot order, status from a real TCP probe
// (connected while a server listens, error with the reason when not, disabled), hooks and
// metrics per node, and EMQX's error codes.
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

async function listening(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((c) => c.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function closedPort(): Promise<number> {
  const s = await listening();
  await s.close();
  return s.port;
}

test('a server whose URL accepts TCP is connected with hooks; a closed port is error with the reason', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const up = await listening();
  const created = await api(app, 'POST', '/api/v5/exhooks', { token, body: { name: 'up', url: `http://127.0.0.1:${up.port}` } });
  assert.is(created.statusCode, 200);
  const body = created.json();
  assert.is(body.pool_size, 8);
  assert.is(body.failed_action, 'deny');
  assert.is(body.request_timeout, '5s');
  assert.equal(body.node_status.map((s: any) => s.status), ['connected', 'connected', 'connected']);
  assert.ok(body.hooks.some((h: any) => h.name === 'client.connect'));
  assert.equal(body.metrics, { succeed: 0, failed: 0, rate: 0, max_rate: 0 });
  assert.is(body.node_metrics.length, 3);

  const down = await api(app, 'POST', '/api/v5/exhooks', { token, body: { name: 'down', url: `http://127.0.0.1:${await closedPort()}` } });
  assert.is(down.json().node_status[0].status, 'error');
  assert.is(down.json().node_status[0].reason, 'econnrefused');
  assert.equal(down.json().hooks, []);
  assert.equal((await api(app, 'GET', '/api/v5/exhooks/down/hooks', { token })).json(), []);
  const hooks = (await api(app, 'GET', '/api/v5/exhooks/up/hooks', { token })).json();
  assert.ok(hooks.length > 5);
  assert.equal(Object.keys(hooks[0]).sort(), ['metrics', 'name', 'node_metrics', 'params']);

  // The server goes away: the status follows on the next read after the cache expires.
  await up.close();
  await new Promise((r) => setTimeout(r, 2100));
  assert.is((await api(app, 'GET', '/api/v5/exhooks/up', { token })).json().node_status[0].status, 'error');

  const off = await api(app, 'PUT', '/api/v5/exhooks/up', { token, body: { enable: false } });
  assert.is(off.statusCode, 200);
  assert.is(off.json().node_status[0].status, 'disabled');
  assert.is(off.json().url, `http://127.0.0.1:${up.port}`);
  await app.close();
});

test('order, move, delete and the error codes', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const port = await closedPort();
  for (const name of ['a', 'b', 'c']) await api(app, 'POST', '/api/v5/exhooks', { token, body: { name, url: `http://127.0.0.1:${port}`, enable: false } });
  const names = async () => (await api(app, 'GET', '/api/v5/exhooks', { token })).json().map((s: any) => s.name);
  assert.equal(await names(), ['a', 'b', 'c']);
  const move = (name: string, position: string) => api(app, 'POST', `/api/v5/exhooks/${name}/move`, { token, body: { position } });
  assert.is((await move('c', 'front')).statusCode, 204);
  assert.equal(await names(), ['c', 'a', 'b']);
  await move('c', 'after:b');
  assert.equal(await names(), ['a', 'b', 'c']);
  await move('a', 'before:c');
  assert.equal(await names(), ['b', 'a', 'c']);
  await move('b', 'rear');
  assert.equal(await names(), ['a', 'c', 'b']);
  assert.equal((await move('a', 'up')).json(), { code: 'BAD_REQUEST', message: 'Invalid Position' });

  const dup = await api(app, 'POST', '/api/v5/exhooks', { token, body: { name: 'a', url: 'http://127.0.0.1:1' } });
  assert.equal([dup.statusCode, dup.json()], [400, { code: 'BAD_REQUEST', message: 'Already exists' }]);
  assert.is((await api(app, 'POST', '/api/v5/exhooks', { token, body: { name: 'z', url: 'ftp://x' } })).statusCode, 400);
  const missing = await api(app, 'GET', '/api/v5/exhooks/nope', { token });
  assert.equal([missing.statusCode, missing.json()], [404, { code: 'BAD_REQUEST', message: 'Server not found' }]);
  assert.is((await api(app, 'PUT', '/api/v5/exhooks/nope', { token, body: { enable: true } })).json().code, 'NOT_FOUND');
  assert.is((await api(app, 'GET', '/api/v5/exhooks/nope/hooks', { token })).statusCode, 400);
  assert.is((await api(app, 'DELETE', '/api/v5/exhooks/c', { token })).statusCode, 204);
  assert.equal(await names(), ['a', 'b']);
  assert.is((await api(app, 'DELETE', '/api/v5/exhooks/c', { token })).statusCode, 404);
  await app.close();
});

test.run();
