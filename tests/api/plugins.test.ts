// Plugins (emqx-api-part1 §21): packages are really unpacked for release.json and README, bad
// packages install nothing, and start/stop/order/uninstall change what the API reports and
// survive a restart.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SELF_NODE } from '../../simulator/store/cluster/cluster.ts';
import { buildMultipart } from '../helpers/multipart.ts';
import { api, buildTestApp, login } from '../helpers/simulator.ts';
import { brokenPluginPackage, pluginFileName, pluginPackage } from '../helpers/plugin-package.ts';

function upload(app: FastifyInstance, token: string, filename: string, data: Buffer, field = 'plugin') {
  const { body, contentType } = buildMultipart({ [field]: { filename, data, contentType: 'application/x-gzip' } });
  return app.inject({ method: 'POST', url: '/api/v5/plugins/install', payload: body, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}

async function setup(options: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp(options);
  const token = await login(app);
  return { app, token };
}

const ids = async (app: FastifyInstance, token: string) => (await api(app, 'GET', '/api/v5/plugins', { token })).json().map((p: any) => `${p.name}-${p.rel_vsn}`);

test('installing a package reads release.json and README; the plugin is listed stopped on every node', async () => {
  const { app, token } = await setup();
  const res = await upload(app, token, pluginFileName({ name: 'demo', version: '2.1.0' }), await pluginPackage({ name: 'demo', version: '2.1.0', description: 'Demo plugin', readme: '# Demo\nhello' }));
  assert.is(res.statusCode, 204);
  assert.is(res.body, '');
  const list = (await api(app, 'GET', '/api/v5/plugins', { token })).json();
  assert.is(list.length, 1);
  assert.is(list[0].name, 'demo');
  assert.is(list[0].rel_vsn, '2.1.0');
  assert.is(list[0].description, 'Demo plugin');
  assert.equal(list[0].author, ['EMQX Team']);
  assert.is(list[0].builder.name, 'tester');
  assert.is(list[0].readme, undefined);
  assert.equal(list[0].running_status.map((s: any) => s.status), ['stopped', 'stopped', 'stopped']);
  assert.is(list[0].running_status[0].node, SELF_NODE);
  const detail = await api(app, 'GET', '/api/v5/plugins/demo-2.1.0', { token });
  assert.is(detail.statusCode, 200);
  assert.is(detail.json().readme, '# Demo\nhello');
  await app.close();
});

test('bad packages get a clear 400 and install nothing', async () => {
  const { app, token } = await setup();
  const cases: [string, Buffer, string, RegExp][] = [
    ['my_plugin-1.0.0.tar.gz', await brokenPluginPackage('missing-release'), 'BAD_PLUGIN_INFO', /release\.json not found/],
    ['my_plugin-1.0.0.tar.gz', await brokenPluginPackage('truncated'), 'BAD_PLUGIN_INFO', /truncated/],
    ['my_plugin-1.0.0.tar.gz', await brokenPluginPackage('not-gzip'), 'BAD_PLUGIN_INFO', /not a gzip archive/],
    ['my_plugin-1.0.0.zip', await pluginPackage(), 'BAD_FORM_DATA', /plugin=@packagename-vsn\.tar\.gz/],
  ];
  for (const [filename, data, code, message] of cases) {
    const res = await upload(app, token, filename, data);
    assert.is(res.statusCode, 400, filename);
    assert.is(res.json().code, code);
    assert.match(res.json().message, message);
  }
  const wrongField = await upload(app, token, 'my_plugin-1.0.0.tar.gz', await pluginPackage(), 'file');
  assert.is(wrongField.statusCode, 400);
  assert.is(wrongField.json().code, 'BAD_FORM_DATA');
  assert.equal(await ids(app, token), []);
  await app.close();
});

test('installing the same package twice is ALREADY_INSTALLED', async () => {
  const { app, token } = await setup();
  assert.is((await upload(app, token, 'my_plugin-1.0.0.tar.gz', await pluginPackage())).statusCode, 204);
  const again = await upload(app, token, 'my_plugin-1.0.0.tar.gz', await pluginPackage());
  assert.is(again.statusCode, 400);
  assert.is(again.json().code, 'ALREADY_INSTALLED');
  await app.close();
});

test('start, stop, move and uninstall change what the API reports', async () => {
  const { app, token } = await setup({ emqxVersion: '5.5.1' });
  for (const name of ['a', 'b', 'c']) await upload(app, token, `${name}-1.0.0.tar.gz`, await pluginPackage({ name, version: '1.0.0' }));
  assert.equal(await ids(app, token), ['a-1.0.0', 'b-1.0.0', 'c-1.0.0']);
  assert.is((await api(app, 'PUT', '/api/v5/plugins/b-1.0.0/start', { token })).statusCode, 204);
  const b = (await api(app, 'GET', '/api/v5/plugins/b-1.0.0', { token })).json();
  assert.ok(b.running_status.every((s: any) => s.status === 'running'));
  await api(app, 'PUT', '/api/v5/plugins/b-1.0.0/stop', { token });
  assert.ok((await api(app, 'GET', '/api/v5/plugins/b-1.0.0', { token })).json().running_status.every((s: any) => s.status === 'stopped'));

  const move = (id: string, position: string) => api(app, 'POST', `/api/v5/plugins/${id}/move`, { token, body: { position } });
  // emqx_mgmt_api_plugins.erl update_boot_order at 5.5.1 answers `{200}` (204 from 5.8).
  assert.is((await move('c-1.0.0', 'front')).statusCode, 200);
  assert.equal(await ids(app, token), ['c-1.0.0', 'a-1.0.0', 'b-1.0.0']);
  await move('c-1.0.0', 'rear');
  assert.equal(await ids(app, token), ['a-1.0.0', 'b-1.0.0', 'c-1.0.0']);
  await move('a-1.0.0', 'after:b-1.0.0');
  assert.equal(await ids(app, token), ['b-1.0.0', 'a-1.0.0', 'c-1.0.0']);
  await move('c-1.0.0', 'before:b-1.0.0');
  assert.equal(await ids(app, token), ['c-1.0.0', 'b-1.0.0', 'a-1.0.0']);
  assert.is((await move('c-1.0.0', 'sideways')).json().code, 'BAD_POSITION');
  assert.is((await move('c-1.0.0', 'before:zzz-1.0.0')).json().code, 'MOVE_FAILED');

  assert.is((await api(app, 'DELETE', '/api/v5/plugins/b-1.0.0', { token })).statusCode, 204);
  assert.equal(await ids(app, token), ['c-1.0.0', 'a-1.0.0']);
  const gone = await api(app, 'GET', '/api/v5/plugins/b-1.0.0', { token });
  assert.is(gone.statusCode, 404);
  assert.equal(gone.json(), { code: 'NOT_FOUND', message: 'b-1.0.0' });
  assert.is((await api(app, 'PUT', '/api/v5/plugins/b-1.0.0/start', { token })).statusCode, 404);
  await app.close();
});

test('plugin config and schema come from the package', async () => {
  // GET|PUT /plugins/{id}/config and /schema are 5.8 (store/profile.ts).
  const { app, token } = await setup({ emqxVersion: '5.8.9' });
  await upload(app, token, 'plain-1.0.0.tar.gz', await pluginPackage({ name: 'plain' }));
  const avsc = { type: 'record', name: 'Config', fields: [{ name: 'port', type: 'int' }, { name: 'host', type: 'string' }] };
  await upload(app, token, 'conf-1.0.0.tar.gz', await pluginPackage({ name: 'conf', config: { port: 80, host: 'x' }, avsc }));
  const none = await api(app, 'GET', '/api/v5/plugins/plain-1.0.0/config', { token });
  assert.equal([none.statusCode, none.json()], [400, { code: 'BAD_CONFIG', message: 'Plugin Config Not Found' }]);
  assert.is((await api(app, 'GET', '/api/v5/plugins/plain-1.0.0/schema', { token })).statusCode, 404);
  assert.equal((await api(app, 'GET', '/api/v5/plugins/conf-1.0.0/config', { token })).json(), { port: 80, host: 'x' });
  assert.equal((await api(app, 'GET', '/api/v5/plugins/conf-1.0.0/schema', { token })).json(), { avsc, i18n: null });
  assert.is((await api(app, 'PUT', '/api/v5/plugins/conf-1.0.0/config', { token, body: { port: 'no', host: 'y' } })).json().code, 'BAD_CONFIG');
  assert.is((await api(app, 'PUT', '/api/v5/plugins/conf-1.0.0/config', { token, body: { port: 81, host: 'y' } })).statusCode, 204);
  assert.equal((await api(app, 'GET', '/api/v5/plugins/conf-1.0.0/config', { token })).json(), { port: 81, host: 'y' });
  await app.close();
});

test('installed plugins, their run state and order persist across a restart', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-plugins-'));
  try {
    const first = await setup({ dataDir });
    for (const name of ['x', 'y']) await upload(first.app, first.token, `${name}-1.0.0.tar.gz`, await pluginPackage({ name }));
    await api(first.app, 'POST', '/api/v5/plugins/y-1.0.0/move', { token: first.token, body: { position: 'front' } });
    await api(first.app, 'PUT', '/api/v5/plugins/x-1.0.0/start', { token: first.token });
    await first.app.close();
    assert.ok(existsSync(path.join(dataDir, 'plugins', 'x-1.0.0.tar.gz')));
    const second = await setup({ dataDir });
    const list = (await api(second.app, 'GET', '/api/v5/plugins', { token: second.token })).json();
    assert.equal(list.map((p: any) => p.name), ['y', 'x']);
    assert.is(list[1].running_status[0].status, 'running');
    assert.is(list[0].running_status[0].status, 'stopped');
    await second.app.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
