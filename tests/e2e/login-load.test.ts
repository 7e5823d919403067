// What the login page loads: only the files index.html names (the boot script, its entry and the
// modules it preloads; its stylesheet is inside index.html), then, once its form waits, the
// logged-in shell, its stylesheet and the overview's chunk without asking the broker anything;
// the shell's stylesheet applies after the login page's and leaves the login page as it was, and
// the shell and the overview are rendered once out of sight under it and removed in the same task,
// to run their code and lay them out before sign-in. The login form index.html carries shows before any module loads, in the stored
// language and theme, and hands what was typed to the console's own form. After Sign in, the
// overview's first frame has its figures, and its first chart needs no idle time and comes in the
// frame that shows the charts; the modules sign-in leads to are compiled as they load.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launch, loginAsAdmin, openPage, waitUntil, type WatchedPage } from '../helpers/browser.ts';
import { login, REPO_ROOT, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
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
/** Page code: whether the shell's stylesheet has loaded and applies (its link alone may still be loading). */
const SHELL_STYLES_APPLIED = `[...document.styleSheets].some((sheet) => /\\/shell-[^/]*\\.css$/.test(sheet.href || ''))`;
/**
 * What the shown login page looks like, the console's or the one drawn into index.html: boxes,
 * texts and the computed styles that Pico and the console set. Page code as a string: the
 * TypeScript loader would add helpers to named functions that the page lacks. The focus (the
 * username has it from the start) is taken away first, its border's transition finished: the
 * stylesheets are compared, not the moment of a transition.
 */
const loginLook = (page: Page) => page.evaluate(`(() => {
  document.activeElement?.blur();
  for (const animation of document.getAnimations()) animation.finish();
  const shown = [...document.querySelectorAll('.login-page')].find((el) => el.getBoundingClientRect().height > 0);
  return ['.login-card', 'input[name=username]', 'input[name=password]', 'button[type=submit]', '.login-lang', '.forgot summary', 'h1', 'label'].map((selector) => {
    const el = shown.querySelector(selector);
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return [selector, box.x, box.y, box.width, box.height, el.innerText, style.font, style.padding, style.backgroundColor, style.color,
      style.border, style.borderRadius, style.backgroundImage.slice(0, 40)].join(' ');
  });
})()`) as Promise<string[]>;

test('every file index.html names is under static/, which is all EMQX serves of its dashboard folder besides /', async () => {
  const html = (await request(sim.baseUrl, 'GET', '/')).text;
  const named = [...html.matchAll(/(?:href|src)="([^"#]+)"/g)].map((m) => m[1]);
  // The favicon, the shell's stylesheet, the boot script, the entry and the chunks it imports.
  assert.ok(named.length >= 5, named.join(' '));
  assert.equal(named.filter((url) => !url.startsWith('./static/')), []);
});

test('the login page loads what index.html names; the shell and the overview come once its form waits, its stylesheet applied without changing the page, rehearsed out of sight under it and asking nothing', async () => {
  const html = (await request(sim.baseUrl, 'GET', '/')).text;
  const named = new Set([...html.matchAll(/<(?:link rel="modulepreload"|script type="module"|script) (?:href|src)="\.\/([^"]+)"/g)].map((m) => m[1].split('/').pop()!));
  assert.ok(/<style id="login-styles">[^<]*\.login-card/.test(html), 'the login page’s rules travel inside index.html');
  assert.not.match(html.replace(/<template[\s\S]*?<\/template>/, ''), /<link rel="stylesheet"/);
  const template = /<template id="shell-styles">(.*?)<\/template>/.exec(html)?.[1] ?? '';
  assert.equal([...template.matchAll(/href="\.\/([^"]+)"/g)].map((m) => m[1].replace(/-[A-Z0-9]{8}\./, '-*.')), ['static/shell-*.css']);
  const w = await openPage(browser, { locale: 'en-US' });
  // When the console's own form was in place, on the page's clock.
  await w.page.addInitScript(`new MutationObserver((_, o) => {
    if (document.querySelector('[data-test=login-form]')) { o.disconnect(); window.__formAt = performance.now(); }
  }).observe(document, { childList: true, subtree: true });`);
  // The shell and the overview rehearsed out of sight (Shell.tsx rehearse): added, then gone; and
  // whether the shell's stylesheet applied by then.
  await w.page.addInitScript(`new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.querySelector?.('[data-test=layout] [data-test=overview-page]')) {
      window.__rehearsed = true;
      window.__rehearsedStyled = ${SHELL_STYLES_APPLIED};
    }
  }).observe(document, { childList: true, subtree: true });`);
  const api: string[] = [];
  w.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) api.push(r.url()); });
  // The shell's stylesheet held until the login page's look is taken without it.
  let releaseStyles = () => {};
  const stylesHeld = new Promise<void>((resolve) => { releaseStyles = resolve; });
  await w.page.route(/\/static\/shell-[^/]*\.css$/, async (route) => {
    await stylesHeld;
    await route.continue();
  });
  await w.page.goto(sim.baseUrl + '/');
  await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
  // Taken twice: the first takes the focus away, and the empty username then says it is required.
  await loginLook(w.page);
  const unstyled = await loginLook(w.page);
  assert.is(await w.page.evaluate(SHELL_STYLES_APPLIED), false, 'held, so not applied yet');
  releaseStyles();
  await waitUntil(w.page, SHELL_STYLES_APPLIED);
  await w.page.waitForLoadState('networkidle');
  await waitUntil(w.page, 'window.__rehearsed === true');
  const loads = await w.page.evaluate(`performance.getEntriesByType('resource')
    .filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname))
    .map((e) => ({ file: new URL(e.name).pathname.split('/').pop(), before: e.startTime < window.__formAt }))`) as { file: string; before: boolean }[];
  const before = loads.filter((l) => l.before).map((l) => l.file);
  const after = loads.filter((l) => !l.before).map((l) => l.file);
  assert.ok(before.length >= 2, before.join(' '));
  assert.equal(before.filter((f) => !named.has(f)), [], 'until its form is in place, only files index.html names');
  assert.equal(before.filter((f) => /^(Shell|shell|screens)/.test(f)), []);
  // Then, at idle, the shell, its stylesheet and the overview's chunk (where sign-in leads).
  for (const part of [/^Shell-/, /^shell-.*\.css$/, /^screens-/]) assert.ok(after.some((f) => part.test(f)), `${part} in ${after.join(' ')}`);
  assert.equal(await stylesheets(w.page), ['login', 'shell-*.css'], 'applied after the login page’s');
  assert.equal(await loginLook(w.page), unstyled, 'the login page looks as it did without it');
  assert.equal(api, [], 'no request to the broker before sign-in');
  assert.is(await w.page.evaluate('window.__rehearsed === true'), true, 'the shell and the overview were rendered once out of sight');
  assert.is(await w.page.evaluate('window.__rehearsedStyled === true'), true, 'under the shell’s stylesheet');
  assert.is(await w.page.$$eval('[data-test=layout], [data-test=overview-page]', (found) => found.length), 0, 'and removed');
  assert.is(await w.page.isVisible('[data-test=login-form] input[name=username]'), true);
  assert.equal(w.violations, []);
  await w.context.close();
});

/**
 * A user made for the test (no password prompt: sign-in goes straight to the overview) signs in on
 * a fresh page that runs `initScript` first; gives the page once Sign in is pressed.
 */
/** A new user signs in on a fresh page with `initScript`; `beforeSubmit` runs once the form is filled. */
async function signInFresh(username: string, initScript: string, beforeSubmit?: (w: WatchedPage) => Promise<void>): Promise<WatchedPage> {
  const user = { username, password: `${username}-Pass-2026` };
  const token = await login(sim.baseUrl);
  assert.is((await request(sim.baseUrl, 'POST', '/api/v5/users', { token, body: { ...user, description: 'e2e' } })).status, 200);
  const w = await openPage(browser, { locale: 'en-US' });
  await w.page.addInitScript(initScript);
  await w.page.goto(sim.baseUrl + '/');
  await w.page.fill('[data-test=login-form] input[name=username]', user.username);
  await w.page.fill('[data-test=login-form] input[name=password]', user.password);
  await beforeSubmit?.(w);
  await w.page.click('[data-test=login-form] [data-test=form-submit]');
  return w;
}

test('after Sign in, the first frame of the overview already shows its cards with figures (its answers came with its chunk)', async () => {
  // The cards' texts at the first animation frame after the overview is in the document: what
  // that frame paints.
  const w = await signInFresh('firstframe', `new MutationObserver((_, o) => {
    if (!document.querySelector('[data-test=overview-page] .cards')) return;
    o.disconnect();
    requestAnimationFrame(() => {
      window.__firstCards = [...document.querySelectorAll('[data-test=overview-page] .cards strong')].map((s) => s.textContent);
    });
  }).observe(document, { childList: true, subtree: true });`);
  await waitUntil(w.page, 'Array.isArray(window.__firstCards)');
  const cards = await w.page.evaluate('window.__firstCards') as string[];
  assert.ok(cards.length >= 4, cards.join(' | '));
  assert.equal(cards.filter((text) => text === '…'), [], cards.join(' | '));
  assert.equal(w.errors, []);
  await w.context.close();
});

test('with no idle time at all, the overview still draws its first chart (the first of a batch waits for no idle period), and only that one', async () => {
  const w = await signInFresh('noidle', 'window.requestIdleCallback = () => 0;');
  await waitUntil(w.page, "document.querySelectorAll('[data-test=monitor-charts] figure.chart').length >= 6");
  await waitUntil(w.page, "!!document.querySelector('[data-test=monitor-charts] figure.chart[data-drawn]')");
  // The others are drawn one per idle period, after a paint each, as before.
  await w.page.waitForTimeout(300);
  const drawn = await w.page.$$eval('[data-test=monitor-charts] figure.chart', (figures) => figures.map((f) => f.hasAttribute('data-drawn')));
  assert.equal(drawn, [true, false, false, false, false, false]);
  await w.context.close();
});

test('the first chart of a batch is drawn in the frame that first shows the charts, not a frame later', async () => {
  // At each animation frame: the first frame with the charts' figures, and whether the first of
  // them was drawn in it.
  const w = await signInFresh('chartframe', `(() => {
    const tick = () => {
      const first = document.querySelector('[data-test=monitor-charts] figure.chart');
      if (first) window.__firstChartFrame = { drawn: first.hasAttribute('data-drawn'), svg: !!first.querySelector('svg') };
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })();`, async ({ page }) => {
    // The overview's other answers come a second later: no other render follows the charts'
    // before the next frame (a render of a chart's parent ran its pending effects early, and hid
    // a chart drawn a frame late).
    await page.route(/\/api\/v5\/(nodes|license|alarms)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue().catch(() => undefined);
    });
    // As an operator types: what comes after sign-in (the chart library among it) loads meanwhile.
    await waitUntil(page, "performance.getEntriesByType('resource').some((e) => e.name.includes('/frappe-charts-'))");
    await page.waitForTimeout(500);
  });
  await waitUntil(w.page, '!!window.__firstChartFrame');
  assert.equal(await w.page.evaluate('window.__firstChartFrame'), { drawn: true, svg: true });
  assert.equal(w.errors, []);
  await w.context.close();
});

test('the modules sign-in leads to carry V8\'s compile hint on their first line; the login page\'s entry and the boot script do not', () => {
  const dir = path.join(REPO_ROOT, 'dist/static');
  const first = (file: string) => readFileSync(file, 'utf8').split('\n', 1)[0];
  const named = (folder: string, re: RegExp) => readdirSync(folder).filter((f) => re.test(f)).map((f) => path.join(folder, f));
  const [shell] = named(path.join(dir, 'chunks'), /^Shell-.*\.js$/);
  assert.is(first(shell), '//# allFunctionsCalledOnLoad');
  for (const file of [...named(dir, /^(main|boot)-.*\.js$/), ...named(path.join(dir, 'chunks'), /^FlowDesigner-.*\.js$/)]) {
    assert.is.not(first(file), '//# allFunctionsCalledOnLoad', file);
  }
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

/** The console's modules, held back until `release` (the boot script is not one of them). */
async function holdModules(page: Page) {
  const held: Array<() => Promise<void>> = [];
  let released = false;
  await page.route(/\/(main-|chunks\/)[^/]*\.js$/, (route) => (released ? route.continue() : void held.push(() => route.continue())));
  return async () => {
    released = true;
    await Promise.all(held.map((go) => go()));
  };
}

/** The visible password inputs: `boot` for one in a form drawn into index.html, `console` for the console's own. */
const visiblePasswords = (page: Page) => page.$$eval('input[type=password]', (inputs) =>
  inputs.filter((i) => i.getBoundingClientRect().height > 0).map((i) => (i.closest('.boot-login') ? 'boot' : 'console')));

/** A stored user record as the console leaves one (the boot script only checks that it is there). */
const storeUser = `localStorage.setItem('emqx-console', JSON.stringify({ userKey: 'AbCd', userSecret: 'c2VjcmV0' }));
  localStorage.setItem('AbCd', 'aXY=.c2VhbGVk');`;

test('before any module loads, a login form shows in the browser’s or the stored language and theme; none with a stored user', async () => {
  const cases = [
    { locale: 'en-US', scheme: 'light', init: '', lang: 'en', theme: 'light', label: 'Password', forms: ['boot'] },
    { locale: 'zh-CN', scheme: 'dark', init: '', lang: 'zh-CN', theme: 'dark', label: '密码', forms: ['boot'] },
    { locale: 'en-US', scheme: 'light', init: `localStorage.setItem('emqx-console', '{"lang":"zh","theme":"dark","syncOsTheme":false}')`, lang: 'zh-CN', theme: 'dark', label: '密码', forms: ['boot'] },
    { locale: 'en-US', scheme: 'light', init: storeUser, lang: 'en', theme: 'light', label: '', forms: [] },
  ] as const;
  for (const c of cases) {
    const w = await openPage(browser, { locale: c.locale, colorScheme: c.scheme });
    if (c.init) await w.page.addInitScript(c.init);
    const release = await holdModules(w.page);
    await w.page.goto(sim.baseUrl + '/#/clients', { waitUntil: 'commit' });
    await w.page.waitForFunction(() => document.documentElement.dataset.theme !== undefined && document.readyState !== 'loading');
    const what = `${c.locale} ${c.init}`;
    assert.equal(await visiblePasswords(w.page), c.forms, what);
    assert.is(await w.page.evaluate(() => document.documentElement.lang), c.lang, what);
    assert.is(await w.page.evaluate(() => document.documentElement.dataset.theme), c.theme, what);
    if (c.label) {
      assert.is(await w.page.evaluate(() => [...document.querySelectorAll('.boot-login label')]
        .find((l) => l.getBoundingClientRect().height > 0 && l.nextElementSibling?.getAttribute('type') === 'password')?.textContent), c.label, what);
    }
    assert.is(await w.page.evaluate(() => document.querySelectorAll('#app *').length), 0, 'no module has run');
    const drawn = c.forms.length ? await loginLook(w.page) : [];
    await release();
    if (c.forms.length) {
      // The console's own form replaces the drawn ones, in the same language, and looks the same.
      await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
      assert.equal(await visiblePasswords(w.page), ['console'], what);
      assert.equal(await loginLook(w.page), drawn, what);
      assert.is(await w.page.$$eval('.boot-login', (forms) => forms.length), 0);
      assert.is(await w.page.evaluate(() => document.documentElement.hasAttribute('data-boot')), false);
    }
    assert.equal(w.violations, []);
    await w.context.close();
  }
});

/** Records in the page when the drawn form's password input was first laid out visible, at the start of a frame. */
const recordFormShown = `new MutationObserver((_, observer) => {
  if (!document.querySelector('.boot-login input[type=password]')) return;
  observer.disconnect();
  const frame = () => {
    const shown = [...document.querySelectorAll('.boot-login input[type=password]')].some((i) => i.getBoundingClientRect().width > 0 && i.checkVisibility());
    if (shown) window.__formShown = performance.now(); else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}).observe(document, { childList: true, subtree: true });`;

/**
 * When each of the console's modules that index.html names was asked for (the shell's, fetched
 * later while the form waits, are not these), when the document was parsed and when the drawn
 * form showed, in ms since navigation.
 */
const moduleTimes = (page: Page) => page.evaluate(`(() => ({
  modules: performance.getEntriesByType('resource')
    .filter((e) => /\\/(main-|chunks\\/)[^/]*\\.js$/.test(new URL(e.name).pathname))
    .filter((e) => [...document.querySelectorAll('script[type=module][src], link[rel=modulepreload]')].some((el) => (el.src || el.href) === e.name))
    .map((e) => e.startTime),
  parsed: performance.getEntriesByType('navigation')[0].domContentLoadedEventStart,
  formShown: window.__formShown ?? NaN,
}))()`) as Promise<{ modules: number[]; parsed: number; formShown: number }>;

test('with a drawn form, the console’s modules are asked for once it shows; with a stored user, before the document is parsed', async () => {
  for (const [init, drawn] of [['', true], [storeUser, false]] as const) {
    const w = await openPage(browser, { locale: 'en-US' });
    await w.page.addInitScript(init || recordFormShown);
    await w.page.goto(sim.baseUrl + '/', { waitUntil: 'load' });
    await w.page.waitForSelector(drawn ? '[data-test=login-form] input[type=password]' : '#app *', { state: 'attached' });
    const { modules, parsed, formShown } = await moduleTimes(w.page);
    // The entry and the modules it imports statically: one request each, all named by index.html.
    assert.ok(modules.length >= 2, String(modules));
    const what = `form shown at ${formShown}, document parsed at ${parsed}, modules asked for at ${modules}`;
    if (drawn) assert.ok(modules.every((start) => start >= formShown), what);
    else assert.ok(modules.every((start) => start < parsed), what);
    assert.equal(w.violations, []);
    await w.context.close();
  }
});

test('when the console’s modules fail to load, the drawn form says so', async () => {
  for (const [locale, text] of [['en-US', 'The console failed to load. Check the network and reload the page.'], ['zh-CN', '控制台加载失败，请检查网络后刷新页面。']]) {
    const w = await openPage(browser, { locale });
    await w.page.route(/\/main-[^/]*\.js$/, (route) => route.abort('connectionrefused'));
    await w.page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
    await w.page.waitForSelector('.boot-login input[type=password]:visible');
    const notice = await w.page.waitForSelector('.boot-failed:visible');
    assert.is(await notice.textContent(), text);
    assert.is(await notice.getAttribute('role'), 'alert');
    await w.context.close();
  }
});

test('what was typed into the drawn form before the console loaded stays, with the caret', async () => {
  const w = await openPage(browser, { locale: 'en-US' });
  const release = await holdModules(w.page);
  await w.page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
  await w.page.waitForSelector('.boot-login input[type=password]:visible');
  await w.page.fill('.boot-login[data-lang=en] input[name=username]', 'admin');
  await w.page.fill('.boot-login[data-lang=en] input[name=password]', 'publc');
  await w.page.evaluate(() => (document.querySelector('.boot-login[data-lang=en] input[name=password]') as HTMLInputElement).setSelectionRange(4, 4));
  await release();
  await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
  assert.equal(await w.page.$$eval('[data-test=login-form] input', (inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value])),
    [['username', 'admin'], ['password', 'publc']]);
  assert.equal(await w.page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement;
    return [active.closest('[data-test=login-form]') !== null, active.name, active.selectionStart];
  }), [true, 'password', 4]);
  // Typing goes on where it was, and the login works.
  await w.page.keyboard.type('i');
  await w.page.keyboard.press('Enter');
  await w.page.waitForSelector('[data-test=change-password-form]');
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
  await w.context.close();
});

test('a control of the drawn page that had the focus has it again on the console’s page', async () => {
  for (const [drawn, live] of [['.login-lang', '.login-lang'], ['button[type=submit]', '[data-test=login-form] [data-test=form-submit]'], ['.forgot summary', '[data-test=login-form] .forgot summary']]) {
    const w = await openPage(browser, { locale: 'en-US' });
    const release = await holdModules(w.page);
    await w.page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
    await w.page.waitForSelector('.boot-login input[type=password]:visible');
    await w.page.focus(`.boot-login[data-lang=en] ${drawn}`);
    await release();
    await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
    assert.ok(await w.page.$eval(live, (el) => el === document.activeElement && !el.closest('.boot-login')), drawn);
    await w.context.close();
  }
});

test('the username has the focus on the drawn form (zh and en) and stays with it on the console\'s; also after logging out', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const w = await openPage(browser, { locale });
    const release = await holdModules(w.page);
    await w.page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
    await w.page.waitForSelector('.boot-login input[type=password]:visible');
    assert.ok(await w.page.evaluate(() => {
      const active = document.activeElement as HTMLInputElement | null;
      return active?.name === 'username' && !!active.closest('.boot-login') && active.checkVisibility();
    }), `${locale}: the drawn form's username`);
    await release();
    await w.page.waitForSelector('[data-test=login-form] input[type=password]', { state: 'visible' });
    assert.is(await w.page.evaluate(() => (document.activeElement as HTMLInputElement)?.closest('[data-test=login-form]') && (document.activeElement as HTMLInputElement).name), 'username');
    await w.context.close();
  }
  const w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
  await w.page.click('[data-test=user-menu]');
  await w.page.click('[data-test=menu-logout]');
  await w.page.click('[data-test=confirm-ok]');
  await w.page.waitForSelector('[data-test=login-form]');
  assert.is(await w.page.evaluate(() => (document.activeElement as HTMLInputElement)?.name), 'username');
  await w.context.close();
});

test('a language chosen on the drawn page is saved and the page reloads in it', async () => {
  const w = await openPage(browser, { locale: 'en-US' });
  await holdModules(w.page);
  await w.page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
  await w.page.waitForSelector('.boot-login[data-lang=en] input[type=password]:visible');
  await Promise.all([w.page.waitForEvent('framenavigated'), w.page.selectOption('.boot-login[data-lang=en] .login-lang', 'zh')]);
  await w.page.waitForSelector('.boot-login[data-lang=zh] input[type=password]:visible');
  assert.is(await w.page.evaluate(() => JSON.parse(localStorage.getItem('emqx-console') ?? '{}').lang), 'zh');
  assert.is(await w.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await w.context.close();
});

test('Enter in the drawn form sends nothing anywhere; the console submits it once it shows', async () => {
  for (const [password, outcome] of [['public', '[data-test=change-password-form]'], ['wrong', '[data-test=login-error]']]) {
    const w = await openPage(browser, { locale: 'en-US' });
    const release = await holdModules(w.page);
    const logins: string[] = [];
    w.page.on('request', (r) => { if (r.url().endsWith('/api/v5/login')) logins.push(r.postData() ?? ''); });
    await w.page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
    await w.page.waitForSelector('.boot-login input[type=password]:visible');
    await w.page.fill('.boot-login[data-lang=en] input[name=username]', 'admin');
    await w.page.fill('.boot-login[data-lang=en] input[name=password]', password);
    await w.page.keyboard.press('Enter');
    await w.page.waitForTimeout(300);
    // Submitted natively, the form would put the password in the URL.
    assert.not.match(w.page.url(), new RegExp(`\\?|${password}`));
    assert.equal(logins, []);
    await release();
    await w.page.waitForSelector(outcome);
    assert.equal(logins.map((body) => JSON.parse(body)), [{ username: 'admin', password }]);
    assert.equal(w.violations, []);
    await w.context.close();
  }
});

test.run();
