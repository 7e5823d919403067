// The Topic Explorer under traffic (DESIGN.md §6): the explorer in headless Chromium receives
// 2,000 msg/s spread over 10,000 topics for 30 s while a subtree is open and a topic selected;
// the page's long tasks are counted, with the longest one and the total blocked time (the part
// of each long task over 50 ms, as Lighthouse counts it) as a share of the window.
import type { MqttClient } from 'mqtt';
import { launch, loginAsAdmin, openPage } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, spawnSimulator } from '../helpers/simulator.ts';
import { budgeted, failed, info, ms, type Row } from './table.ts';

const S = 'explorer';
const TOPICS = 10_000;
const RATE = 2_000;
const PUBLISHERS = 4;
/** Topic i as `bench/<i / 1000>/<i / 100 % 10>/<i % 100>`: a tree of 10 × 10 × 100 topics. */
const topicOf = (i: number) => `bench/${Math.floor(i / 1000)}/${Math.floor(i / 100) % 10}/${i % 100}`;

/** Publishes RATE msg/s round-robin over the topics in 10 ms slices until stopped; returns the count. */
function publish(clients: MqttClient[]) {
  let next = 0;
  let sent = 0;
  let credit = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    credit += ((now - last) / 1000) * RATE;
    last = now;
    for (; credit >= 1; credit--) {
      const i = next;
      next = (next + 1) % TOPICS;
      clients[i % clients.length].publish(topicOf(i), JSON.stringify({ v: Math.round(Math.random() * 1000) / 10, n: sent }), { qos: 0 });
      sent++;
    }
  }, 10);
  return { stop: () => (clearInterval(timer), sent) };
}

export async function explorerRows(seconds = 30): Promise<Row[]> {
  const sim = await spawnSimulator(['--seed', 'empty', '--nodes', '1']);
  const browser = await launch();
  const clients: MqttClient[] = [];
  let publisher: { stop(): number } | undefined;
  try {
    for (let i = 0; i < PUBLISHERS; i++) clients.push(await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `bench-explorer-${i}` }));
    const { page } = await openPage(browser);
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await loginAsAdmin(page, sim.baseUrl);
    await page.goto(`${sim.baseUrl}/#/topic-explorer`);
    await page.waitForSelector('[data-test=explorer-page]');
    // The address comes from /listeners: the simulator's WebSocket listener.
    await page.waitForFunction((port) => document.querySelector<HTMLInputElement>('[data-test=ws-port]')?.value === port, String(sim.ws));
    await page.selectOption('[data-test=ws-explorerQos]', '0');
    await page.click('[data-test=explorer-connect]');
    await page.waitForSelector('[data-test=ws-state][data-state=connected]');
    publisher = publish(clients);
    // A subtree opened and a topic selected as soon as they appear, then every topic seen once
    // (5 s at 2,000 msg/s) before the window starts.
    page.setDefaultTimeout(60_000);
    for (const path of ['bench', 'bench/0', 'bench/0/0']) await page.click(`[data-test=explorer-node][data-path="${path}"] [data-test=explorer-toggle]`);
    await page.click('[data-test=explorer-node][data-path="bench/0/0/0"] [data-test=explorer-node-name]');
    await page.waitForSelector('[data-test=explorer-panel]');
    await new Promise((r) => setTimeout(r, (TOPICS / RATE) * 1000));
    const messagesAt = async () => Number((await page.textContent('[data-test=explorer-summary]'))!.split('·')[1].replace(/\D/g, ''));
    const before = await messagesAt();
    await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks = []));
    const started = Date.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    const span = Date.now() - started;
    const received = (await messagesAt()) - before;
    const sent = publisher.stop();
    const topics = (await page.textContent('[data-test=explorer-summary]'))!.split('·')[0].trim();
    const longest = Math.max(0, ...tasks);
    const blocked = tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0);
    const share = (blocked / span) * 100;
    return [
      info(S, `received at ${RATE} msg/s over ${TOPICS} topics (${sent} sent)`, `${Math.round(received / (span / 1000))} msg/s, ${topics}`, received),
      info(S, `long tasks in ${seconds} s`, String(tasks.length), tasks.length),
      budgeted(S, 'longest task', longest, ms(longest), 100, '≤ 100 ms'),
      budgeted(S, 'blocked time (over 50 ms per task)', share, `${share.toFixed(2)} % (${ms(blocked)})`, 5, '< 5 %'),
    ];
  } catch (error) {
    return [failed(S, 'topic explorer under load', error)];
  } finally {
    publisher?.stop();
    await Promise.all(clients.map((c) => endMqtt(c).catch(() => undefined)));
    await browser.close();
    await sim.kill();
  }
}

// Run alone: `node --import tsx/esm tests/bench/explorer.ts [seconds]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { print } = await import('./table.ts');
  print(await explorerRows(Number(process.argv[2] ?? 30)));
}
