// Load on the WebSocket test client: the page subscribes to `bench/#` (with a topic monitor on it)
// while a Node publisher sends --rate messages a second (default 2000) for --seconds (default 30)
// over TCP. The page records main-thread long tasks (PerformanceObserver 'longtask') and animation
// frames, first while idle, then under load; the table says how much of the time the main thread
// was blocked. Run: node --import tsx/esm tests/bench/websocket-load.ts [--rate N] [--seconds S]
import mqtt from 'mqtt';
import { launch, openPage } from '../helpers/browser.ts';
import { spawnSimulator } from '../helpers/simulator.ts';

const arg = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || fallback;
const RATE = arg('rate', 2000);
const SECONDS = arg('seconds', 30);
const IDLE_SECONDS = 5;

interface PageStats {
  longTasks: number[];
  frames: number;
  heap?: number;
}

const sim = await spawnSimulator(['--seed', 'empty']);
const browser = await launch();
try {
  const w = await openPage(browser);
  const { page } = w;
  await page.goto(sim.baseUrl + '/');
  await page.fill('[data-test=login-form] input[name=username]', 'admin');
  await page.fill('[data-test=login-form] input[name=password]', 'public');
  await page.click('[data-test=login-form] [data-test=form-submit]');
  await page.click('[data-test=login-skip]');
  await page.waitForSelector('[data-test=overview-page]');
  await page.evaluate(() => (location.hash = '#/websocket'));
  await page.waitForSelector('[data-test=websocket-page]');
  await page.click('[data-test=ws-connect]');
  await page.waitForSelector('[data-test=ws-state][data-state=connected]');
  await page.fill('[data-test=ws-subscribeTopic]', 'bench/#');
  await page.click('[data-test=ws-subscribe-submit]');
  await page.waitForSelector('[data-test=ws-subscription]');
  await page.fill('[data-test=ws-monitorTopic]', 'bench/#');
  await page.click('[data-test=ws-monitor-add]');

  // Starts (or restarts) recording in the page: long tasks and animation frames. Given as text,
  // because tsx would wrap named functions in a helper the page does not have.
  const record = () => page.evaluate(`(() => {
    const g = window;
    g.observer?.disconnect();
    g.stats = { longTasks: [], frames: 0 };
    g.observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => g.stats.longTasks.push(e.duration)));
    g.observer.observe({ type: 'longtask' });
    if (!g.counting) {
      g.counting = true;
      const frame = () => { g.stats.frames++; requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    }
  })()`);
  const collect = () => page.evaluate(() => {
    const g = window as unknown as { stats: PageStats };
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    return { ...g.stats, heap: memory?.usedJSHeapSize };
  });

  await record();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idle = await collect();

  const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'bench-publisher', protocolVersion: 4 });
  await record();
  const started = Date.now();
  let sent = 0;
  // Catch up to the target every 5 ms, so timer jitter does not lower the rate.
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Date.now() - started;
      const target = Math.min(RATE * SECONDS, Math.floor((elapsed / 1000) * RATE));
      for (; sent < target; sent++) publisher.publish(`bench/${sent % 50}`, JSON.stringify({ seq: sent, t: Date.now(), v: Math.random() }));
      if (sent >= RATE * SECONDS) (clearInterval(timer), resolve());
    }, 5);
  });
  const sendSeconds = (Date.now() - started) / 1000;
  // Let the last messages arrive, then scroll the list as a user would and see it respond.
  await page.waitForTimeout(1000);
  const loaded = await collect();
  const received = Number((await page.textContent('[data-test=ws-received] h3'))?.replace(/\D/g, ''));
  const rendered = await page.locator('[data-test=ws-received] [data-test=ws-message]').count();
  const scrollStart = Date.now();
  await page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('[data-test=ws-received] .ws-list')!;
    list.scrollTop = list.scrollHeight / 2;
    list.dispatchEvent(new Event('scroll'));
  });
  await page.waitForFunction(() => document.querySelectorAll('[data-test=ws-received] [data-test=ws-message]').length > 0);
  const scrollMs = Date.now() - scrollStart;
  await publisher.endAsync();

  const stats = (s: PageStats, seconds: number) => {
    const sorted = [...s.longTasks].sort((a, b) => a - b);
    const total = sorted.reduce((a, b) => a + b, 0);
    return {
      count: sorted.length,
      total: `${total.toFixed(0)} ms (${((total / (seconds * 1000)) * 100).toFixed(1)} % of the time)`,
      max: `${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
      p95: `${(sorted[Math.floor(sorted.length * 0.95)] ?? 0).toFixed(0)} ms`,
      fps: (s.frames / seconds).toFixed(1),
    };
  };
  const mb = (bytes?: number) => (bytes ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : 'n/a');
  const i = stats(idle, IDLE_SECONDS);
  const l = stats(loaded, sendSeconds + 1);
  const rows = [
    ['messages sent / received by the page', `${sent} in ${sendSeconds.toFixed(1)} s`, `${received}`],
    ['long tasks (count)', String(i.count), String(l.count)],
    ['long tasks (total)', i.total, l.total],
    ['longest task', i.max, l.max],
    ['long task p95', i.p95, l.p95],
    ['animation frames per second', i.fps, l.fps],
    ['rows rendered in the received list', '', String(rendered)],
    ['JS heap used', mb(idle.heap), mb(loaded.heap)],
    ['scroll to the middle until rows show', '', `${scrollMs} ms`],
  ];
  console.log(`\nWebSocket test client under ${RATE} msg/s for ${SECONDS} s (headless Chromium)\n`);
  console.log(`${'what'.padEnd(40)}${`idle ${IDLE_SECONDS} s`.padEnd(34)}under load`);
  for (const [what, a, b] of rows) console.log(`${what.padEnd(40)}${a.padEnd(34)}${b}`);
  if (w.errors.length || w.violations.length) console.log('\npage errors / CSP violations:', w.errors, w.violations);
} finally {
  await browser.close();
  await sim.kill();
}
