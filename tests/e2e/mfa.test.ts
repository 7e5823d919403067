// Two-factor sign-in on 6.2.2 in Chromium (issue #32 acceptance 2): the user sets up MFA from the
// user menu, reads the key from the setup step, signs in with a TOTP code computed by the tests'
// own helpers/totp.ts (not the simulator's), signs out, is asked for a code only; a wrong code is
// refused in words; a locked account says so and for how long. Screenshots of the steps in zh and
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

async function password(page: Page, user: string, secret: string) {
  await page.fill('[data-test=login-form] input[name=username]', user);
  await page.fill('[data-test=login-form] input[name=password]', secret);
  await page.click('[data-test=login-form] [data-test=form-submit]');
}

test.before(async () => {
  sim = await spawnSimulator(['--emqx-version', '6.2.2', '--seed', 'empty']);
  browser = await launch();
  if (!shots) return;
  // For the screenshots, an administrator sets MFA up for `operator`: until its first code, its
  // sign-in shows the key.
  const token = await login(sim.baseUrl);
  await request(sim.baseUrl, 'POST', '/api/v5/users', { token, body: { username: 'operator', password: 'operator-pass-1', description: '' } });
  await request(sim.baseUrl, 'POST', '/api/v5/users/operator/mfa', { token, body: { mechanism: 'totp' } });
});

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

if (shots) {
  test('screenshots of the MFA steps in zh and en, light and dark', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
      for (const scheme of ['light', 'dark'] as const) {
        const { page, context } = await openPage(browser, { locale, colorScheme: scheme });
        const name = (step: string) => path.join(shots, `mfa-${step}-${locale.slice(0, 2)}-${scheme}.png`);
        await page.goto(sim.baseUrl + '/');
        await password(page, 'operator', 'operator-pass-1');
        await page.waitForSelector('[data-test=mfa-qr] svg path');
        await page.screenshot({ path: name('setup') });
        await page.fill('[data-test=mfa-form] input[name=code]', '000000');
        await page.click('[data-test=mfa-form] [data-test=form-submit]');
        await page.waitForSelector('[data-test=login-error]');
        await page.screenshot({ path: name('wrong') });
        await context.close();
      }
    }
  });
}

test.run();
