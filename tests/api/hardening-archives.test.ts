// Backups, archives and names that become paths (security.md S19 backup part, S21, S22): an API
// key cannot reach dashboard users or keys through a backup, an import is checked item by item
// and applied all or nothing and revokes the tokens of users it changes, names stay inside the
// data directory, and an archive bomb is refused without the process's memory growing.
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../../simulator/store/dashboard/passwords.ts';
import { parseHocon, writeHocon } from '../../common/hocon.ts';
import { decode, encode, TABLES } from '../../simulator/store/backup/layout.ts';
import { parseProfile } from '../../simulator/store/profile.ts';
import { targz, untargz } from '../../simulator/lib/tar.ts';
import { rfc3339 } from '../../simulator/lib/time.ts';
import { buildMultipart } from '../helpers/multipart.ts';
import {
  api, buildTestApp, connectMqtt, endMqtt, login, request, spawnSimulator, startSimulator, waitFor,
} from '../helpers/simulator.ts';

type Json = Record<string, any>;

/**
 * A backup archive in the broker's layout holding `state` (as the simulator writes one, through
 * layout.ts): its configuration in cluster.hocon, and a table file for each table whose key the
 * state has. Keys with no place in the layout go into cluster.hocon as roots of their own.
 */
function backupArchive(state: Json, base = 'emqx-export-test') {
  const { cluster, tables } = encode(state, parseProfile('5.5.1', 'ce'));
  for (const [key, value] of Object.entries(state)) if (!TABLES.some((t) => t.key === key) && !(key in LAID_OUT)) cluster[key] = value;
  const kept = TABLES.filter((t) => t.key in state && t.table in tables);
  return targz([
    { name: base, data: Buffer.alloc(0), type: 'directory' },
    { name: `${base}/META.hocon`, data: Buffer.from('edition = ce\nversion = "5.5.1"\n') },
    { name: `${base}/cluster.hocon`, data: Buffer.from(writeHocon(cluster)) },
    ...kept.map((t) => ({ name: `${base}/mnesia/${t.table}`, data: Buffer.from(JSON.stringify(t.rows(state))) })),
  ]);
}

/** The persisted keys layout.ts writes into cluster.hocon. */
const LAID_OUT = Object.fromEntries(Object.keys(decode({ cluster: writeAll(), tables: {} })).map((k) => [k, true]));
function writeAll() {
  return encode({ rewrite: [], authentication: [], authorization: { sources: [], settings: {} } as never, listeners: {}, config_roots: { log: {} }, zone: { mqtt: {} },
    auto_subscribe: [], delayed: {} as never, slow_subs: {} as never, topic_metrics: [], gateways: {}, exhooks: [], plugins: [], file_transfer: {}, rule_engine: { a: 1 } as never,
    rules: [], connectors: [], actions: [], sources: [], schema_registry: [], schema_registry_external: {}, sso: {}, license_setting: {} as never, license_key: 'k' },
  parseProfile('5.5.1', 'ce')).cluster;
}

/** Puts an archive straight into `<data-dir>/backup/`, as a copied file would arrive, past the upload checks. */
function placeBackup(dataDir: string, name: string, data: Buffer): void {
  mkdirSync(path.join(dataDir, 'backup'), { recursive: true });
  writeFileSync(path.join(dataDir, 'backup', name), data);
}

const basic = (key: { api_key: string; api_secret: string }) => `Basic ${Buffer.from(`${key.api_key}:${key.api_secret}`).toString('base64')}`;

function call(app: FastifyInstance, auth: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return app.inject({ method, url: `/api/v5${url}`, headers: { authorization: auth }, ...(body === undefined ? {} : { payload: body as object }) });
}

function uploadBackup(app: FastifyInstance, auth: string, filename: string, data: Buffer) {
  const { body, contentType } = buildMultipart({ filename: { filename, data, contentType: 'application/gzip' } });
  return app.inject({ method: 'POST', url: '/api/v5/data/files', payload: body, headers: { authorization: auth, 'content-type': contentType } });
}

async function exportedState(app: FastifyInstance, auth: string, body: Json = {}): Promise<{ filename: string; raw: Buffer; state: Json; meta: Json; tables: string[] }> {
  const { filename } = (await call(app, auth, 'POST', '/data/export', body)).json();
  const raw = (await call(app, auth, 'GET', `/data/files/${filename}`)).rawPayload;
  const entries = await untargz(raw);
  const text = (suffix: string) => entries.find((e) => e.name.endsWith(suffix))!.data.toString('utf8');
  const tables = Object.fromEntries(entries.filter((e) => e.type === 'file' && e.name.includes('/mnesia/')).map((e) => [e.name.split('/').pop()!, JSON.parse(e.data.toString('utf8'))]));
  return { filename, raw, state: decode({ cluster: parseHocon(text('/cluster.hocon')), tables }), meta: parseHocon(text('/META.hocon')), tables: Object.keys(tables) };
}

async function adminAndKey() {
  const app = await buildTestApp();
  const token = await login(app);
  const key = (await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'script' } })).json();
  return { app, token, admin: `Bearer ${token}`, key: basic(key) };
}

const loginStatus = async (app: FastifyInstance, username: string, password: string) =>
  (await app.inject({ method: 'POST', url: '/api/v5/login', payload: { username, password } })).statusCode;

// ---- S19: backups and privileges ----

test('S19: an export made with an API key holds no password or secret hashes, and imports back with the key', async () => {
  const { app, admin, key } = await adminAndKey();
  const { raw, state, tables, filename } = await exportedState(app, key);
  const text = (await untargz(raw)).map((e) => e.data.toString('utf8')).join('\n');
  assert.not.match(text, /password_hash|secret_hash|scrypt\$|sha256\$/);
  assert.is(state.users, undefined);
  assert.is(state.api_keys, undefined);
  assert.ok(!tables.includes('emqx_admin') && !tables.includes('emqx_app'));
  // The key's own export round-trips, and users and keys stay as they are.
  const before = JSON.stringify([app.store.state.users, app.store.state.api_keys]);
  assert.is((await call(app, key, 'POST', '/data/import', { filename })).statusCode, 204);
  assert.is(JSON.stringify([app.store.state.users, app.store.state.api_keys]), before);
  // An admin export still carries them (EMQX semantics for a logged-in person), and a key
  // cannot download it.
  const full = await exportedState(app, admin);
  assert.is(full.state.users.length, 1);
  const taken = await call(app, key, 'GET', `/data/files/${full.filename}`);
  assert.is(taken.statusCode, 403);
  assert.is(taken.json().code, 'API_KEY_NOT_ALLOW');
  assert.not.match(taken.body, /scrypt|sha256/);
  await app.close();
});

test('S19: an API key cannot import a backup that touches dashboard users or API keys', async () => {
  const { app, admin, key } = await adminAndKey();
  const { state } = await exportedState(app, admin);
  const hacked = structuredClone(state);
  hacked.users[0].password_hash = await hashPassword('hacked-pw-1');
  hacked.users.push({ username: 'mallory', description: '', password_hash: await hashPassword('mallory-pw-1'), created_at: 0 });
  hacked.rewrite = [{ action: 'all', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }];
  const before = JSON.stringify(app.store.state);
  for (const [name, s] of [['users.tar.gz', hacked], ['keys.tar.gz', { api_keys: [...state.api_keys, { ...state.api_keys[0], name: 'more', api_key: 'ffff' }] }]] as const) {
    assert.is((await uploadBackup(app, key, name, await backupArchive(s))).statusCode, 204);
    const res = await call(app, key, 'POST', '/data/import', { filename: name });
    assert.ok(res.statusCode === 403 || res.statusCode === 400, `${name}: ${res.statusCode} ${res.body}`);
    assert.match(res.json().message, /dashboard users|API keys/);
  }
  assert.is(JSON.stringify(app.store.state), before);
  assert.is(await loginStatus(app, 'admin', 'public'), 200);
  assert.is(await loginStatus(app, 'admin', 'hacked-pw-1'), 401);
  assert.equal((await call(app, admin, 'GET', '/users')).json().map((u: Json) => u.username), ['admin']);
  await app.close();
});

test('S19: an admin import that changes a password or removes a user revokes their tokens', async () => {
  const app = await buildTestApp();
  const t1 = await login(app);
  assert.is((await api(app, 'POST', '/api/v5/users', { token: t1, body: { username: 'bob', password: 'bob-pass-1' } })).statusCode, 200);
  assert.is((await api(app, 'POST', '/api/v5/users', { token: t1, body: { username: 'carol', password: 'carol-pass-1' } })).statusCode, 200);
  const tb = await login(app, 'bob', 'bob-pass-1');
  const tc = await login(app, 'carol', 'carol-pass-1');
  const { state } = await exportedState(app, `Bearer ${t1}`);
  const next = structuredClone(state);
  next.users = next.users.filter((u: Json) => u.username !== 'bob');
  next.users.find((u: Json) => u.username === 'admin').password_hash = await hashPassword('new-admin-1');
  assert.is((await uploadBackup(app, `Bearer ${t1}`, 'next.tar.gz', await backupArchive(next))).statusCode, 204);
  assert.is((await api(app, 'POST', '/api/v5/data/import', { token: t1, body: { filename: 'next.tar.gz' } })).statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/users', { token: t1 })).statusCode, 401, 'old admin token');
  assert.is((await api(app, 'GET', '/api/v5/users', { token: tb })).statusCode, 401, 'removed user token');
  // carol is unchanged: her session goes on.
  assert.is((await api(app, 'GET', '/api/v5/users', { token: tc })).statusCode, 200);
  assert.is(await loginStatus(app, 'admin', 'new-admin-1'), 200);
  assert.is(await loginStatus(app, 'bob', 'bob-pass-1'), 401);
  await app.close();
});

test('S19: an import with one bad item is refused with a 400 naming it and applies nothing, at upload and at import', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-bad-item-'));
  const app = await buildTestApp({ dataDir });
  try {
    const admin = `Bearer ${await login(app)}`;
    const { state } = await exportedState(app, admin);
    const before = JSON.stringify(app.store.state);
    const cases: [string, Json, RegExp][] = [
      ['regex', { ...state, rewrite: [{ action: 'all', source_topic: 'a/#', re: '^a$', dest_topic: 'b' }, { action: 'all', source_topic: 'c/#', re: '(', dest_topic: 'd' }] }, /rewrite\[1\]/],
      ['user name', { ...state, users: [...state.users, { ...state.users[0], username: 'bad name!' }] }, /users\[1\]/],
      ['unknown key', { ...state, nonsense: {} }, /nonsense/],
      ['auto subscribe', { ...state, auto_subscribe: [{ topic: 'a/#', qos: 7, rh: 0, rap: 0, nl: 0 }] }, /auto_subscribe\[0\]/],
      ['banned kind', { ...state, banned: [{ as: 'everyone', who: 'x', by: '', reason: '', at: 0, until: null }] }, /banned\[0\]/],
      ['no users', { ...state, users: [] }, /users/],
    ];
    for (const [what, s, message] of cases) {
      const name = `${what.replace(/ /g, '-')}.tar.gz`;
      const archive = await backupArchive(s);
      const up = await uploadBackup(app, admin, name, archive);
      assert.is(up.statusCode, 400, `${what} upload: ${up.body}`);
      assert.match(up.json().message, message, what);
      placeBackup(dataDir, name, archive);
      const res = await call(app, admin, 'POST', '/data/import', { filename: name });
      assert.is(res.statusCode, 400, `${what}: ${res.body}`);
      assert.is(res.json().code, 'BAD_REQUEST');
      assert.match(res.json().message, message, what);
      assert.is(JSON.stringify(app.store.state), before, what);
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// ---- finding 2 (S19/S24): a backup of the wrong shape ----

test('a backup of the wrong shape gets 400, changes nothing, and the simulator still restarts', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-wrong-shape-'));
  try {
    const sim = await spawnSimulator(['--data-dir', dataDir, '--seed', 'empty']);
    const token = await login(sim.baseUrl);
    const before = (await request(sim.baseUrl, 'GET', '/api/v5/users', { token })).json;
    // Written straight into the backup folder, as a copied file would be, so import sees it.
    placeBackup(dataDir, 'wrong.tar.gz', await backupArchive({ users: 5, rewrite: 'x' }));
    const res = await request(sim.baseUrl, 'POST', '/api/v5/data/import', { token, body: { filename: 'wrong.tar.gz' } });
    assert.is(res.status, 400, res.text);
    assert.is(res.json.code, 'BAD_REQUEST');
    assert.match(res.json.message, /users/);
    assert.ok(await login(sim.baseUrl));
    assert.equal((await request(sim.baseUrl, 'GET', '/api/v5/users', { token })).json, before);
    assert.equal((await request(sim.baseUrl, 'GET', '/api/v5/mqtt/topic_rewrite', { token })).json, []);
    await sim.kill();
    const again = await spawnSimulator(['--data-dir', dataDir, '--seed', 'empty']);
    assert.ok(await login(again.baseUrl));
    await again.kill();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// ---- S22: names that become paths ----

test('S22: a trace name with ../ is refused through POST /trace and through an imported backup; nothing is written outside', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sim-traversal-'));
  const dataDir = path.join(root, 'data');
  const outside = path.join(root, 'outside');
  mkdirSync(outside);
  const sim = await startSimulator({ dataDir });
  try {
    const token = await login(sim.baseUrl);
    const evil = 'x/../../../outside/pwn';
    const posted = await request(sim.baseUrl, 'POST', '/api/v5/trace', { token, body: { name: evil, type: 'clientid', clientid: 'victim' } });
    assert.is(posted.status, 400);
    const now = Math.floor(Date.now() / 1000) * 1000;
    const trace = { name: evil, type: 'clientid', filter: 'victim', payload_encode: 'text', start_at: now - 1000, end_at: now + 3_600_000, enable: true };
    const state = { ...sim.app.store.state, traces: [trace] };
    const archive = await backupArchive(state);
    const { body, contentType } = buildMultipart({ filename: { filename: 'evil.tar.gz', data: archive } });
    const up = await sim.app.inject({ method: 'POST', url: '/api/v5/data/files', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
    // Traces are no part of a backup (emqx_trace is no emqx_db_backup module): an archive that
    // carries them anyway is refused for the root it has no place for.
    assert.is(up.statusCode, 400, up.body);
    assert.match(up.json().message, /traces/);
    placeBackup(dataDir, 'evil.tar.gz', archive);
    const imported = await request(sim.baseUrl, 'POST', '/api/v5/data/import', { token, body: { filename: 'evil.tar.gz' } });
    assert.is(imported.status, 400, imported.text);
    assert.match(imported.json.message, /traces/);
    assert.equal(sim.app.store.state.traces ?? [], []);
    const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'victim' });
    await new Promise<void>((resolve) => client.publish('t/1', 'secret payload', { qos: 1 }, () => resolve()));
    await endMqtt(client);
    await sim.app.store.traces.flush();
    assert.equal(readdirSync(outside), []);
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('S22: GET and DELETE /trace/{name}/log cannot reach files outside the data directory, even for a stored record', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sim-trace-log-'));
  const dataDir = path.join(root, 'data');
  mkdirSync(path.join(root, 'outside'), { recursive: true });
  const app = await buildTestApp({ dataDir });
  try {
    const token = await login(app);
    const now = app.store.clock.now();
    // A record a damaged or old state file could hold; the API never accepts such a name.
    const name = 'x/../../../outside/secret';
    const record = { name, type: 'clientid' as const, filter: 'c', payload_encode: 'text' as const, start_at: now - 60_000, end_at: now + 60_000, enable: true };
    const victims = [path.join(root, 'outside', `secret_${rfc3339(record.start_at).slice(0, 10)}.log`)];
    for (const file of victims) writeFileSync(file, 'do not read me\n');
    app.store.state.traces = [record];
    const read = await api(app, 'GET', `/api/v5/trace/${encodeURIComponent(name)}/log?bytes=1000&position=0`, { token });
    assert.not.match(read.body, /do not read me/);
    assert.is(read.statusCode, 400, 'the route refuses a name that breaks the pattern');
    // Behind the route, the store itself keeps such a record's log off the disk.
    const direct = await app.store.traces.read(name, { position: 0, bytes: 1000 });
    assert.not.match(direct.items, /do not read me/);
    app.store.traces.append(record, 'injected line\n', now);
    await app.store.traces.flush();
    assert.is((await api(app, 'DELETE', `/api/v5/trace/${encodeURIComponent(name)}`, { token })).statusCode, 400);
    await app.store.traces.remove(name);
    for (const file of victims) {
      assert.ok(existsSync(file), `${file} deleted`);
      assert.is(readFileSync(file, 'utf8'), 'do not read me\n');
    }
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('S22: an imported plugin or backup name with ../ is refused and nothing outside is deleted', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sim-plugin-name-'));
  const dataDir = path.join(root, 'data');
  const app = await buildTestApp({ dataDir });
  try {
    const token = await login(app);
    const victim = path.join(root, 'victim.tar.gz');
    writeFileSync(victim, 'keep');
    const plugin = { id: '../../victim', info: { name: '../../victim', rel_vsn: '1' }, readme: '', running: false, installed_at: 0 };
    const archive = await backupArchive({ plugins: [plugin] });
    const { body, contentType } = buildMultipart({ filename: { filename: 'p.tar.gz', data: archive } });
    const up = await app.inject({ method: 'POST', url: '/api/v5/data/files', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
    assert.is(up.statusCode, 400, up.body);
    placeBackup(dataDir, 'p.tar.gz', archive);
    const res = await api(app, 'POST', '/api/v5/data/import', { token, body: { filename: 'p.tar.gz' } });
    assert.is(res.statusCode, 400, res.body);
    assert.match(res.json().message, /plugins\[0\]/);
    assert.is(app.store.state.plugins, undefined);
    // A stored record with such an id (an old state file) cannot delete outside either.
    app.store.state.plugins = [plugin];
    assert.is((await api(app, 'DELETE', `/api/v5/plugins/${encodeURIComponent(plugin.id)}`, { token })).statusCode, 400);
    await app.store.plugins.uninstall(plugin.id);
    assert.ok(existsSync(victim));
    // Backup file names: an upload named with a path lands under its base name or is refused.
    const escape = buildMultipart({ filename: { filename: '../../escape.tar.gz', data: await backupArchive({ rewrite: [] }) } });
    await app.inject({ method: 'POST', url: '/api/v5/data/files', payload: escape.body, headers: { authorization: `Bearer ${token}`, 'content-type': escape.contentType } });
    assert.not.ok(existsSync(path.join(root, 'escape.tar.gz')));
    assert.not.ok(existsSync(path.join(dataDir, 'escape.tar.gz')));
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
});

// ---- S10/S21: the upload plumbing ----

test('S21: uploads are parsed by the upload routes only, with caps; a malformed form is a 400, not a 500', async () => {
  const { app, admin } = await adminAndKey();
  const post = (url: string, payload: Buffer | string, contentType: string) =>
    app.inject({ method: 'POST', url: `/api/v5${url}`, payload, headers: { authorization: admin, 'content-type': contentType } });
  const broken = await post('/plugins/install', '--x\r\nContent-Disposition: form-data; name="plugin"; filename="a.tar.gz"\r\n\r\nabc', 'multipart/form-data; boundary=x');
  assert.is(broken.statusCode, 400, broken.body);
  assert.is(broken.json().code, 'BAD_FORM_DATA');
  const noBoundary = await post('/data/files', 'abc', 'multipart/form-data');
  assert.is(noBoundary.statusCode, 400, noBoundary.body);
  // Two files where one is expected: refused by the parser's file count.
  const twice = `--b\r\nContent-Disposition: form-data; name="filename"; filename="a.tar.gz"\r\n\r\nx\r\n`
    + `--b\r\nContent-Disposition: form-data; name="other"; filename="b.tar.gz"\r\n\r\ny\r\n--b--\r\n`;
  const two = await post('/data/files', twice, 'multipart/form-data; boundary=b');
  assert.ok(two.statusCode === 413 || two.statusCode === 400, `${two.statusCode} ${two.body}`);
  // Other routes do not take multipart at all.
  const elsewhere = await post('/banned', buildMultipart({ as: 'clientid', who: 'x' }).body, buildMultipart({}).contentType);
  assert.is(elsewhere.statusCode, 415, elsewhere.body);
  await app.close();
});

// ---- S21: archive bombs ----

const GiB = 1024 ** 3;

/** One ustar header block declaring a regular file of `size` bytes. */
function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`, 136);
  h.fill(0x20, 148, 156);
  h[156] = 0x30;
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

let zeros: Buffer | null = null;

/** gzip of 1 GiB of zeros (about 1 MB), made by streaming so the test stays light. */
async function gzippedZeros(): Promise<Buffer> {
  if (zeros) return zeros;
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(gz, 'end');
  const block = Buffer.alloc(1 << 20);
  for (let i = 0; i < 1024; i++) if (!gz.write(block)) await once(gz, 'drain');
  gz.end();
  await ended;
  zeros = Buffer.concat(out);
  return zeros;
}

/** A ~1 MB .tar.gz whose one entry inflates to 1 GiB: gzip members concatenated (RFC 1952 §2.2). */
async function bomb(entry: string): Promise<Buffer> {
  return Buffer.concat([gzipSync(tarHeader(entry, GiB)), await gzippedZeros(), gzipSync(Buffer.alloc(1024))]);
}

function postMultipart(baseUrl: string, urlPath: string, token: string, field: string, filename: string, data: Buffer): Promise<{ status: number; json: any }> {
  const { body, contentType } = buildMultipart({ [field]: { filename, data, contentType: 'application/gzip' } });
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, baseUrl), {
      method: 'POST', agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': body.length, accept: 'application/json' },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

test('S21: a 1 MB archive declaring 1 GiB is refused as a plugin and as a backup, and memory grows < 100 MB', async () => {
  const pluginBomb = await bomb('bomb-1.0.0/release.json');
  const backupBomb = await bomb('emqx-export-bomb/cluster.hocon');
  assert.ok(pluginBomb.length < 2 * 1024 * 1024, `bomb is ${pluginBomb.length} bytes`);
  const sim = await spawnSimulator(['--seed', 'empty']);
  try {
    const token = await login(sim.baseUrl);
    // Warm up both upload paths with small valid-looking requests so lazy loading is not counted.
    await postMultipart(sim.baseUrl, '/api/v5/plugins/install', token, 'plugin', 'warm-1.0.0.tar.gz', await targz([{ name: 'warm-1.0.0/README.md', data: Buffer.from('x') }]));
    await postMultipart(sim.baseUrl, '/api/v5/data/files', token, 'filename', 'warm.tar.gz', await targz([{ name: 'w/README', data: Buffer.from('x') }]));
    const pid = sim.child.pid!;
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, rssMb(pid)); }, 20);
    try {
      const plugin = await postMultipart(sim.baseUrl, '/api/v5/plugins/install', token, 'plugin', 'bomb-1.0.0.tar.gz', pluginBomb);
      assert.is(plugin.status, 400, JSON.stringify(plugin.json));
      assert.is(plugin.json.code, 'BAD_PLUGIN_INFO');
      const backup = await postMultipart(sim.baseUrl, '/api/v5/data/files', token, 'filename', 'bomb.tar.gz', backupBomb);
      assert.is(backup.status, 400, JSON.stringify(backup.json));
      assert.is(backup.json.code, 'BAD_REQUEST');
      peak = Math.max(peak, rssMb(pid));
    } finally {
      clearInterval(sampler);
    }
    assert.ok(peak - before < 100, `RSS grew ${Math.round(peak - before)} MB (from ${Math.round(before)} MB)`);
    await waitFor(async () => (await request(sim.baseUrl, 'GET', '/api/v5/plugins', { token })).status === 200, 2000, 'API answers');
    assert.equal((await request(sim.baseUrl, 'GET', '/api/v5/data/files', { token })).json.data, []);
  } finally {
    await sim.kill();
  }
});

test('S21: entry count and per-entry caps refuse archives that inflate moderately but hold too much', async () => {
  const { app, admin } = await adminAndKey();
  const many = await targz(Array.from({ length: 20_001 }, (_, i) => ({ name: `many-1.0.0/f${i}`, data: Buffer.alloc(0) })));
  const { body, contentType } = buildMultipart({ plugin: { filename: 'many-1.0.0.tar.gz', data: many } });
  const res = await app.inject({ method: 'POST', url: '/api/v5/plugins/install', payload: body, headers: { authorization: admin, 'content-type': contentType } });
  assert.is(res.statusCode, 400);
  assert.match(res.json().message, /entries/);
  const big = await targz([{ name: 'emqx-export-big/README', data: Buffer.alloc(40 * 1024 * 1024) }]);
  const up = await uploadBackup(app, admin, 'big.tar.gz', big);
  assert.is(up.statusCode, 400);
  assert.match(up.json().message, /larger than|too large|limit/);
  await app.close();
});

test.run();
