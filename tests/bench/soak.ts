// `npm run soak -- --minutes M`: keeps MQTT publish traffic (tests/bench/load.ts: a fleet with a
// QoS mix, retained messages and churn) and API polling (tests/bench/requester.ts) running
// against one simulator, prints its RSS and the API p95 every 30 s, and ends with a summary: the
// memory and latency of security.md D2 (10,000 clients: `npm run load -- --clients 10000`).
//   npm run soak -- [--minutes 10] [--clients 1000] [--rate 1000] [--every 30]
import { login, spawnSimulator } from '../helpers/simulator.ts';
import { API_PATHS } from './api.ts';
import { rss, startChild, type Child } from './children.ts';
import { mb, ms } from './table.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const minutes = arg('minutes', 10);
const clients = arg('clients', 1000);
const rate = arg('rate', 1000);
const every = arg('every', 30);

const sim = await spawnSimulator(['--seed', 'empty', '--nodes', '1']);
const pid = sim.child.pid!;
const children: Child[] = [];
const stopAll = async () => {
  await Promise.all(children.map((c) => c.stop()));
  await sim.kill();
};
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  const token = await login(sim.baseUrl);
  console.log(`soak: ${minutes} min, ${clients} MQTT clients publishing ${rate} msg/s, API polling ${API_PATHS.join(' ')}`);
  const load = startChild('load.ts', ['--port', String(sim.mqtt), '--clients', String(clients), '--rate', String(rate),
    '--seconds', String(Math.ceil(minutes * 60) + 30), '--report', String(every)]);
  children.push(load);
  const requester = startChild('requester.ts', ['--base', sim.baseUrl, '--token', token, '--paths', API_PATHS.join(','),
    '--pages', String(Math.min(50, Math.ceil(clients / 100))), '--poll', String(every)]);
  children.push(requester);

  const samples: { at: number; rss: number; p95: number }[] = [];
  const end = Date.now() + minutes * 60_000;
  const started = Date.now();
  while (Date.now() < end) {
    const window = await requester.next<{ p95: number; count: number; errors: number }>((every + 30) * 1000);
    const sample = { at: (Date.now() - started) / 1000, rss: rss(pid), p95: window.p95 };
    samples.push(sample);
    const published = load.text().trim().split('\n').at(-1)?.match(/published [\d.]+\/s\s+received [\d.]+\/s\s+connected \d+\/\d+/)?.[0] ?? '';
    console.log(`${sample.at.toFixed(0).padStart(6)} s  RSS ${mb(sample.rss).padStart(9)}  API p95 ${ms(sample.p95).padStart(7)} ` +
      `(${window.count} requests, ${window.errors} errors)  ${published}`);
  }
  if (samples.length) {
    const first = samples[0].rss;
    const last = samples.at(-1)!.rss;
    const peak = Math.max(...samples.map((s) => s.rss));
    const worst = samples.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    console.log(`summary: ${minutes} min, RSS ${mb(first)} → ${mb(last)} (${last >= first ? '+' : ''}${(((last - first) / first) * 100).toFixed(1)} %, peak ${mb(peak)}), ` +
      `worst API p95 ${ms(worst.p95)} at ${worst.at.toFixed(0)} s`);
  }
} finally {
  await stopAll();
}
