// Gateways (emqx-api-part1 §19): load/update/enable, listeners with real sockets (MQTT-SN UDP
// answers SEARCHGW with GWINFO; disabling frees the port; a busy port is a 400), gateway
// authentication and users, fixture clients with consistent paging and kick.
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

async function freeUdpPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const { port } = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function bindUdp(port: number): Promise<dgram.Socket> {
  const s = dgram.createSocket('udp4');
  return new Promise((resolve, reject) => {
    s.once('error', (err) => {
      s.close();
      reject(err);
    });
    s.bind(port, '127.0.0.1', () => resolve(s));
  });
}

function searchGw(port: number): Promise<Buffer> {
  const s = dgram.createSocket('udp4');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      s.close();
      reject(new Error('no GWINFO within 2 s'));
    }, 2000);
    s.once('message', (msg) => {
      clearTimeout(timer);
      s.close();
      resolve(msg);
    });
    s.send(Buffer.from([0x03, 0x01, 0x00]), port, '127.0.0.1');
  });
}

async function setup() {
  const app = await buildTestApp();
  const token = await login(app);
  return { app, token };
}

async function loadMqttsn(app: FastifyInstance, token: string, port: number, extra: Record<string, unknown> = {}) {
  return api(app, 'PUT', '/api/v5/gateways/mqttsn', {
    token,
    body: { name: 'mqttsn', enable: true, gateway_id: 7, listeners: [{ type: 'udp', name: 'default', bind: `127.0.0.1:${port}` }], ...extra },
  });
}

test('the five gateways start unloaded; GET /gateways filters by status', async () => {
  const { app, token } = await setup();
  const all = (await api(app, 'GET', '/api/v5/gateways', { token })).json();
  assert.equal(all, ['stomp', 'mqttsn', 'coap', 'lwm2m', 'exproto'].map((name) => ({ name, status: 'unloaded' })));
  assert.equal((await api(app, 'GET', '/api/v5/gateways?status=running', { token })).json(), []);
  assert.is((await api(app, 'GET', '/api/v5/gateways?status=bogus', { token })).json().code, 'BAD_REQUEST');
  assert.equal((await api(app, 'GET', '/api/v5/gateways/coap', { token })).json(), { name: 'coap', status: 'unloaded' });
  const notLoaded = await api(app, 'GET', '/api/v5/gateways/coap/listeners', { token });
  assert.equal([notLoaded.statusCode, notLoaded.json()], [404, { code: 'RESOURCE_NOT_FOUND', message: 'Gateway not loaded' }]);
  await app.close();
});

test('enabling MQTT-SN with a UDP listener answers SEARCHGW with GWINFO; disabling frees the port', async () => {
  const { app, token } = await setup();
  const port = await freeUdpPort();
  const res = await loadMqttsn(app, token, port);
  assert.is(res.statusCode, 204);
  assert.equal([...(await searchGw(port))], [0x03, 0x02, 7]);
  const detail = (await api(app, 'GET', '/api/v5/gateways/mqttsn', { token })).json();
  assert.is(detail.status, 'running');
  assert.is(detail.gateway_id, 7);
  assert.is(detail.enable_qos3, true);
  assert.equal(detail.listeners.map((l: any) => [l.id, l.type, l.name, l.running, l.bind]), [['mqttsn:udp:default', 'udp', 'default', true, `127.0.0.1:${port}`]]);
  // The port is taken while the gateway runs.
  await bindUdp(port).then((s) => { s.close(); throw new Error('port was free'); }, () => undefined);

  assert.is((await api(app, 'PUT', '/api/v5/gateways/mqttsn/enable/false', { token })).statusCode, 204);
  const free = await bindUdp(port);
  await new Promise<void>((r) => free.close(() => r()));
  const overview = (await api(app, 'GET', '/api/v5/gateways?status=stopped', { token })).json();
  assert.is(overview[0].name, 'mqttsn');
  assert.is(overview[0].listeners[0].running, false);
  assert.ok(overview[0].stopped_at);

  await api(app, 'PUT', '/api/v5/gateways/mqttsn/enable/true', { token });
  assert.equal([...(await searchGw(port))], [0x03, 0x02, 7]);
  await app.close();
  // Closing the app closes the socket.
  const after = await bindUdp(port);
  await new Promise<void>((r) => after.close(() => r()));
});

test('a busy port is a 400 with the reason and nothing is loaded', async () => {
  const { app, token } = await setup();
  const port = await freeUdpPort();
  const squatter = await bindUdp(port);
  try {
    const res = await loadMqttsn(app, token, port);
    assert.is(res.statusCode, 400);
    assert.is(res.json().code, 'BAD_REQUEST');
    assert.match(res.json().message, /EADDRINUSE/);
    assert.equal((await api(app, 'GET', '/api/v5/gateways/mqttsn', { token })).json(), { name: 'mqttsn', status: 'unloaded' });
  } finally {
    await new Promise<void>((r) => squatter.close(() => r()));
  }
  await app.close();
});

test('listeners CRUD: kinds per gateway, TCP listeners accept connections, delete frees the port', async () => {
  const { app, token } = await setup();
  assert.is((await api(app, 'PUT', '/api/v5/gateways/stomp', { token, body: { enable: true, frame: { max_headers: 20 } } })).statusCode, 204);
  const bad = await api(app, 'POST', '/api/v5/gateways/stomp/listeners', { token, body: { type: 'udp', name: 'u', bind: '0' } });
  assert.is(bad.statusCode, 400);
  assert.match(bad.json().message, /listener type udp is not supported by stomp/);
  assert.match((await api(app, 'POST', '/api/v5/gateways/stomp/listeners', { token, body: { type: 'tcp', name: 'x' } })).json().message, /bind is required/);
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));

  const created = await api(app, 'POST', '/api/v5/gateways/stomp/listeners', { token, body: { type: 'tcp', name: 'default', bind: `127.0.0.1:${port}`, max_connections: 100 } });
  assert.is(created.statusCode, 201);
  assert.is(created.json().id, 'stomp:tcp:default');
  assert.is(created.json().running, true);
  assert.is(created.json().acceptors, 16);
  const dup = await api(app, 'POST', '/api/v5/gateways/stomp/listeners', { token, body: { type: 'tcp', name: 'default', bind: '61699' } });
  assert.equal(dup.json(), { code: 'BAD_REQUEST', message: 'Listener name has occupied' });

  const conn = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => conn.once('connect', () => resolve()).once('error', reject));
  const list = (await api(app, 'GET', '/api/v5/gateways/stomp/listeners', { token })).json();
  assert.is(list[0].status.running, true);
  assert.is(list[0].status.current_connections, 1);
  assert.is(list[0].node_status.length, 3);

  const updated = await api(app, 'PUT', '/api/v5/gateways/stomp/listeners/stomp%3Atcp%3Adefault', { token, body: { max_connections: 5 } });
  assert.is(updated.statusCode, 200);
  assert.is(updated.json().max_connections, 5);
  assert.is(updated.json().bind, `127.0.0.1:${port}`);
  assert.is((await api(app, 'GET', '/api/v5/gateways/stomp/listeners/stomp:tcp:default', { token })).json().max_connections, 5);
  assert.is((await api(app, 'GET', '/api/v5/gateways/stomp', { token })).json().frame.max_headers, 20);

  assert.is((await api(app, 'DELETE', '/api/v5/gateways/stomp/listeners/stomp:tcp:default', { token })).statusCode, 204);
  const missing = await api(app, 'GET', '/api/v5/gateways/stomp/listeners/stomp:tcp:default', { token });
  assert.equal([missing.statusCode, missing.json()], [404, { code: 'RESOURCE_NOT_FOUND', message: 'Listener not found' }]);
  const again = net.createServer();
  await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await new Promise<void>((r) => again.close(() => r()));
  conn.destroy();
  await app.close();
});

test('gateway authentication: 204 when none, create, users with paging, delete', async () => {
  const { app, token } = await setup();
  await api(app, 'PUT', '/api/v5/gateways/coap', { token, body: { enable: false } });
  const none = await api(app, 'GET', '/api/v5/gateways/coap/authentication', { token });
  assert.equal([none.statusCode, none.body], [204, '']);
  const created = await api(app, 'POST', '/api/v5/gateways/coap/authentication', {
    token, body: { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'clientid', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } },
  });
  assert.is(created.statusCode, 201);
  assert.is((await api(app, 'GET', '/api/v5/gateways/coap/authentication', { token })).json().backend, 'built_in_database');
  for (const id of ['u1', 'u2', 'admin1']) {
    const res = await api(app, 'POST', '/api/v5/gateways/coap/authentication/users', { token, body: { user_id: id, password: 'pw', is_superuser: id === 'admin1' } });
    assert.equal([res.statusCode, res.json()], [201, { user_id: id, is_superuser: id === 'admin1' }]);
  }
  assert.is((await api(app, 'POST', '/api/v5/gateways/coap/authentication/users', { token, body: { user_id: 'u1', password: 'x' } })).statusCode, 409);
  const page = (await api(app, 'GET', '/api/v5/gateways/coap/authentication/users?page=1&limit=2', { token })).json();
  assert.equal(page.meta, { page: 1, limit: 2, hasnext: true, count: 3 });
  const fuzzy = (await api(app, 'GET', '/api/v5/gateways/coap/authentication/users?like_user_id=u', { token })).json();
  assert.equal(fuzzy.data.map((u: any) => u.user_id), ['u1', 'u2']);
  assert.is(fuzzy.meta.count, undefined);
  assert.is((await api(app, 'PUT', '/api/v5/gateways/coap/authentication/users/u1', { token, body: { is_superuser: true } })).json().is_superuser, true);
  assert.is((await api(app, 'DELETE', '/api/v5/gateways/coap/authentication/users/u2', { token })).statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/gateways/coap/authentication/users/u2', { token })).statusCode, 404);
  assert.is((await api(app, 'DELETE', '/api/v5/gateways/coap/authentication', { token })).statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/gateways/coap/authentication', { token })).statusCode, 204);
  await app.close();
});

test('listener-level authentication and users live with the listener', async () => {
  const { app, token } = await setup();
  const port = await freeUdpPort();
  await api(app, 'PUT', '/api/v5/gateways/coap', { token, body: { enable: true, listeners: [{ type: 'udp', name: 'default', bind: `127.0.0.1:${port}` }] } });
  const base = '/api/v5/gateways/coap/listeners/coap:udp:default/authentication';
  assert.is((await api(app, 'GET', base, { token })).statusCode, 204);
  assert.is((await api(app, 'POST', base, { token, body: { mechanism: 'password_based', backend: 'built_in_database' } })).statusCode, 201);
  assert.is((await api(app, 'GET', '/api/v5/gateways/coap/authentication', { token })).statusCode, 204);
  assert.is((await api(app, 'POST', `${base}/users`, { token, body: { user_id: 'dev1', password: 'pw' } })).statusCode, 201);
  assert.equal((await api(app, 'GET', `${base}/users`, { token })).json().data, [{ user_id: 'dev1', is_superuser: false }]);
  assert.is((await api(app, 'GET', `${base}/users/dev1`, { token })).json().user_id, 'dev1');
  assert.is((await api(app, 'PUT', base, { token, body: { enable: false } })).json().enable, false);
  assert.is((await api(app, 'DELETE', `${base}/users/dev1`, { token })).statusCode, 204);
  assert.is((await api(app, 'DELETE', base, { token })).statusCode, 204);
  assert.is((await api(app, 'GET', base, { token })).statusCode, 204);
  await app.close();
});

test('clients come from fixtures with consistent paging, LwM2M fields, kick, and none while stopped', async () => {
  const { app, token } = await setup();
  await api(app, 'PUT', '/api/v5/gateways/lwm2m', { token, body: { enable: true, xml_dir: 'etc/lwm2m_xml' } });
  const seen: string[] = [];
  let page = 1;
  let meta: any;
  do {
    const res = (await api(app, 'GET', `/api/v5/gateways/lwm2m/clients?page=${page}&limit=7`, { token })).json();
    meta = res.meta;
    seen.push(...res.data.map((c: any) => c.clientid));
    page++;
  } while (meta.hasnext);
  assert.is(meta.count, 30);
  assert.is(new Set(seen).size, 30);
  const one = (await api(app, 'GET', '/api/v5/gateways/lwm2m/clients?limit=1', { token })).json().data[0];
  for (const key of ['endpoint_name', 'lifetime', 'ip_address', 'connected_at', 'node', 'proto_name']) assert.ok(one[key] !== undefined, key);
  const like = (await api(app, 'GET', '/api/v5/gateways/lwm2m/clients?like_endpoint_name=0000000001', { token })).json();
  assert.ok(like.data.length >= 1);
  assert.is(like.meta.count, undefined);
  const lifetime = (await api(app, 'GET', '/api/v5/gateways/lwm2m/clients?gte_lifetime=3600', { token })).json();
  assert.ok(lifetime.data.every((c: any) => c.lifetime >= 3600));

  const id = encodeURIComponent(one.clientid);
  assert.is((await api(app, 'GET', `/api/v5/gateways/lwm2m/clients/${id}`, { token })).json().clientid, one.clientid);
  assert.is((await api(app, 'DELETE', `/api/v5/gateways/lwm2m/clients/${id}`, { token })).statusCode, 204);
  const gone = await api(app, 'GET', `/api/v5/gateways/lwm2m/clients/${id}`, { token });
  assert.equal([gone.statusCode, gone.json()], [404, { code: 'RESOURCE_NOT_FOUND', message: 'Client not found' }]);
  assert.is((await api(app, 'GET', '/api/v5/gateways/lwm2m/clients', { token })).json().meta.count, 29);
  assert.is((await api(app, 'GET', '/api/v5/gateways', { token })).json().find((g: any) => g.name === 'lwm2m').current_connections, 29);

  const other = encodeURIComponent(seen.find((c) => c !== one.clientid)!);
  const lookup = await api(app, 'GET', `/api/v5/gateways/lwm2m/clients/${other}/lookup?path=/3/0/7&action=discover`, { token });
  assert.equal([lookup.statusCode, lookup.json().code, lookup.json().codeMsg], [200, '6.01', 'reply_not_received']);
  assert.is((await api(app, 'POST', `/api/v5/gateways/lwm2m/clients/${other}/observe?path=/3/0/7&enable=true`, { token })).statusCode, 204);
  assert.is((await api(app, 'POST', `/api/v5/gateways/lwm2m/clients/${id}/read?path=/3/0/7`, { token })).json().code, 'CLIENT_NOT_FOUND');

  await api(app, 'PUT', '/api/v5/gateways/lwm2m/enable/false', { token });
  assert.equal((await api(app, 'GET', '/api/v5/gateways/lwm2m/clients', { token })).json().data, []);
  await app.close();
});

test('a loaded gateway persists and binds again after a restart; importing a backup re-binds', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-gw-'));
  try {
    const port = await freeUdpPort();
    const first = await buildTestApp({ dataDir });
    const t1 = await login(first);
    await loadMqttsn(first, t1, port);
    const { filename } = (await api(first, 'POST', '/api/v5/data/export', { token: t1, body: {} })).json();
    await first.close();

    const second = await buildTestApp({ dataDir });
    const t2 = await login(second);
    assert.is((await api(second, 'GET', '/api/v5/gateways/mqttsn', { token: t2 })).json().status, 'running');
    assert.equal([...(await searchGw(port))], [0x03, 0x02, 7]);
    await api(second, 'PUT', '/api/v5/gateways/mqttsn/enable/false', { token: t2 });
    const free = await bindUdp(port);
    await new Promise<void>((r) => free.close(() => r()));
    assert.is((await api(second, 'POST', '/api/v5/data/import', { token: t2, body: { filename } })).statusCode, 204);
    assert.is((await api(second, 'GET', '/api/v5/gateways/mqttsn', { token: t2 })).json().status, 'running');
    assert.equal([...(await searchGw(port))], [0x03, 0x02, 7]);
    await second.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
