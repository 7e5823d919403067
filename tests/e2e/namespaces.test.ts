// Namespaces on 6.2.2 in Chromium (issue #32): a rule and a connector made in a managed namespace
// through the API are listed when the namespace is picked and not in the global view, which says
// that other namespaces exist; the namespace stays in the URL across a reload and follows the link
// to the rule's page. Screenshots in zh and en, light and dark, go to $SHOT_DIR when it is set.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage } from '../helpers/browser.ts';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
const shots = process.env.SHOT_DIR;
const sql = 'SELECT * FROM "t/#"';

test.before(async () => {
  sim = await spawnSimulator(['--emqx-version', '6.2.2', '--seed', 'empty']);
  browser = await launch();
  const token = await login(sim.baseUrl);
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await request(sim.baseUrl, method, `/api/v5${url}`, { token, body });
    assert.ok(res.status < 300, `${method} ${url}: ${res.status}`);
  };
  await call('POST', '/mt/ns/tenant-a');
  await call('POST', '/mt/ns/tenant-b');
  await call('POST', '/rules', { id: 'global_rule', sql });
  await call('POST', '/rules?ns=tenant-a', { id: 'tenant_rule', sql, description: 'made in tenant-a' });
  await call('POST', '/connectors?ns=tenant-a', { type: 'http', name: 'tenant_http', url: 'http://127.0.0.1:9' });
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

test('6.2.2: objects of a picked namespace are listed, not in the global view; the URL keeps the namespace', async () => {
  const w = await openPage(browser);
  const { page } = w;
  await loginAsAdmin(page, sim.baseUrl);
  await page.goto(`${sim.baseUrl}/#/rule/rules`);
  await page.waitForSelector('[data-test=rules-row]');
  assert.match(await page.textContent('[data-test=rules-page]') ?? '', 'global_rule');
  assert.not.match(await page.textContent('[data-test=rules-page]') ?? '', 'tenant_rule');
  assert.match(await page.textContent('[data-test=namespace-hint]') ?? '', 'Other namespaces: 2');

  // Keyboard: the picker is a native select reached with Tab and changed with the arrow keys.
  await page.focus('[data-test=namespace-select]');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('[data-test=rules-page]')?.textContent?.includes('tenant_rule'));
  assert.not.match(await page.textContent('[data-test=rules-page]') ?? '', 'global_rule');
  assert.match(page.url(), /ns=tenant-a/);
  assert.is(await page.locator('[data-test=namespace-hint]').count(), 0);

  await page.reload();
  await page.waitForSelector('[data-test=rules-row]');
  assert.is(await page.inputValue('[data-test=namespace-select]'), 'tenant-a');
  assert.match(await page.textContent('[data-test=rules-page]') ?? '', 'tenant_rule');
  // The rule's own page reads it from its namespace.
  await page.click('[data-test=rules-row] a');
  await page.waitForSelector('[data-test=rule-editor]');
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLInputElement>('[data-test=rule-editor] input, [data-test=rule-editor] textarea')]
    .some((field) => field.value === 'made in tenant-a'));
  assert.match(page.url(), /ns=tenant-a/);

  await page.goto(`${sim.baseUrl}/#/connector`);
  await page.waitForSelector('[data-test=namespace-select]');
  await page.waitForSelector('[data-test=connectors-page] .state-empty, [data-test=connectors-page] [data-test=state-empty], [data-test=connectors-page] table');
  assert.not.match(await page.textContent('[data-test=connectors-page]') ?? '', 'tenant_http');
  await page.selectOption('[data-test=namespace-select]', 'tenant-a');
  await page.waitForSelector('[data-test=connectors-row]');
  assert.match(await page.textContent('[data-test=connectors-page]') ?? '', 'tenant_http');
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
  await w.context.close();
});

if (shots) {
  test('screenshots of the picker in zh and en, light and dark', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
      for (const scheme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(browser, { locale, colorScheme: scheme });
        await loginAsAdmin(page, sim.baseUrl);
        await page.goto(`${sim.baseUrl}/#/rule/rules`);
        await page.waitForSelector('[data-test=namespace-hint]');
        await page.screenshot({ path: path.join(shots, `namespaces-global-${locale.slice(0, 2)}-${scheme}.png`) });
        await page.selectOption('[data-test=namespace-select]', 'tenant-a');
        await page.waitForFunction(() => document.querySelector('[data-test=rules-page]')?.textContent?.includes('tenant_rule'));
        await page.screenshot({ path: path.join(shots, `namespaces-picked-${locale.slice(0, 2)}-${scheme}.png`) });
        await context.close();
      }
    }
  });
}

test.run();
