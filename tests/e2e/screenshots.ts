import { launch, openPage } from '../helpers/browser.ts';
const base = process.argv[2]; const out = process.argv[3] ?? '/tmp/shots';
const browser = await launch();
for (const locale of ['en-US', 'zh-CN']) for (const scheme of ['light', 'dark'] as const) {
  const w = await openPage(browser, { locale, colorScheme: scheme });
  const tag = `${locale.slice(0, 2)}-${scheme}`;
  await w.page.goto(base + '/');
  await w.page.waitForSelector('[data-test=login-form]');
  await w.page.screenshot({ path: `${out}/login-${tag}.png` });
  await w.page.fill('input[name=username]', 'admin'); await w.page.fill('input[name=password]', 'public');
  await w.page.click('[data-test=form-submit]');
  await w.page.waitForSelector('[data-test=change-password-form]');
  await w.page.screenshot({ path: `${out}/prompt-${tag}.png` });
  await w.page.click('[data-test=login-skip]');
  await w.page.waitForSelector('[data-test=overview-page] .cards');
  await w.page.screenshot({ path: `${out}/overview-${tag}.png` });
  await w.page.goto(base + '/#/users'); await w.page.waitForSelector('[data-test=users-row]');
  await w.page.screenshot({ path: `${out}/users-${tag}.png` });
  await w.page.click('[data-test=users-create]'); await w.page.click('[data-test=form-submit]');
  await w.page.screenshot({ path: `${out}/users-create-${tag}.png` });
  console.log(tag, w.violations, w.errors);
  await w.context.close();
}
await browser.close();
