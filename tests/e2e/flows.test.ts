// The flow designer in Chromium against the spawned simulator (issue #5 acceptance 5): a flow is
// built on the canvas (one connection dragged with the mouse, the others chosen in the node
// drawers), saved as a rule whose SQL and actions the API and the rules page show, run by
// publishing over MQTT, reopened, edited and saved again; then each validation message is seen.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openConsole, type ConsoleSession } from '../helpers/browser.ts';
import { connectMqtt, endMqtt, login, request, waitFor } from '../helpers/simulator.ts';

let session: ConsoleSession;
let token: string;
const page = () => session.w.page;
const get = async (path: string) => (await request(session.sim.baseUrl, 'GET', `/api/v5${path}`, { token })).json;
const node = (key: string) => `[data-test=flow-node][data-key="${key}"]`;
const drawer = '[data-test=flow-node-drawer]';
const problems = async () => page().locator('[data-test=flow-problem]').allTextContents();

test.before(async () => {
  session = await openConsole();
  token = await login(session.sim.baseUrl);
});
test.after(() => session?.close());

/** Adds a node from the palette (its drawer opens). */
async function add(kind: string) {
  await page().click(`[data-test=flow-add-${kind}]`);
  await page().waitForSelector(drawer);
}
async function apply() {
  await page().click('[data-test=flow-node-apply]');
}
async function closeDrawer() {
  await page().keyboard.press('Escape');
  await page().waitForSelector(drawer, { state: 'detached' });
}
/** Connects two nodes from the first one's drawer. */
async function connect(from: string, to: string) {
  await page().click(node(from));
  await page().waitForSelector(drawer);
  await page().selectOption('[data-test=flow-connect-select]', to);
  await page().click('[data-test=flow-connect]');
}

const SQL = 'SELECT\n  payload.temp AS t,\n  clientid\nFROM\n  "sensors/+"\nWHERE\n  payload.temp > 30';
const REPUBLISH = {
  function: 'republish',
  args: { topic: 'alerts/${clientid}', qos: 0, retain: false, payload: '${t}', mqtt_properties: {}, user_properties: '${user_properties}', direct_dispatch: false },
};

test('build, save, run, reopen and edit a flow', async () => {
  const p = page();
  await p.goto(`${session.sim.baseUrl}/#/flow`);
  await p.waitForSelector('[data-test=flows-page] [data-test=state-empty]');
  await p.click('[data-test=flows-create]');
  await p.waitForSelector('[data-test=flow-palette]');
  await p.fill('[data-test=flow-name]', 'heat');
  await p.fill('[data-test=flow-description]', 'hot sensors');

  await add('topic');
  await p.fill('[data-test=flow-topic]', 'sensors/+');
  await apply();
  await add('function');
  await p.fill('[data-test=flow-field-expr]', 'payload.temp');
  await p.fill('[data-test=flow-field-alias]', 't');
  await p.click('[data-test=flow-field-add]');
  await p.locator('[data-test=flow-field-expr]').nth(1).fill('clientid');
  await apply();
  await add('filter');
  await p.fill('[data-test=flow-where]', 'payload.temp > 30');
  await apply();
  await add('republish');
  await p.fill('[data-test=rule-output-topic]', 'alerts/${clientid}');
  await p.fill('[data-test=rule-output-payload]', '${t}');
  await apply();
  await p.waitForSelector(drawer, { state: 'detached' });

  // topic → function dragged with the mouse, from the output dot to the input dot.
  const out = await p.locator(`${node('topic-1')} .output`).boundingBox();
  const into = await p.locator(`${node('function-2')} .input`).boundingBox();
  await p.mouse.move(out!.x + out!.width / 2, out!.y + out!.height / 2);
  await p.mouse.down();
  await p.mouse.move(into!.x + 2, into!.y + 2, { steps: 5 });
  await p.mouse.move(into!.x + into!.width / 2, into!.y + into!.height / 2, { steps: 2 });
  await p.mouse.up();
  await p.waitForFunction(() => document.querySelectorAll('[data-test=flow-canvas] svg.connection').length === 1);
  // The others from the drawers.
  await connect('function-2', 'filter-3');
  await closeDrawer();
  await connect('filter-3', 'republish-4');
  await closeDrawer();
  assert.is(await p.locator('[data-test=flow-canvas] svg.connection').count(), 3);

  await p.click('[data-test=flow-save]');
  await p.waitForSelector('[data-test=flows-row][data-key=heat]');
  const rule = await get('/rules/heat');
  assert.is(rule.sql, SQL);
  assert.equal(rule.actions, [REPUBLISH]);
  assert.is(rule.description, 'hot sensors');
  assert.is(rule.enable, true);

  // The rules page shows the same SQL.
  await p.goto(`${session.sim.baseUrl}/#/rule/rules/heat`);
  await p.waitForSelector('[data-test=rule-form]');
  assert.is(await p.inputValue('[data-test=rule-sql-input]'), SQL);

  // The flow runs: hot readings are republished to alerts/<clientid>, cool ones are not.
  const sub = await connectMqtt(`mqtt://127.0.0.1:${session.sim.mqtt}`, { clientId: 'watcher' });
  const pub = await connectMqtt(`mqtt://127.0.0.1:${session.sim.mqtt}`, { clientId: 'dev1' });
  const got: string[] = [];
  try {
    sub.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    await sub.subscribeAsync('alerts/#', { qos: 0 });
    await pub.publishAsync('sensors/a', JSON.stringify({ temp: 20 }));
    await pub.publishAsync('sensors/a', JSON.stringify({ temp: 35 }));
    await waitFor(() => got.length > 0, 5000, 'the republished message');
    assert.equal(got, ['alerts/dev1 35']);
  } finally {
    await endMqtt(sub);
    await endMqtt(pub);
  }

  // Reopen: the same graph; change the filter and save.
  await p.goto(`${session.sim.baseUrl}/#/flow/heat`);
  await p.waitForSelector(node('republish-alerts/${clientid}'));
  const keys = await p.locator('[data-test=flow-node]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key));
  assert.equal(keys, ['topic-sensors/+', 'function-heat', 'filter-heat', 'republish-alerts/${clientid}']);
  assert.is(await p.locator('[data-test=flow-canvas] svg.connection').count(), 3);
  await p.click(node('filter-heat'));
  await p.fill('[data-test=flow-where]', 'payload.temp > 40');
  await apply();
  await p.click('[data-test=flow-save]');
  await p.waitForSelector('text=Updated successfully');
  assert.is((await get('/rules/heat')).sql, SQL.replace('> 30', '> 40'));
  assert.equal(session.w.errors, []);
});

test('each validation message, a deleted node, cancel and leave with unsaved changes', async () => {
  const p = page();
  await p.goto(`${session.sim.baseUrl}/#/flow/heat`);
  await p.waitForSelector(node('filter-heat'));

  // A second node with the same topic.
  await add('topic');
  await p.fill('[data-test=flow-topic]', 'sensors/+');
  await apply();
  assert.is(await p.textContent('[data-test=flow-topic-error]'), 'Topic already exists');
  await p.fill('[data-test=flow-topic]', 'other/#');
  await apply();
  // Drawn wrong: topic → topic, and filter → function.
  await connect('topic-5', 'topic-sensors/+');
  assert.is(await p.textContent('[data-test=flow-connect-error]'), 'Incorrect connection');
  await closeDrawer();
  await connect('filter-heat', 'function-heat');
  assert.is(await p.textContent('[data-test=flow-connect-error]'), 'Function nodes must come before filter nodes');
  await closeDrawer();
  // The new topic node is left alone.
  await p.click('[data-test=flow-save]');
  assert.equal(await problems(), ['Unconnected nodes are not allowed']);
  // Given its own sink it makes a second flow.
  await add('console');
  await apply();
  await connect('topic-5', 'console-6');
  await closeDrawer();
  await p.click('[data-test=flow-save]');
  assert.equal(await problems(), ['Only one flow can be created at a time']);
  // A function call without an alias.
  await p.click(node('function-heat'));
  await p.locator('[data-test=flow-field-expr]').nth(1).fill('upper(clientid)');
  await apply();
  assert.is(await p.textContent('[data-test=flow-field-error]'), 'An alias is required after a function call');
  await closeDrawer();

  // Cancel asks first; staying keeps the edits.
  await p.click('[data-test=flow-cancel]');
  await p.waitForSelector('[data-test=confirm-dialog]');
  assert.ok((await p.textContent('[data-test=confirm-dialog]'))!.includes('Discard the unsaved changes?'));
  await p.click('[data-test=confirm-cancel]');
  assert.ok(p.url().includes('#/flow/heat'));
  // Leaving through the menu warns with the app's unsaved-changes question.
  await p.click('[data-test=menu-rule-rules]');
  await p.waitForSelector('[data-test=confirm-dialog]');
  assert.ok((await p.textContent('[data-test=confirm-dialog]'))!.includes('Changes that you made may not be saved.'));
  await p.click('[data-test=confirm-ok]');
  await p.waitForSelector('[data-test=rules-page]');
  assert.equal((await get('/rules/heat')).sql, SQL.replace('> 30', '> 40'), 'nothing unsaved was written');

  // No nodes at all.
  await p.goto(`${session.sim.baseUrl}/#/flow/create`);
  await p.waitForSelector('[data-test=flow-palette]');
  await p.fill('[data-test=flow-name]', 'empty');
  await p.click('[data-test=flow-save]');
  assert.equal(await problems(), ['At least one Source node and one Sink node are required']);

  // A rule pointing at a source and an action that do not exist.
  const made = await request(session.sim.baseUrl, 'POST', '/api/v5/rules', {
    token, body: { id: 'ghosts', sql: 'SELECT * FROM "$bridges/mqtt:gone"', actions: ['http:gone'] },
  });
  assert.is(made.status, 201, made.text);
  await p.goto(`${session.sim.baseUrl}/#/flow/ghosts`);
  await p.waitForSelector(node('http-gone'));
  for (const key of ['mqtt-mqtt:gone', 'http-gone']) {
    assert.ok((await p.textContent(node(key)))!.includes('This node has been deleted, please update flow in time'), key);
  }
  await p.click('[data-test=flow-save]');
  assert.equal(await problems(), ['This node has been deleted, please update flow in time']);
  assert.equal(session.w.errors, []);
  assert.equal(session.w.dialogs, []);
});

test.run();
