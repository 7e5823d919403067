// Child process that sends the API requests of the benchmark and the soak, so the client's work
// does not share the simulator's event loop. Prints one JSON line per result.
//   --paths a,b  --token T  --base URL  [--count 200] [--concurrency 8] [--seconds 3] [--pages 1]
//   latency mode (default): per path, `count` sequential requests (p50/p95/p99), then `seconds`
//     of `concurrency` parallel requesters (requests/s);
//   --poll W: cycles through the paths for ever and prints p95 and count every W seconds.
import http from 'node:http';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const base = new URL(arg('base', 'http://127.0.0.1:18083'));
const token = arg('token', '');
const paths = arg('paths', '/api/v5/stats').split(',');
const count = Number(arg('count', '200'));
const concurrency = Number(arg('concurrency', '8'));
const seconds = Number(arg('seconds', '3'));
const pages = Math.max(1, Number(arg('pages', '1')));
const poll = Number(arg('poll', '0'));

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

/** Paged paths walk through the first pages, so the figure is not one cached page. */
function withPage(path: string, i: number): string {
  return path.includes('limit=') ? `${path}&page=${1 + (i % pages)}` : path;
}

function get(path: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, path, agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function measure(path: string) {
  for (let i = 0; i < 10; i++) await get(withPage(path, i));
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await get(withPage(path, i)));
  samples.sort((a, b) => a - b);
  let done = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      try {
        await get(withPage(path, done));
        done++;
      } catch {
        errors++;
      }
    }
  }));
  const rps = done / ((performance.now() - started) / 1000);
  return { path, p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), p99: quantile(samples, 0.99), rps, errors };
}

if (poll > 0) {
  let window: number[] = [];
  let errors = 0;
  setInterval(() => {
    const sorted = window.sort((a, b) => a - b);
    console.log(JSON.stringify({ p95: quantile(sorted, 0.95), count: sorted.length, errors }));
    window = [];
    errors = 0;
  }, poll * 1000);
  process.on('SIGTERM', () => process.exit(0));
  for (let i = 0; ; i++) {
    try {
      window.push(await get(withPage(paths[i % paths.length], i)));
    } catch {
      errors++;
    }
    // About ten requests a second: the console's polling of a few open tabs, not a stress test.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
} else {
  for (const path of paths) console.log(JSON.stringify(await measure(path)));
  process.exit(0);
}
