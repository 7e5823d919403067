// The limits of 5.10 and later in Chromium on 6.2.2 (issue #32 acceptance 3): a listener's message
// rate set in the console is enforced on the wire (a real MQTT 5 client over it gets 0x97 on QoS 1,
// emqx_channel.erl check_quota_exceeded/2 at 6.2.2); the zone's mqtt.limiter is saved and read
// back; a rate the broker would refuse is refused at the field. Screenshots of both in zh and en,
// light and dark, go to $SHOT_DIR when it is set.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, request, spawnSimulator, waitFor, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
let token = '';
const shots = process.env.SHOT_DIR;
const LISTENER = '[data-test=config-listener-form]';
const ZONE = '[data-test=config-mqtt-general-form]';

test.before(async () => {
  sim = await spawnSimulator(['--emqx-version', '6.2.2', '--seed', 'empty']);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

const get = async (p: string) => (await request(sim.baseUrl, 'GET', `/api/v5${p}`, { token })).json;
const openListener = async (page: Page) => {
  await page.goto(`${sim.baseUrl}/#/listener/detail/${encodeURIComponent('tcp:default')}`);
  await page.waitForSelector(`${LISTENER} [name=messages_rate]`);
};
const openZone = async (page: Page) => {
  await page.goto(`${sim.baseUrl}/#/mqtt/general`);
  await page.waitForSelector(`${ZONE} [name="limiter.messages_rate"]`);
};

test('6.2.2: a listener messages rate of 3/s set in the console: the 4th and 5th QoS 1 publishes of a burst are answered 0x97', async () => {
  const { page } = w;
  await openListener(page);
  // The old node-wide screen is not offered: the rates are here.
  assert.is(await page.locator('[data-test=menu-listener]').count(), 1, 'the system menu is open');
  assert.is(await page.locator('[data-test=menu-limiter]').count(), 0);
  await page.fill(`${LISTENER} [name=messages_rate]`, '0/s');
  await page.click(`${LISTENER} [data-test=form-submit]`);
  assert.is(await page.textContent(`${LISTENER} [data-test=error-messages_rate]`), 'Please enter a properly formatted rate configuration');
  await page.fill(`${LISTENER} [name=messages_rate]`, '3/s');
  await page.click(`${LISTENER} [data-test=form-submit]`);
  await page.click('[data-test=confirm-ok]');
  await page.waitForSelector('[data-test=toast-success]');
  const listener = await get('/listeners/tcp:default');
  assert.is(listener.messages_rate, '3/s');
  assert.is(listener.max_conn_rate, undefined, 'fields left empty are not sent');

  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'e2e-limited', protocolVersion: 5 });
  try {
    const codes = await Promise.all(Array.from({ length: 5 }, (_, i) => new Promise<number>((resolve) => client.publish(`e2e/limit/${i}`, 'x', { qos: 1 }, (err, packet) => {
      resolve((err as Error & { code?: number } | undefined)?.code ?? (packet as { reasonCode?: number } | undefined)?.reasonCode ?? 0);
    }))));
    assert.equal(codes, [0, 0, 0, 0x97, 0x97]);
  } finally {
    await endMqtt(client);
  }
  assert.equal(w.errors, []);
});

test('6.2.2: the zone limiter is saved from MQTT settings and read back', async () => {
  const { page } = w;
  await openZone(page);
  assert.match(await page.textContent(ZONE) ?? '', 'Rate Limits');
  await page.fill(`${ZONE} [name="limiter.messages_rate"]`, '1000/10s');
  await page.fill(`${ZONE} [name="limiter.bytes_rate"]`, '10MB/s');
  await page.fill(`${ZONE} [name="limiter.bytes_burst"]`, 'infinity');
  await page.click(`${ZONE} [data-test=form-submit]`);
  assert.is(await page.textContent(`${ZONE} [data-test="error-limiter.bytes_burst"]`), 'Please enter a properly formatted rate configuration');
  await page.fill(`${ZONE} [name="limiter.bytes_burst"]`, '100MB/1m');
  await page.click(`${ZONE} [data-test=form-submit]`);
  await page.waitForSelector('[data-test=toast-success]');
  const zone = await get('/configs/global_zone');
  assert.equal(zone.mqtt.limiter, { messages_rate: '1000/10s', bytes_rate: '10MB/s', bytes_burst: '100MB/1m' });
  await page.reload();
  await page.waitForSelector(`${ZONE} [name="limiter.messages_rate"]`);
  assert.is(await page.inputValue(`${ZONE} [name="limiter.messages_rate"]`), '1000/10s');
  assert.is(await page.inputValue(`${ZONE} [name="limiter.bytes_burst"]`), '100MB/1m');
  // Emptied, the rate goes from the zone's limiter (it is replaced whole).
  await page.fill(`${ZONE} [name="limiter.messages_rate"]`, '');
  await page.click(`${ZONE} [data-test=form-submit]`);
  const left = { bytes_rate: '10MB/s', bytes_burst: '100MB/1m' };
  await waitFor(async () => JSON.stringify((await get('/configs/global_zone')).mqtt.limiter) === JSON.stringify(left), 3000, 'the emptied rate removed');
  assert.equal(w.errors, []);
});

if (shots) {
  test('screenshots of the listener limits and the zone limiter in zh and en, light and dark', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
      for (const scheme of ['light', 'dark'] as const) {
        const shot = await openPage(browser, { locale, colorScheme: scheme });
        const { page } = shot;
        await loginAsAdmin(page, sim.baseUrl);
        const name = (what: string) => path.join(shots, `limits-${what}-${locale.slice(0, 2)}-${scheme}.png`);
        await openListener(page);
        await page.locator(`${LISTENER} [name=messages_rate]`).scrollIntoViewIfNeeded();
        await page.screenshot({ path: name('listener') });
        await openZone(page);
        await page.locator(`${ZONE} [name="limiter.max_conn_rate"]`).scrollIntoViewIfNeeded();
        await page.screenshot({ path: name('zone') });
        await shot.context.close();
      }
    }
  });
}

test.run();
