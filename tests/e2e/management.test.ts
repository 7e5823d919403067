// Management journeys in Chromium against the spawned simulator: an API key created in the console
// authenticates scripts until it is disabled there; a rewrite rule and an auto-subscribe topic
// created in the console act on real MQTT clients; a delayed message shows with its countdown.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, request, spawnSimulator, waitFor, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
const clients: MqttClient[] = [];

async function mqttClient(clientId: string) {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId });
  c.on('error', () => {});
  clients.push(c);
  return c;
}

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  await Promise.all(clients.map((c) => endMqtt(c)));
  await browser?.close();
  await sim?.kill();
});

test('an API key made in the console authenticates GET /nodes until it is disabled there', async () => {
  await w.page.goto(`${sim.baseUrl}/#/api-key`);
  await w.page.waitForSelector('[data-test=api-key-page]');
  await w.page.click('[data-test=api-key-create]');
  await w.page.fill('[data-test=api-key-create-form] input[name=name]', 'e2e_script');
  await w.page.fill('[data-test=api-key-create-form] textarea[name=desc]', 'journey');
  await w.page.click('[data-test=api-key-create-form] [data-test=form-submit]');
  await w.page.waitForSelector('[data-test=api-key-result]');
  const key = await w.page.inputValue('[data-test=api-key-key]');
  const secret = await w.page.inputValue('[data-test=api-key-secret]');
  assert.match(secret, /^[0-9A-Za-z]{30,}$/);
  assert.ok((await w.page.textContent('[data-test=api-key-result]'))!.includes('will not be shown again'));
  await w.page.click('[data-test=api-key-result-close]');
  assert.not.ok((await w.page.content()).includes(secret), 'the secret left the page with the drawer');

  const basic = { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
  const ok = await request(sim.baseUrl, 'GET', '/api/v5/nodes', { headers: basic });
  assert.is(ok.status, 200);
  assert.ok(Array.isArray(ok.json) && ok.json.length > 0);

  const row = '[data-test=api-key-row][data-key=e2e_script]';
  await w.page.click(`${row} [data-test=api-key-disable]`);
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('API key disabled', { exact: true }).waitFor();
  await w.page.waitForSelector(`${row} [data-test=api-key-enable]`);
  const refused = await request(sim.baseUrl, 'GET', '/api/v5/nodes', { headers: basic });
  assert.is(refused.status, 401);
  assert.is(refused.json.code, 'BAD_API_KEY_OR_SECRET');
});

test('a rewrite rule created in the console rewrites what real clients publish', async () => {
  await w.page.goto(`${sim.baseUrl}/#/topic-rewrite`);
  await w.page.click('[data-test=topic-rewrite-create]');
  const form = '[data-test=topic-rewrite-create-form]';
  await w.page.selectOption(`${form} select[name=action]`, 'publish');
  await w.page.fill(`${form} input[name=source_topic]`, 'x/#');
  await w.page.fill(`${form} input[name=re]`, '^x/(.+)$');
  await w.page.fill(`${form} input[name=dest_topic]`, 'y/$1');
  await w.page.click(`${form} [data-test=form-submit]`);
  await w.page.getByText('Rule added', { exact: true }).waitFor();
  await w.page.waitForSelector('[data-test=topic-rewrite-row]');

  const sub = await mqttClient('e2e-rewrite-sub');
  const got: string[] = [];
  sub.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
  await sub.subscribeAsync('y/#', { qos: 1 });
  const pub = await mqttClient('e2e-rewrite-pub');
  await pub.publishAsync('x/a', 'hello', { qos: 1 });
  await waitFor(() => got.length > 0, 3000, 'the rewritten message');
  assert.equal(got, ['y/a hello']);
});

test('an auto-subscribe topic added in the console is subscribed for the next client', async () => {
  await w.page.goto(`${sim.baseUrl}/#/auto-sub`);
  await w.page.click('[data-test=auto-subscribe-create]');
  await w.page.fill('[data-test=auto-subscribe-create-form] input[name=topic]', 'inbox/${clientid}');
  await w.page.selectOption('[data-test=auto-subscribe-create-form] select[name=qos]', '1');
  await w.page.click('[data-test=auto-subscribe-create-form] [data-test=form-submit]');
  await w.page.waitForSelector('[data-test=auto-subscribe-row][data-key="inbox/${clientid}"]');
  await mqttClient('e2e-auto');
  await w.page.goto(`${sim.baseUrl}/#/clients/detail/e2e-auto`);
  await w.page.waitForSelector('[data-test=client-subscriptions-row][data-key="inbox/e2e-auto"]');
});

test('a delayed message is listed with its original topic and a live countdown', async () => {
  const pub = await mqttClient('e2e-delayed');
  await pub.publishAsync('$delayed/40/e2e/later', 'soon', { qos: 1 });
  await w.page.goto(`${sim.baseUrl}/#/delayed-pub`);
  const row = w.page.locator('[data-test=delayed-messages-row]').filter({ hasText: '$delayed/40/e2e/later' });
  await row.waitFor();
  assert.ok((await row.textContent())!.includes('e2e-delayed'));
  const seconds = async () => Number(/(\d+)s/.exec((await row.locator('[data-test=delayed-remaining]').textContent()) ?? '')?.[1]);
  const first = await seconds();
  assert.ok(first > 30 && first <= 40, String(first));
  await w.page.waitForTimeout(2100);
  const later = await seconds();
  assert.ok(later <= first - 2 && later >= first - 3, `${first} then ${later}`);
  await row.locator('[data-test=delayed-messages-view]').click();
  await w.page.waitForSelector('[data-test=payload-text]');
  assert.is(await w.page.textContent('[data-test=payload-text]'), 'soon');
});

test('no CSP violation, page error or dialog on the way', () => {
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
  assert.equal(w.dialogs, []);
});

test.run();
