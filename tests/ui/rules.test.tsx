// Integration > Rules against a fake broker: the list's exact requests (page, limit, filters from
// the URL), enable/disable and delete with confirmation, the editor's create/update bodies, the SQL
// test body and its 'SQL Not Match', server errors at the field, metrics and their reset, zh and en.
import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, microtasks, mount, press, reset, route, signedInAt, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const rule = (id: string, over: Record<string, unknown> = {}) => ({
  id, name: '', sql: 'SELECT\n  payload.temp AS t,\n  clientid\nFROM\n  "sensors/+"\nWHERE\n  payload.temp > 30', enable: true, description: 'hot',
  actions: [{ function: 'console' }, 'http:hook'], from: ['sensors/+'], created_at: '2024-05-01T10:20:30.123+00:00', last_modified_at: '2024-05-01T10:20:30.123+00:00',
  ...over,
});
const page = (rows: unknown[]) => ({ body: { data: rows, meta: { page: 1, limit: 20, count: rows.length, hasnext: false } } });
const events = [
  {
    event: '$events/message_publish', title: { en: 'Message publish', zh: '消息发布' }, description: { en: 'Messages received', zh: '消息发布' },
    columns: ['event', 'clientid', 'username', 'payload', 'topic', 'qos'], sql_example: '',
    test_columns: { clientid: ['c_emqx', 'x'], username: ['u_emqx', 'x'], topic: ['t/a', 'x'], qos: [1, 'x'], payload: ['{"msg": "hello"}', 'x'] },
  },
  {
    event: '$events/client_connected', title: { en: 'Client connected', zh: '连接建立' }, description: { en: 'Connected', zh: '连接' },
    columns: ['event', 'clientid', 'peername', 'connected_at'], sql_example: '',
    test_columns: { clientid: ['c_emqx', 'x'], username: ['u_emqx', 'x'], peername: ['127.0.0.1:52918', 'x'] },
  },
];
const metrics = { matched: 12, passed: 10, failed: 2, 'failed.exception': 1, 'failed.no_result': 1, 'actions.total': 20, 'actions.success': 19, 'actions.failed': 1, 'matched.rate': 1.5, 'matched.rate.max': 4, 'matched.rate.last5m': 0.5 };

/** Logs in at `path`; wouter's hash location keeps the query before the hash (`/?page=2#/rule/rules`). */
async function open(path: string, locale: 'en' | 'zh' = 'en') {
  await signedInAt(path);
  setLocale(locale);
}
const base = { 'GET /alarms': alarms, 'GET /rule_events': { body: events } };
const writes = (api: ReturnType<typeof fakeApi>) => api.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body]);
const row = (id: string) => document.querySelector(`[data-test=rules-row][data-key="${id}"]`);
const select = async (el: Element | null, value: string) => {
  const s = el as HTMLSelectElement;
  await act(() => { s.value = value; s.dispatchEvent(new Event('change', { bubbles: true })); });
};
const lists = (api: ReturnType<typeof fakeApi>) => api.calls.filter((c) => c.method === 'GET' && c.path === '/rules').map((c) => Object.fromEntries(c.query));

test('the list asks the server for a page with the filters of the URL and shows id, SQL, outputs, switch and date', async () => {
  await open('/rule/rules?like_id=r&enable=true&like_from=sensors');
  const api = fakeApi({ ...base, 'GET /rules': page([rule('r1'), rule('r2', { enable: false, actions: [] })]) });
  await mount(<App />);
  await waitFor(() => row('r2'));
  assert.equal(lists(api)[0], { like_id: 'r', enable: 'true', like_from: 'sensors', page: '1', limit: '20' });
  const cells = [...row('r1')!.querySelectorAll('td')].map((td) => td.textContent);
  assert.equal(cells.slice(0, 3), ['r1', 'SELECT payload.temp AS t, clientid FROM "sensors/+" WHERE paylo…', 'console, http:hook']);
  assert.is(row('r1')!.querySelector('code')!.getAttribute('title'), rule('r1').sql);
  assert.ok(cells[4]!.startsWith('2024-05-01'));
  assert.is(row('r1')!.querySelector('a')!.getAttribute('href'), '#/rule/rules/r1');
  assert.ok(row('r1')!.querySelector<HTMLInputElement>('[data-test=rules-enable]')!.checked);
  assert.not.ok(row('r2')!.querySelector<HTMLInputElement>('[data-test=rules-enable]')!.checked);
  assert.is(row('r2')!.querySelectorAll('td')[2].textContent, '—');
  api.restore();
});

test('/rule redirects to the list; empty state, and a failed load with retry', async () => {
  await open('/rule');
  let fail = true;
  const api = fakeApi({ ...base, 'GET /rules': () => (fail ? { status: 500, body: { code: 'NODE_DOWN', message: 'x' } } : page([])) });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  assert.is(route().split('?')[0], '/rule/rules');
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No rules yet'));
  api.restore();
});

test('disabling asks and PUTs only {enable:false}; enabling does not ask', async () => {
  await open('/rule/rules');
  let r = rule('r1');
  const api = fakeApi({ ...base, 'GET /rules': () => page([r]), 'PUT /rules/r1': (call) => ((r = { ...r, ...(call.body as object) }), { body: r }) });
  await mount(<App />);
  await click(await waitFor(() => row('r1')?.querySelector('[data-test=rules-enable]')));
  await waitFor(() => text().includes('Disable rule r1?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Rule disabled'));
  await waitFor(() => !row('r1')!.querySelector<HTMLInputElement>('[data-test=rules-enable]')!.checked);
  await click(row('r1')!.querySelector('[data-test=rules-enable]'));
  await waitFor(() => text().includes('Rule enabled'));
  assert.equal(writes(api), [['PUT', '/rules/r1', { enable: false }], ['PUT', '/rules/r1', { enable: true }]]);
  api.restore();
});

for (const [locale, ask, done, head] of [['en', 'Delete rule r1?', 'Deleted successfully', 'Created at'], ['zh', '确定删除规则 r1？', '删除成功', '创建时间']] as const) {
  test(`delete asks first and sends DELETE /rules/{id} (${locale})`, async () => {
    await open('/rule/rules', locale);
    let rows = [rule('r1')];
    const api = fakeApi({ ...base, 'GET /rules': () => page(rows), 'DELETE /rules/r1': () => ((rows = []), { status: 204 }) });
    await mount(<App />);
    await click(await waitFor(() => row('r1')?.querySelector('[data-test=rules-delete]')));
    assert.ok(text().includes(head));
    await waitFor(() => text().includes(ask));
    await click(byTest('confirm-ok'));
    await waitFor(() => text().includes(done));
    assert.equal(writes(api), [['DELETE', '/rules/r1', undefined]]);
    api.restore();
  });
}

test('create: checks the id and republish topic, adds an event to FROM, posts the exact body and returns to the list', async () => {
  await open('/rule/rules/create');
  const api = fakeApi({ ...base, 'GET /rules': page([]), 'POST /rules': (call) => ({ status: 201, body: rule((call.body as { id: string }).id) }) });
  await mount(<App />);
  const form = await waitFor(() => byTest('rule-form'));
  assert.match(byTest<HTMLInputElement>('rule-id')!.value, /^rule_[0-9a-z]{1,4}$/);
  assert.is(byTest<HTMLTextAreaElement>('rule-sql-input')!.value, 'SELECT\n  *\nFROM\n  "t/#"');
  await type(byTest('rule-id'), '');
  await click(byTest('rule-add-republish'));
  await submit(form);
  assert.is(byTest('rule-id-error')!.textContent, 'Rule ID is required');
  assert.is(byTest('rule-output-topic-error')!.textContent, 'Topic is required');
  assert.equal(writes(api), []);
  await type(byTest('rule-id'), 'hot');
  await type(byTest('rule-description'), 'too hot');
  await click(document.querySelector('[data-key="$events/client_connected"] [data-test=rule-event-add]'));
  assert.is(byTest<HTMLTextAreaElement>('rule-sql-input')!.value, 'SELECT\n  *\nFROM\n  "$events/client_connected"');
  await type(byTest('rule-input-topic'), 'sensors/+');
  await click(byTest('rule-input-topic-add'));
  await type(byTest('rule-output-topic'), 'alerts/${clientid}');
  await select(byTest('rule-output-qos'), '${qos}');
  await select(byTest('rule-output-retain'), 'true');
  await type(byTest('rule-output-payload'), '{"t": ${t}}');
  await click(byTest('rule-add-console'));
  await submit(form);
  await waitFor(() => route().startsWith('/rule/rules?') || route() === '/rule/rules');
  assert.ok(text().includes('Created successfully'));
  assert.equal(writes(api), [['POST', '/rules', {
    id: 'hot', sql: 'SELECT\n  *\nFROM\n  "$events/client_connected",\n  "sensors/+"', enable: true, description: 'too hot',
    actions: [
      { function: 'republish', args: { topic: 'alerts/${clientid}', qos: '${qos}', retain: true, payload: '{"t": ${t}}', mqtt_properties: {}, user_properties: '${user_properties}', direct_dispatch: false } },
      { function: 'console' },
    ],
  }]]);
  api.restore();
});

for (const [message, field] of [['Bad Arguments: {parse_error, "syntax error before: FORM at line 4"}', 'rule-sql-error'], ['rule id already exists', 'rule-id-error']] as const) {
  test(`a 400 "${message.slice(0, 20)}…" is shown at its field and the page stays`, async () => {
    await open('/rule/rules/create');
    const api = fakeApi({ ...base, 'POST /rules': { status: 400, body: { code: 'BAD_REQUEST', message } } });
    await mount(<App />);
    const form = await waitFor(() => byTest('rule-form'));
    await type(byTest('rule-sql-input'), 'SELECT * FORM "t"');
    await submit(form);
    await waitFor(() => byTest(field));
    assert.is(byTest(field)!.textContent, message);
    assert.ok(byTest('rule-sql')!.classList.contains('invalid') === (field === 'rule-sql-error'));
    assert.is(route(), '/rule/rules/create');
    api.restore();
  });
}

for (const [locale, notMatch] of [['en', 'SQL Not Match'], ['zh', 'SQL 未匹配']] as const) {
  test(`SQL test posts {sql, context} with the edited test data and shows the output or "${notMatch}" (${locale})`, async () => {
    await open('/rule/rules/create', locale);
    let answer: { status?: number; body: unknown } = { body: { t: 31, clientid: 'c1' } };
    const api = fakeApi({ ...base, 'POST /rule_test': () => answer });
    await mount(<App />);
    await waitFor(() => byTest('rule-form'));
    await type(byTest('rule-sql-input'), 'SELECT payload.temp AS t, clientid FROM "sensors/+" WHERE payload.temp > 30');
    await click(byTest('rule-test-toggle'));
    await waitFor(() => byTest('rule-test'));
    assert.is(byTest<HTMLSelectElement>('rule-test-event')!.value, '$events/message_publish');
    assert.is(byTest<HTMLInputElement>('rule-test-topic')!.value, 'sensors/a');
    await type(byTest('rule-test-clientid'), 'c1');
    await type(byTest('rule-test-qos'), '2');
    await type(byTest('rule-test-payload'), '{"temp": 31}');
    await click(byTest('rule-test-run'));
    await waitFor(() => byTest('rule-test-output'));
    assert.equal(JSON.parse(byTest('rule-test-output')!.textContent!), { t: 31, clientid: 'c1' });
    answer = { status: 412, body: { code: 'NOT_MATCH', message: 'SQL Not Match' } };
    await type(byTest('rule-test-payload'), '{"temp": 29}');
    await click(byTest('rule-test-run'));
    await waitFor(() => byTest('rule-test-nomatch'));
    assert.is(byTest('rule-test-nomatch')!.textContent, notMatch);
    const sql = 'SELECT payload.temp AS t, clientid FROM "sensors/+" WHERE payload.temp > 30';
    const ctx = { clientid: 'c1', username: 'u_emqx', topic: 'sensors/a', qos: 2, event_type: 'message_publish' };
    assert.equal(writes(api), [
      ['POST', '/rule_test', { sql, context: { ...ctx, payload: '{"temp": 31}' } }],
      ['POST', '/rule_test', { sql, context: { ...ctx, payload: '{"temp": 29}' } }],
    ]);
    api.restore();
  });
}

test('SQL test of an event: context from its test columns and event_type without the $events/ prefix', async () => {
  await open('/rule/rules/create');
  const api = fakeApi({ ...base, 'POST /rule_test': { body: { clientid: 'c_emqx' } } });
  await mount(<App />);
  await waitFor(() => byTest('rule-form'));
  await click(document.querySelector('[data-key="$events/client_connected"] [data-test=rule-event-add]'));
  await click(byTest('rule-test-toggle'));
  assert.is(byTest<HTMLSelectElement>('rule-test-event')!.value, '$events/client_connected');
  await click(byTest('rule-test-run'));
  await waitFor(() => byTest('rule-test-output'));
  assert.equal(api.calls.find((c) => c.path === '/rule_test')!.body, {
    sql: 'SELECT\n  *\nFROM\n  "$events/client_connected"',
    context: { clientid: 'c_emqx', username: 'u_emqx', peername: '127.0.0.1:52918', event_type: 'client_connected' },
  });
  api.restore();
});

test('the editor completes event columns and functions, and examples replace the SQL', async () => {
  await open('/rule/rules/create');
  const api = fakeApi(base);
  await mount(<App />);
  const input = await waitFor(() => byTest<HTMLTextAreaElement>('rule-sql-input'));
  await type(input, 'SELECT conn');
  const options = () => [...document.querySelectorAll('[data-test=rule-sql-completions] li')].map((li) => li.firstChild!.textContent);
  assert.equal(options(), ['connected_at']);
  await press(input, 'Enter');
  assert.is(input.value, 'SELECT connected_at');
  await type(input, 'SELECT upp');
  assert.equal(options(), ['upper']);
  await press(input, 'Tab');
  assert.is(input.value, 'SELECT upper(');
  assert.ok(byTest('rule-sql')!.querySelector('.tok-function')!.textContent === 'upper');
  await click(byTest('rule-templates-open'));
  await click((await waitFor(() => document.querySelectorAll('[data-test=rule-template-use]')))[2]);
  assert.is(input.value, 'FOREACH\n  payload.readings\nFROM\n  "devices/+/batch"');
  api.restore();
});

test('detail shows metrics with reset, updates with PUT (no id), and asks before leaving with unsaved edits', async () => {
  await open('/rule/rules/r1');
  const api = fakeApi({
    ...base, 'GET /rules': page([rule('r1')]), 'GET /rules/r1': { body: rule('r1') }, 'GET /rules/r1/metrics': { body: { id: 'r1', metrics, node_metrics: [] } },
    'PUT /rules/r1': (call) => ({ body: { ...rule('r1'), ...(call.body as object) } }), 'PUT /rules/r1/metrics/reset': { status: 204 },
  });
  await mount(<App />);
  await waitFor(() => byTest('rule-metrics'));
  const m = byTest('rule-metrics')!.textContent!;
  for (const part of ['Matched12', 'Passed10', 'Failed2', 'Rate1.5/s', 'Max rate4/s']) assert.ok(m.replace(/\s/g, '').includes(part.replace(/\s/g, '')), part);
  assert.ok(byTest<HTMLInputElement>('rule-id')!.disabled);
  assert.equal([...document.querySelectorAll('[data-test=rule-output]')].map((o) => o.getAttribute('data-key')), ['console', 'http:hook']);
  await click(byTest('rule-metrics-reset'));
  await waitFor(() => text().includes('Reset the metrics of rule r1?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Reset successful'));
  await type(byTest('rule-description'), 'very hot');
  await click(byTest('rule-cancel'));
  await waitFor(() => text().includes('Changes that you made may not be saved.'));
  await click(byTest('confirm-cancel'));
  assert.is(route(), '/rule/rules/r1');
  await click(document.querySelectorAll('[data-test=rule-output-remove]')[0]);
  await submit(byTest('rule-form'));
  await waitFor(() => text().includes('Updated successfully'));
  assert.equal(writes(api), [
    ['PUT', '/rules/r1/metrics/reset', {}],
    ['PUT', '/rules/r1', { sql: rule('r1').sql, actions: ['http:hook'], enable: true, description: 'very hot' }],
  ]);
  await click(byTest('rule-cancel'));
  await waitFor(() => route().startsWith('/rule/rules?') || route() === '/rule/rules');
  api.restore();
});

test('an unknown rule says so', async () => {
  await open('/rule/rules/nope');
  const api = fakeApi({ ...base, 'GET /rules/nope': { status: 404, body: { code: 'NOT_FOUND', message: 'Rule Id Not Found' } } });
  await mount(<App />);
  await waitFor(() => byTest('rule-not-found'));
  assert.ok(text().includes('Rule not found'));
  api.restore();
});


/** The rule create form with one republish output, the rule's id typed in; the fake API answers the create. */
async function republishRule(id: string) {
  await open('/rule/rules/create');
  const api = fakeApi({ ...base, 'GET /rules': page([]), 'POST /rules': (call) => ({ status: 201, body: rule((call.body as { id: string }).id) }) });
  await mount(<App />);
  const form = await waitFor(() => byTest('rule-form'));
  await type(byTest('rule-id'), id);
  await click(byTest('rule-add-republish'));
  return { api, form };
}

test('republish: MQTT 5 properties are set and cleared by name, direct dispatch toggles, and the body carries them', async () => {
  const { api, form } = await republishRule('props');
  await type(byTest('rule-output-topic'), 'out/${clientid}');
  await type(document.querySelector('[data-test="rule-output-prop-Content-Type"]'), 'application/json');
  await type(document.querySelector('[data-test="rule-output-prop-Message-Expiry-Interval"]'), '${pub_props.Message-Expiry-Interval}');
  await type(document.querySelector('[data-test="rule-output-prop-Response-Topic"]'), 'reply/x');
  await type(document.querySelector('[data-test="rule-output-prop-Response-Topic"]'), '');
  await click(byTest('rule-output-direct-dispatch'));
  await submit(form);
  await waitFor(() => writes(api).length === 1);
  const body = writes(api)[0][2] as { actions: { args: Record<string, unknown> }[] };
  assert.equal(body.actions[0].args.mqtt_properties, { 'Content-Type': 'application/json', 'Message-Expiry-Interval': '${pub_props.Message-Expiry-Interval}' });
  assert.is(body.actions[0].args.direct_dispatch, true);
  api.restore();
});

test('function help: groups of the broker library in both languages, search, and adding a call to SELECT', async () => {
  await open('/rule/rules/create', 'zh');
  const api = fakeApi({ ...base, 'GET /rules': page([]) });
  await mount(<App />);
  await waitFor(() => byTest('rule-form'));
  await click(byTest('rule-functions-open'));
  const groups = () => [...document.querySelectorAll('[data-test=rule-function-group] h5')].map((h) => h.textContent);
  assert.is(groups().length, 12);
  assert.ok(groups().includes('字符串函数'));
  await type(byTest('rule-functions-search'), 'sha2');
  assert.equal(groups(), ['哈希函数']);
  await type(byTest('rule-functions-search'), 'no-such-function');
  assert.ok(byTest('rule-functions-none'));
  await type(byTest('rule-functions-search'), 'upper');
  await click(document.querySelector('[data-test=rule-function-use][data-key="upper(s)"]'));
  assert.not.ok(byTest('rule-functions'));
  assert.is(byTest<HTMLTextAreaElement>('rule-sql-input')!.value, 'SELECT\n  *,\n  upper(s)\nFROM\n  "t/#"');
  setLocale('en');
  await click(byTest('rule-functions-open'));
  assert.ok(groups().includes('String functions'));
  api.restore();
});

// ---- action outputs: the picker and the create drawer ----------------------------------------

const sinkOf = (type: string, name: string, over: Record<string, unknown> = {}) => ({
  type, name, connector: 'web', enable: true, status: 'connected', status_reason: '', description: '', ...over,
});
const sinks = [
  sinkOf('http', 'hook'), sinkOf('http', 'audit', { status: 'disconnected', status_reason: 'econnrefused' }),
  sinkOf('mqtt', 'bridge_out', { enable: false }), sinkOf('http', 'orders_WH_D'), sinkOf('kafka_consumer', 'odd'),
];
const outputRoutes = { 'GET /actions': { body: sinks }, 'GET /action_types': { body: ['http', 'mqtt'] } };
const options = () => [...document.querySelectorAll('[data-test=rule-action-option]')].map((o) => o.getAttribute('data-key'));

test('the outputs show each action with its status and a link to it, and an action gone from the broker as not found', async () => {
  await open('/rule/rules/r1');
  const api = fakeApi({
    ...base, ...outputRoutes, 'GET /rules/r1': { body: rule('r1', { actions: ['http:audit', 'http:gone'] }) },
    'GET /rules/r1/metrics': { body: { id: 'r1', metrics, node_metrics: [] } },
  });
  await mount(<App />);
  await waitFor(() => byTest('rule-output-missing'));
  const [audit, gone] = [...document.querySelectorAll('[data-test=rule-output]')];
  assert.is(audit.querySelector('[data-test=rule-output-link]')!.getAttribute('href'), '#/rule/actions/http:audit');
  assert.is(audit.querySelector('[data-test=bridge-status]')!.textContent, 'Disconnected');
  assert.ok(audit.textContent!.includes('HTTP Server'));
  assert.is(gone.querySelector('[data-test=rule-output-missing]')!.textContent, 'Not found');
  await click(audit.querySelector('[data-test=rule-output-link]'));
  await waitFor(() => route() === '/rule/actions/http:audit');
  api.restore();
});

for (const [locale, add, connected, none] of [['en', 'Add action', 'Connected', 'No action matches'], ['zh', '添加动作', '已连接', '没有匹配的动作']] as const) {
  test(`the picker lists output actions not yet attached with type and status, searches, and attaches one (${locale})`, async () => {
    await open('/rule/rules/r1', locale);
    const api = fakeApi({
      ...base, ...outputRoutes, 'GET /rules/r1': { body: rule('r1', { actions: ['http:hook'] }) },
      'GET /rules/r1/metrics': { body: { id: 'r1', metrics, node_metrics: [] } },
      'PUT /rules/r1': (call) => ({ body: { ...rule('r1'), ...(call.body as object) } }),
    });
    await mount(<App />);
    await click(await waitFor(() => byTest('rule-add-action')));
    const drawer = await waitFor(() => byTest('rule-action-picker'));
    assert.is(drawer.getAttribute('aria-label'), add);
    await waitFor(() => byTest('rule-action-option'));
    // Attached (hook), webhook-owned (orders_WH_D) and a type that is no rule output (kafka_consumer) are not offered.
    assert.equal(options(), ['http:audit', 'mqtt:bridge_out']);
    const row = (id: string) => document.querySelector(`[data-test=rule-action-option][data-key="${id}"]`)!;
    assert.ok(row('http:audit').textContent!.includes('HTTP Server'));
    assert.is(row('mqtt:bridge_out').querySelector('[data-test=bridge-status]')!.textContent, locale === 'en' ? 'Disabled' : '已禁用');
    assert.ok(document.activeElement === byTest('rule-action-search'), 'typing can start at once');
    await type(byTest('rule-action-search'), 'MQTT');
    assert.equal(options(), ['mqtt:bridge_out']);
    await type(byTest('rule-action-search'), 'nothing-like-it');
    assert.equal(options(), []);
    assert.is(byTest('state-empty')!.textContent, none);
    await type(byTest('rule-action-search'), 'aud');
    assert.ok(row('http:audit').querySelector('[data-test=bridge-status]')!.textContent === (locale === 'en' ? 'Disconnected' : '已断开'));
    await click(row('http:audit').querySelector('button'));
    assert.not.ok(byTest('rule-action-picker'));
    assert.equal([...document.querySelectorAll('[data-test=rule-output]')].map((o) => o.getAttribute('data-key')), ['http:hook', 'http:audit']);
    await waitFor(() => document.querySelectorAll('[data-test=rule-output] [data-test=bridge-status]').length === 2);
    assert.ok(text().includes(connected));
    // Added once: the picker no longer offers it.
    await click(byTest('rule-add-action'));
    await waitFor(() => byTest('rule-action-option'));
    assert.equal(options(), ['mqtt:bridge_out']);
    await click(byTest('drawer-close'));
    await submit(byTest('rule-form'));
    await waitFor(() => writes(api).length === 1);
    assert.equal((writes(api)[0][2] as { actions: unknown[] }).actions, ['http:hook', 'http:audit']);
    api.restore();
  });
}

test('the editor asks for the actions with the rule and the events, not after they arrive', async () => {
  await open('/rule/rules/create');
  const api = fakeApi({ ...base, ...outputRoutes, 'GET /rule_events': { body: events, delay: 150 } });
  await mount(<App />);
  const asked = (path: string) => api.calls.some((c) => c.method === 'GET' && c.path === path);
  await waitFor(() => asked('/actions'));
  assert.ok(asked('/action_types'));
  assert.ok(byTest('state-loading'), 'the events are still on their way');
  assert.not.ok(byTest('rule-editor'));
  await waitFor(() => byTest('rule-outputs'));
  assert.is(api.calls.filter((c) => c.path === '/actions').length, 1, 'asked once');
  api.restore();
});

test('the picker shows loading, then an error with retry, then "nothing to add" when every action is attached', async () => {
  await open('/rule/rules/create');
  let fail = true;
  const api = fakeApi({
    ...base, 'GET /action_types': { body: ['http'] },
    'GET /actions': () => (fail ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'down' }, delay: 150 } : { body: [sinkOf('http', 'hook')] }),
  });
  await mount(<App />);
  await click(await waitFor(() => byTest('rule-add-action')));
  await waitFor(() => byTest('rule-action-picker'));
  assert.ok(byTest('rule-action-picker')!.querySelector('[data-test=state-loading]'));
  await waitFor(() => byTest('state-error'));
  assert.ok(text().includes('down'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('rule-action-option'));
  await click(byTest('rule-action-use'));
  await click(byTest('rule-add-action'));
  await waitFor(() => byTest('state-empty'));
  assert.is(byTest('state-empty')!.textContent, 'No action to add: create a new one.');
  api.restore();
});

test('an action created in the drawer is posted, attached to the rule, and the rule keeps its edits; its form does not save the rule', async () => {
  await open('/rule/rules/create');
  const { clearSchemas } = await import('../../web/lib/schemas.ts');
  const { schemaDocument } = await import('../../simulator/schemas/index.ts');
  clearSchemas();
  let list = [sinkOf('http', 'hook')];
  const api = fakeApi({
    ...base, 'GET /action_types': { body: ['http', 'mqtt'] }, 'GET /actions': () => ({ body: list }),
    'GET /schemas/actions': { body: JSON.parse(schemaDocument('actions')) },
    'GET /connectors': { body: [{ type: 'http', name: 'web', enable: true }, { type: 'mqtt', name: 'remote', enable: true }] },
    'POST /actions': (call) => {
      const saved = { ...(call.body as object), status: 'connected', enable: true } as ReturnType<typeof sinkOf>;
      list = [...list, saved];
      return { status: 201, body: saved };
    },
    'POST /rules': (call) => ({ status: 201, body: rule((call.body as { id: string }).id) }),
  });
  await mount(<App />);
  await waitFor(() => byTest('rule-form'));
  await type(byTest('rule-id'), 'to_web');
  await type(byTest('rule-description'), 'kept');
  await click(byTest('rule-add-console'));
  await click(byTest('rule-add-action'));
  // Clicked outside act(): the focus is on Back in the update that shows the step, before any later frame.
  (await waitFor(() => byTest<HTMLButtonElement>('rule-action-create'))).click();
  await microtasks();
  assert.is(document.activeElement, byTest('rule-action-back'), 'the new step starts at its Back button');
  await waitFor(() => byTest('type-http'));
  const types = [...document.querySelectorAll('[data-test=type-picker] [role=option]')].map((o) => o.getAttribute('data-test'));
  assert.equal(types.sort(), ['type-http', 'type-mqtt'], 'only the types /action_types lists');
  await click(byTest('type-http'));
  await click(byTest('type-next'));
  await waitFor(() => document.querySelectorAll('[data-test="field-connector"] option').length > 1);
  await type(byTest('field-name'), 'to_http');
  const connector = byTest<HTMLSelectElement>('field-connector')!;
  await act(async () => { connector.value = 'web'; connector.dispatchEvent(new Event('change', { bubbles: true })); });
  await type(byTest('field-parameters.path'), '/in');
  await click(byTest('form-submit'));
  await waitFor(() => !byTest('rule-action-picker'));
  const posted = api.calls.find((c) => c.method === 'POST' && c.path === '/actions')!.body as Record<string, unknown>;
  assert.is(posted.type, 'http');
  assert.is(posted.name, 'to_http');
  assert.is(posted.connector, 'web');
  assert.not.ok(api.calls.some((c) => c.path === '/rules' && c.method === 'POST'), 'the drawer form did not submit the rule');
  assert.is(byTest<HTMLInputElement>('rule-id')!.value, 'to_web');
  assert.is(byTest<HTMLInputElement>('rule-description')!.value, 'kept');
  assert.ok(text().includes('Action to_http created and added to the rule'));
  assert.equal([...document.querySelectorAll('[data-test=rule-output]')].map((o) => o.getAttribute('data-key')), ['console', 'http:to_http']);
  await waitFor(() => document.querySelector('[data-key="http:to_http"] [data-test=bridge-status]'));
  await submit(byTest('rule-form'));
  await waitFor(() => api.calls.some((c) => c.path === '/rules' && c.method === 'POST'));
  const body = api.calls.find((c) => c.path === '/rules' && c.method === 'POST')!.body as Record<string, unknown>;
  assert.equal(body.actions, [{ function: 'console' }, 'http:to_http']);
  assert.is(body.description, 'kept');
  api.restore();
});

test('republish refuses a wildcard topic in both languages, while template placeholders pass', async () => {
  const { api, form } = await republishRule('wild');
  await type(byTest('rule-output-topic'), 'alerts/#');
  await submit(form);
  assert.is(byTest('rule-output-topic-error')!.textContent, "A publish topic cannot contain '#' or '+'");
  setLocale('zh');
  await type(byTest('rule-output-topic'), 'alerts/+/x');
  await submit(form);
  assert.is(byTest('rule-output-topic-error')!.textContent, "发布主题不能包含 '#' 或 '+'");
  assert.equal(writes(api), []);
  await type(byTest('rule-output-topic'), 'alerts/${clientid}');
  await submit(form);
  await waitFor(() => writes(api).length === 1);
  api.restore();
});

test('zh: alarm events, which the broker sends without Chinese texts, are named in Chinese by the console', async () => {
  await open('/rule/rules/create', 'zh');
  const alarm = { event: '$events/sys/alarm_activated', title: { en: 'alarm activated', zh: '' }, description: { en: 'alarm activated', zh: '' }, columns: ['name'], sql_example: '', test_columns: {} };
  const api = fakeApi({ ...base, 'GET /rule_events': { body: [...events, alarm] }, 'GET /rules': page([]) });
  await mount(<App />);
  await waitFor(() => document.querySelector('[data-key="$events/sys/alarm_activated"]'));
  assert.is(document.querySelector('[data-key="$events/sys/alarm_activated"] summary')!.textContent, '告警激活');
  api.restore();
});

test.after(cleanup);
test.run();
