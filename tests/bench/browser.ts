// Browser figures in headless Chromium on localhost: cold load to a visible login form (plain and
// throttled), each beside the floor (a bare page whose one tiny module draws a password input,
// served by the same simulator and loaded the same way, runs alternating; also to the paint that
// shows the input, and when the console's own form takes over), sign in → the overview's first card
// with data and its first chart beside a floor (a bare page signing in and drawing one number),
// with the stages of each (the token, the first answer, the card drawn), a
// screen change with its chunk cached (one visit of each screen, then each screen's median of
// three), and the JS heap after visiting every screen once. The screen list comes from the
// console's own route table (web/app/routes.ts), so new screens are measured without editing
// this file.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { screens } from '../../web/app/routes.ts';
import { launch } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, REPO_ROOT, request, spawnSimulator } from '../helpers/simulator.ts';
import { budgeted, failed, info, mb, ms, type Row } from './table.ts';

const S = 'browser';
const FORM = '[data-test=login-form] input[name=username]';
/** What both the login page and the floor page draw; its first visible frame is the figure. */
const PASSWORD = 'input[type=password]';
/** The console's login form, which takes the place of the one drawn into index.html (web/lib/bootForm.ts). */
const CONSOLE_FORM = '[data-test=login-form] input[type=password]';
const BENCH_USER = { username: 'bench', password: 'Bench-pass-2026' };

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const spread = (v: number[]) => `${ms(median(v))} (min ${ms(Math.min(...v))}, max ${ms(Math.max(...v))})`;

// Page-side instruments, given as text (tsx would wrap named functions in helpers the page does
// not have). `__bench.formAt`: when a password input was first in the document and visible
// (laid out, not hidden), since the start of navigation; `__bench.console`: when the console's
// own login form was. `__bench.wait(t0, selector)`: resolves with the time just after the first
// frame after t0 at which the content area changed, shows no loading state, every request started
// since t0 has its answer (or none was started), and `selector` (if given) is present; NaN after 5 s.
const INSTRUMENTS = `(() => {
  const b = window.__bench = { requests: [], formAt: 0, longTasks: [] };
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  const fetch0 = window.fetch;
  window.fetch = function (...args) {
    const r = { start: performance.now(), end: 0, url: String(args[0] && args[0].url || args[0]) };
    b.requests.push(r);
    return fetch0.apply(this, args).finally(() => { r.end = performance.now(); });
  };
  const visible = () => {
    const input = document.querySelector('${PASSWORD}');
    return !!input && input.getBoundingClientRect().width > 0 && input.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  let shown;
  b.shown = new Promise((resolve) => { shown = resolve; });
  // The console's own login form in place (the one drawn into index.html shows first).
  b.console = new Promise((resolve) => new MutationObserver((_, o) => {
    if (document.querySelector('${CONSOLE_FORM}')) { o.disconnect(); resolve(performance.now()); }
  }).observe(document, { childList: true, subtree: true }));
  const seen = () => { if (!b.formAt && visible()) { b.formAt = performance.now(); shown(b.formAt); } return b.formAt; };
  // In the document and laid out visible at once (the stylesheets a module script waits for have
  // loaded), or else at the first frame where it is.
  new MutationObserver((_, o) => {
    if (!document.querySelector('${PASSWORD}')) return;
    o.disconnect();
    const frame = () => { if (!seen()) requestAnimationFrame(frame); };
    frame();
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
        // This frame paints it: the time right after it, before any idle work that follows.
        return setTimeout(() => resolve(performance.now()), 0);
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

/**
 * The floor: a copy of the built console with `static/floor.html`, a bare page whose one tiny module
 * script draws a password input, so the simulator serves both the same way (`--console-dir`).
 */
export function floorSite(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
  cpSync(path.join(REPO_ROOT, 'dist'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'static', 'floor.html'), `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head>
<body><div id="app"></div><script type="module" src="./floor.js"></script></body>
</html>
`);
  writeFileSync(path.join(dir, 'static', 'floor.js'), `const input = document.createElement('input');
input.type = 'password';
input.name = 'password';
document.getElementById('app').append(input);
`);
  // The sign-in floor: a bare form that posts /login, then asks /monitor_current and draws one
  // number where the console draws its cards (the same selectors, so one measurement serves both).
  writeFileSync(path.join(dir, 'static', 'floor-signin.html'), `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head>
<body><form data-test="login-form"><input name="username"><input name="password" type="password"><button data-test="form-submit">Sign in</button></form>
<main class="content"></main><script type="module" src="./floor-signin.js"></script></body>
</html>
`);
  writeFileSync(path.join(dir, 'static', 'floor-signin.js'), `document.querySelector('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const body = JSON.stringify({ username: form.username.value, password: form.password.value });
  const { token } = await (await fetch('/api/v5/login', { method: 'POST', headers: json, body })).json();
  const current = await (await fetch('/api/v5/monitor_current', { headers: { accept: 'application/json', authorization: 'Bearer ' + token } })).json();
  const page = document.createElement('section');
  page.dataset.test = 'overview-page';
  page.innerHTML = '<div class="cards"><strong></strong></div>';
  page.querySelector('strong').textContent = String(current.connections);
  document.querySelector('main').append(page);
});
`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Navigation start to a visible password input, measured inside the page (a new, empty context
 * each run), and to the paint that shows it: Chromium's `first-paint` or `first-contentful-paint`,
 * whichever is the first at or after the input was shown (a page may paint its background
 * before). The first figure ends when the input is laid out visible, before that frame is
 * rastered; the paint comes later by the raster time of the page (more for the login page than
 * for a bare input). `painted` is NaN when no paint came after the input within 5 s (the page
 * was painted in parts, the input after the first contentful paint). `console`
 * (login page only): when the console's own form was in place.
 */
async function coldLoad(browser: Browser, url: string, throttled: boolean, login: boolean): Promise<{ shown: number; painted: number; console: number }> {
  const { page, close } = await freshPage(browser, throttled);
  await page.goto(url, { waitUntil: 'commit' });
  // Waited for inside the page: a selector wait from here would inject the driver's scripts into
  // the page while it loads, on its main thread.
  const shown = await page.evaluate('Promise.race([window.__bench.shown, new Promise((r) => setTimeout(() => r(0), 20000))])') as number;
  if (!shown) throw new Error(`${url}: no visible password input`);
  const paint = await page.evaluate(`new Promise((resolve) => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= ${shown}) resolve(e.startTime);
    }).observe({ type: 'paint', buffered: true });
    setTimeout(() => resolve(NaN), 5000);
  })`) as number;
  const takeover = login
    ? await page.evaluate('Promise.race([window.__bench.console, new Promise((r) => setTimeout(() => r(NaN), 20000))])') as number
    : NaN;
  await close();
  return { shown, painted: paint, console: takeover };
}

/** Cold loads of the login page and of the floor, alternating, `runs` each: the login rows and their ratio to the floor. */
async function coldRows(browser: Browser, baseUrl: string, runs: number, throttled: boolean): Promise<Row[]> {
  const name = throttled ? 'cold load, 9 Mbit/s 40 ms 4× CPU' : 'cold load to a visible login form';
  const [limit, ratioLimit] = throttled ? [500, Infinity] : [200, 1.5];
  const login: number[] = [];
  const floor: number[] = [];
  const loginPaint: number[] = [];
  const floorPaint: number[] = [];
  const takeover: number[] = [];
  // One untimed round warms the browser process, not the cache (a new context each run).
  await coldLoad(browser, `${baseUrl}/static/floor.html`, throttled, false);
  await coldLoad(browser, `${baseUrl}/`, throttled, true);
  for (let i = 0; i < runs; i++) {
    const f = await coldLoad(browser, `${baseUrl}/static/floor.html`, throttled, false);
    const l = await coldLoad(browser, `${baseUrl}/`, throttled, true);
    floor.push(f.shown);
    login.push(l.shown);
    floorPaint.push(f.painted);
    loginPaint.push(l.painted);
    takeover.push(l.console);
  }
  const ratio = median(login) / median(floor);
  const shownRatio = `${ratio.toFixed(2)}× (${ms(median(login))} ÷ ${ms(median(floor))})`;
  // Paint timing gives only the first paint and the first contentful one. A page the parser
  // paints in parts (its head before its input, seen on the login page under load) has no paint
  // entry after its input: those runs count apart.
  const loginPainted = loginPaint.filter(Number.isFinite);
  const floorPainted = floorPaint.filter(Number.isFinite);
  const paintRatio = median(loginPainted) / median(floorPainted);
  const inParts = runs - loginPainted.length + (runs - floorPainted.length);
  const paintNote = inParts ? `; ${runs - loginPainted.length} login and ${runs - floorPainted.length} floor runs painted in parts, left out` : '';
  return [
    budgeted(S, `${name}, median of ${runs}`, median(login), spread(login), limit, `≤ ${limit} ms`),
    info(S, `  floor: bare page drawing a password input, median of ${runs}`, spread(floor), median(floor)),
    Number.isFinite(ratioLimit)
      ? budgeted(S, '  login ÷ floor', ratio, shownRatio, ratioLimit, `≤ ${ratioLimit}×`)
      : info(S, '  login ÷ floor', shownRatio, ratio),
    loginPainted.length && floorPainted.length
      ? info(S, '  paint showing the input, login ÷ floor (medians)', `${paintRatio.toFixed(2)}× (${ms(median(loginPainted))} ÷ ${ms(median(floorPainted))}${paintNote})`, paintRatio)
      : info(S, '  paint showing the input, login ÷ floor', 'not measured: no paint after the input in any run', NaN),
    takeover.every(Number.isFinite)
      ? info(S, `  the console's own login form in place, median of ${runs}`, spread(takeover), median(takeover))
      : info(S, "  the console's own login form in place", 'not measured: it did not come within 20 s', NaN),
  ];
}

/** What a sign-in measured, in ms from pressing Sign in. */
interface SignedIn {
  /** The overview's cards show data. */
  card: number;
  /** Its first chart is drawn (NaN on the floor page, which has none). */
  chart: number;
  /** The answers of `/login` and of `/monitor_current` (their headers) were in. */
  token: number;
  current: number;
}

/**
 * Pressing Sign in to the overview's cards with data, to its first chart drawn, and when the two
 * answers the card waits for came in (the page's fetch as INSTRUMENTS records it).
 */
async function signIn(browser: Browser, url: string): Promise<SignedIn> {
  const { page, close } = await freshPage(browser);
  await page.goto(url);
  await page.fill(FORM, BENCH_USER.username);
  await page.fill('[data-test=login-form] input[name=password]', BENCH_USER.password);
  // The console prepares what comes after sign-in while its form waits (idle priority): an
  // operator takes a few seconds to type.
  await page.waitForTimeout(1500);
  // Both looked for at every frame: a card showing a figure (not the placeholder), a chart drawn.
  // The time is taken right after the frame that shows it (a task after its animation frame,
  // once its style, layout and paint have run), as for a screen change: the frame's own
  // timestamp is when it began, which is well before a frame whose main thread was busy.
  const elapsed = await page.evaluate(`(() => {
    const t0 = performance.now();
    const at = {};
    const seen = {
      card: () => [...document.querySelectorAll('[data-test=overview-page] .cards strong')].some((s) => s.textContent !== '…'),
      chart: () => !!document.querySelector('[data-test=monitor-charts] figure.chart[data-drawn]'),
    };
    const pending = new Set();
    // When the answer of a request this sign-in sent came in (its headers), since t0.
    const answered = (path) => {
      const r = window.__bench.requests.find((q) => q.start >= t0 && q.end && new URL(q.url, location.href).pathname.endsWith(path));
      return r ? r.end - t0 : NaN;
    };
    return new Promise((resolve) => {
      const tick = () => {
        for (const [name, test] of Object.entries(seen)) {
          if (at[name] || pending.has(name) || !test()) continue;
          pending.add(name);
          setTimeout(() => { at[name] = performance.now() - t0; pending.delete(name); }, 0);
        }
        const done = () => resolve({ card: at.card ?? NaN, chart: at.chart ?? NaN, token: answered('/api/v5/login'), current: answered('/api/v5/monitor_current') });
        if (!pending.size && at.card && (at.chart || !document.querySelector('[data-test=monitor-charts]'))) return done();
        if (performance.now() - t0 > 5000) return done();
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      document.querySelector('[data-test=login-form] [data-test=form-submit]').click();
    });
  })()`) as SignedIn;
  await close();
  return elapsed;
}

/**
 * Sign in → first card with data and → first chart, each beside the floor (a bare page that signs
 * in and draws one number from /monitor_current, served the same way), runs alternating.
 */
export async function signInRows(browser: Browser, baseUrl: string, runs: number): Promise<Row[]> {
  const floorUrl = `${baseUrl}/static/floor-signin.html`;
  await signIn(browser, floorUrl);
  await signIn(browser, baseUrl + '/');
  const floorRuns: SignedIn[] = [];
  const ourRuns: SignedIn[] = [];
  for (let i = 0; i < runs; i++) {
    floorRuns.push(await signIn(browser, floorUrl));
    ourRuns.push(await signIn(browser, baseUrl + '/'));
  }
  const floor = floorRuns.map((r) => r.card);
  const card = ourRuns.map((r) => r.card);
  const chart = ourRuns.map((r) => r.chart);
  if (![...floor, ...card, ...chart].every(Number.isFinite)) throw new Error(`no data within 5 s (floor ${floor}, card ${card}, chart ${chart})`);
  const f = median(floor);
  const ratio = (v: number[]) => `${(median(v) / f).toFixed(2)}× (${ms(median(v))} ÷ ${ms(f)})`;
  // Where each page's time goes, by the medians of its runs: the broker checking the password
  // (the same for both), the first screen's first answer after the token, and drawing the card
  // after that answer.
  const stages = (signIns: SignedIn[]) => {
    const parts = [
      median(signIns.map((r) => r.token)),
      median(signIns.map((r) => r.current - r.token)),
      median(signIns.map((r) => r.card - r.current)),
    ];
    return parts.every(Number.isFinite) ? parts.map(ms).join(' + ') : 'not measured: an answer was not seen';
  };
  return [
    info(S, `sign in → first card with data, median of ${runs}`, spread(card), median(card)),
    info(S, `  floor: bare page signing in and drawing one number of /monitor_current, median of ${runs}`, spread(floor), f),
    budgeted(S, '  first card ÷ floor', median(card) / f, ratio(card), 1.5, '≤ 1.5×'),
    info(S, '  stages, console: /login answered, then /monitor_current, then the card drawn (medians)', stages(ourRuns)),
    info(S, '  stages, floor: the same (medians)', stages(floorRuns)),
    info(S, `sign in → overview's first chart drawn, median of ${runs}`, spread(chart), median(chart)),
    budgeted(S, '  first chart ÷ floor', median(chart) / f, ratio(chart), 2, '≤ 2×'),
  ];
}

/**
 * The overview entered from another screen, `runs` times: its first data (cards and node list),
 * when all its charts are drawn, and the longest task in between.
 */
async function overviewRows(page: Page, runs: number): Promise<Row[]> {
  const firstData: number[] = [];
  const charts: number[] = [];
  let longest = 0;
  for (let i = 0; i < runs; i++) {
    await visit(page, '/users');
    const r = await page.evaluate(`(() => {
      const b = window.__bench;
      const t0 = performance.now();
      const first = b.wait(t0, '[data-test=overview-page] .cards');
      location.hash = '#/dashboard/overview';
      const drawn = () => {
        const figures = document.querySelectorAll('[data-test=monitor-charts] figure.chart');
        return figures.length > 0 && [...figures].every((f) => f.hasAttribute('data-drawn'));
      };
      const charts = new Promise((resolve) => {
        // As for the first card: the time right after the frame that draws the last chart.
        const tick = () => (drawn() ? setTimeout(() => resolve(performance.now()), 0) : performance.now() - t0 > 10000 ? resolve(NaN) : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      });
      return Promise.all([first, charts]).then(([f, c]) => new Promise((resolve) => setTimeout(() => resolve({
        first: f - t0, charts: c - t0,
        longest: Math.max(0, ...b.longTasks.filter((t) => t.start + t.duration >= t0).map((t) => t.duration)),
      }), 100)));
    })()`) as { first: number; charts: number; longest: number };
    firstData.push(r.first);
    charts.push(r.charts);
    longest = Math.max(longest, r.longest);
  }
  return [
    budgeted(S, `overview: cards and node list, median of ${runs}`, median(firstData), spread(firstData), 100, '≤ 100 ms'),
    info(S, `overview: all its charts drawn, median of ${runs}`, spread(charts), median(charts)),
    budgeted(S, 'overview: longest task from entering to the last chart', longest, longest ? ms(longest) : 'none over 50 ms', 50, '≤ 50 ms'),
  ];
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
  const site = floorSite();
  const sim = await spawnSimulator(['--seed', 'demo', '--console-dir', site.dir]);
  let browser: Browser | undefined;
  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'bench-browser-client' });
  try {
    const token = await login(sim.baseUrl);
    await request(sim.baseUrl, 'POST', '/api/v5/users', { token, body: { ...BENCH_USER, description: 'benchmark' } });
    client.subscribe('bench/#');
    await request(sim.baseUrl, 'POST', '/api/v5/trace', { token, body: { name: 'benchTrace', type: 'clientid', clientid: 'bench-browser-client' } });
    browser = await launch();

    for (const throttled of [false, true]) {
      try {
        rows.push(...(await coldRows(browser, sim.baseUrl, runs, throttled)));
      } catch (error) {
        rows.push(failed(S, throttled ? 'cold load, throttled' : 'cold load', error));
      }
    }

    try {
      rows.push(...(await signInRows(browser, sim.baseUrl, runs)));
    } catch (error) {
      rows.push(failed(S, 'sign in → first card with data', error));
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
      // One visit per screen names as slowest whichever screen met a stall of the machine. Two
      // more passes give each screen three visits: the slowest by its median is the slowest screen.
      const visits = new Map(cached.map((c) => [c.path, [c.ms]]));
      for (let pass = 0; pass < 2; pass++) for (const path of paths) visits.get(path)!.push((await visit(page, path)).ms);
      const typical = [...visits].map(([path, samples]) => ({ path, ms: median(samples) })).filter((c) => Number.isFinite(c.ms));
      const slowestTypical = typical.reduce((a, b) => (b.ms > a.ms ? b : a));
      if (process.argv.includes('--verbose')) {
        for (const c of [...typical].sort((a, b) => b.ms - a.ms).slice(0, 8)) console.error(`${ms(c.ms).padStart(8)}  ${c.path}  (median of 3)`);
      }
      rows.push(budgeted(S, `slowest screen change by its median of 3 visits (${slowestTypical.path})`, slowestTypical.ms, ms(slowestTypical.ms), 100, '≤ 100 ms'));
      rows.push(...(await overviewRows(page, runs)));
      rows.push(info(S, 'first visit incl. chunk load, median (max)', `${ms(median(firstVisit.filter(Number.isFinite)))} (${ms(Math.max(...firstVisit.filter(Number.isFinite)))})`));
      await close();
    } catch (error) {
      rows.push(failed(S, 'screen visits / JS heap', error));
    }
  } finally {
    await browser?.close();
    await endMqtt(client).catch(() => undefined);
    await sim.kill();
    site.remove();
  }
  return rows;
}
