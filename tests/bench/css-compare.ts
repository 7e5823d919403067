// Proves the stylesheet purge and split (build/css-purge.mjs) change nothing visible:
//   node --import tsx/esm tests/bench/css-compare.ts [OUT_DIR] [--only /path,/other]
// Builds the console twice, as one stylesheet without the purge (Pico whole) and as shipped
// (purged, and split into the login page's stylesheet and the shell's: the normal dist/), then
// walks every screen of the route table against a `--seed demo` simulator in en/zh × light/dark,
// plus the login page, the user menu, create drawers (submitted empty, to show field errors)
// and confirmation dialogs. For each view it takes full-page screenshots with the purged
// stylesheets and, on the same DOM, with the one whole stylesheet (see `compare`); pairs that differ are decoded
// and diffed pixel by pixel by Chromium in a canvas and written to OUT_DIR (both shots, a diff
// image, a magnified crop of the differing region); the exit code is 1 when any differ.
// `--control` adds a visible rule to the whole stylesheet, to see that differences are caught;
// `--same` serves the shipped rules on both sides, to see the rendering noise of a swap.
// dist/ is left built with the purge, as `node build.mjs` leaves it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { screens } from '../../web/app/routes.ts';
import { launch, loginAsAdmin, openPage } from '../helpers/browser.ts';
import { login, REPO_ROOT, request, spawnSimulator } from '../helpers/simulator.ts';

const argv = process.argv.slice(2);
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(argv[onlyAt + 1].split(',')) : null;
const control = argv.includes('--control');
/** `--same` serves the purged stylesheet in both places: what the swap alone does to the pixels. */
const same = argv.includes('--same');
const outDir = argv.find((a, i) => !a.startsWith('--') && (onlyAt < 0 || i !== onlyAt + 1)) ?? path.join(os.tmpdir(), `css-compare-${Date.now()}`);
mkdirSync(outDir, { recursive: true });

const dist = path.join(REPO_ROOT, 'dist');
/** The shell's stylesheet in dist/index.html (the login page's is inside it, `style#login-styles`). */
const SHEETS = /shell-[A-Z0-9]{8}\.css/g;
/**
 * Builds dist/ (ignoring a budget failure: the files are written before the check) and returns
 * its stylesheets' text in cascade order (the login page's, then the shell's).
 */
function build(flags: string[]): string {
  try {
    execFileSync(process.execPath, ['build.mjs', ...flags], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    // over budget: reported by the build itself
  }
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const login = /<style id="login-styles">([\s\S]*?)<\/style>/.exec(html)?.[1];
  if (login === undefined) throw new Error('no login stylesheet in dist/index.html');
  return [login, ...(html.match(SHEETS) ?? []).map((name) => readFileSync(path.join(dist, 'static', name), 'utf8'))].join('\n');
}

console.error('building one stylesheet without the purge …');
const full = build(['--no-css-purge', '--no-css-split']);
console.error('building as shipped …');
const shipped = build([]);
if (shipped === full) throw new Error('the purge removed nothing: is it switched on?');
console.error(`stylesheets ${full.length} → ${shipped.length} bytes`);

type Shot = Buffer;
interface Difference { view: string; pixels: number; size?: string; where: string }
const differences: Difference[] = [];
const noise: Difference[] = [];
let compared = 0;
/** Dialog steps that could not be carried out (a control missing on this data), listed at the end. */
const skipped: string[] = [];

/**
 * Decodes two PNGs in a blank page and counts differing pixels; returns a diff image (the first
 * shot faded, differing pixels red) when any differ. Page code is a string: the TypeScript
 * loader would add helpers to named functions that the page does not have.
 */
const PIXEL_DIFF = `async (a64, b64) => {
  const load = (src) => new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = reject;
    img.src = src;
  });
  const [ia, ib] = await Promise.all([load('data:image/png;base64,' + a64), load('data:image/png;base64,' + b64)]);
  const w = Math.max(ia.width, ib.width);
  const h = Math.max(ia.height, ib.height);
  const canvasOf = () => Object.assign(document.createElement('canvas'), { width: w, height: h });
  const pixels = (img) => {
    const ctx = canvasOf().getContext('2d');
    ctx.drawImage(img, 0, 0);
    return ctx.getImageData(0, 0, w, h).data;
  };
  const pa = pixels(ia);
  const pb = pixels(ib);
  const canvas = canvasOf();
  const ctx = canvas.getContext('2d');
  ctx.globalAlpha = 0.25;
  ctx.drawImage(ia, 0, 0);
  const overlay = ctx.getImageData(0, 0, w, h);
  let count = 0;
  let maxDelta = 0;
  const box = { x0: w, y0: h, x1: -1, y1: -1 };
  for (let i = 0; i < pa.length; i += 4) {
    if (pa[i] !== pb[i] || pa[i + 1] !== pb[i + 1] || pa[i + 2] !== pb[i + 2] || pa[i + 3] !== pb[i + 3]) {
      count++;
      maxDelta = Math.max(maxDelta, Math.abs(pa[i] - pb[i]), Math.abs(pa[i + 1] - pb[i + 1]), Math.abs(pa[i + 2] - pb[i + 2]), Math.abs(pa[i + 3] - pb[i + 3]));
      overlay.data.set([255, 0, 0, 255], i);
      const x = (i / 4) % w, y = Math.floor(i / 4 / w);
      box.x0 = Math.min(box.x0, x); box.y0 = Math.min(box.y0, y); box.x1 = Math.max(box.x1, x); box.y1 = Math.max(box.y1, y);
    }
  }
  ctx.putImageData(overlay, 0, 0);
  const size = ia.width !== ib.width || ia.height !== ib.height ? ia.width + '×' + ia.height + ' vs ' + ib.width + '×' + ib.height : undefined;
  // The differing region (with a margin) of both shots, magnified four times, one above the other.
  let zoom;
  if (count) {
    const x = Math.max(0, box.x0 - 24), y = Math.max(0, box.y0 - 24);
    const cw = Math.min(w, box.x1 + 25) - x, ch = Math.min(h, box.y1 + 25) - y;
    const z = Object.assign(document.createElement('canvas'), { width: cw * 4, height: ch * 8 + 4 });
    const zc = z.getContext('2d');
    zc.imageSmoothingEnabled = false;
    zc.fillStyle = '#f0f';
    zc.fillRect(0, 0, z.width, z.height);
    zc.drawImage(ia, x, y, cw, ch, 0, 0, cw * 4, ch * 4);
    zc.drawImage(ib, x, y, cw, ch, 0, ch * 4 + 4, cw * 4, ch * 4);
    zoom = z.toDataURL('image/png');
  }
  return { pixels: count, maxDelta, size, box: count ? box : undefined, diff: count || size ? canvas.toDataURL('image/png') : undefined, zoom };
}`;

interface PixelDiff { pixels: number; maxDelta: number; size?: string; box?: { x0: number; y0: number; x1: number; y1: number }; diff?: string; zoom?: string }
async function pixelDiff(decoder: Page, a: Shot, b: Shot): Promise<PixelDiff> {
  return decoder.evaluate(`(${PIXEL_DIFF})(${JSON.stringify(a.toString('base64'))}, ${JSON.stringify(b.toString('base64'))})`) as Promise<PixelDiff>;
}
const png = (dataUrl: string) => Buffer.from(dataUrl.split(',')[1], 'base64');

/**
 * Switches between the shipped stylesheets (as the page loaded them) and the one whole stylesheet
 * (a link added before the first of them, served by the route in `run`), and waits until it applies.
 */
async function useStylesheet(page: Page, variant: 'purged' | 'full') {
  await page.evaluate(async ([pattern, variant]) => {
    const re = new RegExp(pattern);
    const login = document.querySelector<HTMLStyleElement>('style#login-styles');
    if (!login) throw new Error('login stylesheet not found');
    const shipped: (HTMLStyleElement | HTMLLinkElement)[] = [login,
      ...[...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].filter((l) => re.test(l.href) && !l.href.endsWith('?full'))];
    let whole = document.querySelector<HTMLLinkElement>('link[rel=stylesheet][href$="?full"]');
    if (!whole) {
      whole = document.createElement('link');
      whole.rel = 'stylesheet';
      await new Promise((resolve, reject) => {
        whole!.onload = resolve;
        whole!.onerror = reject;
        whole!.href = './whole.css?full';
        login.before(whole!);
      });
    }
    whole.disabled = variant !== 'full';
    for (const sheet of shipped) sheet.disabled = variant === 'full';
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, [SHEETS.source, variant] as const);
}

const shoot = (page: Page) => page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });

/**
 * Alternates purged and whole stylesheets on the same DOM, up to ROUNDS times each, until one
 * shot with the whole stylesheet equals one with the purged one. Re-rendering after a swap
 * alone moves a few anti-aliased pixels now and then (the `--same` run shows it), so one
 * unequal pair proves nothing. Without an equal pair the page is reloaded, the view brought up
 * again by `prepare`, and the rounds repeated once; still none is reported, with the closest
 * pair. A view whose purged shots differ among themselves is marked: something moved in it.
 */
const ROUNDS = 5;
async function compare(page: Page, decoder: Page, view: string, settle: () => Promise<void>, prepare: () => Promise<void>) {
  let closest: { result: PixelDiff; a: Shot; b: Shot; moving: boolean } | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) {
      await page.reload();
      await prepare();
    }
    await settle();
    const purgedShots: Shot[] = [];
    const fullShots: Shot[] = [];
    let equal = false;
    for (let round = 0; round < ROUNDS && !equal; round++) {
      await useStylesheet(page, 'purged');
      const p = await shoot(page);
      purgedShots.push(p);
      if (fullShots.some((f) => f.equals(p))) equal = true;
      else {
        await useStylesheet(page, 'full');
        const f = await shoot(page);
        fullShots.push(f);
        equal = purgedShots.some((q) => q.equals(f));
      }
    }
    await useStylesheet(page, 'purged');
    if (equal) {
      compared++;
      return;
    }
    closest = undefined;
    for (let i = 0; i < ROUNDS; i++) {
      const result = await pixelDiff(decoder, purgedShots[i], fullShots[i]);
      if (!closest || result.pixels < closest.result.pixels) closest = { result, a: purgedShots[i], b: fullShots[i], moving: false };
    }
    closest!.moving = purgedShots.some((q) => !q.equals(purgedShots[0]));
    if (closest!.result.pixels === 0 && !closest!.result.size) {
      compared++;
      return;
    }
  }
  compared++;
  const { result, a, b, moving } = closest!;
  const file = view.replace(/[^\w.-]+/g, '_');
  writeFileSync(path.join(outDir, `${file}-purged.png`), a);
  writeFileSync(path.join(outDir, `${file}-full.png`), b);
  if (result.diff) writeFileSync(path.join(outDir, `${file}-diff.png`), png(result.diff));
  if (result.zoom) writeFileSync(path.join(outDir, `${file}-zoom.png`), png(result.zoom));
  const where = `${result.box ? ` at ${result.box.x0},${result.box.y0}–${result.box.x1},${result.box.y1}, largest channel change ${result.maxDelta}` : ''}${moving ? ', purged shots also differ among themselves' : ''}`;
  // Live content redrawn between shots (the purged shots differ among themselves) with no
  // colour off by more than 2 of 255: rendering noise, listed apart and not failing the run.
  if (moving && result.maxDelta <= 2 && !result.size) {
    noise.push({ view, pixels: result.pixels, where });
    console.error(`NOISE ${view}: ${result.pixels} px${where}`);
    return;
  }
  differences.push({ view, pixels: result.pixels, size: result.size, where });
  console.error(`DIFFERENT ${view}: ${result.pixels} px${where}${result.size ? ` (${result.size})` : ''}`);
}

/** Waits until the screen rendered and the network is quiet. */
function settler(page: Page, inflight: { count: number; last: number }) {
  return async () => {
    const deadline = Date.now() + 15000;
    while (Date.now() < deadline) {
      const loading = (await page.$$('main.content > *')).length === 1 && (await page.$('main.content > [data-test=state-loading]')) !== null;
      if (!loading && inflight.count === 0 && Date.now() - inflight.last > 400) break;
      await page.waitForTimeout(100);
    }
    await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  };
}

/** Turns a route pattern into a regular expression over hash paths. */
const patternOf = (p: string) => new RegExp('^' + p.replace(/:[^/]+/g, '[^/?]+') + '$');

async function run(browser: Browser, baseUrl: string, locale: string, scheme: 'light' | 'dark', decoder: Page) {
  const tag = `${locale.slice(0, 2)}-${scheme}`;
  const w = await openPage(browser, { locale, colorScheme: scheme });
  const { page } = w;
  const body = same ? shipped : control ? full + 'h1,h2,h3,th{color:red!important}' : full;
  await page.route(/\/whole\.css\?full$/, (route) => route.fulfill({ status: 200, contentType: 'text/css', body }));
  const inflight = { count: 0, last: Date.now() };
  page.on('request', () => ((inflight.count++), (inflight.last = Date.now())));
  const done = () => ((inflight.count = Math.max(0, inflight.count - 1)), (inflight.last = Date.now()));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  const settle = settler(page, inflight);

  await page.goto(baseUrl + '/');
  await page.waitForSelector('[data-test=login-form]');
  if (!only) await compare(page, decoder, `${tag} login`, settle, () => page.waitForSelector('[data-test=login-form]').then(() => undefined));
  await loginAsAdmin(page, baseUrl);

  const plain = screens.filter((s) => !s.path.includes(':')).map((s) => s.path);
  const links = new Set<string>();
  const visit = async (route: string) => {
    await page.evaluate((hash) => { location.hash = hash; }, '#' + route);
    await settle();
    for (const href of await page.$$eval('a[href^="#/"]', (as) => as.map((a) => a.getAttribute('href')!))) links.add(href.slice(1).split('?')[0]);
  };
  const routes: string[] = [];
  for (const route of [...plain, '/alarm/history-alarm']) {
    if (only && !only.has(route)) continue;
    await visit(route);
    await compare(page, decoder, `${tag} ${route}`, settle, () => visit(route));
    routes.push(route);
  }
  // Screens with parameters: the first link to them found on the other screens (live data),
  // else a made-up value (the screen's not-found or error state).
  for (const screen of screens.filter((s) => s.path.includes(':'))) {
    if (only && !only.has(screen.path)) continue;
    const re = patternOf(screen.path);
    const found = [...links].find((l) => re.test(l));
    if (!found) console.error(`${tag} ${screen.path}: no link found, made-up parameters`);
    const route = found ?? screen.path.replace(/:[^/]+/g, 'css-compare');
    await visit(route);
    await compare(page, decoder, `${tag} ${screen.path} (${route})`, settle, () => visit(route));
    routes.push(route);
  }

  if (!only) {
    // The user menu.
    const userMenu = async () => {
      await visit('/dashboard/overview');
      await page.click('[data-test=user-menu]');
    };
    await userMenu();
    await compare(page, decoder, `${tag} user menu`, settle, userMenu);
    await page.click('[data-test=user-menu]');
    // Create drawers (empty submit: required-field errors) and confirmation dialogs.
    for (const route of ['/users', '/banned-clients', '/api-key', '/topic-rewrite', '/auto-sub', '/log-trace', '/schema-registry', '/connector', '/rule/rules']) {
      try {
        await dialogs(route);
      } catch (error) {
        skipped.push(`${tag} ${route} dialogs: ${(error as Error).message.split('\n')[0]}`);
        await page.keyboard.press('Escape');
      }
    }
  }
  if (w.errors.length) console.error(`${tag} page errors: ${w.errors.join('; ')}`);
  await w.context.close();
  return routes.length;

  async function dialogs(route: string) {
    const createButton = () => page.locator('main.content button[data-test$="-create"]').first();
    const dangerButton = () => page.locator('main.content button.danger:not([disabled])').first();
    const openCreate = async () => {
      await visit(route);
      await createButton().click();
      await page.waitForSelector('[role=dialog], dialog[open]', { timeout: 5000 }).catch(() => undefined);
    };
    const submit = () => page.locator('[role=dialog] [data-test=form-submit]').first().click();
    const openConfirm = async () => {
      await visit(route);
      await dangerButton().click();
      await page.waitForSelector('[data-test=confirm-dialog]', { timeout: 3000 });
    };
    await visit(route);
    if (await createButton().isVisible().catch(() => false)) {
      await openCreate();
      await compare(page, decoder, `${tag} ${route} create`, settle, openCreate);
      if (await page.locator('[role=dialog] [data-test=form-submit]').first().isVisible().catch(() => false)) {
        await submit();
        await compare(page, decoder, `${tag} ${route} create errors`, settle, () => openCreate().then(submit));
      }
      await page.keyboard.press('Escape');
      await visit(route);
    }
    if (await dangerButton().isVisible().catch(() => false)) {
      await openConfirm();
      await compare(page, decoder, `${tag} ${route} confirm`, settle, openConfirm);
      await page.click('[data-test=confirm-cancel]');
    }
  }
}

const sim = await spawnSimulator(['--seed', 'demo']);
// What the demo seed leaves empty, so the detail screens show real content rather than not-found.
const token = await login(sim.baseUrl);
const extras: [string, string, unknown][] = [
  ['POST', '/api/v5/authentication', { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } }],
  ['POST', '/api/v5/trace', { name: 'cssCompare', type: 'clientid', clientid: 'css-compare' }],
  ['POST', '/api/v5/schema_registry', { name: 'css_compare', type: 'avro', source: JSON.stringify({ type: 'record', name: 'R', fields: [{ name: 'a', type: 'int' }] }) }],
  ['POST', '/api/v5/exhooks', { name: 'css_compare', url: 'http://127.0.0.1:9', enable: false }],
  ['PUT', '/api/v5/gateways/mqttsn', { name: 'mqttsn', enable: true, gateway_id: 7, listeners: [{ type: 'udp', name: 'default', bind: '127.0.0.1:0' }] }],
];
for (const [method, url, body] of extras) {
  const res = await request(sim.baseUrl, method, url, { token, body });
  if (res.status >= 300) console.error(`seeding ${method} ${url}: ${res.status} ${res.text.slice(0, 200)}`);
}
const browser = await launch();
let routeCount = 0;
try {
  const decoder = await (await browser.newContext()).newPage();
  for (const locale of ['en-US', 'zh-CN']) {
    for (const scheme of ['light', 'dark'] as const) {
      const n = await run(browser, sim.baseUrl, locale, scheme, decoder);
      routeCount = Math.max(routeCount, n);
      console.error(`${locale} ${scheme}: ${n} routes, ${compared} views compared so far, ${differences.length} different`);
    }
  }
} finally {
  await browser.close();
  await sim.kill();
}
console.log(`routes: ${routeCount} per language × theme; views compared: ${compared}; different: ${differences.length}; rendering noise only: ${noise.length}`);
for (const d of noise) console.log(`  noise: ${d.view} (${d.pixels} px${d.where})`);
for (const s of skipped) console.log(`  not compared: ${s}`);
for (const d of differences) console.log(`  different: ${d.view} (${d.pixels} px${d.where}${d.size ? `, ${d.size}` : ''})`);
if (differences.length || noise.length) console.log(`screenshots of the differences in ${outDir}`);
process.exit(differences.length ? 1 : 0);
