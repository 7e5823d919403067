// Browser figures in headless Chromium on localhost: cold load to an interactive login form
// (plain and throttled), login → overview first data, a screen change with its chunk cached, and
// the JS heap after visiting every screen once. The screen list comes from the console's own
// route table (web/app/routes.ts), so new screens are measured without editing this file.
import type { Browser, Page } from 'playwright-core';
import { screens } from '../../web/app/routes.ts';
import { launch } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, request, spawnSimulator } from '../helpers/simulator.ts';
import { budgeted, failed, info, mb, ms, type Row } from './table.ts';

const S = 'browser';
const FORM = '[data-test=login-form] input[name=username]';
const BENCH_USER = { username: 'bench', password: 'Bench-pass-2026' };

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const spread = (v: number[]) => `${ms(median(v))} (min ${ms(Math.min(...v))}, max ${ms(Math.max(...v))})`;

// Page-side instruments, given as text (tsx would wrap named functions in helpers the page does
// not have). `__bench.formAt`: when the login form appeared. `__bench.wait(t0, selector)`: resolves
// with the time of the first frame after t0 at which the content area changed, shows no loading
// state, and every request started since t0 has its answer (or none was started), and `selector`
// (if given) is present; NaN after 5 s.
const INSTRUMENTS = `(() => {
  const b = window.__bench = { requests: [], formAt: 0 };
  const fetch0 = window.fetch;
  window.fetch = function (...args) {
    const r = { start: performance.now(), end: 0, url: String(args[0] && args[0].url || args[0]) };
    b.requests.push(r);
    return fetch0.apply(this, args).finally(() => { r.end = performance.now(); });
  };
  new MutationObserver((_, o) => {
    if (!b.formAt && document.querySelector('${FORM}')) { b.formAt = performance.now(); o.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
  b.wait = (t0, selector) => new Promise((resolve) => {
    let changed = false;
    let quietFrames = 0;
    const main = () => document.querySelector('main.content');
    const observer = new MutationObserver(() => { changed = true; });
    const watch = () => { const m = main(); if (m) observer.observe(m, { childList: true, subtree: true, characterData: true }); else setTimeout(watch, 2); };
    watch();
    const ready = () => {
      const m = main();
      if (!m || !changed || !m.firstElementChild) return false;
      if (m.querySelector('[data-test=state-loading], [aria-busy=true]')) return false;
      if (selector && !document.querySelector(selector)) return false;
      // Only this screen's requests count: a request an earlier screen left open is not waited for.
      const mine = b.requests.filter((r) => r.start >= t0);
      if (mine.some((r) => !r.end)) return false;
      if (mine.length) return true;
      // Nothing was asked for: accept after two quiet frames.
      return ++quietFrames >= 2;
    };
    const deadline = t0 + 5000;
    const tick = () => {
      if (ready()) {
        observer.disconnect();
        const mine = b.requests.filter((r) => r.start >= t0 && r.end);
        b.slowest = mine.reduce((a, r) => (!a || r.end - r.start > a.end - a.start ? r : a), null);
        return requestAnimationFrame(() => resolve(performance.now()));
      }
      if (performance.now() > deadline) { observer.disconnect(); return resolve(NaN); }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
})()`;

async function freshPage(browser: Browser, throttled = false): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  if (throttled) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 40, downloadThroughput: (9 * 1000 * 1000) / 8, uploadThroughput: (9 * 1000 * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  await page.addInitScript(INSTRUMENTS);
  return { page, close: () => context.close() };
}

/** Navigation start to the login form in the DOM, measured inside the page (a new, empty context each run). */
async function coldLoad(browser: Browser, baseUrl: string, throttled: boolean): Promise<number> {
  const { page, close } = await freshPage(browser, throttled);
  await page.goto(baseUrl + '/', { waitUntil: 'commit' });
  await page.waitForSelector(FORM);
  const at = await page.evaluate('window.__bench.formAt') as number;
  await close();
  return at;
}

/** Submitting the login form to the overview's cards with data. */
async function loginToOverview(browser: Browser, baseUrl: string): Promise<number> {
  const { page, close } = await freshPage(browser);
  await page.goto(baseUrl + '/');
  await page.fill(FORM, BENCH_USER.username);
  await page.fill('[data-test=login-form] input[name=password]', BENCH_USER.password);
  const elapsed = await page.evaluate(`(() => {
    const t0 = performance.now();
    const done = window.__bench.wait(t0, '[data-test=overview-page] .cards');
    document.querySelector('[data-test=login-form] [data-test=form-submit]').click();
    return done.then((t) => t - t0);
  })()`) as number;
  await close();
  return elapsed;
}

/** Every declared screen once, with route params filled from live data. */
async function screenPaths(baseUrl: string, token: string, clientId: string): Promise<string[]> {
  const nodes = (await request(baseUrl, 'GET', '/api/v5/nodes', { token })).json as { node: string }[];
  const traces = (await request(baseUrl, 'GET', '/api/v5/trace', { token })).json as { name: string }[];
  const values: Record<string, string> = { node: nodes[0]?.node ?? 'bench', clientId, id: traces[0]?.name ?? 'bench', name: 'bench' };
  const paths = new Set<string>();
  for (const screen of screens) paths.add(screen.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(values[key] ?? 'bench')));
  return [...paths];
}

/** Changes the route inside the app; resolves with the time to first data and the slowest request it waited for. */
async function visit(page: Page, path: string): Promise<{ ms: number; request: string }> {
  return page.evaluate(`(() => {
    const t0 = performance.now();
    const done = window.__bench.wait(t0);
    location.hash = ${JSON.stringify('#' + path)};
    return done.then((t) => {
      const r = window.__bench.slowest;
      return { ms: t - t0, request: r ? new URL(r.url, location.href).pathname.replace('/api/v5', '') + ' ' + Math.round(r.end - r.start) + ' ms' : '' };
    });
  })()`) as Promise<{ ms: number; request: string }>;
}

export async function browserRows(runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const sim = await spawnSimulator(['--seed', 'demo']);
  let browser: Browser | undefined;
  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'bench-browser-client' });
  try {
    const token = await login(sim.baseUrl);
    await request(sim.baseUrl, 'POST', '/api/v5/users', { token, body: { ...BENCH_USER, description: 'benchmark' } });
    client.subscribe('bench/#');
    await request(sim.baseUrl, 'POST', '/api/v5/trace', { token, body: { name: 'benchTrace', type: 'clientid', clientid: 'bench-browser-client' } });
    browser = await launch();

    for (const [name, throttled, limit] of [['cold load to interactive login form', false, 200], ['same, 9 Mbit/s 40 ms 4× CPU', true, 1000]] as const) {
      try {
        await coldLoad(browser, sim.baseUrl, throttled); // warms the browser process, not the cache (new context each run)
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) samples.push(await coldLoad(browser, sim.baseUrl, throttled));
        rows.push(budgeted(S, `${name}, median of ${runs}`, median(samples), spread(samples), limit, `≤ ${limit} ms`));
      } catch (error) {
        rows.push(failed(S, name, error));
      }
    }

    try {
      await loginToOverview(browser, sim.baseUrl);
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) samples.push(await loginToOverview(browser, sim.baseUrl));
      rows.push(info(S, `login → overview first data, median of ${runs}`, spread(samples), median(samples)));
    } catch (error) {
      rows.push(failed(S, 'login → overview first data', error));
    }

    try {
      const { page, close } = await freshPage(browser);
      await page.goto(sim.baseUrl + '/');
      await page.fill(FORM, BENCH_USER.username);
      await page.fill('[data-test=login-form] input[name=password]', BENCH_USER.password);
      await page.click('[data-test=login-form] [data-test=form-submit]');
      await page.waitForSelector('[data-test=overview-page]');
      const paths = await screenPaths(sim.baseUrl, token, 'bench-browser-client');
      // First pass loads every chunk; the heap is taken after it, with garbage collected.
      const firstVisit: number[] = [];
      for (const path of paths) firstVisit.push((await visit(page, path)).ms);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize;
      rows.push(budgeted(S, `JS heap after visiting all ${paths.length} screens once`, heap, mb(heap), 20 * 1024 * 1024, '≤ 20 MB'));
      // Second pass: every chunk is cached, so this is the screen change itself. The forced
      // collection above also drops compiled code, so two untimed visits warm it up again.
      for (const path of [paths[0], paths[1]]) await visit(page, path);
      const cached: { path: string; ms: number; request: string }[] = [];
      for (const path of paths) cached.push({ path, ...(await visit(page, path)) });
      // `--verbose`: every screen's figure on stderr.
      if (process.argv.includes('--verbose')) for (const c of cached) console.error(`${ms(c.ms).padStart(8)}  ${c.path}  ${c.request}`);
      const times = cached.map((c) => c.ms).filter(Number.isFinite);
      const slowest = cached.filter((c) => Number.isFinite(c.ms)).reduce((a, b) => (b.ms > a.ms ? b : a));
      const timedOut = cached.filter((c) => !Number.isFinite(c.ms)).map((c) => c.path);
      rows.push(budgeted(S, `screen change (chunk cached) → first data, median of ${times.length}`, median(times), spread(times), 100, '≤ 100 ms'));
      rows.push(budgeted(S, `slowest screen change (${slowest.path}${slowest.request ? `; slowest request ${slowest.request}` : ''})`,
        slowest.ms, ms(slowest.ms), 100, '≤ 100 ms'));
      if (timedOut.length) rows.push(failed(S, 'screens without first data in 5 s', timedOut.join(' ')));
      rows.push(info(S, 'first visit incl. chunk load, median (max)', `${ms(median(firstVisit.filter(Number.isFinite)))} (${ms(Math.max(...firstVisit.filter(Number.isFinite)))})`));
      await close();
    } catch (error) {
      rows.push(failed(S, 'screen visits / JS heap', error));
    }
  } finally {
    await browser?.close();
    await endMqtt(client).catch(() => undefined);
    await sim.kill();
  }
  return rows;
}
