/**
 * Headless Chromium for e2e tests and screenshots: playwright-core driving the system Chromium
 * (Debian's `chromium` package; no browser download), with the flags this environment needs.
 * Every page records CSP violations, page errors and dialogs so a test can assert there were none.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { spawnSimulator, waitFor, type SpawnedSimulator } from './simulator.ts';

/** The system Chromium; CHROMIUM_PATH overrides it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '/usr/bin/chromium-browser');

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** CSP violations seen (security.md S14). */
  violations: string[];
  /** Uncaught errors in the page. */
  errors: string[];
  /** Native dialogs that opened (alert/confirm); S12 expects none. */
  dialogs: string[];
}

/** A fresh context (empty storage) with English or Chinese browser language and a light or dark OS. */
export async function openPage(browser: Browser, options: { locale?: string; colorScheme?: 'light' | 'dark' } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', colorScheme: options.colorScheme ?? 'light', viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  const watched: WatchedPage = { page, context, violations: [], errors: [], dialogs: [] };
  await page.exposeFunction('__reportViolation', (text: string) => watched.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { __reportViolation: (t: string) => void }).__reportViolation(`${event.violatedDirective} ${event.blockedURI}`));
  });
  page.on('pageerror', (error) => watched.errors.push(error.message));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return watched;
}

/** Logs in as admin/public on a fresh simulator, skips the password prompt and waits for the overview. */
export async function loginAsAdmin(page: Page, baseUrl: string): Promise<void> {
  await page.goto(baseUrl + '/');
  await page.fill('[data-test=login-form] input[name=username]', 'admin');
  await page.fill('[data-test=login-form] input[name=password]', 'public');
  await page.click('[data-test=login-form] [data-test=form-submit]');
  await page.click('[data-test=login-skip]');
  await page.waitForSelector('[data-test=overview-page]');
}

/** A spawned simulator with one browser page logged in as admin: the set-up most e2e suites share. */
export interface ConsoleSession {
  sim: SpawnedSimulator;
  browser: Browser;
  w: WatchedPage;
  close(): Promise<void>;
}

/** Starts the simulator (`--seed empty` unless `args` say otherwise), Chromium, one page, and logs in. */
export async function openConsole(args: string[] = ['--seed', 'empty']): Promise<ConsoleSession> {
  const sim = await spawnSimulator(args);
  const browser = await launch();
  const w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
  return {
    sim, browser, w,
    async close() {
      await browser.close();
      await sim.kill();
    },
  };
}

/**
 * Waits until `expression` (page code as a string) is truthy, for at most `timeout` ms. A string
 * predicate of `waitForFunction` needs eval once it polls, which the console's CSP refuses; this
 * evaluates it from here instead.
 */
export async function waitUntil(page: Page, expression: string, timeout = 5000): Promise<void> {
  await waitFor(async () => Boolean(await page.evaluate(expression)), timeout, expression.slice(0, 160));
}
