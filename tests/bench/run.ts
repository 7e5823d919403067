// Benchmarks of DESIGN.md §6 that exist so far: cold load to an interactive login form in headless
// Chromium on localhost, plain and throttled (9 Mbit/s, 40 ms, 4× CPU), median of several runs,
// printed as a table. The other rows of §6 are added with the screens and endpoints they measure.
import { launch } from '../helpers/browser.ts';
import { spawnSimulator } from '../helpers/simulator.ts';

const RUNS = 7;
const sim = await spawnSimulator(['--seed', 'empty']);
const browser = await launch();

async function coldLoad(throttled: boolean): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (throttled) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 40, downloadThroughput: (9 * 1024 * 1024) / 8, uploadThroughput: (9 * 1024 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  // Time from navigation start until the form is in the DOM, taken inside the page, so the
  // driver's own round trips do not count.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-test=login-form] input[name=username]')) {
        (window as unknown as { formReadyAt: number }).formReadyAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(sim.baseUrl + '/', { waitUntil: 'commit' });
  await page.waitForSelector('[data-test=login-form] input[name=username]');
  const ms = await page.evaluate(() => (window as unknown as { formReadyAt: number }).formReadyAt);
  await context.close();
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows: [string, string, string][] = [];
for (const [name, throttled, budget] of [['cold load to login form, localhost', false, 200], ['same, 9 Mbit/s 40 ms 4× CPU', true, 1000]] as const) {
  await coldLoad(throttled); // warm the browser process, not the page cache (new context each run)
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await coldLoad(throttled));
  const value = median(samples);
  rows.push([name, `${value.toFixed(0)} ms`, `${value <= budget ? 'within' : 'OVER'} ${budget} ms`]);
}
await browser.close();
await sim.kill();

console.log(`\n${'benchmark'.padEnd(40)}${'median'.padStart(10)}   budget`);
for (const [name, value, budget] of rows) console.log(`${name.padEnd(40)}${value.padStart(10)}   ${budget}`);
