import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launch, openPage, type WatchedPage } from '../helpers/browser.ts';
import { spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  browser = await launch();
  w = await openPage(browser);
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

const hash = () => new URL(w.page.url()).hash;

async function login(username: string, password: string) {
  await w.page.fill('[data-test=login-form] input[name=username]', username);
  await w.page.fill('[data-test=login-form] input[name=password]', password);
  await w.page.click('[data-test=login-form] [data-test=form-submit]');
}

async function logout(confirmText: string, doneText: string) {
  await w.page.click('[data-test=user-menu]');
  await w.page.click('[data-test=menu-logout]');
  await w.page.getByText(confirmText, { exact: true }).waitFor();
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText(doneText, { exact: true }).waitFor();
  await w.page.waitForSelector('[data-test=login-form]');
}

test('a fresh simulator shows the login form and the default password prompt with Skip', async () => {
  await w.page.goto(sim.baseUrl + '/');
  await w.page.waitForSelector('[data-test=login-form]');
  assert.ok(hash().startsWith('#/login'));
  await login('admin', 'public');
  await w.page.waitForSelector('[data-test=change-password-form]');
  await w.page.click('[data-test=login-skip]');
  await w.page.waitForSelector('[data-test=overview-page]');
  assert.is(hash(), '#/dashboard/overview');
  assert.match(await w.page.textContent('[data-test=overview-nodes]') ?? '', /3 running of 3/);
});

test('the header shows the active alarm count of the demo cluster', async () => {
  const banner = await w.page.waitForSelector('[data-test=alarm-banner]');
  assert.match((await banner.textContent()) ?? '', /2 active alarms/);
});

test('Users: an operator creates a user who then appears in the list', async () => {
  await w.page.click('[data-test=menu-group-management]');
  await w.page.click('[data-test=menu-users]');
  await w.page.waitForSelector('[data-test=users-row][data-key=admin]');
  await w.page.click('[data-test=users-create]');
  const form = '[data-test=users-create-form]';
  await w.page.fill(`${form} input[name=username]`, 'ops1');
  await w.page.fill(`${form} input[name=password]`, 'weak');
  await w.page.fill(`${form} input[name=confirm]`, 'weak');
  await w.page.click(`${form} [data-test=form-submit]`);
  assert.ok(await w.page.isVisible(`${form} [data-test=error-password]`), 'a weak password is refused at the field');
  await w.page.fill(`${form} input[name=password]`, 'Operator#2026');
  await w.page.fill(`${form} input[name=confirm]`, 'Operator#2026');
  await w.page.fill(`${form} textarea[name=description]`, 'night shift');
  await w.page.click(`${form} [data-test=form-submit]`);
  await w.page.waitForSelector('[data-test=users-row][data-key=ops1]');
  assert.match(await w.page.textContent('[data-test=users-row][data-key=ops1]') ?? '', /night shift/);
  assert.not.ok(await w.page.isVisible('[data-test=users-row][data-key=admin] [data-test=users-delete]'), 'admin cannot be deleted');
});

test('logging out asks to confirm, says "Logged out", and the new user can log in', async () => {
  await logout('Confirm to logout', 'Logged out');
  await login('ops1', 'Operator#2026');
  await w.page.waitForSelector('[data-test=overview-page]');
  assert.not.ok(await w.page.isVisible('[data-test=change-password-form]'));
});

test('an unknown path shows "Page not found"', async () => {
  await w.page.goto(sim.baseUrl + '/#/no/such/page');
  await w.page.getByText('Page not found', { exact: true }).waitFor();
});

test('switching to Chinese reloads the page in Chinese; dark theme applies after reload', async () => {
  await w.page.goto(sim.baseUrl + '/#/settings');
  await w.page.waitForSelector('[data-test=settings-page]');
  await Promise.all([w.page.waitForEvent('load'), w.page.selectOption('[data-test=settings-lang]', 'zh')]);
  await w.page.waitForSelector('[data-test=settings-page]');
  assert.is(await w.page.textContent('.page-head h2'), '设置');
  assert.is(await w.page.getAttribute('html', 'lang'), 'zh-CN');
  await Promise.all([w.page.waitForEvent('load'), w.page.selectOption('[data-test=settings-theme]', 'dark')]);
  await w.page.waitForSelector('[data-test=settings-page]');
  assert.is(await w.page.getAttribute('html', 'data-theme'), 'dark');
});

test('a logged-out visit to /#/users goes to login and comes back to Users after login', async () => {
  await logout('确认退出登录？', '已退出登录');
  await w.page.goto(sim.baseUrl + '/#/users');
  await w.page.waitForSelector('[data-test=login-form]');
  assert.ok(hash().startsWith('#/login'));
  assert.match(w.page.url(), /to=%2Fusers/);
  await login('ops1', 'Operator#2026');
  await w.page.waitForSelector('[data-test=users-page]');
  assert.ok(hash().startsWith('#/users'));
});

test('no CSP violation, page error or native dialog happened on the way', () => {
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
  assert.equal(w.dialogs, []);
});

test.run();
