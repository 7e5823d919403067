// Rate charts in Chromium against a spawned simulator (issue #18, item 5): with a rule, its http
// action and connector, a webhook, an authenticator, an authorization source and a topic metric
// created over the API, each detail page draws a rate trend whose points move once MQTT clients
// connect and publish. The points are read from the chart's `data-points`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setUpOrFail } from '../helpers/suite.ts';
import { startHttpSink, type HttpSink } from '../helpers/http-sink.ts';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, request, waitFor } from '../helpers/simulator.ts';

let session: ConsoleSession;
let sink: HttpSink | undefined;
let token = '';


async function call(method: 'POST' | 'PUT', path: string, body: unknown) {
  const res = await request(session.sim.baseUrl, method, `/api/v5${path}`, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json;
}

async function setUp() {
  sink = await startHttpSink();
  const url = `http://127.0.0.1:${sink.port}/in`;
  session = await openConsole();
  token = await login(session.sim.baseUrl);
  await call('POST', '/authentication', { mechanism: 'password_based', backend: 'built_in_database' });
  await call('POST', '/authentication/password_based:built_in_database/users', { user_id: 'meter', password: 'meter-pw' });
  await call('POST', '/authorization/sources', { type: 'built_in_database', enable: true });
  await call('POST', '/mqtt/topic_metrics', { topic: 'rates/1' });
  for (const name of ['rates', 'hook_WH_D']) {
    await call('POST', '/connectors', { type: 'http', name, url, headers: { 'content-type': 'application/json' } });
    await call('POST', '/actions', { type: 'http', name, connector: name, parameters: { path: '/x', method: 'post' } });
    await call('POST', '/rules', { id: name, sql: 'SELECT * FROM "rates/#"', actions: [`http:${name}`] });
  }
}

setUpOrFail(test, setUp);

test.after(async () => {
  await session?.close();
  await sink?.close();
});

let round = 0;

/** Five clients log in and each publishes to the counted topic and to one the authz cache has not seen. */
async function traffic() {
  round += 1;
  const before = sink?.received.length ?? 0;
  for (let i = 0; i < 5; i++) {
    const client = await connectMqtt(`mqtt://127.0.0.1:${session.sim.mqtt}`, { clientId: `meter-${round}-${i}`, username: 'meter', password: 'meter-pw' });
    try {
      await client.publishAsync('rates/1', 'x', { qos: 1 });
      await client.publishAsync(`rates/${round}/${i}`, 'y', { qos: 1 });
    } finally {
      await endMqtt(client);
    }
  }
  return before;
}

/** The chart's drawn values of `key`, oldest first. */
async function points(chart: string, key: string): Promise<number[]> {
  const raw = await session.w.page.getAttribute(`[data-test=${chart}]`, 'data-points');
  return (JSON.parse(raw ?? '{}') as Record<string, number[]>)[key] ?? [];
}

/**
 * On the open page: waits for the chart's first point (no traffic since the page opened, so a
 * rate of zero), sends traffic, waits for a point above zero and returns the points.
 */
async function moves(chart: string, key: string): Promise<number[]> {
  const { page } = session.w;
  // Polled from here: the console's CSP forbids the string evaluation waitForFunction would need.
  await page.waitForSelector(`[data-test=${chart}] [data-test=rate-chart-empty]`);
  await waitFor(async () => (await points(chart, key)).length >= 1, 10_000, `${chart}: a first point`);
  const first = await points(chart, key);
  await traffic();
  await waitFor(async () => (await points(chart, key)).some((v) => v > 0), 10_000, `${chart}: a point above zero`);
  const after = await points(chart, key);
  assert.ok(after.length >= 2, `${chart}: two points at least (${after})`);
  assert.is(first[0], 0, `${chart}: nothing flowed before (${first})`);
  assert.ok(Math.max(...after) > Math.min(...after), `${chart}: the points differ (${after})`);
  assert.ok(await page.isVisible(`[data-test=${chart}] figure.chart svg`), `${chart}: drawn`);
  return after;
}

const open = (path: string) => session.w.page.goto(`${session.sim.baseUrl}/#${path}`);

test('a rule\'s detail page draws its matched rate, which moves while messages flow', async () => {
  await open('/rule/rules/rates');
  const matched = await moves('rule-rate-chart', 'matched');
  // Ten publishes, two readings or more apart: never more than ten per second on average.
  assert.ok(Math.max(...matched) <= 10, String(matched));
});

test('an action\'s metrics tab draws its matched rate', async () => {
  await open('/rule/actions/http:rates');
  await session.w.page.click('[data-test=tab-metrics]');
  await moves('bridge-rate-chart', 'matched');
  assert.ok(await session.w.page.isVisible('[data-test="metrics-bridges.counts"]'), 'the counters stay');
});

test('a connector\'s statistics draw the rates of the actions using it', async () => {
  await open('/connector/http:rates');
  await session.w.page.click('[data-test=tab-statistics]');
  await moves('connector-rate-chart', 'matched');
});

test('a webhook\'s page shows its counters and the rate of what it sent', async () => {
  await open('/webhook/hook');
  await session.w.page.waitForSelector('[data-test=webhook-counts]');
  await moves('webhook-rate-chart', 'matched');
  await waitFor(async () => /[1-9]/.test(await session.w.page.textContent('[data-test=webhook-counts]') ?? ''), 10_000, 'counted messages');
});

test('an authenticator\'s overview draws the rate of its decisions', async () => {
  await open(`/authentication/detail/${encodeURIComponent('password_based:built_in_database')}`);
  await moves('rate-trend', 'total');
  assert.ok((await points('rate-trend', 'success')).some((v) => v > 0), 'the logins succeeded');
});

test('an authorization source\'s overview draws the rate of its checks', async () => {
  await open('/authorization/detail/built_in_database');
  await moves('rate-trend', 'total');
});

test('a topic\'s metrics drawer draws its in rate; the hour range waits for readings 30 s apart', async () => {
  const { page } = session.w;
  await open('/topic-metrics');
  await page.click('[data-test=topic-metrics-row][data-key="rates/1"] [data-test=topic-metrics-view]');
  await moves('topic-rate-chart', 'messages.in.count');
  await page.click('[data-test=topic-rate-chart] [data-test=rate-range-hour]');
  await page.waitForSelector('[data-test=topic-rate-chart][data-range=hour] [data-test=rate-chart-empty]');
  assert.equal(session.w.errors, []);
  assert.equal(session.w.violations, []);
});

test.run();
