// Benchmarks of DESIGN.md §6 that exist so far: cold load to an interactive login form in headless
// Chromium on localhost, plain and throttled (9 Mbit/s, 40 ms, 4× CPU), median of several runs;
// and `GET /api/v5/clients?limit=100` p50/p95 with 10 000 live MQTT connections (`--clients N`
// to change the count). Printed as a table.
import net from 'node:net';
import { launch } from '../helpers/browser.ts';
import { login, request, spawnSimulator } from '../helpers/simulator.ts';

const CLIENTS = Number(process.argv[process.argv.indexOf('--clients') + 1]) || 10_000;

const RUNS = 15;
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

/** A minimal MQTT 3.1.1 CONNECT (clean session, keepalive 0 so no pings are needed). */
function connectPacket(clientId: string): Buffer {
  const id = Buffer.from(clientId);
  const body = Buffer.concat([Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, 0x02, 0, 0, id.length >> 8, id.length & 0xff]), id]);
  return Buffer.concat([Buffer.from([0x10, body.length]), body]);
}

const sockets: net.Socket[] = [];
for (let i = 0; i < CLIENTS; i++) {
  const socket = net.connect(sim.mqtt, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(connectPacket(`bench-${i}`));
  sockets.push(socket);
  if (i % 500 === 499) await new Promise((resolve) => setTimeout(resolve, 100));
}
const token = await login(sim.baseUrl);
const deadline = Date.now() + 60_000;
let connected = 0;
while (Date.now() < deadline) {
  const stats = (await request(sim.baseUrl, 'GET', '/api/v5/stats?aggregate=true', { token })).json as Record<string, number>;
  connected = stats['connections.count'];
  if (connected >= CLIENTS) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const latencies: number[] = [];
for (let i = 0; i < 200; i++) {
  const start = performance.now();
  const res = await request(sim.baseUrl, 'GET', `/api/v5/clients?limit=100&page=${1 + (i % 50)}`, { token });
  if (res.status !== 200) throw new Error(`GET /clients answered ${res.status}`);
  latencies.push(performance.now() - start);
}
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
rows.push([`GET /clients?limit=100, ${connected} clients p50`, `${p(0.5).toFixed(1)} ms`, '']);
rows.push([`GET /clients?limit=100, ${connected} clients p95`, `${p(0.95).toFixed(1)} ms`, `${p(0.95) <= 20 ? 'within' : 'OVER'} 20 ms`]);
for (const socket of sockets) socket.destroy();
await sim.kill();

console.log(`\n${'benchmark'.padEnd(48)}${'value'.padStart(10)}   budget`);
for (const [name, value, budget] of rows) console.log(`${name.padEnd(48)}${value.padStart(10)}   ${budget}`);
