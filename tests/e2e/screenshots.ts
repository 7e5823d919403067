// Takes screenshots of login, the default-password prompt, the overview, users and the create
// form in zh and en, light and dark, from a running console: `npm run screenshots -- URL DIR`.
// Logs in as admin/public (or SHOT_USER / SHOT_PASSWORD).
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, openPage, waitUntil } from '../helpers/browser.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:18083';
const out = process.argv[3] ?? path.join(os.tmpdir(), 'console-screenshots');
const user = process.env.SHOT_USER ?? 'admin';
const password = process.env.SHOT_PASSWORD ?? 'public';
mkdirSync(out, { recursive: true });

const browser = await launch();
for (const locale of ['en-US', 'zh-CN']) {
  for (const scheme of ['light', 'dark'] as const) {
    const w = await openPage(browser, { locale, colorScheme: scheme });
    const shot = (name: string) => w.page.screenshot({ path: path.join(out, `${name}-${locale.slice(0, 2)}-${scheme}.png`) });
    await w.page.goto(base + '/');
    await w.page.waitForSelector('[data-test=login-form]');
    await shot('login');
    await w.page.fill('input[name=username]', user);
    await w.page.fill('input[name=password]', password);
    await w.page.click('[data-test=form-submit]');
    await w.page.waitForSelector('[data-test=change-password-form], [data-test=overview-page]');
    if (await w.page.isVisible('[data-test=change-password-form]')) {
      await shot('prompt');
      await w.page.click('[data-test=login-skip]');
    }
    await w.page.waitForSelector('[data-test=overview-page] .cards');
    // The charts draw one per idle period after the cards: wait until the last one is drawn.
    await w.page.waitForSelector('[data-test=monitor-charts] .chart-grid');
    await waitUntil(w.page, `[...document.querySelectorAll('[data-test=monitor-charts] figure.chart')].every((f) => f.hasAttribute('data-drawn'))`, 10000);
    await shot('overview');
    await w.page.goto(base + '/#/users');
    await w.page.waitForSelector('[data-test=users-row]');
    await shot('users');
    await w.page.click('[data-test=users-create]');
    await w.page.click('[data-test=form-submit]');
    await shot('users-create');
    if (w.violations.length || w.errors.length) console.error(locale, scheme, w.violations, w.errors);
    await w.context.close();
  }
}
await browser.close();
console.log(`screenshots in ${out}`);
