// Basic Config in Chromium against the spawned simulator: the configuration file tab edits
// sys_topics.sys_heartbeat_interval in the HOCON text, saves it (the broker's own
// GET /configs/sys_topics answers the new value), and resets the sys_topics root to its default.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';
import { login, request } from '../helpers/simulator.ts';

let consoleRun: ConsoleSession;
let token: string;

test.before(async () => {
  consoleRun = await openConsole();
  token = await login(consoleRun.sim.baseUrl);
});

test.after(async () => {
  await consoleRun?.close();
});

const sysTopics = async () => (await request(consoleRun.sim.baseUrl, 'GET', '/api/v5/configs/sys_topics', { token })).json as Record<string, unknown>;

test('edit the configuration file, save, see the broker answer it, then reset the root', async () => {
  const { page } = consoleRun.w;
  // Basic Config is the first entry of the System and Configuration group.
  await page.click('[data-test=menu-group-system]');
  const first = page.locator('[data-test=menu-group-system] + ul [data-test^="menu-"]').first();
  assert.is(await first.getAttribute('data-test'), 'menu-basic-config');
  await page.click('[data-test=menu-basic-config]');
  await page.waitForSelector('[data-test=config-force-shutdown-form]');
  await page.click('[data-test="tab-/basic-config?tab=file"]');
  const input = page.locator('[data-test=config-file-editor-input]');
  await page.waitForFunction(() => (document.querySelector('[data-test=config-file-editor-input]') as HTMLTextAreaElement | null)?.value.includes('sys_heartbeat_interval = 30s'));
  assert.is(await input.getAttribute('readonly'), '');

  await page.click('[data-test=config-file-edit]');
  const text = await input.inputValue();
  await input.fill(text.replace('sys_heartbeat_interval = 30s', 'sys_heartbeat_interval = 45s'));
  await page.click('[data-test=config-file-save]');
  await page.click('[data-test=confirm-ok]');
  await page.waitForSelector('text=Configuration saved');
  assert.is((await sysTopics()).sys_heartbeat_interval, '45s');
  await page.waitForFunction(() => (document.querySelector('[data-test=config-file-editor-input]') as HTMLTextAreaElement | null)?.value.includes('sys_heartbeat_interval = 45s'));

  await page.selectOption('[data-test=config-file-root]', 'sys_topics');
  await page.waitForFunction(() => (document.querySelector('[data-test=config-file-editor-input]') as HTMLTextAreaElement | null)?.value.startsWith('sys_topics {'));
  await page.click('[data-test=config-file-reset]');
  await page.click('[data-test=confirm-ok]');
  await page.waitForSelector('text=Reset successful');
  assert.is((await sysTopics()).sys_heartbeat_interval, '30s');
  await page.waitForFunction(() => (document.querySelector('[data-test=config-file-editor-input]') as HTMLTextAreaElement | null)?.value.includes('sys_heartbeat_interval = 30s'));
  assert.equal(consoleRun.w.errors, []);
  assert.equal(consoleRun.w.violations, []);
});

test.run();
