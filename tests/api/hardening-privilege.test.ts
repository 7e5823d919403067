// Issue #33, "through the guard" (security.md S19, S27, S28): the audit log keeps no secret that a
// GET answer masks, its source_ip is the socket's peer unless a trusted proxy says otherwise, a
// viewer cannot download a backup (it holds secrets in clear and the password hashes), and data
// written by Enterprise and started as Community never turns a viewer into an administrator.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

const AUTH_HEADER = 'Bearer audit-marker-7f3a';
const KEY_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7markerKEY';
const PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----\n${KEY_BODY}\n-----END PRIVATE KEY-----\n`;
const SSL_PASSWORD = 'ssl-pass-marker-91';
const VIEWER_PASSWORD = 'Viewer-pass1';

async function enableAudit(app: FastifyInstance, token: string): Promise<void> {
  const res = await api(app, 'PUT', '/api/v5/configs/log', { token, body: { audit: { enable: true } } });
  assert.is(res.statusCode, 200, res.body);
}

const connector = {
  type: 'http', name: 'audited', url: 'http://127.0.0.1:9/',
  headers: { Authorization: AUTH_HEADER, 'X-Plain': 'kept' },
  ssl: { enable: true, keyfile: PRIVATE_KEY, password: SSL_PASSWORD },
};

test('S27: the audit log masks an HTTP connector\'s Authorization header, an inline private key and passwords, as GET does', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-audit-'));
  try {
    const app = await buildTestApp({ emqxVersion: '5.8.9', dataDir: dir });
    const token = await login(app);
    await enableAudit(app, token);
    assert.is((await api(app, 'POST', '/api/v5/connectors', { token, body: connector })).statusCode, 201);
    const shown = (await api(app, 'GET', '/api/v5/connectors/http:audited', { token })).json();
    assert.equal([shown.headers.Authorization, shown.ssl.keyfile, shown.ssl.password], ['******', '******', '******']);
    assert.is(shown.headers['X-Plain'], 'kept');

    const audit = await api(app, 'GET', '/api/v5/audit', { token });
    const entry = audit.json().data.find((e: { operation_id: string }) => e.operation_id === '/connectors');
    const body = entry.http_request.body;
    assert.equal([body.headers.Authorization, body.ssl.keyfile, body.ssl.password], ['******', '******', '******']);
    assert.is(body.headers['X-Plain'], 'kept', 'what is no secret is kept, as the broker keeps it');
    for (const secret of [AUTH_HEADER, KEY_BODY, SSL_PASSWORD]) assert.not.ok(audit.body.includes(secret), `${secret} in GET /audit`);
    // A PUT with the masks keeps the stored secrets (emqx_utils:deobfuscate/2).
    const { type: _t, name: _n, ...update } = { ...connector, headers: { Authorization: '******' }, ssl: { enable: true, keyfile: '******', password: '******' } };
    assert.is((await api(app, 'PUT', '/api/v5/connectors/http:audited', { token, body: update })).statusCode, 200);
    assert.is(app.store.state.connectors?.[0].config.ssl && (app.store.state.connectors[0].config.ssl as { keyfile: string }).keyfile, PRIVATE_KEY);
    await app.close();
    const onDisk = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    for (const secret of [AUTH_HEADER, KEY_BODY, SSL_PASSWORD]) assert.not.ok(onDisk.includes(secret), `${secret} in audit.jsonl`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('S27: source_ip is the socket\'s peer whatever X-Forwarded-For says, unless the proxy is trusted', async () => {
  const sourceIps = async (trustProxy?: boolean | string) => {
    const app = await buildTestApp({ emqxVersion: '5.8.9', ...(trustProxy === undefined ? {} : { trustProxy }) });
    const token = await login(app);
    await enableAudit(app, token);
    await app.inject({ method: 'DELETE', url: '/api/v5/banned/clientid/nobody', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '6.6.6.6, 10.0.0.1' } });
    const rows = (await api(app, 'GET', '/api/v5/audit', { token })).json().data as { operation_id: string; source_ip: string }[];
    await app.close();
    return rows.find((r) => r.operation_id.startsWith('/banned'))?.source_ip;
  };
  assert.is(await sourceIps(), '127.0.0.1', 'the header alone changes nothing');
  assert.is(await sourceIps('10.9.9.9'), '127.0.0.1', 'a header from a peer that is not the trusted proxy changes nothing');
  assert.is(await sourceIps('127.0.0.1,10.0.0.1'), '6.6.6.6', 'through trusted proxies the client address counts');
});

async function withViewer(options: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp({ emqxVersion: '5.8.9', ...options });
  const admin = await login(app);
  const made = await api(app, 'POST', '/api/v5/users', { token: admin, body: { username: 'watcher', password: VIEWER_PASSWORD, role: 'viewer' } });
  assert.is(made.statusCode, 200, made.body);
  return { app, admin, viewer: await login(app, 'watcher', VIEWER_PASSWORD) };
}

test('S27: a viewer lists backups but cannot download one (403); a viewer API key neither; the administrator can', async () => {
  const { app, admin, viewer } = await withViewer();
  const { filename } = (await api(app, 'POST', '/api/v5/data/export', { token: admin, body: {} })).json();
  assert.is((await api(app, 'GET', '/api/v5/data/files', { token: viewer })).json().data[0].filename, filename);
  const refused = await api(app, 'GET', `/api/v5/data/files/${filename}`, { token: viewer });
  assert.is(refused.statusCode, 403);
  assert.is(refused.json().code, 'UNAUTHORIZED_ROLE');
  assert.not.ok(refused.body.includes('scrypt$'), 'no hash in the refusal');
  const key = (await api(app, 'POST', '/api/v5/api_key', { token: admin, body: { name: 'reader', role: 'viewer' } })).json();
  const basic = `Basic ${Buffer.from(`${key.api_key}:${key.api_secret}`).toString('base64')}`;
  assert.is((await api(app, 'GET', `/api/v5/data/files/${filename}`, { headers: { authorization: basic } })).statusCode, 403);
  assert.is((await api(app, 'GET', `/api/v5/data/files/${filename}`, { token: admin })).statusCode, 200);
  // What the broker's RBAC lets a viewer read stays readable: the audit log (masked) and traces.
  await enableAudit(app, admin);
  assert.is((await api(app, 'GET', '/api/v5/audit', { token: viewer })).statusCode, 200);
  assert.is((await api(app, 'GET', '/api/v5/trace', { token: viewer })).statusCode, 200);
  await app.close();
});

test('S28: Enterprise data started as Community keeps a viewer a viewer, and an edit there does not raise it', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-edition-'));
  try {
    const ee = await withViewer({ dataDir: dir });
    const key = (await api(ee.app, 'POST', '/api/v5/api_key', { token: ee.admin, body: { name: 'reader', role: 'viewer' } })).json();
    await ee.app.close();

    const ce = await buildTestApp({ emqxVersion: '5.8.9', edition: 'ce', dataDir: dir });
    const viewer = await login(ce, 'watcher', VIEWER_PASSWORD);
    const write = await api(ce, 'POST', '/api/v5/banned', { token: viewer, body: { as: 'clientid', who: 'x' } });
    assert.is(write.statusCode, 403, write.body);
    assert.is((await api(ce, 'POST', '/api/v5/users', { token: viewer, body: { username: 'intruder', password: 'Intruder-pass1' } })).statusCode, 403);
    const basic = `Basic ${Buffer.from(`${key.api_key}:${key.api_secret}`).toString('base64')}`;
    assert.is((await api(ce, 'POST', '/api/v5/banned', { headers: { authorization: basic }, body: { as: 'clientid', who: 'x' } })).statusCode, 403);
    assert.is((await api(ce, 'GET', '/api/v5/banned', { token: viewer })).statusCode, 200, 'reading stays allowed');
    // The Community administrator edits both; neither gains a role it did not have.
    const admin = await login(ce);
    assert.is((await api(ce, 'PUT', '/api/v5/users/watcher', { token: admin, body: { description: 'edited' } })).statusCode, 200);
    assert.is((await api(ce, 'PUT', '/api/v5/api_key/reader', { token: admin, body: { desc: 'edited' } })).statusCode, 200);
    assert.is((await api(ce, 'POST', '/api/v5/banned', { token: viewer, body: { as: 'clientid', who: 'x' } })).statusCode, 403);
    await ce.close();

    const back = await buildTestApp({ emqxVersion: '5.8.9', dataDir: dir });
    const admin2 = await login(back);
    const users = (await api(back, 'GET', '/api/v5/users', { token: admin2 })).json();
    assert.equal(users.find((u: { username: string }) => u.username === 'watcher').role, 'viewer');
    assert.is((await api(back, 'GET', '/api/v5/api_key/reader', { token: admin2 })).json().role, 'viewer');
    await back.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
