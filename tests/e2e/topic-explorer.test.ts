import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { login, REPO_ROOT, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
const children: ChildProcess[] = [];

const sel = (name: string) => `[data-test=${name}]`;
const node = (path: string) => `[data-test=explorer-node][data-path=${JSON.stringify(path)}]`;

/** Runs a mosquitto client against the simulator's TCP port; resolves with its exit code and output. */
function mosquitto(command: 'mosquitto_pub' | 'mosquitto_sub', args: string[]) {
  const child = spawn(command, ['-h', '127.0.0.1', '-p', String(sim.mqtt), ...args]);
  children.push(child);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise<{ code: number | null; out: string }>((resolve) => child.on('close', (code) => resolve({ code, out })));
}

async function until(check: () => Promise<boolean>, ms = 5000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let apiToken = '';
/** An API token for reading the simulator directly. */
async function token() {
  apiToken ||= await login(sim.baseUrl);
  return apiToken;
}

async function select(path: string) {
  await w.page.click(`${node(path)} [data-test=explorer-node-name]`);
  await w.page.waitForSelector(`${sel('explorer-panel-topic')}:text-is(${JSON.stringify(path)})`);
}

async function expand(path: string) {
  await w.page.click(`${node(path)} [data-test=explorer-toggle]`);
}

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'empty', '--nodes', '1']);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  await browser?.close();
  await sim?.kill();
});

test('under load the tree appears within 2 s, a topic shows its payload and a growing history, and the subtree rate matches the load', async () => {
  // The load generator as `npm run load` starts it, for a limited time; it reports every second.
  const load = spawn(process.execPath, ['--import', 'tsx/esm', 'tests/bench/load.ts', '--clients', '200', '--rate', '200', '--port', String(sim.mqtt), '--seconds', '30', '--report', '1'], { cwd: REPO_ROOT });
  children.push(load);
  const reported: number[] = [];
  load.stdout.on('data', (chunk: Buffer) => {
    for (const m of chunk.toString().matchAll(/published ([\d.]+)\/s/g)) reported.push(Number(m[1]));
  });
  await w.page.click(sel('menu-group-diagnose'));
  await w.page.click(sel('menu-topic-explorer'));
  await w.page.waitForSelector(sel('explorer-page'));
  // The address comes from GET /listeners, answered after the page shows.
  await w.page.getByText('Address taken from the first enabled WebSocket listener').waitFor();
  assert.is(await w.page.inputValue('[data-test=ws-port]'), String(sim.ws), 'the address is the ws listener');
  await until(async () => reported.length > 0, 15_000, 'the load to publish');
  // Timed inside the page, from the click to the load's level in the tree.
  // (A string, so the bundler's helper names do not reach the page.)
  const elapsed = await w.page.evaluate(`new Promise((resolve) => {
    const t0 = performance.now();
    document.querySelector('[data-test=explorer-connect]').click();
    const check = () => (document.querySelector('[data-test=explorer-node][data-path=load]') ? resolve(performance.now() - t0) : setTimeout(check, 10));
    check();
  })`) as number;
  assert.ok(elapsed < 2000, `the load tree after ${Math.round(elapsed)} ms`);
  assert.is(await w.page.getAttribute(sel('ws-state'), 'data-state'), 'connected');
  await expand('load');
  await w.page.waitForSelector(node('load/0'));
  await expand('load/0');
  await w.page.waitForSelector(node('load/0/data'));
  await select('load/0/data');
  const payload = await w.page.textContent(`${sel('explorer-last')} [data-test=payload-text]`);
  assert.match(payload ?? '', /^\{"t":\d+,"v":[\d.]+\}$/);
  const items = () => w.page.locator(sel('explorer-history-item')).count();
  const before = await items();
  await until(async () => (await items()) > before, 8000, 'the history to grow');
  // Five seconds of steady traffic fill the rate window; compare with what the load reported.
  await new Promise((r) => setTimeout(r, 6500));
  const rate = Number(await w.page.getAttribute(`${node('load')} [data-test=explorer-node-rate]`, 'data-rate'));
  const published = reported.slice(-5).reduce((a, b) => a + b, 0) / Math.min(5, reported.length);
  assert.ok(Math.abs(rate - published) <= published * 0.1, `explorer ${rate} msg/s, load ${published} msg/s`);
  load.kill('SIGTERM');
  await new Promise((r) => load.once('close', r));
});

test('a retained message from mosquitto_pub -r is marked; deleting it from the explorer leaves mosquitto_sub --retained-only empty', async () => {
  const topic = 'explorer/retained';
  assert.is((await mosquitto('mosquitto_pub', ['-r', '-q', '1', '-t', topic, '-m', 'kept'])).code, 0);
  await w.page.fill(sel('explorer-search'), 'explorer/');
  await w.page.waitForSelector(`${node(topic)} ${sel('explorer-retained')}`);
  await select(topic);
  await w.page.waitForSelector(sel('explorer-delete-retained'));
  const held = await mosquitto('mosquitto_sub', ['-t', topic, '--retained-only', '-W', '2']);
  assert.is(held.out.trim(), 'kept', 'the broker holds it before the delete');
  await w.page.click(sel('explorer-delete-retained'));
  await w.page.click(sel('confirm-ok'));
  await w.page.waitForSelector(sel('explorer-no-retained'));
  await until(async () => (await w.page.locator(`${node(topic)} ${sel('explorer-retained')}`).count()) === 0, 3000, 'the marker to go');
  const after = await mosquitto('mosquitto_sub', ['-t', topic, '--retained-only', '-W', '2']);
  assert.is(after.out, '');
});

test('with load/7/# and # subscribers, the explorer lists both for load/7/data; nothing it asks answers 404', async () => {
  const search = await w.page.inputValue(sel('explorer-search'));
  const notFound: string[] = [];
  const onResponse = (r: { status(): number; url(): string }) => r.status() === 404 && notFound.push(r.url());
  w.page.on('response', onResponse);
  for (const [id, filter] of [['deep-7', 'load/7/#'], ['every-topic', '#']]) {
    void mosquitto('mosquitto_sub', ['-i', id, '-t', filter, '-W', '20']);
  }
  await until(async () => (await fetch(`${sim.baseUrl}/api/v5/subscriptions?clientid=deep-7`, { headers: { authorization: `Bearer ${await token()}` } }).then((r) => r.json()) as { data: unknown[] }).data.length === 1, 5000, 'the subscribers');
  assert.is((await mosquitto('mosquitto_pub', ['-t', 'load/7/data', '-m', '7'])).code, 0);
  await w.page.fill(sel('explorer-search'), 'load/7/data');
  await w.page.waitForSelector(node('load/7/data'));
  await select('load/7/data');
  // The explorer's own client subscribes to # as well.
  await until(async () => (await w.page.locator(sel('explorer-subscriber')).count()) >= 3, 5000, 'the matching subscriptions');
  const rows = await w.page.locator(sel('explorer-subscriber')).allTextContents();
  for (const id of ['deep-7', 'every-topic']) assert.ok(rows.some((row) => row.startsWith(id)), `${id} in ${rows.join(' | ')}`);
  assert.ok(rows.some((row) => row.includes('load/7/#')) && rows.some((row) => row.startsWith('every-topic#')));
  // Retained message and metrics are asked for once opened, and "none" is an answer, not a 404.
  await w.page.click(`${sel('explorer-retained-section')} summary`);
  await w.page.waitForSelector(sel('explorer-no-retained'));
  await w.page.click(`${sel('explorer-metrics')} summary`);
  await w.page.waitForSelector(`${sel('explorer-metrics')} p.muted`);
  w.page.off('response', onResponse);
  assert.equal(notFound, []);
  await w.page.fill(sel('explorer-search'), search);
});

test('a numeric JSON field is charted, the last two JSON payloads are diffed, and a hostile topic stays text', async () => {
  const topic = 'explorer/json';
  assert.is((await mosquitto('mosquitto_pub', ['-t', topic, '-m', '{"temp": 20.5, "unit": "C"}'])).code, 0);
  assert.is((await mosquitto('mosquitto_pub', ['-t', topic, '-m', '{"temp": 22, "unit": "C"}'])).code, 0);
  await w.page.waitForSelector(node(topic));
  await select(topic);
  await until(async () => (await w.page.locator(sel('explorer-history-item')).count()) === 2, 3000, 'both messages');
  const diff = await w.page.locator(`${sel('explorer-diff')} [data-kind="-"], ${sel('explorer-diff')} [data-kind="+"]`).allTextContents();
  assert.equal(diff, ['-   "temp": 20.5,', '+   "temp": 22,']);
  assert.is(await w.page.inputValue('[data-test=ws-explorerField]'), 'temp');
  assert.is(await w.page.textContent(sel('explorer-chart-values')), '20.5 · 22');
  await w.page.waitForSelector(`${sel('explorer-chart')} svg`);

  const hostile = '"><img src=x onerror=alert(1)>';
  assert.is((await mosquitto('mosquitto_pub', ['-t', hostile, '-m', '<img src=x onerror=alert(2)>'])).code, 0);
  await w.page.fill(sel('explorer-search'), '');
  await w.page.waitForSelector(node(hostile));
  assert.is(await w.page.textContent(`${node(hostile)} [data-test=explorer-node-name]`), hostile);
  await select(hostile);
  assert.is(await w.page.textContent(`${sel('explorer-last')} [data-test=payload-text]`), '<img src=x onerror=alert(2)>');
  await new Promise((r) => setTimeout(r, 300));
  assert.is(await w.page.locator('img').count(), 0, 'no element made from the wire');
  assert.equal(w.dialogs, []);
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
});

test('the explorer keeps running on other screens, and reads in Chinese with the dark theme', async () => {
  await w.page.click(sel('menu-websocket'));
  await w.page.waitForSelector(sel('websocket-page'));
  assert.is((await mosquitto('mosquitto_pub', ['-t', 'explorer/away', '-m', '1'])).code, 0);
  await w.page.click(sel('menu-topic-explorer'));
  await w.page.fill(sel('explorer-search'), 'away');
  await w.page.waitForSelector(node('explorer/away'));
  assert.is(await w.page.getAttribute(sel('ws-state'), 'data-state'), 'connected');

  const zh = await openPage(browser, { locale: 'zh-CN', colorScheme: 'dark' });
  await loginAsAdmin(zh.page, sim.baseUrl);
  await zh.page.goto(`${sim.baseUrl}/#/topic-explorer`);
  await zh.page.waitForSelector(sel('explorer-page'));
  assert.is(await zh.page.getAttribute('html', 'data-theme'), 'dark');
  assert.is(await zh.page.textContent('.tx-page h2'), '主题浏览器');
  assert.is(await zh.page.textContent(sel('explorer-connect')), '连接');
  await zh.page.click(sel('explorer-connect'));
  // The load's retained status messages arrive on subscribing.
  await zh.page.waitForSelector(`${node('load')} [data-test=explorer-node-count]:text-matches("条$")`);
  assert.equal(zh.violations, []);
  await zh.context.close();
});

test.run();
