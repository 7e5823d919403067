import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const RULES = '/authorization/sources/built_in_database/rules';
const sources = [
  { type: 'built_in_database', enable: true, max_rules: 100 },
  { type: 'file', enable: true, rules: '{allow, all}.' },
];
const status = (metrics: Record<string, number>) => ({ body: { status: 'connected', metrics: { ...metrics, rate: 0 }, node_metrics: [{ node: 'emqx@127.0.0.1', metrics }], node_status: [{ node: 'emqx@127.0.0.1', status: 'connected' }] } });
const settings = { no_match: 'allow', deny_action: 'ignore', cache: { enable: true, max_size: 32, ttl: '1m', excludes: [] } };

async function login(path: string) {
  await signedInAt(path);
}
async function choose(select: Element | null, value: string) {
  await act(async () => {
    (select as HTMLSelectElement).value = value;
    select!.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
const row = (name: string, key: string) => document.querySelector(`[data-test=${name}-row][data-key="${key}"]`);

test.after.each(() => cleanup());

test('sources are listed in order; moving uses POST …/move with an EMQX position', async () => {
  await login('/authorization');
  const api = fakeApi({
    'GET /authorization/sources': { body: { sources } },
    'GET /authorization/sources/built_in_database/status': status({ total: 1 }),
    'GET /authorization/sources/file/status': status({ total: 1 }),
    'POST /authorization/sources/file/move': { status: 204 },
    'POST /authorization/sources/built_in_database/move': { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('authorization', 'file'));
  assert.match(row('authorization', 'built_in_database')!.textContent!, /Built-in Database.*Connected/);
  await click(row('authorization', 'file')!.querySelector('[data-test=authorization-up]'));
  await click(row('authorization', 'built_in_database')!.querySelector('[data-test=authorization-bottom]'));
  await waitFor(() => api.calls.filter((c) => c.method === 'POST').length === 2);
  assert.equal(api.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]), [
    ['/authorization/sources/file/move', { position: 'before:built_in_database' }],
    ['/authorization/sources/built_in_database/move', { position: 'rear' }],
  ]);
  assert.ok(byTest('authorization-settings'), 'a link to the settings');
  cleanup();
  api.restore();
});

test('creating a file source posts its rules text with the type', async () => {
  await login('/authorization/create');
  const api = fakeApi({
    'GET /authorization/sources': { body: { sources: [sources[0]] } },
    'POST /authorization/sources': { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('choice-built_in_database')?.querySelector<HTMLInputElement>('input')!.disabled);
  await click(byTest('choice-file')!.querySelector('input'));
  await click(byTest('wizard-next'));
  const form = await waitFor(() => byTest('authz-config-form'));
  await type(form.querySelector('[name=rules]'), '{allow, all}\n{deny, all}.');
  await submit(form);
  assert.match(byTest('error-rules')!.textContent!, /Malformed near line 2/);
  assert.not.ok(api.calls.some((c) => c.method === 'POST'));
  await type(form.querySelector('[name=rules]'), '%% default\n{allow, {username, "a.b"}, all, ["#"]}.\n{deny, all}.');
  await submit(form);
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, { type: 'file', rules: '%% default\n{allow, {username, "a.b"}, all, ["#"]}.\n{deny, all}.', enable: true });
  await waitFor(() => text().includes('Source created'));
  cleanup();
  api.restore();
});

test('detail shows allow/deny/nomatch; client rules are listed, added and edited with the exact bodies', async () => {
  await login('/authorization/detail/built_in_database');
  let clients = [{ clientid: 'c1', rules: [{ permission: 'deny', action: 'subscribe', topic: 't/secret', qos: [0, 1, 2], retain: 'all' }] }];
  const api = fakeApi({
    'GET /authorization/sources/built_in_database': { body: sources[0] },
    'GET /authorization/sources/built_in_database/status': status({ total: 9, allow: 5, deny: 3, nomatch: 1 }),
    [`GET ${RULES}/clients`]: () => ({ body: { data: clients, meta: { page: 1, limit: 20, count: clients.length, hasnext: false } } }),
    [`POST ${RULES}/clients`]: (call) => ((clients = [...clients, ...(call.body as typeof clients)]), { status: 204 }),
    [`PUT ${RULES}/clients/c1`]: { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('metric-deny'));
  assert.match(byTest('metric-allow')!.textContent!, /Allow\s*5/);
  assert.match(byTest('metric-deny')!.textContent!, /3/);
  assert.match(byTest('metric-nomatch')!.textContent!, /1/);
  await click(byTest('tab-clients'));
  await waitFor(() => row('authz-clients', 'c1'));
  assert.match(row('authz-clients', 'c1')!.textContent!, /Deny Subscribe t\/secret/);
  // Changed with issue #34: a new client's rules are added several at once, as rows, in one dialog.
  await click(byTest('authz-clients-create'));
  const adding = byTest('authz-clients-new-rules')!;
  await click(adding.querySelector('[data-test=rules-save]'));
  assert.is(adding.querySelector('[data-test=rule-subject-error]')!.textContent, 'Client ID is required');
  await type(adding.querySelector('[data-test=rule-subject]'), 'c2');
  await type(adding.querySelector('[data-test=rule-topic]'), 't/#/x');
  await click(adding.querySelector('[data-test=rules-save]'));
  assert.ok(adding.querySelector('[data-test=rule-error]'), 'a misplaced # is refused');
  await type(adding.querySelector('[data-test=rule-topic]'), 't/${clientid}/#');
  await click(adding.querySelector('[data-test=rule-add]'));
  const added = adding.querySelectorAll('[data-test=rule-row]');
  await choose(added[1].querySelector('[data-test=rule-permission]'), 'deny');
  await choose(added[1].querySelector('[data-test=rule-action]'), 'subscribe');
  await type(added[1].querySelector('[data-test=rule-topic]'), 'secret/#');
  await click(adding.querySelector('[data-test=rules-save]'));
  await waitFor(() => row('authz-clients', 'c2'));
  assert.not.ok(byTest('authz-clients-create-form'), 'the dialog closes after the save');
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, [
    { clientid: 'c2', rules: [
      { permission: 'allow', action: 'publish', topic: 't/${clientid}/#', qos: [0, 1, 2], retain: 'all' },
      { permission: 'deny', action: 'subscribe', topic: 'secret/#', qos: [0, 1, 2], retain: 'all' },
    ] },
  ]);
  await click(row('authz-clients', 'c1')!.querySelector('[data-test=authz-clients-rules]'));
  const editor = await waitFor(() => byTest('rules-editor'));
  await click(editor.querySelector('[data-test=rule-add]'));
  const rows = editor.querySelectorAll('[data-test=rule-row]');
  await type(rows[1].querySelector('[data-test=rule-topic]'), 'eq t/#');
  await choose(rows[1].querySelector('[data-test=rule-retain]'), 'false');
  await click(rows[1].querySelector('[data-test=rule-qos-2]'));
  await click(editor.querySelector('[data-test=rules-save]'));
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, {
    clientid: 'c1',
    rules: [
      { permission: 'deny', action: 'subscribe', topic: 't/secret', qos: [0, 1, 2], retain: 'all' },
      { permission: 'allow', action: 'publish', topic: 'eq t/#', qos: [0, 1], retain: false },
    ],
  });
  await waitFor(() => text().includes('Rules saved'));
  cleanup();
  api.restore();
});

test('rules for all clients are read from and replaced at …/rules/all', async () => {
  await login('/authorization/detail/built_in_database?tab=all');
  const api = fakeApi({
    'GET /authorization/sources/built_in_database': { body: sources[0] },
    [`GET ${RULES}/all`]: { body: { rules: [] } },
    [`POST ${RULES}/all`]: { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  const editor = await waitFor(() => byTest('authz-all-rules'));
  assert.ok(text().includes('No rules'));
  await click(editor.querySelector('[data-test=rule-add]'));
  await click(editor.querySelector('[data-test=rules-save]'));
  assert.ok(editor.querySelector('[data-test=rule-error]'), 'an empty topic is refused');
  await type(editor.querySelector('[data-test=rule-topic]'), '$SYS/#');
  await choose(editor.querySelector('[data-test=rule-permission]'), 'deny');
  await choose(editor.querySelector('[data-test=rule-action]'), 'subscribe');
  await click(editor.querySelector('[data-test=rules-save]'));
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, { rules: [{ permission: 'deny', action: 'subscribe', topic: '$SYS/#', qos: [0, 1, 2], retain: 'all' }] });
  cleanup();
  api.restore();
});

test('settings: no_match, deny_action and cache are PUT whole; clearing the cache asks first', async () => {
  await login('/authorization/settings');
  const api = fakeApi({
    'GET /authorization/settings': { body: settings },
    'PUT /authorization/settings': (call) => ({ body: call.body }),
    'DELETE /authorization/cache': { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  const form = await waitFor(() => byTest('authz-settings-form'));
  await choose(form.querySelector('[name=no_match]'), 'deny');
  await choose(form.querySelector('[name=deny_action]'), 'disconnect');
  await type(form.querySelector('[name="cache.excludes"]'), 't/#\n$SYS/#');
  await submit(form);
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  // Snapshot first is on by default: the backup is taken before the save.
  assert.is(api.snapshots.length, 1, 'the snapshot is taken');
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { no_match: 'deny', deny_action: 'disconnect', cache: { enable: true, max_size: 32, ttl: '1m', excludes: ['t/#', '$SYS/#'] } });
  await click(byTest('authz-clear-cache'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Clear the authorization cache of every client?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Cache cleared'));
  assert.ok(api.calls.some((c) => c.method === 'DELETE' && c.path === '/authorization/cache'));
  cleanup();
  api.restore();
});

test('in Chinese the settings page speaks Chinese', async () => {
  await login('/authorization/settings');
  setLocale('zh');
  const api = fakeApi({ 'GET /authorization/settings': { body: settings }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('authz-settings-form'));
  assert.ok(text().includes('授权设置'));
  assert.ok(text().includes('清除缓存'));
  assert.ok(text().includes('未匹配时'));
  setLocale('en');
  cleanup();
  api.restore();
});

test.run();
