// A broker restart in the middle of work: the form stays, signing in again happens in a dialog
// over it and the refused Save is offered again; and the console notices by itself that the broker
// is back (it asks /status after an outage), then reloads what the screen shows.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
import type { Browser } from 'playwright-core';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sessions-e2e-'));
let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;

/** Stops the simulator and starts it again on the same port with the same data directory. */
async function restart() {
  const port = sim.http;
  await sim.kill();
  sim = await spawnSimulator(['--seed', 'empty', '--data-dir', dataDir, '--http-port', String(port)]);
  return Date.now();
}

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'empty', '--data-dir', dataDir]);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a form filled before a restart is saved after signing in again in the dialog, with the typed values', async () => {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#/users`);
  await page.click('[data-test=users-create]');
  const form = '[data-test=users-create-form] form';
  await page.fill(`${form} [name=username]`, 'night_ops');
  await page.fill(`${form} [name=password]`, 'shift-2024');
  await page.fill(`${form} [name=confirm]`, 'shift-2024');
  await page.fill(`${form} [name=description]`, 'typed before the restart');
  await restart();
  await page.click(`${form} [data-test=form-submit]`);
  await page.waitForSelector('[data-test=reauth-dialog]');
  assert.match(await page.textContent('[data-test=reauth-reason]') ?? '', /Login has expired, please login again/);
  assert.ok(page.url().endsWith('#/users'), 'the screen stays');
  await page.fill('[data-test=reauth-dialog] [name=password]', 'public');
  await page.click('[data-test=reauth-dialog] [data-test=form-submit]');
  await page.click('[data-test=reauth-resend]');
  await page.waitForSelector('[data-test=users-create-form]', { state: 'detached' });
  await page.waitForSelector('[data-test=users-row][data-key=night_ops]');
  const token = await login(sim.baseUrl);
  const users = (await request(sim.baseUrl, 'GET', '/api/v5/users', { token })).json as { username: string; description: string }[];
  assert.equal(users.find((u) => u.username === 'night_ops')?.description, 'typed before the restart');
  await login(sim.baseUrl, 'night_ops', 'shift-2024');
  assert.equal(w.errors, []);
});

test('the console notices within 10 s by itself that the broker is back, and reloads the screen', async () => {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#/dashboard/overview`);
  await page.waitForSelector('[data-test=overview-connections] strong:not(:text("…"))');
  const port = sim.http;
  await sim.kill();
  // The overview's next reading (every 10 s) finds nobody.
  await page.waitForSelector('[data-test=connection-lost]', { timeout: 15_000 });
  sim = await spawnSimulator(['--seed', 'empty', '--data-dir', dataDir, '--http-port', String(port)]);
  const back = Date.now();
  // Back: the banner goes and the screen reloads, which finds the login gone with the restart.
  await page.waitForSelector('[data-test=connection-lost]', { state: 'detached', timeout: 10_000 });
  await page.waitForSelector('[data-test=reauth-dialog]', { timeout: 10_000 });
  assert.ok(Date.now() - back <= 10_000, `noticed after ${Date.now() - back} ms`);
  await page.fill('[data-test=reauth-dialog] [name=password]', 'public');
  await page.click('[data-test=reauth-dialog] [data-test=form-submit]');
  await page.waitForSelector('[data-test=reauth-dialog]', { state: 'detached' });
  await page.waitForSelector('[data-test=overview-connections] strong:not(:text("…"))');
});

test.run();
