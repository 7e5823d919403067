import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { clearSchemas } from '../../web/lib/schemas.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const schemaRoutes = {
  'GET /schemas/connectors': { body: JSON.parse(schemaDocument('connectors')) },
  'GET /schemas/actions': { body: JSON.parse(schemaDocument('actions')) },
};
const connector = { type: 'http', name: 'hook_WH_D', enable: true, url: 'http://127.0.0.1:9000/in', headers: { 'content-type': 'application/json' }, status: 'connected' };
const action = { type: 'http', name: 'hook_WH_D', connector: 'hook_WH_D', enable: true, parameters: { method: 'post', headers: {} }, rules: ['hook_WH_D'], status: 'connected', status_reason: '' };
const rule = { id: 'hook_WH_D', sql: 'SELECT * FROM "t/#"', actions: ['http:hook_WH_D'], enable: true, from: ['t/#'], description: '' };
// Lookalikes that are not webhooks: a plain http connector and a suffixed one without its rule.
const lists = {
  'GET /connectors': { body: [connector, { ...connector, name: 'plain' }, { ...connector, name: 'lonely_WH_D' }] },
  'GET /actions': { body: [action, { ...action, name: 'lonely_WH_D', rules: [] }] },
  'GET /rules': { body: { data: [rule], meta: { page: 1, limit: 1000, count: 1 } } },
};

async function login(path: string) {
  clearSchemas();
  await signedInAt(path);
}
const field = (name: string) => byTest(`field-${name}`) as HTMLInputElement | null;
const writes = (api: { calls: { method: string; path: string }[] }) => api.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
test.after.each(cleanup);

test('create sends connector, action and rule named <name>_WH_D in that order', async () => {
  await login('/webhook/create');
  const api = fakeApi({
    ...schemaRoutes, ...lists, 'GET /alarms': alarms,
    'POST /connectors': (c) => ({ status: 201, body: c.body }), 'POST /actions': (c) => ({ status: 201, body: c.body }), 'POST /rules': (c) => ({ status: 201, body: c.body }),
  });
  await mount(<App />);
  await waitFor(() => field('name'));
  await type(field('name'), 'alert');
  await type(field('url'), 'http://127.0.0.1:9000/in');
  await type(byTest('field-triggers')!, 'sensors/+\n$events/client_connected');
  await type(field('body'), '${payload}');
  await click(byTest('form-submit'));
  await waitFor(() => route() === '/webhook');
  assert.equal(writes(api), ['POST /connectors', 'POST /actions', 'POST /rules']);
  const [c, a, r] = api.calls.filter((x) => x.method === 'POST').map((x) => x.body as Record<string, any>);
  assert.is(c.type, 'http');
  assert.is(c.name, 'alert_WH_D');
  assert.is(c.url, 'http://127.0.0.1:9000/in');
  assert.equal(c.headers, { 'content-type': 'application/json' });
  assert.is(c.pool_size, 8);
  assert.is(a.name, 'alert_WH_D');
  assert.is(a.connector, 'alert_WH_D');
  assert.equal(a.parameters.headers, { 'content-type': 'application/json' });
  assert.is(a.parameters.method, 'post');
  assert.is(a.parameters.body, '${payload}');
  assert.is(r.id, 'alert_WH_D');
  assert.equal(r.actions, ['http:alert_WH_D']);
  assert.is(r.sql, 'SELECT\n  *\nFROM\n  "sensors/+",\n  "$events/client_connected"');
  assert.ok(text().includes('Webhook created'));
  api.restore();
});

test('the list joins the three objects; toggling sends the three enable calls', async () => {
  await login('/webhook');
  const api = fakeApi({
    ...lists, 'GET /alarms': alarms,
    'PUT /actions/http:hook_WH_D/enable/false': { status: 204 }, 'PUT /rules/hook_WH_D': { body: rule }, 'PUT /connectors/http:hook_WH_D/enable/false': { status: 204 },
  });
  await mount(<App />);
  await waitFor(() => byTest('webhook-row'));
  assert.is(document.querySelectorAll('[data-test=webhook-row]').length, 1);
  assert.ok(text().includes('http://127.0.0.1:9000/in'));
  assert.is(byTest('webhook-row')!.getAttribute('data-key'), 'hook');
  await click(byTest('webhook-enable'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => writes(api).length === 3);
  assert.equal(writes(api), ['PUT /actions/http:hook_WH_D/enable/false', 'PUT /rules/hook_WH_D', 'PUT /connectors/http:hook_WH_D/enable/false']);
  assert.equal(api.calls.find((c) => c.path === '/rules/hook_WH_D' && c.method === 'PUT')!.body, { enable: false });
  api.restore();
});

test('delete removes rule, then action, then connector', async () => {
  await login('/webhook');
  const api = fakeApi({
    ...lists, 'GET /alarms': alarms,
    'DELETE /rules/hook_WH_D': { status: 204 }, 'DELETE /actions/http:hook_WH_D': { status: 204 }, 'DELETE /connectors/http:hook_WH_D': { status: 204 },
  });
  await mount(<App />);
  await waitFor(() => byTest('webhook-row'));
  await click(byTest('webhook-delete'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Its rule, action and connector are deleted with it.'));
  await click(byTest('confirm-ok'));
  await waitFor(() => writes(api).length === 3);
  assert.equal(writes(api), ['DELETE /rules/hook_WH_D', 'DELETE /actions/http:hook_WH_D', 'DELETE /connectors/http:hook_WH_D']);
  api.restore();
});

test('empty list in Chinese; failure offers retry', async () => {
  await login('/webhook');
  let fail = true;
  const api = fakeApi({
    'GET /connectors': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } : { body: [] }),
    'GET /actions': { body: [] }, 'GET /rules': { body: { data: [], meta: { page: 1, limit: 1000, count: 0 } } }, 'GET /alarms': alarms,
  });
  setLocale('zh');
  await mount(<App />);
  await waitFor(() => byTest('state-retry'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('暂无 Webhook'));
  api.restore();
});

test('the general pages do not edit webhook objects', async () => {
  await login('/connector/http:hook_WH_D');
  const api = fakeApi({ 'GET /connectors/http:hook_WH_D': { body: connector }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('connector-overview'));
  assert.not.ok(byTest('connector-delete'));
  await click(byTest('tab-configuration'));
  await waitFor(() => byTest('webhook-owned'));
  assert.not.ok(byTest('connectors-form'));
  api.restore();
});

test.run();
