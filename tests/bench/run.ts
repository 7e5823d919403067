// `npm run bench`: the figures of DESIGN.md §6 in one table (figure, value, budget, PASS/OVER),
// also appended to bench/results.json. Parts: bundle, browser, api, mqtt, memory, explorer.
//   npm run bench -- [--only bundle,browser,api,mqtt,memory,explorer] [--clients 10000] [--runs 7]
//                    [--mqtt-seconds 5] [--mqtt-rounds 2]
// The API and memory parts share one simulator (with the inspector on loopback, to force garbage
// collections) and one fleet of N live MQTT clients held by a separate load process
// (tests/bench/fleet.ts); the MQTT comparison runs on a fresh simulator, with one extra round on
// the fleet's simulator after the fleet has left.
import os from 'node:os';
import { login, request, spawnInspectable, spawnSimulator } from '../helpers/simulator.ts';
import { apiRows } from './api.ts';
import { browserRows } from './browser.ts';
import { bundleRows } from './bundle.ts';
import { rss, sleep, startChild } from './children.ts';
import { explorerRows } from './explorer.ts';
import { memoryRows, settledRss } from './memory.ts';
import { afterFleetRow, mqttRows } from './mqtt.ts';
import { failed, info, print, save, type Row } from './table.ts';

const PARTS = ['bundle', 'browser', 'api', 'mqtt', 'memory', 'explorer'] as const;
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = new Set((arg('only') ?? PARTS.join(',')).split(',').map((s) => s.trim()));
for (const part of only) if (!PARTS.includes(part as never)) throw new Error(`--only: unknown part ${part} (${PARTS.join(', ')})`);
const clients = Number(arg('clients') ?? 10_000);
const runs = Number(arg('runs') ?? 7);
const mqttSeconds = Number(arg('mqtt-seconds') ?? 5);
const mqttRounds = Number(arg('mqtt-rounds') ?? 2);

const rows: Row[] = [];
const started = Date.now();
const step = (what: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${what}`);

if (only.has('bundle')) {
  step('bundle: production build');
  rows.push(...bundleRows());
}
if (only.has('browser')) {
  step(`browser: ${runs} runs each`);
  try {
    rows.push(...(await browserRows(runs)));
  } catch (error) {
    rows.push(failed('browser', 'browser benchmarks', error));
  }
}

if (only.has('explorer')) {
  step('explorer: 2,000 msg/s over 10,000 topics for 30 s');
  rows.push(...(await explorerRows(30)));
}

/** Polls /stats until connections.count satisfies `done`, for at most `ms`. */
async function connections(baseUrl: string, token: string, done: (n: number) => boolean, ms = 120_000): Promise<number> {
  const deadline = Date.now() + ms;
  let n = -1;
  while (Date.now() < deadline) {
    const stats = (await request(baseUrl, 'GET', '/api/v5/stats?aggregate=true', { token })).json as Record<string, number>;
    n = stats['connections.count'];
    if (done(n)) break;
    await sleep(500);
  }
  return n;
}

/** Connects the fleet, runs `whileConnected`, and waits until the fleet has left again. */
async function fleetCycle<T>(baseUrl: string, port: number, token: string, whileConnected: (connected: number) => Promise<T>) {
  step(`fleet: connecting ${clients} clients`);
  const fleet = startChild('fleet.ts', ['--port', String(port), '--clients', String(clients)]);
  try {
    const { connected: acked, errors } = await fleet.next<{ connected: number; errors: number }>();
    const connected = await connections(baseUrl, token, (n) => n >= clients, 30_000);
    step(`fleet: ${acked} subscribed, ${connected} connected (${errors} socket errors)`);
    const result = await whileConnected(connected);
    fleet.send('leave');
    await fleet.next();
    await connections(baseUrl, token, (n) => n === 0, 60_000);
    return { connected, result };
  } finally {
    await fleet.stop();
  }
}

let afterFleet: Row | undefined;
if (only.has('api') || only.has('memory')) {
  const inspectable = await spawnInspectable(['--seed', 'empty', '--nodes', '1']);
  const { sim } = inspectable;
  const pid = sim.child.pid!;
  try {
    const token = await login(sim.baseUrl);
    await sleep(2000);
    const rssBefore = await settledRss(pid, 2);
    const { heapUsed: heapBefore } = await inspectable.heap();
    const { connected, result: rssDuring } = await fleetCycle(sim.baseUrl, sim.mqtt, token, async (connected) => {
      if (connected < clients) rows.push(info('api', 'clients connected (fewer than asked)', `${connected} of ${clients}`, connected));
      await sleep(2000);
      const during = rss(pid);
      if (only.has('api')) {
        step('api: latency and requests/s');
        rows.push(...(await apiRows(sim.baseUrl, token, clients, connected)));
      }
      return during;
    });
    if (only.has('memory')) {
      step('memory: settling after the fleet left');
      await sleep(3000);
      const rssAfter = await settledRss(pid, 3);
      const { heapUsed: heapAfter } = await inspectable.heap();
      rows.push(...memoryRows({ rssBefore, heapBefore, rssDuring, rssAfter, heapAfter }, connected));
    }
    if (only.has('mqtt')) {
      step('mqtt: one round on the simulator the fleet has left');
      afterFleet = await afterFleetRow(sim, token, mqttSeconds, clients);
    }
  } catch (error) {
    rows.push(failed('api', 'simulator benchmarks', error));
  } finally {
    inspectable.close();
    await sim.kill();
  }
}

if (only.has('mqtt')) {
  // A fresh simulator, so the comparison with bare Aedes is the same load on equal terms.
  const sim = await spawnSimulator(['--seed', 'empty', '--nodes', '1']);
  try {
    step(`mqtt: ${mqttRounds} rounds of ${mqttSeconds} s per broker`);
    rows.push(...(await mqttRows(sim, await login(sim.baseUrl), mqttSeconds, mqttRounds)));
    if (afterFleet) rows.push(afterFleet);
  } finally {
    await sim.kill();
  }
}

const load = os.loadavg()[0].toFixed(2);
rows.push(info('run', `took ${((Date.now() - started) / 1000).toFixed(0)} s; load average at the end ${load} on ${os.cpus().length} cores`, ''));
print(rows);
const file = save(rows, { clients, runs, only: [...only], loadAverage: os.loadavg(), cpus: os.cpus().length });
console.log(`results appended to ${file}`);
process.exit(rows.some((r) => r.pass === false) ? 1 : 0);
