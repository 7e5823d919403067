// A rule's action outputs end to end in the browser against a spawned simulator: an HTTP action
// (and its connector, aimed at a local server) is created from the rule editor's drawer and
// attached to a new rule `SELECT * FROM "t/#"`; an MQTT publish reaches the local server; with
// the output removed and saved nothing arrives; added back from the picker it arrives again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';
import { setUpOrFail } from '../helpers/suite.ts';
import { startHttpSink, type HttpSink, type ReceivedRequest } from '../helpers/http-sink.ts';
import { connectMqtt, endMqtt, login, request, waitFor } from '../helpers/simulator.ts';


let session: ConsoleSession;
let sink: HttpSink | undefined;
let port = 0;
let token = '';
let received: ReceivedRequest[] = [];

setUpOrFail(test, async () => {
  sink = await startHttpSink();
  port = sink.port;
  received = sink.received;
  session = await openConsole();
  token = await login(session.sim.baseUrl);
});

test.after(async () => {
  await session?.close();
  await sink?.close();
});

const page = () => session.w.page;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RULE = 'to_local';

/** Publishes one message to `t/<n>` and waits until the local server has `expected` requests, or makes sure it stays at `expected`. */
async function publish(n: number, expected: number, arrives: boolean) {
  const client = await connectMqtt(`mqtt://127.0.0.1:${session.sim.mqtt}`, { clientId: `pub-${n}` });
  try {
    await client.publishAsync(`t/${n}`, JSON.stringify({ n }), { qos: 1 });
  } finally {
    await endMqtt(client);
  }
  if (arrives) await waitFor(() => received.length >= expected, 5000, `request ${expected}`);
  else await pause(1000);
  assert.is(received.length, expected, arrives ? 'the request arrived' : 'no request');
}

async function saveRule() {
  const p = page();
  const saved = p.waitForResponse((r) => r.url().includes(`/rules/${RULE}`) && r.request().method() === 'PUT');
  await p.click('[data-test=rule-save]');
  assert.is((await saved).status(), 200);
  await p.waitForSelector('text=Updated successfully');
}

test('an HTTP action created in the rule editor receives the rule output; removed it stops, added back from the picker it receives again', async () => {
  const p = page();
  await p.goto(`${session.sim.baseUrl}/#/rule/rules/create`);
  await p.waitForSelector('[data-test=rule-form]');
  await p.fill('[data-test=rule-id]', RULE);
  await p.fill('[data-test=rule-sql-input]', 'SELECT * FROM "t/#"');
  await p.keyboard.press('Escape');
  await p.fill('[data-test=rule-description]', 'kept while the drawer is open');

  // Drawer: create action → type HTTP → new connector (to the local server) → the action itself.
  await p.click('[data-test=rule-add-action]');
  await p.waitForSelector('[data-test=rule-action-picker] [data-test=state-empty]');
  await p.click('[data-test=rule-action-create]');
  await p.click('[data-test=type-http]');
  await p.click('[data-test=type-next]');
  await p.click('[data-test=rule-action-picker] [data-test=bridge-new-connector]');
  const connectorForm = '[data-test=rule-action-picker] [data-test=connectors-form]';
  await p.waitForSelector(connectorForm);
  await p.fill(`${connectorForm} [data-test=field-name]`, 'local_web');
  await p.fill(`${connectorForm} [data-test=field-url]`, `http://127.0.0.1:${port}`);
  await p.click(`${connectorForm} [data-test=form-submit]`);
  const actionForm = '[data-test=rule-action-picker] [data-test=actions-form]';
  await p.waitForSelector(actionForm);
  await p.waitForFunction((sel) => document.querySelector<HTMLSelectElement>(sel)?.value === 'local_web', `${actionForm} [data-test=field-connector]`);
  await p.fill(`${actionForm} [data-test=field-name]`, 'to_http');
  await p.fill(`${actionForm} [data-test=field-parameters\\.path]`, '/hook');
  await p.click(`${actionForm} [data-test=form-submit]`);
  await p.waitForSelector('[data-test=rule-action-picker]', { state: 'detached' });

  // Back in the rule: the edits are kept, the output is listed with its status and link.
  assert.is(await p.inputValue('[data-test=rule-id]'), RULE);
  assert.is(await p.inputValue('[data-test=rule-description]'), 'kept while the drawer is open');
  const output = '[data-test=rule-output][data-key="http:to_http"]';
  await p.waitForSelector(`${output} [data-test=bridge-status]`);
  assert.is(await p.getAttribute(`${output} [data-test=rule-output-link]`, 'href'), '#/rule/actions/http:to_http');
  await p.waitForFunction((sel) => document.querySelector(sel)?.textContent === 'Connected', `${output} [data-test=bridge-status]`);

  const created = p.waitForResponse((r) => r.url().endsWith('/rules') && r.request().method() === 'POST');
  await p.click('[data-test=rule-save]');
  assert.is((await created).status(), 201);
  const rule = (await request(session.sim.baseUrl, 'GET', `/api/v5/rules/${RULE}`, { token })).json;
  assert.equal(rule.actions, ['http:to_http']);
  assert.is(rule.sql, 'SELECT * FROM "t/#"');

  await publish(1, 1, true);
  assert.is(received[0].url, '/hook');
  assert.is(received[0].method, 'POST');
  assert.is(JSON.parse(received[0].body).topic, 't/1');

  // Remove the output and save: nothing arrives.
  await p.goto(`${session.sim.baseUrl}/#/rule/rules/${RULE}`);
  await p.click(`${output} [data-test=rule-output-remove]`);
  await p.waitForSelector('[data-test=rule-no-outputs]');
  await saveRule();
  assert.equal((await request(session.sim.baseUrl, 'GET', `/api/v5/rules/${RULE}`, { token })).json.actions, []);
  await publish(2, 1, false);

  // Add it back from the picker, by keyboard: search, Tab to its Add button, Enter.
  await p.focus('[data-test=rule-add-action]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('[data-test=rule-action-option][data-key="http:to_http"]');
  await p.keyboard.type('to_h');
  await p.keyboard.press('Tab');
  assert.is(await p.evaluate(() => document.activeElement?.getAttribute('data-test')), 'rule-action-use');
  await p.keyboard.press('Enter');
  await p.waitForSelector('[data-test=rule-action-picker]', { state: 'detached' });
  await p.waitForSelector(output);
  await saveRule();
  assert.equal((await request(session.sim.baseUrl, 'GET', `/api/v5/rules/${RULE}`, { token })).json.actions, ['http:to_http']);
  await publish(3, 2, true);
  assert.is(JSON.parse(received[1].body).topic, 't/3');

  // The picker no longer offers what the rule already has.
  await p.click('[data-test=rule-add-action]');
  await p.waitForSelector('[data-test=rule-action-picker] [data-test=state-empty]');
  assert.is(await p.locator('[data-test=rule-action-option]').count(), 0);
  await p.keyboard.press('Escape');
  assert.equal(session.w.errors, []);
  assert.equal(session.w.violations, []);
});

test.run();
