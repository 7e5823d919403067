// Every screen legible in both themes: each declared screen (the route table, not a hand list) is
// visited against the demo simulator, in English with the light theme and in Chinese with the dark
// one, and every visible text is measured against what it is drawn on (tests/helpers/contrast.ts):
// WCAG AA, 4.5:1 for body text, 3:1 for large text. On the same screens every control the keyboard
// reaches is focused and its ring measured: at least 2 px and 3:1 against what it is drawn on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { screens } from '../../web/app/routes.ts';
import { launch, loginAsAdmin, openPage, waitUntil } from '../helpers/browser.ts';
import { lowContrastText, weakFocusRings } from '../helpers/contrast.ts';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';
import { setUpOrFail } from '../helpers/suite.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let paths: string[] = [];

setUpOrFail(test, async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  browser = await launch();
  const token = await login(sim.baseUrl);
  const nodes = (await request(sim.baseUrl, 'GET', '/api/v5/nodes', { token })).json as { node: string }[];
  const clients = (await request(sim.baseUrl, 'GET', '/api/v5/clients?limit=1', { token })).json as { data: { clientid: string }[] };
  // Route parameters from live data where the demo has some; other screens show their not-found state.
  const values: Record<string, string> = { node: nodes[0].node, clientId: clients.data[0].clientid };
  paths = [...new Set(screens.map((s) => s.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(values[key] ?? 'absent'))))];
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

/** The screen at `path` shown with its data: rendered, nothing loading. */
const SHOWN = `(() => {
  const main = document.querySelector('main.content');
  return !!main && !!main.firstElementChild && !main.querySelector('[data-test=state-loading], [aria-busy=true]');
})()`;

for (const [locale, colorScheme] of [['en-US', 'light'], ['zh-CN', 'dark']] as const) {
  test(`every screen's text meets WCAG AA contrast, and every control's focus ring 3:1 (${locale}, ${colorScheme})`, async () => {
    const w = await openPage(browser, { locale, colorScheme });
    try {
      // One line per kind of text (element and classes, colours), with the first screen showing it.
      const kinds = new Map<string, string>();
      const rings = new Map<string, string>();
      const audit = async (screen: string) => {
        for (const f of await lowContrastText(w.page)) {
          const kind = `${f.where.split(' > ').pop()!.replace(/\[[^\]]*\]$/, '')} ${f.fg} on ${f.bg}`;
          if (!kinds.has(kind)) kinds.set(kind, `${screen}: "${f.text}" ${f.fg} on ${f.bg} is ${f.ratio}:1, needs ${f.need}:1 (${f.where})`);
        }
        for (const r of await weakFocusRings(w.page)) {
          const kind = `${r.where.split(' > ').pop()!.replace(/\[[^\]]*\]$/, '')} ${r.ring} on ${r.bg}`;
          if (!rings.has(kind)) rings.set(kind, `${screen}: ${r.where}: ring ${r.width}px ${r.ring} on ${r.bg} is ${r.ratio}:1`);
        }
      };
      await w.page.goto(sim.baseUrl + '/');
      await w.page.waitForSelector('[data-test=login-form]');
      assert.is(await w.page.evaluate(() => document.documentElement.dataset.theme), colorScheme);
      await audit('login');
      await loginAsAdmin(w.page, sim.baseUrl);
      for (const path of paths) {
        await w.page.evaluate((hash) => new Promise((resolve) => {
          location.hash = hash;
          requestAnimationFrame(() => requestAnimationFrame(resolve));
        }), '#' + path);
        await waitUntil(w.page, SHOWN, 5000);
        await audit(path);
      }
      assert.equal([...kinds.values()], [], `${kinds.size} kinds of text below the minimum:\n${[...kinds.values()].join('\n')}`);
      assert.equal([...rings.values()], [], `${rings.size} kinds of control with a weak focus ring:\n${[...rings.values()].join('\n')}`);
      assert.equal(w.errors, []);
    } finally {
      await w.context.close();
    }
  });
}

test.run();
