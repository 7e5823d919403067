// Data backup: an export is a real .tar.gz in the broker's layout (META.hocon, cluster.hocon, mnesia/); listing, download with
// content-disposition, upload with checks, delete, and import restoring the exported state.
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SELF_NODE } from '../../simulator/store/cluster/cluster.ts';
import { parseHocon } from '../../common/hocon.ts';
import { targz, untargz } from '../../simulator/lib/tar.ts';
import { simulatorProfiles as profiles } from '../helpers/access-scenario.ts';
import { buildMultipart } from '../helpers/multipart.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

function upload(app: FastifyInstance, token: string, filename: string, data: Buffer) {
  const { body, contentType } = buildMultipart({ filename: { filename, data, contentType: 'application/gzip' } });
  return app.inject({ method: 'POST', url: '/api/v5/data/files', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}

const snapshot = (app: FastifyInstance) => JSON.parse(JSON.stringify(app.store.state));

test('export answers {node, filename, size, created_at, created_at_sec} and the file is a tar.gz in the broker layout', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  await api(app, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [{ action: 'all', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }] });
  const res = await api(app, 'POST', '/api/v5/data/export', { token, body: {} });
  assert.is(res.statusCode, 200);
  const { node, filename, size, created_at, created_at_sec } = res.json();
  assert.is(node, SELF_NODE);
  assert.match(filename, /^emqx-export-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.\d{3}\.tar\.gz$/);
  assert.match(created_at, /^\d{4}-\d{2}-\d{2}T/);
  // emqx_mgmt_data_backup's backup_file_info carries the size and the time in seconds too.
  assert.is(created_at_sec, Math.floor(Date.parse(created_at) / 1000));
  const files = await api(app, 'GET', '/api/v5/data/files?page=1&limit=10', { token });
  assert.equal(files.json(), { data: [{ node, filename, size, created_at, created_at_sec }], meta: { page: 1, limit: 10, hasnext: false, count: 1 } });
  const download = await api(app, 'GET', `/api/v5/data/files/${filename}?node=${encodeURIComponent(SELF_NODE)}`, { token });
  assert.is(download.statusCode, 200);
  assert.is(download.rawPayload.length, size);
  assert.is(download.headers['content-disposition'], `attachment; filename="${filename}"`);
  const entries = await untargz(download.rawPayload);
  const cluster = parseHocon(entries.find((e) => e.name.endsWith('/cluster.hocon'))!.data.toString());
  assert.equal(cluster.rewrite, [{ action: 'all', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }]);
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
      const state = parseHocon((await untargz(download.rawPayload)).find((e) => e.name.endsWith('cluster.hocon'))!.data.toString());
      assert.equal(state.rewrite, [{ action: 'all', source_topic: 'e/#', re: '^e/(.+)$', dest_topic: 'f/$1' }]);
    }
    await app.close();
  }
});

test('export → change configuration → import restores what the export holds and leaves the rest (import_cluster_hocon)', async () => {
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
  // The broker imports the roots of the archive's cluster.hocon and its tables; auto_subscribe,
  // configured after the export, is no root of it and stays (emqx_mgmt_data_backup.erl).
  const { auto_subscribe, ...restored } = snapshot(app);
  assert.equal(restored, exported);
  assert.is(auto_subscribe[0].topic, 'c/${clientid}');
  assert.equal((await api(app, 'GET', '/api/v5/api_key', { token })).json().map((k: any) => k.name), ['keep']);
  assert.is((await api(app, 'GET', '/api/v5/mqtt/topic_rewrite', { token })).json()[0].dest_topic, 'b/$1');
  await app.close();
});

// emqx_mgmt_data_backup.erl at each tag: META.hocon and cluster.hocon at <base>/, one file per
// backed-up table in <base>/mnesia/, the tables being those of the release's emqx_db_backup
// modules (emqx_banned split in two from 5.8, namespaced tables from 6.x).
const LAYOUTS: Record<string, string[]> = {
  '5.5': ['emqx_acl', 'emqx_admin', 'emqx_app', 'emqx_authn_mnesia', 'emqx_authn_scram_mnesia', 'emqx_banned', 'emqx_psk'],
  '5.8': ['emqx_acl', 'emqx_admin', 'emqx_app', 'emqx_authn_mnesia', 'emqx_authn_scram_mnesia', 'emqx_banned', 'emqx_banned_rules', 'emqx_psk'],
  '5.10': ['emqx_acl', 'emqx_admin', 'emqx_app', 'emqx_authn_mnesia', 'emqx_authn_scram_mnesia', 'emqx_banned', 'emqx_banned_rules', 'emqx_psk'],
  '6.2': ['emqx_acl', 'emqx_acl_ns', 'emqx_admin', 'emqx_app', 'emqx_authn_mnesia', 'emqx_authn_mnesia_ns', 'emqx_authn_scram_mnesia',
    'emqx_authn_scram_mnesia_ns', 'emqx_banned', 'emqx_banned_rules', 'emqx_psk'],
};

for (const { emqxVersion, edition } of profiles()) {
  test(`${emqxVersion} ${edition}: the backup follows the broker's layout, edition and version are the profile's`, async () => {
    const app = await buildTestApp({ emqxVersion, edition } as never);
    const token = await login(app);
    // The GET answer less what the update's schema lacks (`name`, emqx_mgmt_api_listeners.erl).
    const { name: _name, running: _running, current_connections: _count, ...listener } = (await api(app, 'GET', '/api/v5/listeners/tcp:default', { token })).json();
    assert.is((await api(app, 'PUT', '/api/v5/listeners/tcp:default', { token, body: { ...listener, max_connections: 4321 } })).statusCode, 200);
    assert.is((await api(app, 'POST', '/api/v5/authorization/sources', { token, body: { type: 'built_in_database' } })).statusCode, 204);
    await api(app, 'POST', '/api/v5/authorization/sources/built_in_database/rules/users', { token, body: [{ username: 'sensor-2', rules: [{ action: 'publish', permission: 'deny', topic: 'secret/#' }] }] });
    await api(app, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'bad-1' } });
    const { filename } = (await api(app, 'POST', '/api/v5/data/export', { token, body: {} })).json();
    const entries = await untargz((await api(app, 'GET', `/api/v5/data/files/${filename}`, { token })).rawPayload);
    const base = filename.replace(/\.tar\.gz$/, '');
    const files = entries.filter((e) => e.type === 'file');
    const tables = files.filter((e) => e.name.startsWith(`${base}/mnesia/`)).map((e) => e.name.slice(base.length + 8)).sort();
    assert.equal(tables, LAYOUTS[emqxVersion.split('.').slice(0, 2).join('.')]);
    assert.equal(files.filter((e) => !e.name.includes('/mnesia/')).map((e) => e.name).sort(), [`${base}/META.hocon`, `${base}/cluster.hocon`]);
    // META.hocon: hocon_pp of #{version, edition}.
    assert.equal(parseHocon(files.find((e) => e.name === `${base}/META.hocon`)!.data.toString()), { edition, version: emqxVersion });
    // cluster.hocon: the changed roots under their EMQX names; built-in database data is not in it.
    const cluster = parseHocon(files.find((e) => e.name === `${base}/cluster.hocon`)!.data.toString());
    assert.is((cluster.listeners as any).tcp.default.max_connections, 4321);
    assert.not.ok('banned' in cluster || 'authz_rules' in cluster || 'users' in cluster);
    const acl = JSON.parse(files.find((e) => e.name === `${base}/mnesia/emqx_acl`)!.data.toString());
    assert.equal(acl.map((r: any) => [r.who, r.rules.map((x: any) => `${x.permission} ${x.action} ${x.topic}`)]), [[{ username: 'sensor-2' }, ['deny publish secret/#']]]);
    const banned = JSON.parse(files.find((e) => e.name === `${base}/mnesia/emqx_banned`)!.data.toString());
    assert.equal(banned.map((b: any) => b.who), ['bad-1']);
    await app.close();
  });
}

test('import refuses an Enterprise backup on Community and one from a newer release (check_edition, check_version)', async () => {
  const app = await buildTestApp({ emqxVersion: '5.5.1', edition: 'ce' } as never);
  const token = await login(app);
  const archive = (meta: string) => targz([
    { name: 'emqx-export-x/META.hocon', data: Buffer.from(meta) },
    { name: 'emqx-export-x/cluster.hocon', data: Buffer.from('rewrite = []\n') },
  ]);
  const cases: [string, RegExp][] = [
    ['edition = ee\nversion = "5.5.1"\n', /importing EMQX Enterprise data backup to EMQX is not allowed/],
    ['edition = ce\nversion = "5.8.9"\n', /Backup version "5.8.9" is newer than EMQX version "5.5.1"/],
    ['edition = xx\nversion = "5.5.1"\n', /wrong EMQX edition value in META.hocon/],
  ];
  for (const [meta, message] of cases) {
    const res = await upload(app, token, 'emqx-export-x.tar.gz', await archive(meta));
    assert.is(res.statusCode, 400, meta);
    assert.match(res.json().message, message);
  }
  assert.is((await upload(app, token, 'emqx-export-x.tar.gz', await archive('edition = ce\nversion = "5.5.0"\n'))).statusCode, 204);
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
