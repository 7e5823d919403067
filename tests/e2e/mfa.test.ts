// Two-factor sign-in on 6.2.2 in Chromium (issue #32 acceptance 2): the user sets up MFA from the
// user menu, reads the key from the setup step, signs in with a TOTP code computed by the tests'
// own helpers/totp.ts (not the simulator's), signs out, is asked for a code only; a wrong code is
// refused in words; a locked account says so and for how long; a user with MFA whose login ends
// inside the console signs in again in the dialog with a code, and the form they were filling is
// saved. Screenshots of the steps (setup, code, refused code, the dialog's code step) in zh and
// en, light and dark, go to $SHOT_DIR when it is set.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launch, loginAsAdmin, openPage } from '../helpers/browser.ts';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
import { totpOf } from '../helpers/totp.ts';

/** A code that stays valid long enough to be typed: waits out the last two seconds of a step. */
async function freshCode(key: string): Promise<string> {
  if (Date.now() % 30_000 > 28_000) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 50));
  return totpOf(key);
}

let sim: SpawnedSimulator;
let browser: Browser;
const shots = process.env.SHOT_DIR;

/** `night` (made in `before`, its MFA reset by an administrator) completes its setup with a first code through the API: its key. */
async function nightWithMfa(): Promise<string> {
  const asked = await request(sim.baseUrl, 'POST', '/api/v5/login', { body: { username: 'night', password: NIGHT } });
  const key = (asked.json as { message: { secret: string } }).message.secret;
  await signInWithCode('night', key);
  return key;
}
const NIGHT = 'night-pass-1';

/** A token of `user` through the API, with a fresh code (from the address in `headers`, when given). */
async function signInWithCode(user: string, key: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request(sim.baseUrl, 'POST', '/api/v5/login', { headers, body: { username: user, password: NIGHT, mfa_token: await freshCode(key) } });
  assert.is(res.status, 200, res.text);
  return res.json.token as string;
}

/** Ends every login of `user` (POST /logout revokes all of the user's tokens): the console's token is refused from now on. */
async function endLogins(user: string, key: string, headers: Record<string, string> = {}) {
  const token = await signInWithCode(user, key, headers);
  const res = await request(sim.baseUrl, 'POST', '/api/v5/logout', { token, body: { username: user } });
  assert.is(res.status, 204, res.text);
}

/** Signs `night` in on the login page: password, then a code. */
async function nightSignsIn(page: Page, key: string) {
  await page.goto(sim.baseUrl + '/#/login?to=%2Fusers');
  await password(page, 'night', NIGHT);
  await page.waitForSelector('[data-test=mfa-form]');
  await page.fill('[data-test=mfa-form] input[name=code]', await freshCode(key));
  await page.click('[data-test=mfa-form] [data-test=form-submit]');
  await page.waitForSelector('[data-test=users-page]');
}

async function password(page: Page, user: string, secret: string) {
  await page.fill('[data-test=login-form] input[name=username]', user);
  await page.fill('[data-test=login-form] input[name=password]', secret);
  await page.click('[data-test=login-form] [data-test=form-submit]');
}

test.before(async () => {
  // With screenshots, each browser signs in from its own address (X-Forwarded-For from loopback,
  // believed with --trust-proxy), so that their many sign-ins stay under the per-address rate limit.
  sim = await spawnSimulator(['--emqx-version', '6.2.2', '--seed', 'empty', ...(shots ? ['--trust-proxy', '127.0.0.1'] : [])]);
  browser = await launch();
  const admin = await login(sim.baseUrl);
  await request(sim.baseUrl, 'POST', '/api/v5/users', { token: admin, body: { username: 'night', password: NIGHT, description: '' } });
  await request(sim.baseUrl, 'POST', '/api/v5/users/night/mfa', { token: admin, body: { mechanism: 'totp' } });
  if (!shots) return;
  // For the screenshots, an administrator sets MFA up for `operator`: until its first code, its
  // sign-in shows the key.
  const token = await login(sim.baseUrl);
  await request(sim.baseUrl, 'POST', '/api/v5/users', { token, body: { username: 'operator', password: 'operator-pass-1', description: '' } });
  await request(sim.baseUrl, 'POST', '/api/v5/users/operator/mfa', { token, body: { mechanism: 'totp' } });
});

let nightKey = '';

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

test('6.2.2: set up MFA from the user menu, sign in with the key read from the page, then with a code only; a wrong code is refused in words', async () => {
  const w = await openPage(browser);
  const { page } = w;
  await loginAsAdmin(page, sim.baseUrl);
  await page.click('[data-test=user-menu]');
  assert.is(await page.textContent('[data-test=broker-info]'), 'EMQX 6.2.2 (one edition)');
  await page.click('[data-test=menu-mfa-enable]');
  await page.click('[data-test=confirm-ok]');
  // A new key ends the session: the sign-in page, then the setup step with the key and its QR code.
  await page.waitForSelector('[data-test=login-form]');
  await password(page, 'admin', 'public');
  await page.waitForSelector('[data-test=mfa-form]');
  const input = page.locator('[data-test=mfa-form] input[name=code]');
  assert.is(await input.getAttribute('inputmode'), 'numeric');
  assert.is(await input.getAttribute('autocomplete'), 'one-time-code');
  await page.waitForSelector('[data-test=mfa-qr] svg path');
  const key = (await page.textContent('[data-test=mfa-secret]'))!.trim();
  assert.match(key, /^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
  // Pasted the way authenticator apps copy it, with a space in the middle.
  const code = await freshCode(key);
  await input.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await page.click('[data-test=mfa-form] [data-test=form-submit]');
  await page.click('[data-test=login-skip]');
  await page.waitForSelector('[data-test=overview-page]');

  await page.click('[data-test=user-menu]');
  await page.click('[data-test=menu-logout]');
  await page.click('[data-test=confirm-ok]');
  await page.waitForSelector('[data-test=login-form]');
  await password(page, 'admin', 'public');
  await page.waitForSelector('[data-test=mfa-form]');
  assert.is(await page.locator('[data-test=mfa-secret]').count(), 0, 'the key is shown only until the first code');
  assert.match(await page.textContent('[data-test=mfa-hint]') ?? '', 'Enter the 6-digit code');
  const right = await freshCode(key);
  await input.fill(right === '000000' ? '111111' : '000000');
  await page.click('[data-test=mfa-form] [data-test=form-submit]');
  await page.waitForSelector('[data-test=login-error]');
  assert.match(await page.textContent('[data-test=login-error]') ?? '', 'The code is wrong or has expired');
  await input.fill(await freshCode(key));
  await page.click('[data-test=mfa-form] [data-test=form-submit]');
  await page.click('[data-test=login-skip]');
  await page.waitForSelector('[data-test=overview-page]');
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
  await w.context.close();
});

test('6.2.2: five wrong passwords lock the account, and the page says for how long, in both languages', async () => {
  for (const [locale, words] of [['en-US', 'locked for 10 minutes'], ['zh-CN', '已被锁定 10 分钟']] as const) {
    const { page, context } = await openPage(browser, { locale });
    await page.goto(sim.baseUrl + '/');
    const user = `locked_${locale.slice(0, 2)}`;
    for (let i = 0; i < 5; i++) {
      await password(page, user, `wrong-${i}`);
      await page.waitForSelector('[data-test=login-error]');
    }
    await password(page, user, 'wrong-again');
    await page.waitForFunction((text) => document.querySelector('[data-test=login-error]')?.textContent?.includes(text), words);
    await context.close();
  }
});

test('6.2.2: a user with MFA whose login ends inside the console signs in again in the dialog with a code; a wrong one is refused in words; the form is kept and saved', async () => {
  nightKey = await nightWithMfa();
  const w = await openPage(browser);
  const { page } = w;
  await nightSignsIn(page, nightKey);
  await page.click('[data-test=users-create]');
  const form = '[data-test=users-create-form] form';
  await page.fill(`${form} [name=username]`, 'day_ops');
  await page.fill(`${form} [name=password]`, 'shift-2024');
  await page.fill(`${form} [name=confirm]`, 'shift-2024');
  await page.fill(`${form} [name=scopes]`, 'monitoring\nconnections');
  await page.fill(`${form} [name=description]`, 'typed before the login ended');
  await endLogins('night', nightKey);
  await page.click(`${form} [data-test=form-submit]`);
  const dialog = '[data-test=reauth-dialog]';
  await page.waitForSelector(dialog);
  await page.fill(`${dialog} [name=password]`, NIGHT);
  const code = `${dialog} [data-test=mfa-form] input[name=code]`;
  // Where the focus is when the code field first shows up (read as the field is added, before
  // any frame paints it): a key pressed at once lands in the code.
  await page.evaluate((selector) => {
    const seen = window as unknown as { codeFocusedAtFirstSight?: boolean };
    const observer = new MutationObserver(() => {
      const field = document.querySelector(selector);
      if (!field) return;
      seen.codeFocusedAtFirstSight = document.activeElement === field;
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }, code);
  await page.click(`${dialog} [data-test=form-submit]`);
  await page.waitForSelector(code);
  assert.ok(await page.evaluate((selector) => document.activeElement === document.querySelector(selector), code), 'typing starts in the code');
  assert.is(await page.evaluate(() => (window as unknown as { codeFocusedAtFirstSight?: boolean }).codeFocusedAtFirstSight), true, 'the code has the focus from its first frame');
  const right = await freshCode(nightKey);
  await page.fill(code, right === '000000' ? '111111' : '000000');
  await page.click(`${dialog} [data-test=mfa-form] [data-test=form-submit]`);
  await page.waitForSelector(`${dialog} [data-test=login-error]`);
  assert.match(await page.textContent(`${dialog} [data-test=login-error]`) ?? '', 'The code is wrong or has expired');
  assert.is(await page.inputValue(`${form} [name=description]`), 'typed before the login ended', 'the form behind keeps what was typed');
  await page.fill(code, await freshCode(nightKey));
  await page.click(`${dialog} [data-test=mfa-form] [data-test=form-submit]`);
  await page.click('[data-test=reauth-resend]');
  await page.waitForSelector('[data-test=users-row][data-key=day_ops]');
  assert.ok(page.url().endsWith('#/users'), 'the screen stays');
  const token = await signInWithCode('night', nightKey);
  const users = (await request(sim.baseUrl, 'GET', '/api/v5/users', { token })).json as { username: string; description: string; scopes: string[] }[];
  const made = users.find((u) => u.username === 'day_ops');
  assert.equal([made?.description, made?.scopes], ['typed before the login ended', ['monitoring', 'connections']]);
  assert.equal(w.errors, []);
  assert.equal(w.violations, []);
  await w.context.close();
});

if (shots) {
  test('screenshots of the MFA steps in zh and en, light and dark', async () => {
    let address = 10;
    for (const locale of ['en-US', 'zh-CN']) {
      for (const scheme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(browser, { locale, colorScheme: scheme });
        const from = { 'x-forwarded-for': `192.0.2.${address++}` };
        await context.setExtraHTTPHeaders(from);
        const name = (step: string) => path.join(shots, `mfa-${step}-${locale.slice(0, 2)}-${scheme}.png`);
        await page.goto(sim.baseUrl + '/');
        await password(page, 'operator', 'operator-pass-1');
        await page.waitForSelector('[data-test=mfa-qr] svg path');
        await page.screenshot({ path: name('setup') });
        await page.fill('[data-test=mfa-form] input[name=code]', '000000');
        await page.click('[data-test=mfa-form] [data-test=form-submit]');
        await page.waitForSelector('[data-test=login-error]');
        await page.screenshot({ path: name('wrong') });
        // The code step of a user whose MFA is set up, on the login page and in the dialog.
        await page.click('[data-test=mfa-back]');
        await password(page, 'night', NIGHT);
        await page.waitForSelector('[data-test=mfa-form] input[name=code]');
        await page.screenshot({ path: name('code') });
        await page.fill('[data-test=mfa-form] input[name=code]', await freshCode(nightKey));
        await page.click('[data-test=mfa-form] [data-test=form-submit]');
        await page.waitForSelector('[data-test=overview-page]');
        await page.goto(sim.baseUrl + '/#/users');
        await page.waitForSelector('[data-test=users-row]');
        await endLogins('night', nightKey, from);
        await page.click('[data-test=users-refresh]');
        await page.fill('[data-test=reauth-dialog] [name=password]', NIGHT);
        await page.click('[data-test=reauth-dialog] [data-test=form-submit]');
        await page.waitForSelector('[data-test=reauth-dialog] [data-test=mfa-form]');
        await page.screenshot({ path: name('dialog-code') });
        await context.close();
      }
    }
  });
}

test.run();
