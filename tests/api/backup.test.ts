// Data backup: an export is a real .tar.gz of the configuration state; listing, download with
// content-disposition, upload with checks, delete, and import restoring the exported state.
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SELF_NODE } from '../../simulator/store/cluster/cluster.ts';
import { targz, untargz } from '../../simulator/lib/tar.ts';
import { buildMultipart } from '../helpers/multipart.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

function upload(app: FastifyInstance, token: string, filename: string, data: Buffer) {
  const { body, contentType } = buildMultipart({ filename: { filename, data, contentType: 'application/gzip' } });
  return app.inject({ method: 'POST', url: '/api/v5/data/files', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}

const snapshot = (app: FastifyInstance) => JSON.parse(JSON.stringify(app.store.state));

test('export answers {node, filename, created_at} and the file is a tar.gz with the state', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  await api(app, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [{ action: 'all', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }] });
  const res = await api(app, 'POST', '/api/v5/data/export', { token, body: {} });
  assert.is(res.statusCode, 200);
  const { node, filename, created_at } = res.json();
  assert.is(node, SELF_NODE);
  assert.match(filename, /^emqx-export-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.\d{3}\.tar\.gz$/);
  assert.match(created_at, /^\d{4}-\d{2}-\d{2}T/);
  const files = await api(app, 'GET', '/api/v5/data/files?page=1&limit=10', { token });
  assert.equal(files.json(), { data: [{ node, filename, created_at }], meta: { page: 1, limit: 10, hasnext: false, count: 1 } });
  const download = await api(app, 'GET', `/api/v5/data/files/${filename}?node=${encodeURIComponent(SELF_NODE)}`, { token });
  assert.is(download.statusCode, 200);
  assert.is(download.headers['content-disposition'], `attachment; filename="${filename}"`);
  const entries = await untargz(download.rawPayload);
  const base = filename.replace(/\.tar\.gz$/, '');
  assert.equal(entries.map((e) => e.name).sort(), [base, `${base}/META.hocon`, `${base}/cluster.hocon`].sort());
  const state = JSON.parse(entries.find((e) => e.name.endsWith('cluster.hocon'))!.data.toString());
  assert.equal(state.rewrite, [{ action: 'all', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }]);
  await app.close();
});

test('POST /data/export without a body exports everything, as minirest hands an absent body over as #{}', async () => {
  // minirest_handler.erl (1.3.15, 1.4.8) do_read_body/2: no body (cowboy_req:has_body/1 false,
  // also with Content-Length: 0) leaves `body => #{}`.
  for (const emqxVersion of ['5.5.1', '5.8.9'] as const) {
    const app = await buildTestApp({ emqxVersion });
    const token = await login(app);
    await api(app, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [{ action: 'all', source_topic: 'e/#', re: '^e/(.+)$', dest_topic: 'f/$1' }] });
    for (const headers of [{}, { 'content-type': 'application/json', 'content-length': '0' }]) {
      const res = await app.inject({ method: 'POST', url: '/api/v5/data/export', headers: { authorization: `Bearer ${token}`, ...headers } });
      assert.is(res.statusCode, 200, `${emqxVersion} ${JSON.stringify(headers)}: ${res.body}`);
      const download = await api(app, 'GET', `/api/v5/data/files/${res.json().filename}?node=${encodeURIComponent(SELF_NODE)}`, { token });
      const state = JSON.parse((await untargz(download.rawPayload)).find((e) => e.name.endsWith('cluster.hocon'))!.data.toString());
      assert.equal(state.rewrite, [{ action: 'all', source_topic: 'e/#', re: '^e/(.+)$', dest_topic: 'f/$1' }]);
    }
    await app.close();
  }
});

test('export → change configuration → import restores the exported state', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  await api(app, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [{ action: 'publish', source_topic: 'a/#', re: '^a/(.+)$', dest_topic: 'b/$1' }] });
  await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'keep' } });
  const exported = snapshot(app);
  const { filename } = (await api(app, 'POST', '/api/v5/data/export', { token, body: {} })).json();

  await api(app, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [] });
  await api(app, 'DELETE', '/api/v5/api_key/keep', { token });
  await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'extra' } });
  await api(app, 'PUT', '/api/v5/mqtt/auto_subscribe', { token, body: [{ topic: 'c/${clientid}' }] });
  assert.not.equal(snapshot(app), exported);

  const res = await api(app, 'POST', '/api/v5/data/import', { token, body: { node: SELF_NODE, filename } });
  assert.is(res.statusCode, 204);
  assert.is(res.body, '');
  assert.equal(snapshot(app), exported);
  assert.equal((await api(app, 'GET', '/api/v5/api_key', { token })).json().map((k: any) => k.name), ['keep']);
  assert.is((await api(app, 'GET', '/api/v5/mqtt/topic_rewrite', { token })).json()[0].dest_topic, 'b/$1');
  await app.close();
});

test('a downloaded export uploads to another simulator and imports there', async () => {
  const a = await buildTestApp();
  const ta = await login(a);
  await api(a, 'POST', '/api/v5/api_key', { token: ta, body: { name: 'moved' } });
  const { filename } = (await api(a, 'POST', '/api/v5/data/export', { token: ta, body: {} })).json();
  const bytes = (await api(a, 'GET', `/api/v5/data/files/${filename}`, { token: ta })).rawPayload;
  const b = await buildTestApp();
  const tb = await login(b);
  const up = await upload(b, tb, filename, bytes);
  assert.is(up.statusCode, 204);
  assert.equal((await api(b, 'GET', '/api/v5/data/files', { token: tb })).json().data.map((f: any) => f.filename), [filename]);
  assert.is((await api(b, 'POST', '/api/v5/data/import', { token: tb, body: { filename } })).statusCode, 204);
  // The import brought a's admin (another password hash): b's admin session ended with it (S19).
  assert.is((await api(b, 'GET', '/api/v5/api_key', { token: tb })).statusCode, 401);
  const again = await login(b);
  assert.equal((await api(b, 'GET', '/api/v5/api_key', { token: again })).json().map((k: any) => k.name), ['moved']);
  await a.close();
  await b.close();
});

test('invalid uploads are 400 and stored nowhere; delete and unknown files', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const cases: [string, Buffer, RegExp][] = [
    ['backup.zip', Buffer.from('PK'), /\.tar\.gz/],
    ['backup.tar.gz', Buffer.from('not gzip'), /not a gzip archive/],
    ['backup.tar.gz', await targz([{ name: 'x/readme.txt', data: Buffer.from('hi') }]), /META\.hocon/],
    ['backup.tar.gz', (await targz([{ name: 'x/readme.txt', data: Buffer.from('hi') }])).subarray(0, 20), /truncated/],
  ];
  for (const [name, data, message] of cases) {
    const res = await upload(app, token, name, data);
    assert.is(res.statusCode, 400, name);
    assert.is(res.json().code, 'BAD_REQUEST');
    assert.match(res.json().message, message);
  }
  assert.equal((await api(app, 'GET', '/api/v5/data/files', { token })).json().data, []);
  const { filename } = (await api(app, 'POST', '/api/v5/data/export', { token, body: { table_sets: ['api_keys'] } })).json();
  assert.is((await api(app, 'DELETE', `/api/v5/data/files/${filename}`, { token })).statusCode, 204);
  assert.is((await api(app, 'GET', `/api/v5/data/files/${filename}`, { token })).statusCode, 404);
  assert.is((await api(app, 'DELETE', `/api/v5/data/files/${filename}`, { token })).statusCode, 404);
  assert.is((await api(app, 'POST', '/api/v5/data/import', { token, body: { filename } })).statusCode, 400);
  assert.is((await api(app, 'GET', '/api/v5/data/files/..%2Fstate.json', { token })).statusCode, 400);
  await app.close();
});

test.run();
