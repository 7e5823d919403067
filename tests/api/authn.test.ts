// Authentication against real MQTT clients (issue 4, acceptance 1, 4 and 5): the chain API with
// its status codes, built-in users with every hash algorithm deciding real CONNECTs (CONNACK 4 for
// a wrong password, 5 when nobody knows the client), nomatch passing to the next authenticator,
// http and jwt authenticators, per-authenticator metrics, round trips of every kind with secrets
// kept as `******`, TCP-probed status of database backends, and CSV/JSON user import.
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildMultipart } from '../helpers/multipart.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, buildTestApp, connectMqtt, endMqtt, login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

test.before(async () => {
  // The chain order endpoint, 5.8 authenticator fields and import counts (store/profile.ts).
  sim = await startSimulator({ nodes: 2, app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  for (const a of (await get('/api/v5/authentication')).json) await del(`/api/v5/authentication/${encodeURIComponent(a.id)}`);
  for (const s of (await get('/api/v5/authorization/sources')).json.sources) {
    if (s.type !== 'file') await del(`/api/v5/authorization/sources/${s.type}`);
  }
});

test.after(async () => {
  await sim.close();
});

const get = (path: string) => request(sim.baseUrl, 'GET', path, { token });
const del = (path: string) => request(sim.baseUrl, 'DELETE', path, { token });
const post = (path: string, body: unknown) => request(sim.baseUrl, 'POST', path, { token, body });
const put = (path: string, body?: unknown) => request(sim.baseUrl, 'PUT', path, { token, body });
const BUILT_IN = 'password_based:built_in_database';
const USERS = `/api/v5/authentication/${encodeURIComponent(BUILT_IN)}/users`;

async function connect(clientId: string, username?: string, password?: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, username, password });
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** The CONNACK return code a CONNECT gets: 0 when accepted. */
async function connackCode(clientId: string, username?: string, password?: string): Promise<number> {
  try {
    await connect(clientId, username, password);
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

/** The QoS the SUBACK grants (128 = refused; mqtt.js reports that as an error with the packet). */
function grant(c: MqttClient, topic: string): Promise<number> {
  return new Promise((resolve) => c.subscribe(topic, { qos: 1 }, (err, granted) => {
    const refused = (err as { packet?: { granted?: number[] } } | null)?.packet?.granted?.[0];
    resolve(refused ?? granted?.[0]?.qos ?? -1);
  }));
}

async function builtIn(config: Record<string, unknown> = {}) {
  const res = await post('/api/v5/authentication', { mechanism: 'password_based', backend: 'built_in_database', ...config });
  assert.is(res.status, 200, res.text);
  return res.json;
}

test('acceptance 1: built-in users decide CONNECT, a deny rule refuses SUBSCRIBE and drops PUBLISH, superusers pass, metrics count', async () => {
  const created = await builtIn();
  assert.is(created.id, BUILT_IN);
  assert.equal(created.password_hash_algorithm, { name: 'sha256', salt_position: 'suffix' });
  assert.is((await post(USERS, { user_id: 'alice', password: 'secret-1' })).status, 201);
  assert.equal((await post(USERS, { user_id: 'root', password: 'root-pw', is_superuser: true })).json, { user_id: 'root', is_superuser: true });

  assert.is(await connackCode('c-wrong', 'alice', 'nope'), 4);
  assert.is(await connackCode('c-unknown', 'mallory', 'x'), 5);
  const alice = await connect('c-alice', 'alice', 'secret-1');

  // A deny rule on t/secret for everybody, in a built-in authorization source at the front.
  assert.is((await post('/api/v5/authorization/sources', { type: 'built_in_database', enable: true })).status, 204);
  assert.is((await post('/api/v5/authorization/sources/built_in_database/rules/all', { rules: [{ permission: 'deny', action: 'all', topic: 't/secret' }] })).status, 204);
  assert.is(await grant(alice, 't/secret'), 128);
  assert.is(await grant(alice, 't/#'), 1);

  const publisher = await connect('c-pub', 'alice', 'secret-1');
  const received: string[] = [];
  alice.on('message', (topic) => received.push(topic));
  await new Promise<void>((resolve) => publisher.publish('t/secret', 'hidden', { qos: 1 }, () => resolve()));
  await new Promise<void>((resolve) => publisher.publish('t/open', 'visible', { qos: 1 }, () => resolve()));
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(received, ['t/open']);
  assert.ok(publisher.connected, 'deny_action ignore keeps the publisher connected');

  const root = await connect('c-root', 'root', 'root-pw');
  assert.is(await grant(root, 't/secret'), 1);

  const status = (await get(`/api/v5/authentication/${encodeURIComponent(BUILT_IN)}/status`)).json;
  assert.is(status.status, 'connected');
  assert.is(status.node_status.length, 2);
  assert.is(status.metrics.total, 5);
  assert.is(status.metrics.success, 3);
  assert.is(status.metrics.failed, 1);
  assert.is(status.metrics.nomatch, 1);
  assert.ok(status.metrics.rate > 0);
  assert.equal(Object.keys(status.metrics).sort(), ['failed', 'nomatch', 'rate', 'rate_last5m', 'rate_max', 'success', 'total']);
  // This node counted the decisions; the other node served none of these clients.
  assert.equal(status.node_metrics.map((n: { metrics: { total: number } }) => n.metrics.total), [5, 0]);

  const authz = (await get('/api/v5/authorization/sources/built_in_database/status')).json;
  assert.is(authz.metrics.deny, 2);
  assert.ok(authz.metrics.nomatch >= 2);
});

test('every hash algorithm and salt position, and user_id_type clientid, decide real CONNECTs', async () => {
  const algorithms = [
    { name: 'plain', salt_position: 'disable' }, { name: 'md5', salt_position: 'prefix' }, { name: 'sha', salt_position: 'suffix' },
    { name: 'sha256', salt_position: 'disable' }, { name: 'sha512', salt_position: 'prefix' },
    { name: 'pbkdf2', mac_fun: 'sha256', iterations: 10, dk_length: 32 }, { name: 'bcrypt', salt_rounds: 5 },
  ];
  for (const [i, algorithm] of algorithms.entries()) {
    const created = await builtIn({ password_hash_algorithm: algorithm, user_id_type: i % 2 ? 'clientid' : 'username' });
    assert.equal(created.password_hash_algorithm, algorithm);
    assert.is((await post(USERS, { user_id: 'dev-1', password: `pw-${algorithm.name}` })).status, 201);
    const [id, user] = i % 2 ? ['dev-1', 'whoever'] : [`c-${i}`, 'dev-1'];
    assert.is(await connackCode(id, user, `pw-${algorithm.name}`), 0, algorithm.name);
    assert.is(await connackCode(id, user, 'bad'), 4, algorithm.name);
    await Promise.all(open.map((c) => endMqtt(c)));
    open = [];
    assert.is((await del(`/api/v5/authentication/${encodeURIComponent(BUILT_IN)}`)).status, 204);
  }
});

test('no authenticator allows anonymous clients; a nomatch passes to the next authenticator', async () => {
  assert.is(await connackCode('anon'), 0);
  // An http authenticator that ignores everybody but "ham", then the built-in database.
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(url.searchParams.get('u') === 'ham' ? { result: 'allow', is_superuser: true } : { result: 'ignore' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const httpAuth = await post('/api/v5/authentication', { mechanism: 'password_based', backend: 'http', method: 'get', url: `http://127.0.0.1:${port}/auth?u=\${username}&c=\${clientid}`, body: { p: '${password}' } });
  assert.is(httpAuth.status, 200, httpAuth.text);
  await builtIn();
  await post(USERS, { user_id: 'bob', password: 'pw' });
  assert.is(await connackCode('h1', 'ham', 'anything'), 0);
  assert.is(await connackCode('h2', 'bob', 'pw'), 0);
  assert.is(await connackCode('h3', 'bob', 'bad'), 4);
  const httpStatus = (await get('/api/v5/authentication/password_based%3Ahttp/status')).json;
  assert.is(httpStatus.status, 'connected');
  assert.equal([httpStatus.metrics.total, httpStatus.metrics.success, httpStatus.metrics.nomatch], [3, 1, 2]);
  // The superuser flag from http skips authorization.
  const ham = open[open.length - 2];
  await post('/api/v5/authorization/sources', { type: 'built_in_database' });
  await post('/api/v5/authorization/sources/built_in_database/rules/all', { rules: [{ permission: 'deny', action: 'subscribe', topic: '#' }] });
  assert.is(await grant(ham, 'x/y'), 1);
  assert.is(await grant(open[open.length - 1], 'x/y'), 128);
  server.close();
});

function jwt(header: object, payload: object, signer: (input: string) => Buffer): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc(header)}.${enc(payload)}`;
  return `${input}.${signer(input).toString('base64url')}`;
}

test('jwt: HMAC (Base64 secret), public key and JWKS, verify_claims, expiry and the acl claim', async () => {
  const secret = Buffer.from('top-secret-key');
  const hmac = (input: string) => createHmac('sha256', secret).update(input).digest();
  const res = await post('/api/v5/authentication', { mechanism: 'jwt', algorithm: 'hmac-based', secret: secret.toString('base64'), secret_base64_encoded: true, verify_claims: { sub: '${clientid}' } });
  assert.is(res.status, 200, res.text);
  const now = Math.floor(Date.now() / 1000);
  const good = jwt({ alg: 'HS256', typ: 'JWT' }, { sub: 'j1', exp: now + 60, acl: { pub: ['j/out'], sub: ['j/in'] } }, hmac);
  assert.is(await connackCode('j1', 'any', good), 0);
  assert.is(await connackCode('j2', 'any', good), 4, 'verify_claims sub = ${clientid}');
  assert.is(await connackCode('j1', 'any', jwt({ alg: 'HS256' }, { sub: 'j1', exp: now - 5 }, hmac)), 4, 'expired');
  assert.is(await connackCode('j1', 'any', `${good.slice(0, -3)}abc`), 4, 'bad signature');
  // The acl claim is honoured before the sources; a deny-all built-in source shows it.
  await post('/api/v5/authorization/sources', { type: 'built_in_database' });
  await post('/api/v5/authorization/sources/built_in_database/rules/all', { rules: [{ permission: 'deny', action: 'all', topic: '#' }] });
  const c = await connect('j1', 'any', good);
  assert.is(await grant(c, 'j/in'), 1);
  assert.is(await grant(c, 'j/other'), 128);
  // disconnect_after_expire (default true): the connection ends when the token expires, not
  // before. The token is good for one to two seconds (whole seconds, as `exp` counts): one that
  // expired at the next second boundary could already be refused at a busy CONNECT.
  const exp = Math.floor(Date.now() / 1000) + 2;
  const short = await connect('j3', 'any', jwt({ alg: 'HS256' }, { sub: 'j3', exp }, hmac));
  await new Promise<void>((resolve) => short.once('close', () => resolve()));
  const closedAt = Date.now();
  assert.ok(closedAt >= exp * 1000 - 50, `closed ${exp * 1000 - closedAt} ms before the token expired`);
  assert.ok(closedAt <= exp * 1000 + 500, `closed ${closedAt - exp * 1000} ms after the token expired`);
  await del('/api/v5/authentication/jwt');

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rs = (input: string) => sign('sha256', Buffer.from(input), privateKey);
  assert.is((await post('/api/v5/authentication', { mechanism: 'jwt', algorithm: 'public-key', public_key: publicKey.export({ type: 'spki', format: 'pem' }), from: 'username' })).status, 200);
  assert.is(await connackCode('k1', jwt({ alg: 'RS256' }, { is_superuser: true }, rs), 'x'), 0);
  assert.is(await connackCode('k2', jwt({ alg: 'RS256' }, {}, hmac), 'x'), 4);
  await del('/api/v5/authentication/jwt');

  const jwks = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] }));
  });
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  assert.is((await post('/api/v5/authentication', { mechanism: 'jwt', use_jwks: true, endpoint })).status, 200);
  assert.is(await connackCode('w1', 'u', jwt({ alg: 'RS256', kid: 'k1' }, {}, rs)), 0);
  assert.is(await connackCode('w2', 'u', jwt({ alg: 'HS256', kid: 'k1' }, {}, hmac)), 4);
  assert.is((await get('/api/v5/authentication/jwt/status')).json.status, 'connected');
  jwks.close();
});

test('jwt: a token cannot pick its algorithm family, skip the signature or arrive early', async () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
  assert.is((await post('/api/v5/authentication', { mechanism: 'jwt', algorithm: 'public-key', public_key: pem })).status, 200);
  const now = Math.floor(Date.now() / 1000);
  const rs = (input: string) => sign('sha256', Buffer.from(input), privateKey);
  // HS256 keyed with the public key's PEM text: the classic algorithm confusion.
  const confused = jwt({ alg: 'HS256' }, { sub: 'c1' }, (input) => createHmac('sha256', pem).update(input).digest());
  assert.is(await connackCode('c1', 'u', confused), 4, 'HS256 against a public key');
  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
  assert.is(await connackCode('c2', 'u', unsigned), 4, 'alg none');
  assert.is(await connackCode('c3', 'u', jwt({ alg: 'RS256' }, { nbf: now + 60 }, rs)), 4, 'not yet valid');
  assert.is(await connackCode('c4', 'u', jwt({ alg: 'RS256' }, { exp: 'tomorrow' }, rs)), 4, 'exp not a number');
  assert.is(await connackCode('c5', 'u', jwt({ alg: 'RS256' }, { nbf: now - 5, exp: now + 60 }, rs)), 0);
});

test('chain API: codes, errors, positions, order', async () => {
  await builtIn();
  const dup = await post('/api/v5/authentication', { mechanism: 'password_based', backend: 'built_in_database' });
  assert.equal([dup.status, dup.json], [409, { code: 'ALREADY_EXISTS', message: `Authenticator '${BUILT_IN}' already exist` }]);
  assert.is((await post('/api/v5/authentication', { backend: 'mysql' })).status, 400);
  assert.is((await post('/api/v5/authentication', { mechanism: 'jwt', algorithm: 'hmac-based', secret: 's' })).status, 200);
  assert.is((await post('/api/v5/authentication', { mechanism: 'scram', backend: 'built_in_database' })).status, 200);
  const ids = async () => (await get('/api/v5/authentication')).json.map((a: { id: string }) => a.id);
  assert.equal(await ids(), [BUILT_IN, 'jwt', 'scram:built_in_database']);
  assert.is((await put(`/api/v5/authentication/jwt/position/front`)).status, 204);
  assert.is((await put(`/api/v5/authentication/${BUILT_IN}/position/after:scram:built_in_database`)).status, 204);
  assert.equal(await ids(), ['jwt', 'scram:built_in_database', BUILT_IN]);
  assert.is((await put('/api/v5/authentication/jwt/position/sideways')).status, 400);
  assert.is((await put('/api/v5/authentication/order', [{ id: BUILT_IN }, { id: 'jwt' }])).status, 400);
  assert.is((await put('/api/v5/authentication/order', [{ id: BUILT_IN }, { id: 'jwt' }, { id: 'scram:built_in_database' }])).status, 204);
  assert.equal(await ids(), [BUILT_IN, 'jwt', 'scram:built_in_database']);
  const missing = await get('/api/v5/authentication/password_based%3Amysql');
  assert.equal([missing.status, missing.json.message], [404, "Authenticator 'password_based:mysql' does not exist"]);
  const change = await put('/api/v5/authentication/jwt', { mechanism: 'password_based', backend: 'built_in_database' });
  assert.equal([change.status, change.json.message], [400, 'Change of authentication type is not allowed']);
  assert.is((await get('/api/v5/authentication/jwt/users')).json.message, 'User error: unsupported_operation');
});

test('users: CRUD, paging, fuzzy search without count, superuser filter', async () => {
  await builtIn();
  for (let i = 0; i < 25; i++) await post(USERS, { user_id: `user-${String(i).padStart(2, '0')}`, password: 'p', is_superuser: i % 5 === 0 });
  const page = (await get(`${USERS}?page=2&limit=10`)).json;
  assert.equal(page.meta, { page: 2, limit: 10, hasnext: true, count: 25 });
  assert.is(page.data[0].user_id, 'user-10');
  assert.equal(Object.keys(page.data[0]).sort(), ['is_superuser', 'user_id']);
  const fuzzy = (await get(`${USERS}?like_user_id=er-1`)).json;
  assert.is(fuzzy.data.length, 10);
  assert.equal(fuzzy.meta, { page: 1, limit: 100, hasnext: false });
  assert.is((await get(`${USERS}?is_superuser=true`)).json.data.length, 5);
  assert.is((await post(USERS, { user_id: 'user-00', password: 'p' })).status, 409);
  assert.equal((await post(USERS, { user_id: 'x' })).json.message, 'Missing required parameter: password');
  assert.equal((await put(`${USERS}/user-01`, { is_superuser: true })).json, { user_id: 'user-01', is_superuser: true });
  assert.is((await put(`${USERS}/user-01`, { password: 'new' })).status, 200);
  assert.is(await connackCode('u1', 'user-01', 'new'), 0);
  assert.is((await del(`${USERS}/user-01`)).status, 204);
  assert.is((await get(`${USERS}/user-01`)).status, 404);
  assert.is((await del(`${USERS}/user-01`)).status, 404);
});

// Every kind with what an operator enters, and an edit of one field.
const KINDS: { config: Record<string, unknown>; edit: Record<string, unknown> }[] = [
  { config: { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'clientid', password_hash_algorithm: { name: 'pbkdf2', mac_fun: 'sha512', iterations: 100, dk_length: 64 } }, edit: { user_id_type: 'username' } },
  { config: { mechanism: 'password_based', backend: 'mysql', server: '127.0.0.1:3306', database: 'mqtt', username: 'root', password: 'db-pw', query: 'SELECT password_hash, salt FROM mqtt_user WHERE username = ${username} LIMIT 1', password_hash_algorithm: { name: 'bcrypt' }, ssl: { enable: false } }, edit: { pool_size: 4 } },
  { config: { mechanism: 'password_based', backend: 'postgresql', server: '127.0.0.1:5432', database: 'mqtt', username: 'pg', password: 'pg-pw', query: 'SELECT 1', disable_prepared_statements: true }, edit: { database: 'other' } },
  { config: { mechanism: 'password_based', backend: 'mongodb', mongo_type: 'rs', servers: '10.0.0.1:27017,10.0.0.2:27017', replica_set_name: 'rs0', database: 'mqtt', collection: 'users', filter: { username: '${username}' }, password: 'm-pw' }, edit: { collection: 'people' } },
  { config: { mechanism: 'password_based', backend: 'mongodb', mongo_type: 'single', server: '127.0.0.1', database: 'mqtt', collection: 'users' }, edit: { w_mode: 'safe' } },
  { config: { mechanism: 'password_based', backend: 'redis', redis_type: 'sentinel', servers: '127.0.0.1:26379', sentinel: 'mymaster', cmd: 'HMGET mqtt_user:${username} password_hash salt', password: 'r-pw' }, edit: { database: 2 } },
  { config: { mechanism: 'password_based', backend: 'redis', redis_type: 'cluster', servers: '127.0.0.1:7000,127.0.0.1:7001', cmd: 'HMGET a b' }, edit: { pool_size: 2 } },
  { config: { mechanism: 'password_based', backend: 'http', method: 'post', url: 'http://127.0.0.1:9/auth', headers: { 'content-type': 'application/json', authorization: 'Bearer abc' }, body: { username: '${username}', password: '${password}' } }, edit: { request_timeout: '9s' } },
  { config: { mechanism: 'password_based', backend: 'ldap', server: '127.0.0.1:389', base_dn: 'uid=${username},ou=testdevice,dc=emqx,dc=io', password: 'l-pw', method: { type: 'bind', bind_password: '${password}' } }, edit: { filter: '(objectClass=device)' } },
  { config: { mechanism: 'password_based', backend: 'ldap', server: '127.0.0.1', base_dn: 'ou=testdevice,dc=emqx,dc=io', method: { type: 'hash', password_attribute: 'pw' } }, edit: { query_timeout: '6s' } },
  { config: { mechanism: 'password_based', backend: 'http', method: 'get', url: 'http://127.0.0.1:9/auth?u=${username}' }, edit: { connect_timeout: '3s' } },
  { config: { mechanism: 'jwt', algorithm: 'public-key', public_key: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----', from: 'password' }, edit: { disconnect_after_expire: false } },
  { config: { mechanism: 'jwt', algorithm: 'hmac-based', secret: 'jwt-secret', secret_base64_encoded: false, from: 'username', verify_claims: { sub: '${clientid}' } }, edit: { acl_claim_name: 'perm' } },
  { config: { mechanism: 'jwt', use_jwks: true, endpoint: 'https://127.0.0.1:9/jwks', refresh_interval: 60, ssl: { enable: true } }, edit: { refresh_interval: 120 } },
  { config: { mechanism: 'scram', backend: 'built_in_database', algorithm: 'sha512', iteration_count: 8192 }, edit: { iteration_count: 4096 } },
];

function contains(actual: Record<string, any>, expected: Record<string, any>, where: string): void {
  for (const [k, v] of Object.entries(expected)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) contains(actual[k] ?? {}, v, `${where}.${k}`);
    else assert.equal(actual[k], v, `${where}.${k}`);
  }
}

const SECRET_KEYS = ['password', 'secret'];
function redacted(config: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(config)) {
    if (SECRET_KEYS.includes(k) && typeof v === 'string' && !v.startsWith('${')) out[k] = '******';
    else if (k === 'headers') out[k] = { ...v, authorization: '******' };
    else if (k === 'method' && typeof v === 'object') out[k] = { ...v };
    else out[k] = v;
  }
  return out;
}

test('acceptance 4: every authenticator kind round-trips create → read → edit → read, secrets kept as ******', async () => {
  for (const { config, edit } of KINDS) {
    const created = await post('/api/v5/authentication', config);
    assert.is(created.status, 200, `${JSON.stringify(config)} → ${created.text}`);
    const id = created.json.id as string;
    // POST echoes the config unredacted.
    contains(created.json, config, `${id} POST`);
    const read = (await get(`/api/v5/authentication/${encodeURIComponent(id)}`)).json;
    contains(read, redacted(config), `${id} GET`);
    const { id: _drop, ...body } = read;
    assert.is((await put(`/api/v5/authentication/${encodeURIComponent(id)}`, { ...body, ...edit })).status, 204);
    const again = (await get(`/api/v5/authentication/${encodeURIComponent(id)}`)).json;
    assert.equal(again, { ...read, ...edit }, id);
    // The stored secrets are the entered ones, not the asterisks: the list shows ****** and the
    // config as stored in the chain still equals what was entered.
    const stored = sim.app.store.authn.enabledChain().find((a) => a.id === id) as Record<string, any>;
    contains(stored, { ...config, ...edit }, `${id} stored`);
    assert.is((await del(`/api/v5/authentication/${encodeURIComponent(id)}`)).status, 204);
  }
});

test('database backends report a real TCP probe: disconnected with a reason, connected when a server listens', async () => {
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await post('/api/v5/authentication', { mechanism: 'password_based', backend: 'mysql', server: `127.0.0.1:${deadPort}`, database: 'd', query: 'q' });
  const down = (await get('/api/v5/authentication/password_based%3Amysql/status')).json;
  assert.is(down.status, 'disconnected');
  assert.match(down.status_reason, /ECONNREFUSED/);
  assert.equal(down.node_status.map((n: { status: string }) => n.status), ['disconnected', 'disconnected']);

  const listening = net.createServer((s) => s.end());
  await new Promise<void>((r) => listening.listen(0, '127.0.0.1', r));
  const body = (await get('/api/v5/authentication/password_based%3Amysql')).json;
  delete body.id;
  await put('/api/v5/authentication/password_based%3Amysql', { ...body, server: `127.0.0.1:${(listening.address() as AddressInfo).port}` });
  const up = (await get('/api/v5/authentication/password_based%3Amysql/status')).json;
  assert.is(up.status, 'connected');
  assert.ok(up.resource_metrics && 'matched' in up.resource_metrics);
  listening.close();
  // A mysql backend that cannot be queried passes clients on: nomatch, then not authorized.
  assert.is(await connackCode('m1', 'u', 'p'), 5);
  assert.is((await get('/api/v5/authentication/password_based%3Amysql/status')).json.metrics.nomatch, 1);
});

function multipart(name: string, text: string) {
  return buildMultipart({ filename: { filename: name, data: Buffer.from(text), contentType: 'text/csv' } });
}

async function upload(name: string, text: string, type = 'plain') {
  const { body, contentType } = multipart(name, text);
  return sim.app.inject({
    method: 'POST', url: `/api/v5/authentication/${encodeURIComponent(BUILT_IN)}/import_users?type=${type}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload: body,
  });
}

test('acceptance 5: 10 000 users import from CSV in under 5 s with totals; a malformed file imports nothing', async () => {
  await builtIn();
  const lines = ['user_id,password,is_superuser'];
  for (let i = 0; i < 10_000; i++) lines.push(`bulk-${i},pw-${i},${i === 7 ? 'true' : 'false'}`);
  const started = Date.now();
  const res = await upload('users.csv', lines.join('\n'));
  const elapsed = Date.now() - started;
  assert.is(res.statusCode, 200, res.body);
  assert.equal(res.json(), { total: 10_000, success: 10_000, override: 0, skipped: 0, failed: 0 });
  assert.ok(elapsed < 5000, `took ${elapsed} ms`);
  assert.is((await get(`${USERS}?limit=1`)).json.meta.count, 10_000);
  assert.is(await connackCode('bulk', 'bulk-9999', 'pw-9999'), 0);
  assert.is((await get(`${USERS}?is_superuser=true`)).json.data[0].user_id, 'bulk-7');

  // Re-import: unchanged rows are skipped, changed ones overridden, new ones added.
  const again = await upload('again.csv', 'user_id,password,is_superuser\nbulk-1,pw-1,false\nbulk-2,changed,false\nfresh,pw,true\n');
  assert.equal(again.json(), { total: 3, success: 1, override: 1, skipped: 1, failed: 0 });

  const bad = await upload('bad.csv', 'user_id,password,is_superuser\nok-1,pw,false\nbroken-line\n');
  assert.is(bad.statusCode, 400);
  assert.is(bad.json().code, 'BAD_REQUEST');
  assert.match(bad.json().message, /line 3/);
  assert.is((await get(`${USERS}/ok-1`)).status, 404);
  assert.is((await upload('x.json', '{not json')).statusCode, 400);
  assert.is((await upload('x.txt', 'a')).statusCode, 400);

  // JSON files, hash type with salt.
  const json = await upload('u.json', JSON.stringify([{ user_id: 'h1', password_hash: 'c0ffee', salt: 's', is_superuser: true }]), 'hash');
  assert.equal(json.json(), { total: 1, success: 1, override: 0, skipped: 0, failed: 0 });
  assert.equal((await get(`${USERS}/h1`)).json, { user_id: 'h1', is_superuser: true });
});

test('authenticators, users, sources, rules, settings, bans and the zone config survive a restart', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'authn-persist-'));
  try {
    const first = await buildTestApp({ dataDir });
    const t1 = await login(first);
    const call = (app: typeof first, t: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => api(app, method, `/api/v5${url}`, { token: t, body });
    await call(first, t1, 'POST', '/authentication', { mechanism: 'password_based', backend: 'built_in_database' });
    await call(first, t1, 'POST', `/authentication/${BUILT_IN}/users`, { user_id: 'kept', password: 'pw', is_superuser: true });
    await call(first, t1, 'POST', '/authorization/sources', { type: 'built_in_database' });
    await call(first, t1, 'POST', '/authorization/sources/built_in_database/rules/all', { rules: [{ permission: 'deny', action: 'all', topic: 'k/#' }] });
    await call(first, t1, 'PUT', '/authorization/settings', { no_match: 'deny', deny_action: 'ignore', cache: { enable: false, max_size: 32, ttl: '1m', excludes: [] } });
    await call(first, t1, 'POST', '/banned', { as: 'clientid', who: 'kept-ban' });
    await call(first, t1, 'PUT', '/configs/global_zone', { flapping_detect: { enable: true } });
    await first.close();

    const second = await buildTestApp({ dataDir });
    const t2 = await login(second);
    assert.equal((await call(second, t2, 'GET', `/authentication/${BUILT_IN}/users/kept`)).json(), { user_id: 'kept', is_superuser: true });
    assert.equal(await second.store.authn.checkUser(second.store.authn.enabledChain()[0], 'kept', 'pw'), { ok: true, superuser: true });
    assert.is((await call(second, t2, 'GET', '/authorization/sources/built_in_database/rules/all')).json().rules[0].topic, 'k/#');
    assert.is((await call(second, t2, 'GET', '/authorization/settings')).json().no_match, 'deny');
    assert.is((await call(second, t2, 'GET', '/banned')).json().data[0].who, 'kept-ban');
    assert.is((await call(second, t2, 'GET', '/configs/global_zone')).json().flapping_detect.enable, true);
    await second.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
