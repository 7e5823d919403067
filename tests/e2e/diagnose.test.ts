import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
const children: ChildProcess[] = [];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'e2e-diagnose-'));

/** Runs a program; resolves with its exit code and output when it exits. */
function run(cmd: string, args: string[]) {
  const child = spawn(cmd, args);
  children.push(child);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise<{ code: number | null; out: string }>((resolve) => child.on('close', (code) => resolve({ code, out })));
}
const pub = (args: string[]) => run('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), ...args]);

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  for (const child of children) child.kill();
  await browser?.close();
  await sim?.kill();
  rmSync(scratch, { recursive: true, force: true });
});

test('a client-id trace created in the console records a mosquitto client, shows its lines, and downloads as a zip', async () => {
  await w.page.goto(`${sim.baseUrl}/#/log-trace`);
  await w.page.waitForSelector('[data-test=trace-page]');
  await w.page.click('[data-test=trace-create]');
  const form = '[data-test=trace-create-form]';
  await w.page.fill(`${form} input[name=name]`, 'e2eTrace');
  await w.page.fill(`${form} input[name=clientid]`, 'e2e-mosquitto');
  await w.page.click(`${form} [data-test=form-submit]`);
  await w.page.getByText('Trace created', { exact: true }).waitFor();
  const row = '[data-test=trace-row][data-key=e2eTrace]';
  await w.page.waitForSelector(row);
  assert.ok(((await w.page.textContent(row)) ?? '').includes('Running'));

  const published = await pub(['-i', 'e2e-mosquitto', '-q', '1', '-t', 'e2e/trace', '-m', 'hello from mosquitto']);
  assert.is(published.code, 0);
  await w.page.click(`${row} a`);
  await w.page.waitForSelector('[data-test=trace-detail]');
  const lines = w.page.locator('[data-test=trace-lines]');
  await lines.waitFor();
  const log = (await lines.textContent()) ?? '';
  assert.match(log, /\[MQTT\] e2e-mosquitto@127\.0\.0\.1:\d+ msg: mqtt_packet_received, packet: CONNECT\(Q0, R0, D0, ClientId=e2e-mosquitto/);
  assert.ok(log.includes('Topic=e2e/trace, PacketId=1, Payload=hello from mosquitto'), log);
  // The page follows the running trace: a second client session shows up without a reload.
  await pub(['-i', 'e2e-mosquitto', '-t', 'e2e/trace', '-m', 'second message']);
  await w.page.getByText('Payload=second message', { exact: false }).waitFor({ timeout: 8000 });

  const download = w.page.waitForEvent('download');
  await w.page.click('[data-test=trace-download]');
  const file = await download;
  assert.is(file.suggestedFilename(), 'e2eTrace.zip');
  const saved = path.join(scratch, file.suggestedFilename());
  await file.saveAs(saved);
  const listing = await run('unzip', ['-l', saved]);
  assert.match(listing.out, /emqx@node1-trace_e2eTrace_\d{4}-\d\d-\d\d\.log/);
  const content = await run('unzip', ['-p', saved]);
  assert.ok(content.out.includes('Payload=hello from mosquitto') && content.out.includes('Payload=second message'));
  await w.page.getByText('Log downloaded', { exact: true }).waitFor();
});

test('a topic added to topic metrics counts what mosquitto publishes to it', async () => {
  await w.page.goto(`${sim.baseUrl}/#/topic-metrics`);
  await w.page.waitForSelector('[data-test=topic-metrics-page]');
  await w.page.click('[data-test=topic-metrics-create]');
  const form = '[data-test=topic-metrics-create-form]';
  await w.page.fill(`${form} input[name=topic]`, 'e2e/metric/#');
  await w.page.click(`${form} [data-test=form-submit]`);
  await w.page.getByText('Wildcard topic is not supported', { exact: true }).waitFor();
  await w.page.fill(`${form} input[name=topic]`, 'e2e/metric');
  await w.page.click(`${form} [data-test=form-submit]`);
  await w.page.getByText('Topic added', { exact: true }).waitFor();
  const row = '[data-test=topic-metrics-row][data-key="e2e/metric"]';
  await w.page.waitForSelector(row);
  for (const qos of ['0', '1', '2']) assert.is((await pub(['-q', qos, '-t', 'e2e/metric', '-m', `q${qos}`])).code, 0);
  await w.page.click('[data-test=topic-metrics-refresh]');
  await w.page.waitForFunction((selector) => document.querySelector(selector)?.querySelectorAll('td')[1]?.textContent === '3', row);
  // Nobody subscribes, so all three were dropped.
  assert.is(await w.page.locator(`${row} td`).nth(3).textContent(), '3');
  await w.page.click(`${row} [data-test=topic-metrics-view]`);
  await w.page.waitForSelector('[data-test=topic-metric-row]');
  const perQos = await w.page.locator('[data-test=topic-metric-row]').allTextContents();
  assert.ok(perQos[0].startsWith('QoS 01') && perQos[1].startsWith('QoS 11') && perQos[2].startsWith('QoS 21'), perQos.join(' | '));
});

test('no CSP violation, page error or dialog on the way', () => {
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
  assert.equal(w.dialogs, []);
});

test.run();
