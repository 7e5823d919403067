// A viewer (Enterprise RBAC, on 5.5.1 and on 5.8.9) walks the console in Chromium against the real
// simulator: every menu entry and the detail and editor screens behind them. Nothing that would
// change the broker may be usable: every control of a form that writes is disabled, and no create,
// save, reset, remove or similar button is offered. Screens whose controls change nothing on the
// broker (the WebSocket test client speaks MQTT as any device does; Settings are the console's own
// preferences; search forms filter lists) are the exceptions, named below.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { menu, isSubGroup } from '../../web/app/routes.ts';
import { session } from '../../web/lib/session.ts';
import { launch, openPage, type WatchedPage } from '../helpers/browser.ts';
import { OPERATOR_OBJECTS, type Made } from '../helpers/operator-objects.ts';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

/** Screens whose forms change nothing on the broker. */
const LOCAL_ONLY = new Set(['/websocket', '/topic-explorer', '/settings']);

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;

/** Starts the simulator as this release, makes what the viewer will look at, and logs the viewer in. */
async function startAs(version: '5.5.1' | '5.8.9'): Promise<void> {
  await w?.context.close();
  await sim?.kill();
  sim = await spawnSimulator(['--emqx-version', version, '--edition', 'ee', '--seed', 'empty']);
  const token = await login(sim.baseUrl);
  // What the viewer will look at, made by the administrator: one of each thing with a detail screen.
  const made: Made[] = [
    ['POST', '/users', { username: 'viewer1', password: 'viewer-pass-123', role: 'viewer', description: '' }],
    ...OPERATOR_OBJECTS,
  ];
  for (const [method, path, body] of made) {
    const res = await request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  }
  w = await openPage(browser);
  const { page } = w;
  await page.goto(sim.baseUrl + '/');
  await page.fill('[data-test=login-form] input[name=username]', 'viewer1');
  await page.fill('[data-test=login-form] input[name=password]', 'viewer-pass-123');
  await page.click('[data-test=login-form] [data-test=form-submit]');
  await page.waitForSelector('[data-test=overview-page]');
}

test.before(async () => {
  browser = await launch();
});

test.after(async () => {
  await browser?.close();
  await sim?.kill();
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens a route and waits until the screen has content (not only its loading state). */
async function visit(path: string): Promise<void> {
  const { page } = w;
  await page.goto(`${sim.baseUrl}/#${path}`);
  await until(async () => {
    if (await page.$('main.content [data-test=screen-error], main.content [data-test=not-found]')) return true;
    return (await page.$('main.content [data-test=state-loading]')) === null
      && (await page.$('main.content :is(h1, h2, h3, section, form, table, article)')) !== null;
  }, `${path} to render`);
  // Lazy parts (charts, detail panels) settle.
  await page.waitForTimeout(300);
}

/**
 * The enabled controls on the screen that would change the broker: any control inside a form
 * other than a search form, and buttons named for a change, wherever they stand. Described by
 * their data-test or text.
 */
function usableWrites(): Promise<string[]> {
  return w.page.evaluate(`(() => {
    const writeName = /(^|-)(create|add|save|apply|reset|remove|delete|edit|invite|import|upload|install|kick|clear|restart|start|stop|enable|leave|submit|connect|reconnect|duplicate|move|ban)(-|$)/;
    const out = [];
    for (const el of document.querySelectorAll('main.content :is(input, select, textarea, button)')) {
      // :disabled also holds for controls of a disabled fieldset (the property does not).
      // Controls marked view-only change how something is seen (zoom, fit), not the broker.
      if (el.matches(':disabled') || el.closest('[role=dialog], .drawer, [data-view-only]')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const form = el.closest('form');
      const name = el.getAttribute('data-test') || '';
      if ((form && form.getAttribute('role') === 'search') || /(^|-)cancel$/.test(name)) continue;
      if (form || (el.tagName === 'BUTTON' && writeName.test(name))) {
        out.push((name || el.getAttribute('name') || el.id || el.tagName.toLowerCase()) + ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"');
      }
    }
    return out;
  })()`) as Promise<string[]>;
}

/** Routes behind the menu: editors, and details of what startAs made. */
async function detailRoutes(): Promise<string[]> {
  const token = await login(sim.baseUrl);
  const get = async (path: string) => (await request(sim.baseUrl, 'GET', `/api/v5${path}`, { token })).json as unknown;
  const routes = ['/rule/rules/create', '/flow/create', '/exhook/create', '/connector/create', '/rule/actions/create', '/rule/source/create',
    '/authorization/settings', '/authorization/detail/file', '/authentication/detail/password_based%3Abuilt_in_database', '/log-trace/detail/kept'];
  const rules = (await get('/rules')) as { data: { id: string }[] };
  if (rules.data[0]) routes.push(`/rule/rules/${encodeURIComponent(rules.data[0].id)}`, `/flow/${encodeURIComponent(rules.data[0].id)}`);
  const gateways = (await get('/gateways')) as { name: string; status: string }[];
  const gateway = gateways.find((g) => g.status !== 'unloaded');
  if (gateway) for (const tab of ['basic', 'authentication', 'listeners', 'clients']) routes.push(`/gateway/detail/${gateway.name}/${tab}`);
  const hooks = (await get('/exhooks')) as { name: string }[];
  if (hooks[0]) routes.push(`/exhook/detail/${encodeURIComponent(hooks[0].name)}`);
  const connectors = (await get('/connectors')) as { type: string; name: string }[];
  if (connectors[0]) routes.push(`/connector/${encodeURIComponent(`${connectors[0].type}:${connectors[0].name}`)}`);
  const actions = (await get('/actions')) as { type: string; name: string }[];
  if (actions[0]) {
    const id = encodeURIComponent(`${actions[0].type}:${actions[0].name}`);
    routes.push(`/rule/actions/${id}`, `/rule/actions/${id}?tab=metrics`);
  }
  return routes;
}

for (const version of ['5.5.1', '5.8.9'] as const) test(`${version} Enterprise: a viewer can use no control that changes the broker, on any screen of the menu or behind it`, async () => {
  await startAs(version);
  Object.assign(session, { version, edition: 'ee', role: 'viewer' });
  const menuPaths = menu().flatMap((s) => s.entries.flatMap((e) => (isSubGroup(e) ? e.items.map((i) => i.path) : [e.path])));
  const details = await detailRoutes();
  for (const prefix of ['/rule/rules/', '/flow/', '/gateway/detail/', '/exhook/detail/', '/connector/', '/rule/actions/']) {
    assert.ok(details.some((p) => p.startsWith(prefix) && !p.endsWith('/create')), `a detail route under ${prefix}`);
  }
  const paths = [...menuPaths.filter((p) => !LOCAL_ONLY.has(p)), ...details];
  assert.ok(paths.length > 40, `walked ${paths.length} screens`);
  const problems: string[] = [];
  for (const path of paths) {
    await visit(path);
    if (await w.page.$('main.content [data-test=screen-error]')) problems.push(`${path}: error boundary`);
    for (const control of await usableWrites()) problems.push(`${path}: ${control}`);
  }
  assert.equal(problems, []);
  assert.equal(w.errors, []);
});

test.run();
