// The flow designer in Chromium against the spawned simulator (issue #5 acceptance 5): a flow is
// built on the canvas (one connection dragged with the mouse, the others chosen in the node
// drawers), saved as a rule whose SQL and actions the API and the rules page show, run by
// publishing over MQTT, reopened, edited and saved again; then the canvas view (fit, zoom, pan,
// nodes dragged in from the palette or placed by click) in a 1280×800 window; then each
// validation message is seen.
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

type Box = { x: number; y: number; width: number; height: number };
const canvasBox = async () => (await page().locator('[data-test=flow-canvas]').boundingBox())!;
/** Every node's key and box on the page. */
async function nodeBoxes(): Promise<[string, Box][]> {
  const all = await page().locator('[data-test=flow-node]').all();
  return Promise.all(all.map(async (n) => [(await n.getAttribute('data-key'))!, (await n.boundingBox())!] as [string, Box]));
}
/** The nodes not fully inside the canvas. */
async function cutOff() {
  const c = await canvasBox();
  return (await nodeBoxes()).filter(([, b]) => b.x < c.x || b.y < c.y || b.x + b.width > c.x + c.width || b.y + b.height > c.y + c.height).map(([key]) => key);
}
const apart = (a: Box, b: Box) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

test('in a 1280×720 window a flow of four columns opens above 80 % with Save in view', async () => {
  const p = page();
  await p.setViewportSize({ width: 1280, height: 720 });
  try {
    await p.goto(`${session.sim.baseUrl}/#/flow`);
    await p.waitForSelector('[data-test=flows-row][data-key=heat]');
    const made = await request(session.sim.baseUrl, 'POST', '/api/v5/rules', { token, body: {
      id: 'four-columns', sql: 'SELECT upper(payload.a) as a FROM "t/#" WHERE payload.a > 1',
      actions: [{ function: 'console' }, { function: 'republish', args: { topic: 'x/y', payload: '${a}', qos: 0, retain: false } }],
    } });
    assert.is(made.status, 201, made.text);
    await p.goto(`${session.sim.baseUrl}/#/flow/four-columns`);
    await p.waitForSelector('[data-test=flow-node]');
    await p.waitForFunction(() => Number(document.querySelector('[data-test=flow-zoom-reset]')?.textContent?.replace('%', '')) > 0);
    const zoom = Number((await p.textContent('[data-test=flow-zoom-reset]'))!.replace('%', ''));
    assert.ok(zoom >= 80, `opens at ${zoom} %`);
    const save = (await p.locator('[data-test=flow-save]').boundingBox())!;
    assert.ok(save.y + save.height <= 720, `Save at ${save.y + save.height} px`);
  } finally {
    await p.setViewportSize({ width: 1366, height: 860 });
  }
});

test('in a 1280×800 window: fit shows every node, zoom and pan move the view, nodes dragged or clicked in land inside', async () => {
  const p = page();
  await p.setViewportSize({ width: 1280, height: 800 });
  try {
    // Through the list, so that the designer opens anew in this window.
    await p.goto(`${session.sim.baseUrl}/#/flow`);
    await p.waitForSelector('[data-test=flows-row][data-key=heat]');
    await p.goto(`${session.sim.baseUrl}/#/flow/heat`);
    await p.waitForSelector(node('filter-heat'));
    await p.locator('[data-test=flow-canvas]').scrollIntoViewIfNeeded();
    assert.is((await nodeBoxes()).length, 4);
    assert.equal(await cutOff(), [], 'the flow opens in view');

    // Zoom in: the nodes grow and some leave the canvas; fit brings all of them back.
    const before = (await p.locator(node('filter-heat')).boundingBox())!.width;
    for (let i = 0; i < 3; i++) await p.click('[data-test=flow-zoom-in]');
    const after = (await p.locator(node('filter-heat')).boundingBox())!.width;
    assert.ok(after > before * 1.6, `${before} → ${after}`);
    assert.ok((await cutOff()).length > 0, 'zoomed in, the flow is wider than the canvas');
    await p.click('[data-test=flow-fit]');
    assert.equal(await cutOff(), [], 'after fit to view');
    const fitted = (await p.locator(node('filter-heat')).boundingBox())!.width;
    assert.ok(fitted < after);

    // ctrl+wheel over the canvas zooms too.
    let c = await canvasBox();
    await p.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
    await p.keyboard.down('Control');
    await p.mouse.wheel(0, -100);
    await p.keyboard.up('Control');
    await p.waitForFunction((w) => document.querySelector<HTMLElement>('[data-test=flow-node][data-key=filter-heat]')!.getBoundingClientRect().width > w + 1, fitted);

    // Dragging the empty canvas pans the drawing.
    await p.click('[data-test=flow-fit]');
    const start = (await p.locator(node('topic-sensors/+')).boundingBox())!;
    c = await canvasBox();
    await p.mouse.move(c.x + 6, c.y + c.height - 6);
    await p.mouse.down();
    await p.mouse.move(c.x + 66, c.y + c.height - 36, { steps: 4 });
    await p.mouse.up();
    const moved = (await p.locator(node('topic-sensors/+')).boundingBox())!;
    assert.ok(Math.abs(moved.x - start.x - 60) < 2 && Math.abs(moved.y - start.y + 30) < 2, JSON.stringify({ start, moved }));
    await p.click('[data-test=flow-fit]');

    // A console output dragged from the palette to near the bottom-right corner lands there, inside.
    c = await canvasBox();
    await p.locator('[data-test=flow-add-console]').dragTo(p.locator('[data-test=flow-canvas]'), { targetPosition: { x: c.width - 4, y: c.height - 4 } });
    await p.waitForSelector(drawer);
    await closeDrawer();
    const dropped = (await p.locator(node('console-5')).boundingBox())!;
    assert.equal(await cutOff(), [], 'the dropped node is inside the canvas');
    assert.ok(dropped.x + dropped.width > c.x + c.width - 60 && dropped.y + dropped.height > c.y + c.height - 60, JSON.stringify({ dropped, c }));

    // An action added by click goes inside the canvas, clear of the other nodes.
    await add('action');
    await closeDrawer();
    assert.equal(await cutOff(), [], 'the clicked node is inside the canvas');
    const boxes = await nodeBoxes();
    const placed = boxes.find(([key]) => key === 'action-6')![1];
    for (const [key, b] of boxes) if (key !== 'action-6') assert.ok(apart(placed, b), `action-6 overlaps ${key}`);

    // The drawer connection from the keyboard still works on the zoomed canvas.
    await p.focus(node('filter-heat'));
    await p.keyboard.press('Enter');
    await p.waitForSelector(drawer);
    await p.selectOption('[data-test=flow-connect-select]', 'console-5');
    await p.click('[data-test=flow-connect]');
    await p.waitForFunction(() => document.querySelectorAll('[data-test=flow-canvas] svg.connection').length === 4);
    await closeDrawer();

    // Leave without saving.
    await p.click('[data-test=flow-cancel]');
    await p.click('[data-test=confirm-ok]');
    await p.waitForSelector('[data-test=flows-page]');
  } finally {
    await p.setViewportSize({ width: 1366, height: 860 });
  }
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
  assert.equal(await problems(), ['Unable to save, there must be at least one Sink node and one Source node in the Flow']);

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
