import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launch, openPage } from '../helpers/browser.ts';
import { spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'empty']);
  browser = await launch();
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

test('by default the console follows the OS theme, in the browser language', async () => {
  for (const [scheme, locale, title] of [['dark', 'zh-CN', '登录'], ['light', 'en-US', 'Log in']] as const) {
    const w = await openPage(browser, { colorScheme: scheme, locale });
    await w.page.goto(sim.baseUrl + '/');
    await w.page.waitForSelector('[data-test=login-form]');
    assert.is(await w.page.getAttribute('html', 'data-theme'), scheme);
    assert.is(await w.page.textContent('[data-test=form-submit]'), title);
    // The computed background really is dark or light, not just the attribute.
    const background = await w.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    assert.ok(scheme === 'dark' ? r + g + b < 150 : r + g + b > 600, `${scheme}: ${background}`);
    // Cards (here the login card) cast one short shadow and a ring, not Pico's seven layers blurred
    // up to 6rem: a browser without GPU raster took ~40 ms per overview change to draw those.
    const shadow = await w.page.evaluate(() => getComputedStyle(document.querySelector('article.login-card')!).boxShadow);
    const layers = shadow.split(/,(?![^(]*\))/);
    assert.ok(layers.length <= 2, `${scheme}: ${layers.length} shadow layers: ${shadow}`);
    for (const layer of layers) {
      const [, , blur = 0] = layer.replace(/rgba?\([^)]*\)/, '').trim().split(/\s+/).map(parseFloat);
      assert.ok(blur <= 4, `${scheme}: blur ${blur}px in ${shadow}`);
    }
    assert.equal(w.violations, []);
    await w.context.close();
  }
});

test('the language chosen on the login page sticks after the reload', async () => {
  const w = await openPage(browser, { locale: 'en-US' });
  await w.page.goto(sim.baseUrl + '/');
  await w.page.waitForSelector('[data-test=login-form]');
  await Promise.all([w.page.waitForEvent('load'), w.page.selectOption('.login-lang', 'zh')]);
  await w.page.waitForSelector('[data-test=login-form]');
  assert.is(await w.page.textContent('[data-test=form-submit]'), '登录');
  await w.page.click('[data-test=form-submit]');
  assert.ok(await w.page.isVisible('text=请输入用户名'), 'validation messages are Chinese too');
  await w.context.close();
});

test.run();
