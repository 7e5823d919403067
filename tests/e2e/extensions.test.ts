// Extension journeys in Chromium against the spawned simulator: a generated plugin package
// uploaded in the console (progress bar, then the list), start/stop/reorder/uninstall as the API
// reports them, a broken package refused without installing anything; and a backup exported,
// downloaded under its content-disposition name, uploaded again and restored over a changed config;
// an MQTT-SN gateway set up in the wizard really binds its UDP port; an ExHook added in the
// console is probed and reported connected.
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { brokenPluginPackage, pluginFileName, pluginPackage } from '../helpers/plugin-package.ts';
import { login, request, spawnSimulator, waitFor, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
let token: string;
const downloads = mkdtempSync(path.join(os.tmpdir(), 'e2e-downloads-'));

const get = async (urlPath: string) => (await request(sim.baseUrl, 'GET', `/api/v5${urlPath}`, { token })).json;
const pluginIds = async () => ((await get('/plugins')) as { name: string; rel_vsn: string }[]).map((p) => `${p.name}-${p.rel_vsn}`);
const runState = async (id: string) => ((await get(`/plugins/${id}`)) as { running_status: { status: string }[] }).running_status.map((s) => s.status);

test.before(async () => {
  // 5.8.9: plugin configuration forms (GET|PUT /plugins/{id}/config, /schema) are 5.8; gateways
  // and ExHook are the same on both releases. The 5.5 plugin page is in tests/ui/plugins.test.tsx.
  sim = await spawnSimulator(['--seed', 'empty', '--emqx-version', '5.8.9']);
  token = await login(sim.baseUrl);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
  rmSync(downloads, { recursive: true, force: true });
});

async function install(name: string, version: string, buffer: Buffer, fileName = pluginFileName({ name, version })) {
  await w.page.goto(`${sim.baseUrl}/#/plugins/install`);
  await w.page.waitForSelector('[data-test=plugin-upload]');
  await w.page.setInputFiles('[data-test=plugin-upload-input]', { name: fileName, mimeType: 'application/gzip', buffer });
  await w.page.click('[data-test=plugin-upload-submit]');
}

test('an uploaded plugin package shows the progress bar, then the plugin in the list, installed and stopped', async () => {
  // Hold the upload until the progress bar has been seen, then let it through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await w.page.route('**/api/v5/plugins/install', async (route) => {
    await held;
    await route.continue();
  });
  await install('e2e_plugin', '1.0.0', await pluginPackage({ name: 'e2e_plugin', version: '1.0.0', readme: HOSTILE_README }));
  await w.page.waitForSelector('[data-test=plugin-upload-progress]', { state: 'visible' });
  assert.ok(await w.page.isDisabled('[data-test=plugin-upload-submit]'));
  release();
  await w.page.waitForSelector('[data-test=plugins-row][data-key="e2e_plugin-1.0.0"]');
  await w.page.unroute('**/api/v5/plugins/install');
  await w.page.getByText('Successful installation', { exact: true }).waitFor();
  assert.equal(await pluginIds(), ['e2e_plugin-1.0.0']);
  assert.ok((await runState('e2e_plugin-1.0.0')).every((s) => s === 'stopped'));
  const cells = await w.page.locator('[data-test=plugins-row][data-key="e2e_plugin-1.0.0"] td').allTextContents();
  assert.equal(cells.slice(0, 2), ['e2e_plugin', '1.0.0']);
  assert.is(cells[4], 'Inactive');
  // Changed with issue #34: the detail renders the README as EMQX does, and a hostile one stays inert.
  await w.page.click('[data-test=plugins-row][data-key="e2e_plugin-1.0.0"] a');
  await w.page.waitForSelector('[data-test=plugin-readme] h1');
  const readme = '[data-test=plugin-readme]';
  assert.is(await w.page.textContent(`${readme} h1`), 'E2E plugin');
  assert.is(await w.page.textContent(`${readme} strong`), 'bold words');
  assert.is(await w.page.locator(`${readme} :is(b, script, img, iframe, svg, [onerror], [onclick], [style])`).count(), 0, 'no element from raw HTML');
  assert.match(await w.page.textContent(readme) ?? '', /<b>not bold<\/b>/, 'raw HTML stays text');
  const hrefs = await w.page.locator(`${readme} a`).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  assert.not.ok(hrefs.some((h) => /^\s*(javascript|vbscript|data):/i.test(h)), hrefs.join(' '));
  // Clicking the link that would have run script opens nothing and runs nothing.
  await w.page.locator(`${readme} a`, { hasText: 'click me' }).click({ modifiers: [] }).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 300));
  assert.is(await w.page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  assert.equal(w.dialogs, []);
  assert.equal(w.violations, [], 'the CSP is as it was, and nothing tried to break it');
  assert.equal(w.errors, []);
});

/** A README that tries what markdown renderers get wrong: raw HTML, script and data URLs, event attributes, outside images. */
const HOSTILE_README = [
  '# E2E plugin', '', 'Some **bold words** and <b>not bold</b>.', '',
  '<script>window.pwned = 1</script>', '<img src=x onerror="window.pwned = 2">', '<iframe src="javascript:window.pwned=3"></iframe>',
  '', '[click me](javascript:window.pwned=4) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [ok](https://example.com)',
  '', '![tracker](https://tracker.example/pixel.png) <svg onload="window.pwned=5"></svg>', '',
].join('\n');

test('start, stop, move to top and uninstall change what the API reports', async () => {
  await install('other_plugin', '2.0.0', await pluginPackage({ name: 'other_plugin', version: '2.0.0' }));
  const row = (id: string) => `[data-test=plugins-row][data-key="${id}"]`;
  await w.page.waitForSelector(row('other_plugin-2.0.0'));
  assert.equal(await pluginIds(), ['e2e_plugin-1.0.0', 'other_plugin-2.0.0']);

  await w.page.click(`${row('e2e_plugin-1.0.0')} [data-test=plugins-start]`);
  await w.page.waitForSelector(`${row('e2e_plugin-1.0.0')} [data-test=plugins-stop]`);
  assert.ok((await runState('e2e_plugin-1.0.0')).every((s) => s === 'running'));
  assert.is(await w.page.textContent(`${row('e2e_plugin-1.0.0')} [data-test=plugin-status]`), 'Active');

  await w.page.click(`${row('e2e_plugin-1.0.0')} [data-test=plugins-stop]`);
  await w.page.click('[data-test=confirm-ok]');
  await w.page.waitForSelector(`${row('e2e_plugin-1.0.0')} [data-test=plugins-start]`);
  assert.ok((await runState('e2e_plugin-1.0.0')).every((s) => s === 'stopped'));

  await w.page.click(`${row('other_plugin-2.0.0')} [data-test=plugins-top]`);
  await waitFor(async () => (await pluginIds())[0] === 'other_plugin-2.0.0', 3000, 'other_plugin first');
  await w.page.waitForSelector(`[data-test=plugins-row]:first-child[data-key="other_plugin-2.0.0"]`);

  await w.page.click(`${row('other_plugin-2.0.0')} [data-test=plugins-uninstall]`);
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('Uninstalled successfully', { exact: true }).waitFor();
  await w.page.waitForSelector(row('other_plugin-2.0.0'), { state: 'detached' });
  assert.equal(await pluginIds(), ['e2e_plugin-1.0.0']);
});

for (const kind of ['missing-release', 'truncated'] as const) {
  test(`a ${kind} package shows the error and installs nothing`, async () => {
    await install('bad', '1.0.0', await brokenPluginPackage(kind, { name: 'bad', version: '1.0.0' }));
    await w.page.waitForSelector('[data-test=plugin-upload-failed]');
    const message = (await w.page.textContent('[data-test=plugin-upload-failed]'))!;
    assert.ok(message.startsWith('Upload Failed: '), message);
    assert.ok(message.length > 'Upload Failed: '.length + 5, message);
    assert.ok(w.page.url().endsWith('#/plugins/install'));
    assert.equal(await pluginIds(), ['e2e_plugin-1.0.0']);
  });
}

test('a file with another extension is refused when chosen, and nothing is sent without a file', async () => {
  await w.page.goto(`${sim.baseUrl}/#/plugins/install`);
  await w.page.waitForSelector('[data-test=plugin-upload]');
  await w.page.setInputFiles('[data-test=plugin-upload-input]', { name: 'x-1.zip', mimeType: 'application/zip', buffer: Buffer.from('zip') });
  await w.page.getByText('Please upload a file with extension .tar.gz', { exact: true }).waitFor();
  await w.page.click('[data-test=plugin-upload-submit]');
  await w.page.getByText('Please upload the file first', { exact: true }).waitFor();
  assert.equal(await pluginIds(), ['e2e_plugin-1.0.0']);
});

test('a plugin with an Avro schema shows its config form, and saving changes what the API reports', async () => {
  const avsc = { type: 'record', name: 'Config', fields: [{ name: 'hostname', type: 'string' }, { name: 'port', type: 'int' }, { name: 'tls', type: 'boolean' }] };
  await install('conf_plugin', '1.0.0', await pluginPackage({ name: 'conf_plugin', version: '1.0.0', avsc, config: { hostname: 'db.local', port: 3306, tls: false } }));
  await w.page.waitForSelector('[data-test=plugins-row][data-key="conf_plugin-1.0.0"]');
  await w.page.goto(`${sim.baseUrl}/#/plugins/detail/conf_plugin-1.0.0`);
  await w.page.waitForSelector('[data-test=plugin-config-form]');
  assert.is(await w.page.inputValue('[data-test=plugin-config-form] [name=hostname]'), 'db.local');
  await w.page.fill('[data-test=plugin-config-form] [name=port]', '3307');
  await w.page.click('[data-test=plugin-config-form] [data-test=form-submit]');
  await w.page.getByText('Plugin configuration saved', { exact: true }).waitFor();
  assert.equal(await get('/plugins/conf_plugin-1.0.0/config'), { hostname: 'db.local', port: 3307, tls: false });
  await request(sim.baseUrl, 'DELETE', '/api/v5/plugins/conf_plugin-1.0.0', { token });
});

test('backup: export, download under the content-disposition name, upload it back, restore a changed config', async () => {
  const rules = [{ action: 'all', source_topic: 'x/#', re: '^x/(.+)$', dest_topic: 'y/$1' }];
  assert.is((await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: rules })).status, 200);

  await w.page.goto(`${sim.baseUrl}/#/backup`);
  await w.page.waitForSelector('[data-test=backup-page] [data-test=state-empty]');
  await w.page.click('[data-test=backup-create]');
  await w.page.click('[data-test=backup-create-form] [data-test=form-submit]');
  await w.page.getByText('Backup created', { exact: true }).waitFor();
  const files = (await get('/data/files?page=1&limit=20')).data as { node: string; filename: string }[];
  assert.is(files.length, 1);
  const { node, filename } = files[0];
  const row = `[data-test=backup-row][data-key="${filename}"]`;
  await w.page.waitForSelector(row);

  const head = await request(sim.baseUrl, 'GET', `/api/v5/data/files/${encodeURIComponent(filename)}?node=${encodeURIComponent(node)}`, { token });
  const announced = /filename="?([^";]+)"?/.exec(String(head.headers['content-disposition']))![1];
  const [download] = await Promise.all([w.page.waitForEvent('download'), w.page.click(`${row} [data-test=backup-download]`)]);
  assert.is(download.suggestedFilename(), announced);
  const saved = path.join(downloads, download.suggestedFilename());
  await download.saveAs(saved);
  assert.equal(readFileSync(saved).subarray(0, 2), Buffer.from([0x1f, 0x8b]), 'a gzip archive');

  // Delete it, then bring it back by upload.
  await w.page.click(`${row} [data-test=backup-delete]`);
  await w.page.click('[data-test=confirm-ok]');
  await w.page.waitForSelector(row, { state: 'detached' });
  await w.page.click('[data-test=backup-upload]');
  await w.page.setInputFiles('[data-test=backup-file-input]', saved);
  await w.page.click('[data-test=backup-file-submit]');
  await w.page.getByText('Backup uploaded', { exact: true }).waitFor();
  await w.page.waitForSelector(`[data-test=backup-row][data-key="${download.suggestedFilename()}"]`);

  // Change the configuration, then restore the backup over it.
  await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [] });
  assert.equal(await get('/mqtt/topic_rewrite'), []);
  await w.page.click(`[data-test=backup-row][data-key="${download.suggestedFilename()}"] [data-test=backup-restore]`);
  await w.page.getByText(`Restore from ${download.suggestedFilename()}?`, { exact: false }).waitFor();
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('Backup restored', { exact: true }).waitFor();
  assert.equal(await get('/mqtt/topic_rewrite'), rules);
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
});

/** Whether something already holds this UDP port (binding it ourselves fails). */
function udpTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', () => (socket.close(), resolve(true)));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(false)));
  });
}

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

test('the MQTT-SN wizard binds the UDP listener it declares; disabling the gateway in the list frees it', async () => {
  const port = await freeUdpPort();
  await w.page.goto(`${sim.baseUrl}/#/gateway`);
  await w.page.click('[data-test=gateways-row][data-key=mqttsn] [data-test=gateways-enable]');
  await w.page.waitForSelector('[data-test=gateway-basic-form]');
  await w.page.click('[data-test=gateway-basic-form] [data-test=form-submit]');
  await w.page.click('[data-test=gateway-wizard-remove]');
  await w.page.click('[data-test=gateway-wizard-add]');
  await w.page.fill('[data-test=gateway-listener-form] [name=name]', 'e2e');
  await w.page.fill('[data-test=gateway-listener-form] [name=bind]', `127.0.0.1:${port}`);
  await w.page.click('[data-test=gateway-listener-form] [data-test=form-submit]');
  await w.page.click('[data-test=gateway-wizard-next]');
  await w.page.click('[data-test=gateway-auth-form] [data-test=form-submit]');
  await w.page.getByText('Gateway enabled', { exact: true }).waitFor();
  await waitFor(async () => (await get('/gateways/mqttsn')).status === 'running', 3000, 'mqttsn running');
  const listeners = (await get('/gateways/mqttsn/listeners')) as { id: string; bind: unknown }[];
  assert.equal(listeners.map((l) => [l.id, String(l.bind)]), [['mqttsn:udp:e2e', `127.0.0.1:${port}`]]);
  await waitFor(() => udpTaken(port), 3000, 'the UDP port bound');

  const row = '[data-test=gateways-row][data-key=mqttsn]';
  await w.page.waitForSelector(`${row} [data-test=gateways-enable]:checked`);
  await w.page.click(`${row} [data-test=gateways-enable]`);
  await w.page.getByText('Disable the MQTT-SN gateway? All its connections will be closed.', { exact: true }).waitFor();
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('Gateway disabled', { exact: true }).waitFor();
  await waitFor(async () => !(await udpTaken(port)), 3000, 'the UDP port freed');
  assert.is((await get('/gateways/mqttsn')).status, 'stopped');
});

test('an ExHook added in the console is probed: connected to a listening server, with its hooks', async () => {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  try {
    await w.page.goto(`${sim.baseUrl}/#/exhook/create`);
    await w.page.fill('[data-test=exhook-form] [name=name]', 'e2e_hook');
    await w.page.fill('[data-test=exhook-form] [name=url]', `http://127.0.0.1:${port}`);
    await w.page.click('[data-test=exhook-form] [data-test=form-submit]');
    await w.page.getByText('ExHook added', { exact: true }).waitFor();
    const row = '[data-test=exhooks-row][data-key=e2e_hook]';
    await w.page.waitForSelector(`${row} [data-test=exhook-status]`);
    assert.is(await w.page.textContent(`${row} [data-test=exhook-status]`), 'Connected');
    const detail = await get('/exhooks/e2e_hook');
    assert.is(detail.url, `http://127.0.0.1:${port}`);
    await w.page.click(`${row} a`);
    await w.page.waitForSelector('[data-test=exhook-hook]');
    assert.ok((await w.page.locator('[data-test=exhook-hook]').count()) > 0);
  } finally {
    server.close();
  }
});

test.run();
