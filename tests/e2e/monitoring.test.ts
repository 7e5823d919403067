import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { toChartData, type Sample } from '../../web/features/monitoring/dashboard/monitor.ts';
import { launch, loginAsAdmin, openPage, waitUntil, type WatchedPage } from '../helpers/browser.ts';
import { contrast } from '../helpers/contrast.ts';
import { login as apiLogin, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
let token = '';
const children: ChildProcess[] = [];

/** Runs a mosquitto client; resolves with its output when it exits. */
function mosquitto(tool: 'mosquitto_sub' | 'mosquitto_pub', args: string[]) {
  const child = spawn(tool, ['-h', '127.0.0.1', '-p', String(sim.mqtt), ...args]);
  children.push(child);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<string>((resolve) => child.on('close', () => resolve(out)));
  return { child, output: () => out, done };
}

async function until(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const clientRow = async (id: string) =>
  ((await request(sim.baseUrl, 'GET', `/api/v5/clients?clientid=${encodeURIComponent(id)}`, { token })).json as { data: { port: number; connected: boolean }[] }).data[0];

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  token = await apiLogin(sim.baseUrl);
  browser = await launch();
  w = await openPage(browser);
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  for (const child of children) child.kill();
  await browser?.close();
  await sim?.kill();
});

test('a mosquitto_sub client shows in Clients with its protocol, address and clean session', async () => {
  const sub = mosquitto('mosquitto_sub', ['-i', 'probe-1', '-t', 'demo/#', '-v']);
  await until(async () => Boolean(await clientRow('probe-1')), 1000, 'probe-1 over the API');
  const { port } = await clientRow('probe-1');
  await w.page.goto(`${sim.baseUrl}/?like_clientid=probe#/clients`);
  const row = w.page.locator('[data-test=clients-row][data-key=probe-1]');
  await row.waitFor();
  const text = (await row.textContent()) ?? '';
  assert.ok(text.includes(`127.0.0.1:${port}`), text);
  assert.ok(text.includes('Connected'), text);
  assert.is(sub.child.exitCode, null);
});

test('client detail: a subscription added in the console reaches the real client, and unsubscribing stops it', async () => {
  const sub = mosquitto('mosquitto_sub', ['-i', 'probe-2', '-t', 'demo/#', '-v']);
  await until(async () => Boolean(await clientRow('probe-2')), 1000, 'probe-2');
  await w.page.goto(`${sim.baseUrl}/#/clients/detail/probe-2`);
  await w.page.waitForSelector('[data-test=client-detail]');
  assert.is(await w.page.textContent('[data-test=client-id]'), 'probe-2');
  await w.page.click('[data-test=client-subscriptions-create]');
  await w.page.fill('[data-test=client-subscriptions-create-form] input[name=topic]', 'api/added');
  await w.page.click('[data-test=client-subscriptions-create-form] [data-test=form-submit]');
  await w.page.waitForSelector('[data-test=client-subscriptions-row][data-key="api/added"]');
  await mosquitto('mosquitto_pub', ['-t', 'api/added', '-m', 'hello-1']).done;
  await until(() => sub.output().includes('api/added hello-1'), 2000, 'delivery to the subscribed client');
  await w.page.click('[data-test=client-subscriptions-row][data-key="api/added"] [data-test=client-subscriptions-unsubscribe]');
  await w.page.click('[data-test=confirm-ok]');
  await w.page.waitForSelector('[data-test=client-subscriptions-row][data-key="api/added"]', { state: 'detached' });
  await mosquitto('mosquitto_pub', ['-t', 'api/added', '-m', 'hello-2']).done;
  await new Promise((r) => setTimeout(r, 500));
  assert.not.ok(sub.output().includes('hello-2'), 'no delivery after unsubscribe');
});

test('kicking a client in the console closes its connection ("Kicked out successfully")', async () => {
  const before = await clientRow('probe-1');
  await w.page.goto(`${sim.baseUrl}/?like_clientid=probe-1#/clients`);
  await w.page.click('[data-test=clients-row][data-key=probe-1] [data-test=clients-kick]');
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('Kicked out successfully', { exact: true }).waitFor();
  // mosquitto_sub (MQTT 3.1.1) reconnects at once after the socket is closed, so the kick shows as
  // a new connection from a new port; its first connection is gone.
  await until(async () => {
    const row = await clientRow('probe-1');
    return !row || row.port !== before.port;
  }, 3000, 'the kicked connection to close');
});

test('Retained: a mosquitto_pub -r message shows, opens as JSON, and deleting it empties the retained store', async () => {
  await mosquitto('mosquitto_pub', ['-r', '-t', 'demo/retained/r1', '-m', '{"temp":21}']).done;
  // The broker stores the message after mosquitto_pub has gone; the page lists it once stored.
  const stored = async () => JSON.stringify((await request(sim.baseUrl, 'GET', '/api/v5/mqtt/retainer/messages', { token })).json).includes('demo/retained/r1');
  await until(stored, 5000, 'the retained message over the API');
  await w.page.goto(`${sim.baseUrl}/#/retained`);
  const row = '[data-test=retained-row][data-key="demo/retained/r1"]';
  await w.page.waitForSelector(row);
  await w.page.click(`${row} [data-test=retained-view]`);
  await w.page.click('[data-test=payload-json]');
  assert.is(await w.page.textContent('[data-test=payload-text]'), '{\n  "temp": 21\n}');
  await w.page.keyboard.press('Escape');
  await w.page.click(`${row} [data-test=retained-delete]`);
  await w.page.click('[data-test=confirm-ok]');
  await w.page.waitForSelector(row, { state: 'detached' });
  const check = mosquitto('mosquitto_sub', ['-t', 'demo/retained/#', '--retained-only', '-W', '1', '-v']);
  assert.is(await check.done, '', 'no retained message is left for new subscribers');
});

test('Overview: a chart marked drawn shows the broker\'s samples, not an empty scale first', async () => {
  const answer = w.page.waitForResponse((r) => r.url().includes('/api/v5/monitor?latest=3600'));
  await w.page.goto(`${sim.baseUrl}/#/dashboard/overview`);
  const samples = (await (await answer).json()) as Sample[];
  // What the chart plots: over MAX_POINTS samples, merged buckets keep their last value, so a
  // peak the broker sampled between two plotted points is not drawn.
  const most = Math.max(...toChartData(samples, 3600).values.connections);
  assert.ok(most > 5, `the demo has more than five connections at some plotted point (${most})`);
  await waitUntil(w.page, `document.querySelector('[data-test=chart-connections]')?.hasAttribute('data-drawn')`);
  const axis = async () => (await w.page.$$eval('[data-test=chart-connections] .y.axis text', (labels) => labels.map((l) => Number(l.textContent))));
  const drawn = await axis();
  assert.ok(Math.max(...drawn) >= most, `the y axis reaches the samples' ${most} once drawn: ${drawn.join(', ')}`);
  await w.page.waitForTimeout(1000);
  assert.equal(await axis(), drawn, 'and keeps that scale');
});

/** The x axis of each chart: its labels, and the chart's element count. */
async function xAxes(page: WatchedPage['page']) {
  return page.$$eval('[data-test=monitor-charts] figure.chart', (figures) => figures.map((f) => ({
    labels: [...f.querySelectorAll('.x.axis text')].map((t) => t.textContent ?? ''),
    elements: f.querySelectorAll('*').length,
  })));
}

/** Whether `shown` are the labels frappe-charts keeps of `all`: every k-th one from the first. */
function everyKth(all: string[], shown: string[]): boolean {
  for (let k = 1; k <= all.length; k++) {
    const kept = all.filter((_, i) => i % k === 0);
    if (kept.length === shown.length && kept.every((label, i) => label === shown[i])) return true;
  }
  return false;
}

test('Overview: a chart\'s x axis holds only the ticks that show a label (a few dozen elements a chart), the labels it showed before', async () => {
  const answer = w.page.waitForResponse((r) => r.url().includes('/api/v5/monitor?latest=3600'));
  await w.page.goto(`${sim.baseUrl}/#/users`);
  await w.page.goto(`${sim.baseUrl}/#/dashboard/overview`);
  const { labels } = toChartData((await (await answer).json()) as Sample[], 3600);
  assert.ok(labels.length >= 100, `an hour of samples: ${labels.length} points`);
  await waitUntil(w.page, `document.querySelectorAll('[data-test=monitor-charts] figure.chart[data-drawn]').length === 6`);
  for (const axis of await xAxes(w.page)) {
    assert.ok(axis.labels.length >= 3 && axis.labels.length < 40, axis.labels.join(' '));
    assert.ok(everyKth(labels, axis.labels), `every k-th label of the samples: ${axis.labels.join(' ')}`);
    // Before, a group, a line and a text for each of the points: over 550 elements.
    assert.ok(axis.elements < 150, `elements ${axis.elements}`);
  }
  // A new range redraws the same charts: still only labelled ticks.
  const week = w.page.waitForResponse((r) => r.url().includes('/api/v5/monitor?latest=604800'));
  await w.page.click('[data-test=range-7d]');
  const weekLabels = toChartData((await (await week).json()) as Sample[], 604800).labels;
  await waitUntil(w.page, `[...document.querySelectorAll('[data-test=chart-connections] .x.axis text')].some((t) => t.textContent.includes('-'))`);
  for (const axis of await xAxes(w.page)) {
    assert.ok(axis.labels.every((l) => l !== ''), axis.labels.join(' '));
    assert.ok(everyKth(weekLabels, axis.labels), `every k-th label of the week: ${axis.labels.join(' ')}`);
    assert.ok(axis.elements < 150, `elements ${axis.elements}`);
  }
});

test('Overview: a chart tooltip names its series legibly in both themes (4.5:1 or more)', async () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const v = await openPage(browser, { colorScheme });
    await loginAsAdmin(v.page, sim.baseUrl);
    await v.page.goto(`${sim.baseUrl}/#/dashboard/overview`);
    // All six drawn: a chart drawn later can move the others (a scroll bar appears), and a chart
    // whose width changes is drawn again in a new svg.
    await waitUntil(v.page, `[...document.querySelectorAll('[data-test=monitor-charts] figure.chart')].filter((f) => f.hasAttribute('data-drawn')).length === 6`);
    const chart = v.page.locator('[data-test=chart-connections] svg').first();
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.boundingBox())!;
    await v.page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    await waitUntil(v.page, `[...document.querySelectorAll('.graph-svg-tip li')].some((li) => li.textContent.includes('Connections'))`);
    // The tooltip's colours, its see-through background laid over the page's.
    const colors = await v.page.evaluate(`(() => {
      const tip = document.querySelector('.graph-svg-tip');
      const li = [...tip.querySelectorAll('li')].find((l) => l.textContent.includes('Connections'));
      const parse = (c) => c.match(/[\\d.]+/g).map(Number);
      const [r, g, b, a = 1] = parse(getComputedStyle(tip).backgroundColor);
      // What shows through: the nearest ancestor with a background of its own (white at the top).
      let under = [255, 255, 255];
      for (let el = tip.parentElement; el; el = el.parentElement) {
        const c = parse(getComputedStyle(el).backgroundColor);
        if (c.length < 4 || c[3] > 0) { under = c; break; }
      }
      const [pr, pg, pb] = under;
      const mix = (x, y) => Math.round(x * a + y * (1 - a));
      return { text: getComputedStyle(li).color, on: 'rgb(' + mix(r, pr) + ', ' + mix(g, pg) + ', ' + mix(b, pb) + ')' };
    })()`) as { text: string; on: string };
    const ratio = contrast(colors.text, colors.on);
    assert.ok(ratio >= 4.5, `${colorScheme}: series name ${colors.text} on ${colors.on}: ${ratio.toFixed(2)}:1`);
    await v.context.close();
  }
});

test('Overview: picking 7 days asks for a week of samples and draws the charts', async () => {
  await w.page.goto(`${sim.baseUrl}/#/dashboard/overview`);
  await w.page.waitForSelector('[data-test=monitor-charts]');
  const asked = w.page.waitForRequest((r) => r.url().includes('/api/v5/monitor?latest=604800'));
  await w.page.click('[data-test=range-7d]');
  await asked;
  assert.match(w.page.url(), /range=7d/);
  await w.page.waitForSelector('[data-test=monitor-charts] svg path');
});

test('Nodes: the detail of node 1 lists its real listeners with their connections', async () => {
  await w.page.goto(`${sim.baseUrl}/#/dashboard/nodes`);
  await w.page.click('a[href="#/dashboard/nodes/emqx%40node1"]');
  await w.page.waitForSelector('[data-test=node-listener]');
  const rows = await w.page.locator('[data-test=node-listener]').allTextContents();
  assert.ok(rows.some((r) => r.includes(`127.0.0.1:${sim.mqtt}`)), rows.join(' | '));
});

test('Alarms: clearing the history asks first and leaves it empty', async () => {
  await w.page.goto(`${sim.baseUrl}/#/alarm/history-alarm`);
  await w.page.waitForSelector('[data-test=alarms-row]');
  await w.page.click('[data-test=alarms-clear]');
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('History alarms cleared', { exact: true }).waitFor();
  await w.page.waitForSelector('[data-test=state-empty]');
  const history = (await request(sim.baseUrl, 'GET', '/api/v5/alarms?activated=false', { token })).json as { data: unknown[] };
  assert.is(history.data.length, 0);
});

test('Topic Metrics: messages published with mosquitto_pub show as the broker\'s messages.* counts', async () => {
  const added = await request(sim.baseUrl, 'POST', '/api/v5/mqtt/topic_metrics', { token, body: { topic: 'counted/t' } });
  assert.is(added.status, 200, added.text);
  // Two subscribers: every message in is delivered twice; the last two find nobody (dropped).
  const subs = [mosquitto('mosquitto_sub', ['-i', 'tm-s1', '-t', 'counted/t']), mosquitto('mosquitto_sub', ['-i', 'tm-s2', '-t', 'counted/t', '-q', '1'])];
  await until(async () => Boolean((await clientRow('tm-s1')) && (await clientRow('tm-s2'))), 2000, 'both subscribers');
  for (const qos of ['0', '1', '1']) await mosquitto('mosquitto_pub', ['-i', 'tm-p', '-t', 'counted/t', '-m', 'x', '-q', qos]).done;
  for (const sub of subs) sub.child.kill();
  await until(async () => !(await clientRow('tm-s1'))?.connected && !(await clientRow('tm-s2'))?.connected, 2000, 'subscribers gone');
  for (let i = 0; i < 2; i++) await mosquitto('mosquitto_pub', ['-i', 'tm-p', '-t', 'counted/t', '-m', 'x']).done;
  // What the broker answers, in EMQX's emqx_topic_metrics:format/1 names.
  const metrics = (await request(sim.baseUrl, 'GET', `/api/v5/mqtt/topic_metrics/${encodeURIComponent('counted/t')}`, { token })).json.metrics;
  assert.equal([metrics['messages.in.count'], metrics['messages.out.count'], metrics['messages.dropped.count']], [5, 6, 2]);
  await w.page.goto(`${sim.baseUrl}/#/topic-metrics`);
  const row = w.page.locator('[data-test=topic-metrics-row][data-key="counted/t"]');
  await row.waitFor();
  const cells = async () => (await row.locator('td').allTextContents()).map((s) => s.trim());
  await until(async () => (await cells()).slice(1, 4).join() === '5,6,2', 5000, 'the row\'s counts');
  await row.locator('[data-test=topic-metrics-view]').click();
  const qos = w.page.locator('[data-test=topic-metric-detail] [data-test=topic-metric-row]');
  await qos.first().waitFor();
  const byQos = await qos.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].filter((_c, i) => i % 2 === 0).map((c) => c.textContent?.trim())));
  // QoS 0 in: 1 + 2; QoS 1 in: 2; out at the subscription's QoS: s1 at 0 (3), s2 at min(1, qos); then all.
  assert.equal(byQos, [['3', '4'], ['2', '2'], ['0', '0'], ['5', '6']]);
});

test('a client id with markup is shown as text and runs nothing (security.md S12)', async () => {
  mosquitto('mosquitto_sub', ['-i', '"><img src=x onerror=alert(1)>', '-t', 'demo/#']);
  await until(async () => Boolean(await clientRow('"><img src=x onerror=alert(1)>')), 1000, 'the odd client');
  await w.page.goto(`${sim.baseUrl}/?like_clientid=img#/clients`);
  await w.page.waitForSelector('[data-test=clients-row]');
  assert.ok(((await w.page.textContent('[data-test=clients-table]')) ?? '').includes('"><img src=x onerror=alert(1)>'));
  assert.is(await w.page.locator('[data-test=clients-table] img').count(), 0);
});

test('no CSP violation, page error or dialog on the way', () => {
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
  assert.equal(w.dialogs, []);
});

test.run();
