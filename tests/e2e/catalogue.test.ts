// The Chinese texts of the lazily loaded chunks travel in one catalogue (build/messages.mjs):
// a console in English never asks for it; in Chinese it comes once, with the shell, and the
// screens' texts are the Chinese ones the source declares.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
import { setUpOrFail } from '../helpers/suite.ts';
import { setLocale, t } from '../../web/lib/i18n.ts';
import '../../web/features/monitoring/dashboard/messages.ts';
import '../../web/features/monitoring/clients/messages.ts';
import '../../web/features/system/messages.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
const catalogueRequests: string[] = [];

setUpOrFail(test, async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  browser = await launch();
  w = await openPage(browser, { locale: 'en-US' });
  w.page.on('request', (r) => { if (/\/chunks\/catalogue-[\w-]+\.js$/.test(new URL(r.url()).pathname)) catalogueRequests.push(r.url()); });
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

/** The texts of the overview's cards, of the clients list's header and of the settings page. */
async function screenTexts() {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#/dashboard/overview`);
  await page.waitForSelector('[data-test=overview-node-list]');
  const overview = (await page.textContent('[data-test=overview-page]')) ?? '';
  await page.goto(`${sim.baseUrl}/#/clients`);
  await page.waitForSelector('main.content table thead');
  const clients = (await page.textContent('main.content table thead')) ?? '';
  await page.goto(`${sim.baseUrl}/#/settings`);
  await page.waitForSelector('[data-test=settings-page]');
  const settings = (await page.textContent('[data-test=settings-page]')) ?? '';
  return { overview, clients, settings };
}

function expectTexts(texts: Awaited<ReturnType<typeof screenTexts>>, lang: 'en' | 'zh') {
  setLocale(lang);
  for (const key of ['dashboard.connections', 'dashboard.liveConnections', 'dashboard.subscriptions']) assert.ok(texts.overview.includes(t(key)), `${lang}: overview shows ${t(key)}`);
  for (const key of ['clients.clientid', 'clients.username']) assert.ok(texts.clients.includes(t(key)), `${lang}: clients show ${t(key)}`);
  for (const key of ['settings.language', 'settings.theme']) assert.ok(texts.settings.includes(t(key)), `${lang}: settings show ${t(key)}`);
  setLocale('en');
}

test('in English the catalogue is never asked for', async () => {
  await loginAsAdmin(w.page, sim.baseUrl);
  expectTexts(await screenTexts(), 'en');
  assert.equal(catalogueRequests, []);
});

test('in Chinese it comes once, with the shell, and the screens show their Chinese texts', async () => {
  await w.page.goto(`${sim.baseUrl}/#/settings`);
  await w.page.waitForSelector('[data-test=settings-page]');
  await Promise.all([w.page.waitForEvent('load'), w.page.selectOption('[data-test=settings-lang]', 'zh')]);
  await w.page.waitForSelector('[data-test=settings-page]');
  assert.is(catalogueRequests.length, 1);
  expectTexts(await screenTexts(), 'zh');
  assert.is(catalogueRequests.length, 1, 'screens entered later add no request');
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
});

test.run();
