// Integration > Flows against a fake broker: the list (rules by name, description, switch, date,
// link to the designer, delete with confirmation), the designer rebuilding a rule's graph on the
// drawflow canvas, node drawers, connections from the keyboard, each validation message, escaped
// node texts, saving (exact POST/PUT bodies, server errors), cancel with confirmation, zh texts,
// nodes dragged in from the palette, and the zoom and fit buttons.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { menu } from '../../web/app/routes.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, click, mount, press, route, signedInAt, submit, text, type, waitFor } from '../helpers/render.tsx';
import { act } from 'preact/test-utils';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const SQL = 'SELECT\n  payload.temp AS t,\n  clientid\nFROM\n  "sensors/+"\nWHERE\n  payload.temp > 30';
const rule = (id: string, over: Record<string, unknown> = {}) => ({
  id, name: '', sql: SQL, enable: true, description: 'hot rooms', actions: [{ function: 'console' }, 'http:hook'], from: ['sensors/+'],
  created_at: '2024-05-01T10:20:30.123+00:00', last_modified_at: '2024-05-01T10:20:30.123+00:00', ...over,
});
const page = (rows: unknown[]) => ({ body: { data: rows, meta: { page: 1, limit: 20, count: rows.length, hasnext: false } } });
const events = [
  { event: '$events/client_connected', title: { en: 'Client connected', zh: '连接建立' }, description: { en: 'c', zh: 'c' }, columns: ['clientid'], test_columns: {}, sql_example: '' },
];
const bridge = (type: string, name: string) => ({ type, name, enable: true, status: 'connected' });
const base = {
  'GET /alarms': alarms, 'GET /rule_events': { body: events },
  'GET /actions': { body: [bridge('http', 'hook')] }, 'GET /sources': { body: [bridge('mqtt', 'in')] },
};
const writes = (api: ReturnType<typeof fakeApi>) => api.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body]);
const node = (key: string) => document.querySelector<HTMLElement>(`[data-test=flow-node][data-key="${key}"]`);
const nodes = () => [...document.querySelectorAll<HTMLElement>('[data-test=flow-node]')].map((n) => n.dataset.key);
const problems = () => [...document.querySelectorAll('[data-test=flow-problem]')].map((li) => li.textContent);
const select = async (el: Element | null, value: string) => {
  const s = el as HTMLSelectElement;
  await act(() => { s.value = value; s.dispatchEvent(new Event('change', { bubbles: true })); });
};
type Routes = Parameters<typeof fakeApi>[0];
async function open(path: string, routes: Routes, locale: 'en' | 'zh' = 'en') {
  await signedInAt(path);
  setLocale(locale);
  const api = fakeApi({ ...base, ...routes });
  await mount(<App />);
  return api;
}
/** Adds a node from the palette; its drawer opens. */
const add = async (kind: string) => {
  await click(byTest(`flow-add-${kind}`));
  return waitFor(() => byTest('flow-node-drawer'));
};
const apply = () => click(byTest('flow-node-apply'));
/** Opens a node's drawer and connects it to `to`. */
async function connect(from: string, to: string) {
  await click(node(from));
  await waitFor(() => byTest('flow-node-drawer'));
  assert.ok(byTest('flow-connect-select')!.querySelector(`option[value="${to}"]`), `${to} is offered`);
  await select(byTest('flow-connect-select'), to);
  await click(byTest('flow-connect'));
}
const closeDrawer = () => click(document.querySelector('[data-test=flow-node-drawer] header button'));

test('Flows sits in the integration menu between Sources and Webhook; the designer is not in the menu', () => {
  const integration = menu().find((s) => s.group === 'integration')!.items.map((s) => s.path);
  const at = integration.indexOf('/flow');
  assert.equal(integration.slice(at - 1, at + 2), ['/rule/source', '/flow', '/webhook']);
  assert.not.ok(integration.some((p) => p.startsWith('/flow/')));
});

test('the list shows rules as flows: name linking to the designer, description, switch, date; delete asks first', async () => {
  let rows = [rule('r1'), rule('r2', { enable: false, description: '' })];
  const api = await open('/flow', { 'GET /rules': () => page(rows), 'DELETE /rules/r1': () => ((rows = rows.slice(1)), { status: 204 }) });
  const row = (id: string) => document.querySelector(`[data-test=flows-row][data-key="${id}"]`);
  await waitFor(() => row('r2'));
  const cells = [...row('r1')!.querySelectorAll('td')].map((td) => td.textContent);
  assert.equal(cells.slice(0, 2), ['r1', 'hot rooms']);
  assert.ok(cells[3]!.startsWith('2024-05-01'));
  assert.is(row('r2')!.querySelectorAll('td')[1].textContent, '—');
  assert.is(row('r1')!.querySelector('a')!.getAttribute('href'), '#/flow/r1');
  assert.ok(row('r1')!.querySelector<HTMLInputElement>('[data-test=flows-enable]')!.checked);
  assert.not.ok(row('r2')!.querySelector<HTMLInputElement>('[data-test=flows-enable]')!.checked);
  assert.is(byTest('flows-create')!.getAttribute('href'), '#/flow/create');
  await click(row('r1')!.querySelector('[data-test=flows-delete]'));
  await waitFor(() => text().includes('Delete flow r1? Its rule is deleted with it.'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row('r1'));
  assert.equal(writes(api), [['DELETE', '/rules/r1', undefined]]);
  api.restore();
});

test('the list: empty state and a failed load with retry', async () => {
  let fail = true;
  const api = await open('/flow', { 'GET /rules': () => (fail ? { status: 500, body: { code: 'NODE_DOWN', message: 'x' } } : page([])) });
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No flows yet'));
  api.restore();
});

test('the designer rebuilds the graph of a rule, marks a deleted action, and saves an edited filter with PUT', async () => {
  let stored = rule('r1', { actions: [{ function: 'console' }, 'http:gone'] });
  const api = await open('/flow/r1', { 'GET /rules/r1': () => ({ body: stored }), 'PUT /rules/r1': (c) => ((stored = { ...stored, ...(c.body as object) }), { body: stored }) });
  await waitFor(() => node('console'));
  assert.equal(nodes(), ['topic-sensors/+', 'function-r1', 'filter-r1', 'console', 'http-gone']);
  assert.is(byTest<HTMLInputElement>('flow-name')!.value, 'r1');
  assert.ok(byTest<HTMLInputElement>('flow-name')!.disabled);
  assert.is(byTest<HTMLInputElement>('flow-description')!.value, 'hot rooms');
  assert.is(node('function-r1')!.querySelector('.flow-node-text')!.textContent, 'payload.temp AS t, clientid');
  assert.is(node('topic-sensors/+')!.style.left, '20px');
  // Changed with issue #34: 60 px between columns.
  assert.is(node('filter-r1')!.style.left, '540px');
  // source → function → filter → both sinks
  assert.is(document.querySelectorAll('[data-test=flow-canvas] svg.connection').length, 4);
  assert.ok(node('http-gone')!.textContent!.includes('This node has been deleted, please update flow in time'));
  assert.not.ok(node('console')!.textContent!.includes('deleted'));
  // Saving with the deleted action is refused.
  await submit(byTest('flow-form'));
  assert.equal(problems(), ['This node has been deleted, please update flow in time']);
  // Remove the dead action, change the filter, save.
  await click(node('http-gone'));
  await waitFor(() => byTest('flow-node-drawer'));
  await click(byTest('flow-node-remove'));
  await click(node('filter-r1'));
  assert.is(byTest<HTMLTextAreaElement>('flow-where')!.value, 'payload.temp > 30');
  await type(byTest('flow-where'), 'payload.temp > 40');
  await apply();
  assert.is(node('filter-r1')!.querySelector('.flow-node-text')!.textContent, 'payload.temp > 40');
  await submit(byTest('flow-form'));
  await waitFor(() => text().includes('Updated successfully'));
  assert.equal(writes(api), [['PUT', '/rules/r1', {
    id: 'r1', description: 'hot rooms', enable: true, actions: [{ function: 'console' }],
    sql: 'SELECT\n  payload.temp AS t,\n  clientid\nFROM\n  "sensors/+"\nWHERE\n  payload.temp > 40',
  }]]);
  assert.is(route().split('?')[0], '/flow/r1');
  api.restore();
});

test('create: nodes from the palette, drawers, connections from the keyboard, exact POST body, back to the list', async () => {
  const api = await open('/flow/create', { 'GET /rules': page([]), 'POST /rules': (c) => ({ status: 201, body: rule((c.body as { id: string }).id) }) });
  await waitFor(() => byTest('flow-palette'));
  await type(byTest('flow-name'), 'hot');
  await type(byTest('flow-description'), 'too hot');
  await add('topic');
  await type(byTest('flow-topic'), 'sensors/+');
  await apply();
  await add('event');
  await select(byTest('flow-event'), '$events/client_connected');
  await apply();
  await add('function');
  await type(byTest('flow-field-expr'), 'upper(payload.name)');
  await apply();
  assert.is(byTest('flow-field-error')!.textContent, 'An alias is required after a function call');
  await type(byTest('flow-field-alias'), 'name');
  await click(byTest('flow-field-add'));
  await type(document.querySelectorAll('[data-test=flow-field-expr]')[1], 'clientid');
  await apply();
  assert.is(byTest('flow-add-function')!.hasAttribute('disabled'), true);
  await add('republish');
  await apply();
  assert.is(byTest('rule-output-topic-error')!.textContent, 'Topic is required');
  await type(byTest('rule-output-topic'), 'alerts/#');
  await apply();
  assert.is(byTest('rule-output-topic-error')!.textContent, "A publish topic cannot contain '#' or '+'", 'a republish topic takes no wildcard');
  await type(byTest('rule-output-topic'), 'alerts/${clientid}');
  await apply();
  await add('action');
  await select(byTest('flow-action'), 'http:hook');
  await apply();
  assert.equal(nodes(), ['topic-1', 'event-2', 'function-3', 'republish-4', 'action-5']);
  await connect('topic-1', 'function-3');
  await closeDrawer();
  await connect('event-2', 'function-3');
  assert.equal([...document.querySelectorAll('[data-test=flow-connection]')].map((li) => (li as HTMLElement).dataset.key), ['function-3']);
  await closeDrawer();
  await connect('function-3', 'republish-4');
  await select(byTest('flow-connect-select'), 'action-5');
  await click(byTest('flow-connect'));
  assert.is(document.querySelectorAll('[data-test=flow-canvas] svg.connection').length, 4);
  await closeDrawer();
  await submit(byTest('flow-form'));
  await waitFor(() => route().split('?')[0] === '/flow');
  assert.ok(text().includes('Created successfully'));
  assert.equal(writes(api), [['POST', '/rules', {
    id: 'hot', description: 'too hot', enable: true,
    sql: 'SELECT\n  upper(payload.name) AS name,\n  clientid\nFROM\n  "sensors/+",\n  "$events/client_connected"',
    actions: [
      { function: 'republish', args: { topic: 'alerts/${clientid}', qos: 0, retain: false, payload: '${payload}', mqtt_properties: {}, user_properties: '${user_properties}', direct_dispatch: false } },
      'http:hook',
    ],
  }]]);
  api.restore();
});

test('validation: name, source and sink, incorrect connection, order, topic exists, unconnected, one flow', async () => {
  const api = await open('/flow/create', { 'GET /rules': page([]) });
  await waitFor(() => byTest('flow-palette'));
  await submit(byTest('flow-form'));
  assert.is(byTest('flow-name-error')!.textContent, 'Name is required');
  assert.equal(problems(), ['Unable to save, there must be at least one Sink node and one Source node in the Flow']);
  await type(byTest('flow-name'), 'bad name');
  await submit(byTest('flow-form'));
  assert.ok(byTest('flow-name-error')!.textContent!.length > 0);
  await type(byTest('flow-name'), 'good_name-1');
  await add('topic');
  await type(byTest('flow-topic'), 'a/#/b');
  await apply();
  assert.ok(byTest('flow-topic-error')!.textContent!.length > 0, 'topic validators apply');
  await type(byTest('flow-topic'), 'a/+');
  await apply();
  await add('topic');
  await type(byTest('flow-topic'), 'a/+');
  await apply();
  assert.is(byTest('flow-topic-error')!.textContent, 'Topic already exists');
  await type(byTest('flow-topic'), 'b/+');
  await apply();
  // source → source is refused, with the message.
  await connect('topic-1', 'topic-2');
  assert.is(byTest('flow-connect-error')!.textContent, 'Incorrect connection');
  assert.equal(problems(), ['Incorrect connection']);
  await closeDrawer();
  await add('filter');
  await type(byTest('flow-where'), 'qos > 0');
  await apply();
  await add('function');
  await type(byTest('flow-field-expr'), 'qos');
  await apply();
  await connect('filter-3', 'function-4');
  assert.is(byTest('flow-connect-error')!.textContent, 'Function nodes must come before filter nodes');
  await closeDrawer();
  await add('console');
  await apply();
  await connect('topic-1', 'function-4');
  await closeDrawer();
  await connect('function-4', 'filter-3');
  await closeDrawer();
  await connect('filter-3', 'console-5');
  await closeDrawer();
  await submit(byTest('flow-form'));
  assert.equal(problems(), ['Unconnected nodes are not allowed']);
  assert.ok(node('topic-2')!.classList.contains('flow-node-error'));
  await add('republish');
  await type(byTest('rule-output-topic'), 'out');
  await apply();
  await connect('topic-2', 'republish-6');
  await closeDrawer();
  await submit(byTest('flow-form'));
  assert.equal(problems(), ['Only one flow can be created at a time']);
  assert.equal(writes(api), []);
  api.restore();
});

test('a dragged connection the rules refuse is taken off the canvas with the message', async () => {
  const api = await open('/flow/r1', { 'GET /rules/r1': { body: rule('r1', { actions: ['http:hook'] }) } });
  await waitFor(() => node('http-hook'));
  const before = document.querySelectorAll('svg.connection').length;
  // What drawflow does at the end of a drag from the filter's output to the function's input.
  const output = node('filter-r1')!.querySelector('.output')!;
  const input = node('function-r1')!.querySelector('.input')!;
  await act(() => {
    output.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, clientX: 1, clientY: 1 }));
    byTest('flow-canvas')!.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
    input.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, clientX: 5, clientY: 5 }));
  });
  await waitFor(() => problems().length);
  assert.equal(problems(), ['Function nodes must come before filter nodes']);
  assert.is(document.querySelectorAll('svg.connection').length, before);
  api.restore();
});

test('node texts are escaped: a topic with markup shows as text', async () => {
  const evil = '<img src=x onerror=alert(1)>';
  const api = await open('/flow/x', { 'GET /rules/x': { body: rule('x', { sql: `SELECT * FROM "${evil}"`, actions: [{ function: 'console' }] }) } });
  await waitFor(() => node(`topic-${evil}`));
  assert.is(byTest('flow-canvas')!.querySelector('img'), null);
  assert.is(node(`topic-${evil}`)!.querySelector('.flow-node-text')!.textContent, evil);
  await click(byTest('flow-add-topic'));
  await type(byTest('flow-topic'), '<b>x</b>/#');
  await apply();
  assert.is(byTest('flow-canvas')!.querySelector('b'), null);
  assert.ok(node('topic-3')!.textContent!.includes('<b>x</b>/#'));
  // Nodes are reachable from the keyboard: focusable, named, opened with Enter.
  const first = node(`topic-${evil}`)!;
  assert.is(first.tabIndex, 0);
  assert.is(first.getAttribute('aria-label'), `Messages: ${evil}`);
  await press(first, 'Enter');
  await waitFor(() => byTest('flow-node-drawer'));
  assert.is(byTest<HTMLInputElement>('flow-topic')!.value, evil);
  api.restore();
});

test('cancel with unsaved changes asks first; without changes it just leaves', async () => {
  const api = await open('/flow/r1', { 'GET /rules/r1': { body: rule('r1', { actions: ['http:hook'] }) }, 'GET /rules': page([]) });
  await waitFor(() => node('http-hook'));
  await click(byTest('flow-cancel'));
  await waitFor(() => route().split('?')[0] === '/flow');
  await signedInAt('/flow/r1');
  await mount(<App />);
  await waitFor(() => node('http-hook'));
  await type(byTest('flow-description'), 'changed');
  await click(byTest('flow-cancel'));
  await waitFor(() => text().includes('Discard the unsaved changes?'));
  await click(byTest('confirm-cancel'));
  assert.is(route().split('?')[0], '/flow/r1');
  await click(byTest('flow-cancel'));
  await waitFor(() => byTest('confirm-ok'));
  await click(byTest('confirm-ok'));
  await waitFor(() => route().split('?')[0] === '/flow');
  api.restore();
});

test('a 400 about the id shows at the name; other server errors show above the canvas', async () => {
  let reply = { status: 400, body: { code: 'BAD_REQUEST', message: 'rule id already exists' } };
  const api = await open('/flow/create', { 'POST /rules': () => reply });
  await waitFor(() => byTest('flow-palette'));
  await type(byTest('flow-name'), 'dup');
  await add('topic');
  await type(byTest('flow-topic'), 't/#');
  await apply();
  await add('console');
  await apply();
  await connect('topic-1', 'console-2');
  await closeDrawer();
  await submit(byTest('flow-form'));
  await waitFor(() => byTest('flow-name-error'));
// Changed with issue #34: the catalogue's sentence, not the server's words.
  assert.is(byTest('flow-name-error')!.textContent, 'Something with this name already exists');
  reply = { status: 400, body: { code: 'BAD_REQUEST', message: 'Bad Arguments: syntax error' } };
  await submit(byTest('flow-form'));
  await waitFor(() => problems().length);
  assert.ok(problems()[0]!.includes('The SQL has a syntax error'));
  api.restore();
});

test('a rule whose SQL is not a flow points to the rule page; an unknown flow says so', async () => {
  const api = await open('/flow/fe', { 'GET /rules/fe': { body: rule('fe', { sql: 'FOREACH payload.l FROM "t/#"' }) } });
  await waitFor(() => byTest('flow-unsupported'));
  assert.is(byTest('flow-unsupported')!.querySelector('a')!.getAttribute('href'), '#/rule/rules/fe');
  api.restore();
  const api2 = await open('/flow/none', { 'GET /rules/none': { status: 404, body: { code: 'NOT_FOUND', message: 'Rule Id Not Found' } } });
  await waitFor(() => byTest('flow-not-found'));
  api2.restore();
});

test('zh: palette, drawer and validation texts', async () => {
  const api = await open('/flow/create', {}, 'zh');
  await waitFor(() => byTest('flow-palette'));
  assert.ok(byTest('flow-palette')!.textContent!.includes('消息重发布'));
  await submit(byTest('flow-form'));
  assert.equal(problems(), ['无法保存，流程中至少需要一个 Sink 节点和一个 Source 节点']);
  assert.is(byTest('flow-name-error')!.textContent, '请输入名称');
  api.restore();
});

/** Fires what the browser fires when a palette entry is dropped on the canvas (drag data set). */
async function drop(kind: string, type = 'application/x-emqx-flow-kind') {
  const data = new DataTransfer();
  data.setData(type, kind);
  const event = (name: string) => Object.assign(new Event(name, { bubbles: true, cancelable: true }), { dataTransfer: data, clientX: 50, clientY: 40 });
  const over = event('dragover');
  const dropped = event('drop');
  await act(() => { byTest('flow-canvas')!.dispatchEvent(over); byTest('flow-canvas')!.dispatchEvent(dropped); });
  return { accepted: over.defaultPrevented, handled: dropped.defaultPrevented };
}

test('a palette entry dropped on the canvas adds its node and opens its drawer; other drags are ignored', async () => {
  const api = await open('/flow/create', { 'GET /rules': page([]) });
  await waitFor(() => byTest('flow-palette'));
  const entry = byTest('flow-add-console')!;
  assert.is(entry.getAttribute('draggable'), 'true');
  const start = Object.assign(new Event('dragstart', { bubbles: true }), { dataTransfer: new DataTransfer() });
  await act(() => { entry.dispatchEvent(start); });
  assert.is(start.dataTransfer.getData('application/x-emqx-flow-kind'), 'console');

  assert.equal(await drop('console'), { accepted: true, handled: true });
  await waitFor(() => byTest('flow-node-drawer'));
  assert.equal(nodes(), ['console-1']);
  assert.ok(byTest('flow-add-console')!.hasAttribute('disabled'), 'one console output at most');
  await closeDrawer();
  // A second console output, an unknown kind and foreign drag data add nothing.
  await drop('console');
  await drop('nonsense');
  assert.equal(await drop('topic', 'text/plain'), { accepted: false, handled: false });
  assert.equal(nodes(), ['console-1']);
  await drop('topic');
  await waitFor(() => node('topic-2'));
  await apply();
  assert.equal(nodes(), ['console-1', 'topic-2']);
  api.restore();
});

test('zoom buttons change the scale shown and drawn; 100 % resets it; the view tools are named in zh and en', async () => {
  const api = await open('/flow/r1', { 'GET /rules/r1': { body: rule('r1', { actions: ['http:hook'] }) } });
  await waitFor(() => node('http-hook'));
  const drawing = () => byTest('flow-canvas')!.querySelector<HTMLElement>('.drawflow')!;
  const scale = () => Number(/scale\(([\d.]+)\)/.exec(drawing().style.transform)?.[1] ?? 1);
  assert.is(byTest('flow-zoom-reset')!.textContent, '100%');
  await click(byTest('flow-zoom-in'));
  assert.is(byTest('flow-zoom-reset')!.textContent, '120%');
  assert.ok(Math.abs(scale() - 1.2) < 1e-9, drawing().style.transform);
  await click(byTest('flow-zoom-out'));
  await click(byTest('flow-zoom-out'));
  assert.is(byTest('flow-zoom-reset')!.textContent, '83%');
  assert.ok(scale() < 1);
  for (let i = 0; i < 12; i++) await click(byTest('flow-zoom-out'));
  assert.is(byTest('flow-zoom-reset')!.textContent, '25%');
  assert.ok(byTest('flow-zoom-out')!.hasAttribute('disabled'), 'no further than the limit');
  await click(byTest('flow-zoom-reset'));
  assert.is(scale(), 1);
  // ctrl+wheel zooms as well; a plain wheel does not (happy-dom's WheelEvent takes no ctrlKey).
  const wheelEvent = (ctrlKey: boolean) => Object.defineProperty(new WheelEvent('wheel', { deltaY: -100, bubbles: true, cancelable: true }), 'ctrlKey', { value: ctrlKey });
  await act(() => { byTest('flow-canvas')!.dispatchEvent(wheelEvent(false)); });
  assert.is(scale(), 1);
  const wheel = wheelEvent(true);
  await act(() => { byTest('flow-canvas')!.dispatchEvent(wheel); });
  assert.ok(wheel.defaultPrevented, 'the page does not zoom instead');
  assert.ok(Math.abs(scale() - 1.2) < 1e-9, drawing().style.transform);
  for (const name of ['flow-zoom-in', 'flow-zoom-out', 'flow-zoom-reset', 'flow-fit']) assert.is(byTest(name)!.tagName, 'BUTTON', name);
  assert.is(byTest('flow-zoom-in')!.getAttribute('aria-label'), 'Zoom in');
  assert.is(byTest('flow-fit')!.textContent, 'Fit to view');
  api.restore();
  const api2 = await open('/flow/create', {}, 'zh');
  await waitFor(() => byTest('flow-fit'));
  assert.is(byTest('flow-fit')!.textContent, '适应画布');
  assert.is(byTest('flow-zoom-out')!.getAttribute('aria-label'), '缩小');
  assert.is(byTest('flow-view')!.getAttribute('aria-label'), '画布视图');
  // On a new, empty flow the buttons work from the first render on.
  await click(byTest('flow-zoom-in'));
  assert.is(byTest('flow-zoom-reset')!.textContent, '120%');
  api2.restore();
});

test.run();
