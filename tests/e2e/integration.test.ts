// Data integration end to end in the browser against a spawned simulator: a webhook created in
// the console delivers real HTTP requests (rendered body, configured method and headers) to a
// local server for each matching MQTT message only, stops when switched off, and its delete
// removes connector, action and rule; the rule editor's SQL test shows what `POST /rule_test`
// returns for the same SQL and context, 'SQL Not Match' included.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loginAsAdmin, openConsole, openPage, type ConsoleSession } from '../helpers/browser.ts';
import { setUpOrFail } from '../helpers/suite.ts';
import { startHttpSink, type HttpSink, type ReceivedRequest } from '../helpers/http-sink.ts';
import { connectMqtt, endMqtt, login, request, spawnSimulator, waitFor } from '../helpers/simulator.ts';

let session: ConsoleSession;
let sink: HttpSink | undefined;
let port = 0;
let token = '';
let received: ReceivedRequest[] = [];

setUpOrFail(test, setUp);

async function setUp() {
  sink = await startHttpSink();
  port = sink.port;
  received = sink.received;
  session = await openConsole();
  token = await login(session.sim.baseUrl);
}

test.after(async () => {
  await session?.close();
  await sink?.close();
});

const page = () => session.w.page;
const get = async (path: string) => (await request(session.sim.baseUrl, 'GET', `/api/v5${path}`, { token })).json;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('webhook: created in the console, it posts the rendered body for each matching message only; off stops it; delete removes all three', async () => {
  const p = page();
  await p.goto(`${session.sim.baseUrl}/#/webhook/create`);
  const form = '[data-test=webhook-form]';
  await p.waitForSelector(form);
  await p.fill(`${form} [data-test=field-name]`, 'orders');
  await p.fill(`${form} [data-test=field-triggers]`, 'shop/+/orders');
  await p.fill(`${form} [data-test=field-url]`, `http://127.0.0.1:${port}/hook`);
  await p.selectOption(`${form} [data-test=field-method]`, 'put');
  await p.fill(`${form} [data-test=field-headers]`, JSON.stringify({ 'content-type': 'application/json', 'x-api-token': 'tok-123' }));
  await p.fill(`${form} [data-test=field-body]`, '{"order": ${payload.x}, "by": "${clientid}", "topic": "${topic}"}');
  await p.click(`${form} [data-test=form-submit]`);
  await p.waitForSelector('[data-test=webhook-row][data-key=orders]');
  const row = (await p.textContent('[data-test=webhook-row][data-key=orders]')) ?? '';
  assert.ok(row.includes(`http://127.0.0.1:${port}/hook`), row);
  assert.ok(row.includes('shop/+/orders'), row);

  const client = await connectMqtt(`mqtt://127.0.0.1:${session.sim.mqtt}`, { clientId: 'till-7' });
  try {
    await client.publishAsync('shop/1/orders', JSON.stringify({ x: 101 }), { qos: 1 });
    await client.publishAsync('shop/2/orders', JSON.stringify({ x: 102 }), { qos: 1 });
    await client.publishAsync('shop/1/returns', JSON.stringify({ x: 999 }), { qos: 1 });
    await waitFor(() => received.length >= 2, 5000, 'two webhook requests');
    await pause(600);
    assert.is(received.length, 2, 'exactly the two matching messages');
    const bodies = received.map((r) => JSON.parse(r.body)).sort((a, b) => a.order - b.order);
    assert.equal(bodies, [{ order: 101, by: 'till-7', topic: 'shop/1/orders' }, { order: 102, by: 'till-7', topic: 'shop/2/orders' }]);
    for (const r of received) {
      assert.is(r.method, 'PUT');
      assert.is(r.url, '/hook');
      assert.is(r.headers['x-api-token'], 'tok-123');
      assert.is(r.headers['content-type'], 'application/json');
    }

    // Off: no more deliveries.
    await p.click('[data-test=webhook-row][data-key=orders] [data-test=webhook-enable]');
    await p.waitForSelector('[data-test=confirm-dialog]');
    await p.click('[data-test=confirm-ok]');
    await p.waitForSelector('[data-test=webhook-row][data-key=orders] [data-test=webhook-enable]:not(:checked)');
    const rule = await get('/rules/orders_WH_D');
    assert.is(rule.enable, false);
    await client.publishAsync('shop/3/orders', JSON.stringify({ x: 103 }), { qos: 1 });
    await pause(800);
    assert.is(received.length, 2, 'a disabled webhook sends nothing');
  } finally {
    await endMqtt(client);
  }

  // Delete: rule, action and connector are gone.
  await p.click('[data-test=webhook-row][data-key=orders] [data-test=webhook-delete]');
  await p.waitForSelector('[data-test=confirm-dialog]');
  await p.click('[data-test=confirm-ok]');
  await p.waitForSelector('[data-test=webhook-row][data-key=orders]', { state: 'detached' });
  const [connectors, actions, rules] = await Promise.all([get('/connectors'), get('/actions'), get('/rules')]);
  assert.not.ok((connectors as { name: string }[]).some((c) => c.name === 'orders_WH_D'), 'connector deleted');
  assert.not.ok((actions as { name: string }[]).some((a) => a.name === 'orders_WH_D'), 'action deleted');
  assert.not.ok((rules.data as { id: string }[]).some((r) => r.id === 'orders_WH_D'), 'rule deleted');
  assert.equal(session.w.errors, []);
});

/** Types a statement into the SQL editor, runs the test panel and returns what the console showed and sent. */
async function runSqlTest(sql: string, kind: 'output' | 'nomatch') {
  const p = page();
  await p.fill('[data-test=rule-sql-input]', sql);
  await p.keyboard.press('Escape');
  const answered = p.waitForResponse((r) => r.url().includes('/rule_test') && r.request().method() === 'POST');
  await p.click('[data-test=rule-test-run]');
  const response = await answered;
  const body = JSON.parse(response.request().postData() ?? '{}') as { sql: string; context: Record<string, unknown> };
  // The panel keeps the previous result until the new one renders: wait for this answer's text.
  const expected = kind === 'output' ? JSON.stringify(await response.json(), null, 2) : 'SQL Not Match';
  await p.waitForFunction(([selector, text]) => document.querySelector(selector)?.textContent === text,
    [`[data-test=rule-test-${kind}]`, expected] as const);
  const shown = (await p.textContent(`[data-test=rule-test-${kind}]`)) ?? '';
  return { body, shown };
}

test('SQL test: the console shows the same output as POST /rule_test for the same SQL and context, and SQL Not Match for both', async () => {
  const p = page();
  await p.goto(`${session.sim.baseUrl}/#/rule/rules/create`);
  await p.waitForSelector('[data-test=rule-form]');
  const sql = 'SELECT\n  payload.a.b AS x,\n  payload.list[2] AS second,\n  CASE WHEN payload.n > 1 THEN \'big\' ELSE \'small\' END AS s,\n  clientid\nFROM\n  "t/#"';
  await p.fill('[data-test=rule-sql-input]', sql);
  await p.keyboard.press('Escape');
  await p.click('[data-test=rule-test-toggle]');
  await p.waitForSelector('[data-test=rule-test-payload]');
  await p.fill('[data-test=rule-test-payload]', JSON.stringify({ a: { b: 'deep' }, n: 5, list: [10, 20, 30] }));
  await p.fill('[data-test=rule-test-topic]', 't/sensor/9');
  await p.fill('[data-test=rule-test-clientid]', 'probe-1');

  const first = await runSqlTest(sql, 'output');
  assert.is(first.body.sql, sql);
  assert.is(first.body.context.event_type, 'message_publish');
  assert.is(first.body.context.topic, 't/sensor/9');
  assert.is(first.body.context.clientid, 'probe-1');
  const shown = JSON.parse(first.shown);
  assert.equal(shown, { x: 'deep', second: 20, s: 'big', clientid: 'probe-1' });
  const direct = await request(session.sim.baseUrl, 'POST', '/api/v5/rule_test', { token, body: { sql, context: first.body.context } });
  assert.is(direct.status, 200);
  assert.equal(shown, direct.json);

  // FOREACH with DO/INCASE: an array in both.
  const each = 'FOREACH payload.list AS v DO v * 2 AS double INCASE v > 10 FROM "t/#"';
  const second = await runSqlTest(each, 'output');
  const direct2 = await request(session.sim.baseUrl, 'POST', '/api/v5/rule_test', { token, body: { sql: each, context: second.body.context } });
  assert.equal(JSON.parse(second.shown), [{ double: 40 }, { double: 60 }]);
  assert.equal(JSON.parse(second.shown), direct2.json);

  // INCASE keeping no element: an empty array in both.
  const empty = 'FOREACH payload.list INCASE item > 100 FROM "t/#"';
  const fourth = await runSqlTest(empty, 'output');
  const direct4 = await request(session.sim.baseUrl, 'POST', '/api/v5/rule_test', { token, body: { sql: empty, context: fourth.body.context } });
  assert.equal([direct4.status, direct4.json], [200, []]);
  assert.equal(JSON.parse(fourth.shown), direct4.json);

  // WHERE false: SQL Not Match in the console and 412 from the API.
  const none = 'SELECT payload.a.b AS x FROM "t/#" WHERE payload.n > 100';
  const third = await runSqlTest(none, 'nomatch');
  assert.is(third.shown.trim(), 'SQL Not Match');
  const direct3 = await request(session.sim.baseUrl, 'POST', '/api/v5/rule_test', { token, body: { sql: none, context: third.body.context } });
  assert.is(direct3.status, 412);
  assert.is(direct3.json.message, 'SQL Not Match');
  assert.equal(session.w.errors, []);
});

test('webhook list on a 5.8.9 broker (actions carry their rules) shows the webhook created in the console, as on 5.5.1 above', async () => {
  const sim = await spawnSimulator(['--seed', 'empty', '--emqx-version', '5.8.9']);
  const w = await openPage(session.browser);
  try {
    await loginAsAdmin(w.page, sim.baseUrl);
    const p = w.page;
    await p.goto(`${sim.baseUrl}/#/webhook/create`);
    const form = '[data-test=webhook-form]';
    await p.waitForSelector(form);
    await p.fill(`${form} [data-test=field-name]`, 'later');
    await p.fill(`${form} [data-test=field-triggers]`, 'shop/+/later');
    await p.fill(`${form} [data-test=field-url]`, `http://127.0.0.1:${port}/later`);
    await p.click(`${form} [data-test=form-submit]`);
    await p.waitForSelector('[data-test=webhook-row][data-key=later]');
    const adminToken = await login(sim.baseUrl);
    const actions = (await request(sim.baseUrl, 'GET', '/api/v5/actions', { token: adminToken })).json as { name: string; rules?: string[] }[];
    assert.ok(actions.some((a) => a.name === 'later_WH_D' && Array.isArray(a.rules) && a.rules.length === 1), '5.8.9 actions list their rules');
  } finally {
    await w.page.context().close();
    await sim.kill();
  }
});

test('every connector type tile holds its name inside it at 1280 px, "GCP Pub/Sub consumer" too', async () => {
  const { page } = session.w;
  await page.setViewportSize({ width: 1280, height: 720 });
  try {
    await page.goto(`${session.sim.baseUrl}/#/connector/create`);
    await page.waitForSelector('.type-card');
    const over = await page.locator('.type-card').evaluateAll((cards) => cards
      .filter((c) => c.scrollWidth > c.clientWidth + 1 || [...c.querySelectorAll('*')].some((e) => e.getBoundingClientRect().right > c.getBoundingClientRect().right + 1))
      .map((c) => c.textContent));
    assert.equal(over, []);
    assert.ok(await page.locator('.type-card', { hasText: 'GCP Pub/Sub consumer' }).count() > 0);
  } finally {
    await page.setViewportSize({ width: 1366, height: 860 });
  }
});

test.run();
