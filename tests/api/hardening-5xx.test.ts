// Issue #33, "failed saves that still apply" and "distinct 5xx found by fuzzing": each shape the
// fuzzer found is a 400 with a sentence, and a refused write changes nothing, in memory or on
// disk (security.md S8, S23 "persist, then apply", S25).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targz } from '../../simulator/lib/tar.ts';
import { buildMultipart } from '../helpers/multipart.ts';
import { api, buildTestApp, login, request, startSimulator } from '../helpers/simulator.ts';

/** A raw JSON text request, so numbers such as 1e309 reach the parser as written. */
function raw(app: FastifyInstance, token: string, method: 'PUT' | 'POST', url: string, text: string) {
  return app.inject({ method, url, payload: text, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
}

function assertSentence(res: { statusCode: number; body: string }, what: string): { code: string; message: string } {
  assert.is(res.statusCode, 400, `${what}: ${res.statusCode} ${res.body}`);
  const body = JSON.parse(res.body);
  assert.type(body.code, 'string', what);
  assert.type(body.message, 'string', what);
  assert.ok(body.message.length > 10, `${what}: ${body.message}`);
  return body;
}

test('PUT /mqtt/delayed with "Infinity" or 1e309 is a 400 that changes nothing; the GET still answers', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const before = (await api(app, 'GET', '/api/v5/mqtt/delayed', { token })).json();
  for (const text of ['{"max_delayed_messages":"Infinity"}', '{"max_delayed_messages":1e309}', '{"max_delayed_messages":-1e309}', '{"enable":true,"max_delayed_messages":"-Infinity"}']) {
    const body = assertSentence(await raw(app, token, 'PUT', '/api/v5/mqtt/delayed', text), text);
    assert.match(body.message, /max_delayed_messages/);
    const after = await api(app, 'GET', '/api/v5/mqtt/delayed', { token });
    assert.is(after.statusCode, 200, text);
    assert.equal(after.json(), before, text);
  }
  assert.is(app.store.state.delayed, undefined, 'nothing was written to the state');
  await app.close();
});

test('PUT /slow_subscriptions/settings with 1e309 is a 400 that changes nothing, also on disk', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-5xx-'));
  try {
    const app = await buildTestApp({ dataDir: dir });
    const token = await login(app);
    const before = (await api(app, 'GET', '/api/v5/slow_subscriptions/settings', { token })).json();
    const onDisk = readFileSync(path.join(dir, 'state.json'), 'utf8');
    for (const field of ['threshold', 'expire_interval', 'top_k_num']) {
      const text = `{"enable":true,"${field}":1e309}`;
      const body = assertSentence(await raw(app, token, 'PUT', '/api/v5/slow_subscriptions/settings', text), text);
      assert.match(body.message, new RegExp(field));
      const after = await api(app, 'GET', '/api/v5/slow_subscriptions/settings', { token });
      assert.is(after.statusCode, 200);
      assert.equal(after.json(), before);
    }
    assert.is(readFileSync(path.join(dir, 'state.json'), 'utf8'), onDisk, 'the state file was not rewritten');
    await app.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PUT /authorization/settings with a non-list cache.excludes is a 400 naming the field', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const before = (await api(app, 'GET', '/api/v5/authorization/settings', { token })).json();
  for (const excludes of [5, { a: 1 }, true, 'x/#']) {
    const res = await api(app, 'PUT', '/api/v5/authorization/settings', { token, body: { ...before, cache: { ...before.cache, excludes } } });
    const body = assertSentence(res, JSON.stringify(excludes));
    assert.match(body.message, /excludes/);
  }
  assert.equal((await api(app, 'GET', '/api/v5/authorization/settings', { token })).json(), before);
  await app.close();
});

test('a gateway client subscription with qos "Infinity" or 1e309 is a 400', async () => {
  const app = await buildTestApp({ seed: 'demo' });
  const token = await login(app);
  assert.is((await api(app, 'PUT', '/api/v5/gateways/lwm2m', { token, body: { enable: true, xml_dir: 'etc/lwm2m_xml' } })).statusCode, 204);
  const client = (await api(app, 'GET', '/api/v5/gateways/lwm2m/clients?limit=1', { token })).json().data[0];
  const url = `/api/v5/gateways/lwm2m/clients/${encodeURIComponent(client.clientid)}/subscriptions`;
  for (const qos of ['"Infinity"', '1e309', '-1e309']) {
    assertSentence(await raw(app, token, 'POST', url, `{"topic":"t/1","qos":${qos}}`), qos);
  }
  assert.equal((await api(app, 'GET', url, { token })).json(), []);
  await app.close();
});

test('POST /listeners on a port in use is a 400 with a sentence, and no listener is created', async () => {
  const sim = await startSimulator({ nodes: 1 });
  const blocker = net.createServer();
  try {
    const token = await login(sim.baseUrl);
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const res = await request(sim.baseUrl, 'POST', '/api/v5/listeners', { token, body: { type: 'tcp', name: 'busy', bind: `127.0.0.1:${port}` } });
    assert.is(res.status, 400, res.text);
    assert.match(res.json.message, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.not.match(res.json.message, /^\S*EADDRINUSE/);
    const ids = (await request(sim.baseUrl, 'GET', '/api/v5/listeners', { token })).json.map((l: { id: string }) => l.id);
    assert.not.ok(ids.includes('tcp:busy'), ids.join(', '));
  } finally {
    blocker.close();
    await sim.close();
  }
});

async function uploadBackup(app: FastifyInstance, token: string, cluster: string, meta = '{"version":"5.5.1","edition":"ce","full":false,"keys":[]}') {
  const base = 'emqx-export-2026-01-01-00-00-00.000';
  const data = await targz([
    { name: `${base}/META.hocon`, data: Buffer.from(meta) },
    { name: `${base}/cluster.hocon`, data: Buffer.from(cluster) },
  ]);
  const { body, contentType } = buildMultipart({ filename: { filename: `${base}.tar.gz`, data, contentType: 'application/gzip' } });
  return app.inject({ method: 'POST', url: '/api/v5/data/files', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}

test('a backup holding __proto__, constructor or prototype keys is a 400 at upload and pollutes nothing', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  for (const cluster of [
    '{"__proto__":{"polluted":1}}',
    '{"rewrite":[{"__proto__":{"polluted":1},"action":"all","source_topic":"x/#","re":"^x$","dest_topic":"y"}]}',
    '{"zone":{"constructor":{"prototype":{"polluted":1}}}}',
  ]) {
    const body = assertSentence(await uploadBackup(app, token, cluster), cluster);
    assert.match(body.message, /__proto__|constructor|prototype/);
  }
  assertSentence(await uploadBackup(app, token, '{}', '{"__proto__":{"full":true}}'), 'META.hocon with __proto__');
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((await api(app, 'GET', '/api/v5/data/files', { token })).json().data, []);
  await app.close();
});

test('a backup with 5,000-deep JSON is a 400 at upload naming the depth, and at import when it got there', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const deep = `{"zone":{"default":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
  const body = assertSentence(await uploadBackup(app, token, deep), 'deep cluster.hocon');
  assert.match(body.message, /deeper than/);
  const deepMeta = assertSentence(await uploadBackup(app, token, '{}', `${'['.repeat(5000)}${']'.repeat(5000)}`), 'deep META.hocon');
  assert.match(deepMeta.message, /deeper than/);
  assert.equal((await api(app, 'GET', '/api/v5/data/files', { token })).json().data, []);
  await app.close();
});

test.run();
