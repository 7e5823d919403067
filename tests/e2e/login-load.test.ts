// What the login page loads: only the files index.html names (its entry and the modules it
// preloads; its stylesheet is inside index.html), none of the logged-in shell; the shell's
// stylesheet comes with the shell, after the login page's, and leaves the login page as it was.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launch, loginAsAdmin, openPage } from '../helpers/browser.ts';
import { request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
import { setUpOrFail } from '../helpers/suite.ts';

let sim: SpawnedSimulator;
let browser: Browser;

setUpOrFail(test, async () => {
  sim = await spawnSimulator(['--seed', 'empty']);
  browser = await launch();
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

const file = (url: string) => new URL(url).pathname.split('/').pop()!;
/** The console's stylesheets in cascade order: `login` for the one inside index.html, else the file name with its hash as `*`. */
const stylesheets = (page: Page) =>
  page.$$eval('head style#login-styles, head link[rel=stylesheet]', (sheets) =>
    sheets.map((s) => (s.tagName === 'STYLE' ? 'login' : (s as HTMLLinkElement).href.split('/').pop()!.replace(/-[A-Z0-9]{8}\./, '-*.'))));
/**
 * What the login form looks like: boxes and the computed styles that Pico and the console set.
 * Page code as a string: the TypeScript loader would add helpers to named functions that the page lacks.
 */
const loginLook = (page: Page) => page.evaluate(`['.login-card', '[data-test=login-form] input[name=username]',
  '[data-test=login-form] input[name=password]', '[data-test=form-submit]', '.login-lang', '.forgot summary'].map((selector) => {
    const el = document.querySelector(selector);
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return [selector, Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height),
      style.fontSize, style.padding, style.backgroundColor, style.color, style.borderRadius, style.backgroundImage.slice(0, 40)].join(' ');
  })`) as Promise<string[]>;

test('the login page loads what index.html names and nothing of the shell', async () => {
  const html = (await request(sim.baseUrl, 'GET', '/')).text;
  const named = new Set([...html.matchAll(/<(?:link rel="modulepreload"|script type="module") (?:href|src)="\.\/([^"]+)"/g)].map((m) => m[1].split('/').pop()!));
  assert.ok(/<style id="login-styles">[^<]*\.login-card/.test(html), 'the login page’s rules travel inside index.html');
  assert.not.match(html.replace(/<template[\s\S]*?<\/template>/, ''), /<link rel="stylesheet"/);
  const template = /<template id="shell-styles">(.*?)<\/template>/.exec(html)?.[1] ?? '';
  assert.equal([...template.matchAll(/href="\.\/([^"]+)"/g)].map((m) => m[1].replace(/-[A-Z0-9]{8}\./, '-*.')), ['shell-*.css']);
  const w = await openPage(browser, { locale: 'en-US' });
  const requested: string[] = [];
  w.page.on('request', (r) => { if (/\.(js|css)$/.test(new URL(r.url()).pathname)) requested.push(file(r.url())); });
  await w.page.goto(sim.baseUrl + '/');
  await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
  await w.page.waitForLoadState('networkidle');
  assert.ok(requested.length >= 2, requested.join(' '));
  assert.equal(requested.filter((f) => !named.has(f)), [], 'only files index.html names');
  assert.equal(requested.filter((f) => /^(Shell|shell|screens)/.test(f)), []);
  assert.equal(await stylesheets(w.page), ['login']);
  assert.equal(w.violations, []);
  await w.context.close();
});

test('the login page paints no image: no element or ::before/::after of it has a url() in its style', async () => {
  // Each data: SVG image costs the first paint an SVG document of its own; the page's chevrons are inline icons.
  for (const locale of ['en-US', 'zh-CN']) {
    const w = await openPage(browser, { locale });
    await w.page.goto(sim.baseUrl + '/');
    await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
    const images = await w.page.evaluate(`[document.documentElement, ...document.querySelectorAll('*')].flatMap((el) =>
      [null, '::before', '::after'].flatMap((pseudo) => {
        const style = getComputedStyle(el, pseudo);
        return ['background-image', 'mask-image', 'list-style-image', 'border-image-source', 'content']
          .filter((p) => style.getPropertyValue(p).includes('url('))
          .map((p) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className : '') + (pseudo ?? '') + ' ' + p);
      }))`) as string[];
    assert.equal(images, [], locale);
    await w.context.close();
  }
});

test('the shell adds its stylesheet after the login page’s; the login page looks the same after logging out', async () => {
  for (const scheme of ['light', 'dark'] as const) {
    const w = await openPage(browser, { locale: 'en-US', colorScheme: scheme });
    await w.page.goto(sim.baseUrl + '/');
    await w.page.waitForSelector('[data-test=login-form]');
    const before = await loginLook(w.page);
    await loginAsAdmin(w.page, sim.baseUrl);
    const sheets = await stylesheets(w.page);
    assert.equal(sheets, ['login', 'shell-*.css']);
    // Both apply, and the shell's layout rules with them.
    assert.ok(await w.page.$$eval('head style#login-styles, head link[rel=stylesheet]', (all) => all.every((s) => ((s as HTMLLinkElement).sheet?.cssRules.length ?? 0) > 0)));
    assert.is(await w.page.$eval('.layout', (el) => getComputedStyle(el).display), 'grid');
    await w.page.click('[data-test=user-menu]');
    await w.page.click('[data-test=menu-logout]');
    await w.page.click('[data-test=confirm-ok]');
    await w.page.waitForSelector('[data-test=login-form]');
    assert.equal(await loginLook(w.page), before, scheme);
    assert.equal(w.violations, []);
    await w.context.close();
  }
});

test.run();
