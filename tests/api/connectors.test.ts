// Connectors (emqx-api-part2 §4.2, §4.4, §1.3): create 201 with the schema defaults, duplicate and
// name errors, ids with `:` or `%3A`, 404s, update, enable/disable (stopped), the start operation,
// status from a real TCP probe of the configured server, the probe endpoint's TEST_FAILED,
// secrets shown as `******` and kept on PUT, and the delete guard naming the dependent actions.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let target: http.Server;
let targetPort = 0;
let closedPort = 0;

test.before(async () => {
  sim = await startSimulator();
  token = await login(sim.baseUrl);
  target = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
  // A port nothing listens on: open one and close it again.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

test.after.each(async () => {
  for (const a of (await call('GET', '/actions')).json) await call('DELETE', `/actions/${a.type}:${a.name}?also_delete_dep_actions=true`);
  for (const c of (await call('GET', '/connectors')).json) await call('DELETE', `/connectors/${c.type}:${c.name}`);
});

test.after(async () => {
  await sim.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

test('create an http connector: 201, schema defaults, real status, both id spellings, 404s', async () => {
  const created = await call('POST', '/connectors', { type: 'http', name: 'c1', url: `http://127.0.0.1:${targetPort}`, headers: { 'content-type': 'application/json' } });
  assert.is(created.status, 201);
  const c = created.json;
  assert.is(c.type, 'http');
  assert.is(c.name, 'c1');
  assert.is(c.enable, true);
  assert.is(c.description, '');
  assert.is(c.connect_timeout, '15s');
  assert.is(c.pool_size, 8);
  assert.is(c.pool_type, 'random');
  assert.is(c.enable_pipelining, 100);
  assert.equal(c.headers, { 'content-type': 'application/json' });
  assert.equal(c.resource_opts, { health_check_interval: '15s', start_after_created: true, start_timeout: '5s' });
  assert.is(c.ssl.enable, false);
  assert.is(c.status, 'connected');
  assert.is(c.status_reason, undefined);
  assert.equal(c.node_status.map((n: { status: string }) => n.status), c.node_status.map(() => 'connected'));
  assert.ok(c.node_status.length >= 1);
  assert.equal(c.actions, []);
  assert.equal(c.sources, []);

  assert.is((await call('GET', '/connectors/http:c1')).json.name, 'c1');
  assert.is((await call('GET', '/connectors/http%3Ac1')).json.name, 'c1');
  assert.equal((await call('GET', '/connectors')).json.map((x: { name: string }) => x.name), ['c1']);

  const dup = await call('POST', '/connectors', { type: 'http', name: 'c1', url: `http://127.0.0.1:${targetPort}` });
  assert.equal([dup.status, dup.json.code, dup.json.message], [400, 'ALREADY_EXISTS', 'connector already exists']);
  const badName = await call('POST', '/connectors', { type: 'http', name: '-bad name', url: 'http://x' });
  assert.equal([badName.status, badName.json.code], [400, 'BAD_REQUEST']);
  assert.is(JSON.parse(badName.json.message).kind, 'validation_error');
  const noUrl = await call('POST', '/connectors', { type: 'http', name: 'c2' });
  assert.is(noUrl.status, 400);
  const badType = await call('POST', '/connectors', { type: 'nosuch', name: 'c3' });
  assert.is(badType.status, 400);

  const missing = await call('GET', '/connectors/http:nope');
  assert.equal([missing.status, missing.json.code], [404, 'NOT_FOUND']);
  assert.match(missing.json.message, "connector named 'nope' of type http does not exist");
  const malformed = await call('GET', '/connectors/nocolon');
  assert.equal([malformed.status, malformed.json.code], [404, 'NOT_FOUND']);
  assert.match(malformed.json.message, 'Invalid connector ID');
});

test('update, enable/disable and start: stopped while disabled, start refused then, delete 204', async () => {
  await call('POST', '/connectors', { type: 'http', name: 'c1', url: `http://127.0.0.1:${targetPort}` });
  const updated = await call('PUT', '/connectors/http:c1', { url: `http://127.0.0.1:${closedPort}`, pool_size: 4, type: 'http', name: 'ignored', status: 'x' });
  assert.is(updated.status, 200);
  assert.is(updated.json.name, 'c1');
  assert.is(updated.json.pool_size, 4);
  assert.is(updated.json.status, 'disconnected');
  assert.match(updated.json.status_reason, 'ECONNREFUSED');
  assert.is(updated.json.node_status[0].status_reason, updated.json.status_reason);

  assert.is((await call('PUT', '/connectors/http:c1', { url: `http://127.0.0.1:${targetPort}` })).json.status, 'connected');
  assert.is((await call('PUT', '/connectors/http:c1/enable/false')).status, 204);
  const off = (await call('GET', '/connectors/http:c1')).json;
  assert.equal([off.enable, off.status], [false, 'stopped']);
  const refused = await call('POST', '/connectors/http:c1/start');
  assert.equal([refused.status, refused.json.code, refused.json.message], [400, 'BAD_REQUEST', 'Forbidden operation, connector not enabled']);
  assert.is((await call('PUT', '/connectors/http:c1/enable/true')).status, 204);
  assert.is((await call('GET', '/connectors/http:c1')).json.status, 'connected');
  assert.is((await call('POST', '/connectors/http:c1/start')).status, 204);
  assert.is((await call('POST', `/nodes/${sim.app.store.cluster.self}/connectors/http:c1/start`)).status, 204);
  assert.is((await call('POST', '/nodes/nobody@nowhere/connectors/http:c1/start')).status, 404);
  assert.is((await call('POST', '/connectors/http:c1/restart')).status, 400);
  assert.is((await call('PUT', '/connectors/http:nope/enable/true')).status, 404);

  assert.is((await call('DELETE', '/connectors/http:c1')).status, 204);
  assert.is((await call('GET', '/connectors/http:c1')).status, 404);
  assert.is((await call('DELETE', '/connectors/http:c1')).status, 404);
});

test('every other type gets its status from a TCP probe of its server(s); the probe endpoint says TEST_FAILED', async () => {
  const db = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => db.listen(0, '127.0.0.1', resolve));
  const dbPort = (db.address() as AddressInfo).port;
  try {
    await call('POST', '/connectors', { type: 'mysql', name: 'up', server: `127.0.0.1:${dbPort}`, database: 'mqtt', username: 'root', password: 'pw' });
    await call('POST', '/connectors', { type: 'mysql', name: 'down', server: `127.0.0.1:${closedPort}`, database: 'mqtt', username: 'root' });
    await call('POST', '/connectors', { type: 'kafka_producer', name: 'k', bootstrap_hosts: `127.0.0.1:${closedPort},127.0.0.1:${dbPort}` });
    const byName = Object.fromEntries((await call('GET', '/connectors')).json.map((c: { name: string }) => [c.name, c]));
    assert.is(byName.up.status, 'connected');
    assert.is(byName.down.status, 'disconnected');
    assert.match(byName.down.status_reason, 'ECONNREFUSED');
    assert.is(byName.k.status, 'connected', 'one reachable bootstrap host is enough');
    assert.is(byName.up.password, '******');

    const ok = await call('POST', '/connectors_probe', { type: 'mysql', name: 'p', server: `127.0.0.1:${dbPort}`, database: 'mqtt', username: 'root' });
    assert.is(ok.status, 204);
    const failed = await call('POST', '/connectors_probe', { type: 'mysql', name: 'p', server: `127.0.0.1:${closedPort}`, database: 'mqtt', username: 'root' });
    assert.equal([failed.status, failed.json.code], [400, 'TEST_FAILED']);
    assert.match(failed.json.message, 'ECONNREFUSED');
    const httpFailed = await call('POST', '/connectors_probe', { type: 'http', name: 'p', url: `http://127.0.0.1:${closedPort}` });
    assert.equal([httpFailed.status, httpFailed.json.code], [400, 'TEST_FAILED']);
    assert.is((await call('POST', '/connectors_probe', { type: 'http', name: 'p', url: `http://127.0.0.1:${targetPort}` })).status, 204);
    assert.equal((await call('GET', '/connectors')).json.length, 3, 'a probe creates nothing');
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
});

test('secrets read as ****** and a PUT sending ****** keeps the stored value', async () => {
  await call('POST', '/connectors', {
    type: 'http', name: 'sec', url: `http://127.0.0.1:${targetPort}`, headers: { Authorization: 'Bearer abc', 'x-plain': 'seen' },
  });
  await call('POST', '/connectors', { type: 'mqtt', name: 'm', server: `127.0.0.1:${closedPort}`, username: 'u', password: 'p4ss' });
  const got = (await call('GET', '/connectors/http:sec')).json;
  assert.equal(got.headers, { Authorization: '******', 'x-plain': 'seen' });
  const mqtt = (await call('GET', '/connectors/mqtt:m')).json;
  assert.is(mqtt.password, '******');
  assert.is(mqtt.username, 'u');
  await call('PUT', '/connectors/mqtt:m', { ...mqtt, keepalive: '60s' });
  await call('PUT', '/connectors/http:sec', got);
  const stored = sim.app.store.state.connectors!;
  assert.is(stored.find((c) => c.name === 'm')!.config.password, 'p4ss');
  assert.is(stored.find((c) => c.name === 'm')!.config.keepalive, '60s');
  assert.equal((stored.find((c) => c.name === 'sec')!.config.headers as Record<string, string>).Authorization, 'Bearer abc');
  await call('PUT', '/connectors/mqtt:m', { ...mqtt, password: 'new' });
  assert.is(sim.app.store.state.connectors!.find((c) => c.name === 'm')!.config.password, 'new');
});

test('a connector used by actions cannot be deleted; the answer names them', async () => {
  await call('POST', '/connectors', { type: 'http', name: 'used', url: `http://127.0.0.1:${targetPort}` });
  await call('POST', '/actions', { type: 'http', name: 'a1', connector: 'used', parameters: {} });
  assert.equal((await call('GET', '/connectors/http:used')).json.actions, ['a1']);
  const refused = await call('DELETE', '/connectors/http:used');
  assert.equal([refused.status, refused.json.code], [400, 'BAD_REQUEST']);
  assert.match(refused.json.message, 'Cannot delete connector while there are active channels defined for this connector');
  assert.match(refused.json.message, 'action:http:a1');
  assert.equal(refused.json.actions, ['a1']);
  assert.is((await call('DELETE', '/actions/http:a1')).status, 204);
  assert.is((await call('DELETE', '/connectors/http:used')).status, 204);
});

test.run();
