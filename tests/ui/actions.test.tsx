import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { clearSchemas } from '../../web/lib/schemas.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const schemas = { body: JSON.parse(schemaDocument('actions')) };
const sink = {
  type: 'http', name: 'out', connector: 'web', enable: true, description: '', status: 'connected', status_reason: '',
  parameters: { method: 'post', path: '/in', headers: {}, max_retries: 2 }, resource_opts: { request_ttl: '45s' },
  node_status: [{ node: 'emqx@127.0.0.1', status: 'connected', status_reason: '' }], rules: ['r1', 'r2'], created_at: 1, last_modified_at: 2,
};
const connectors = { body: [{ type: 'http', name: 'web', enable: true }, { type: 'mqtt', name: 'remote', enable: true }, { type: 'http', name: 'x_WH_D', enable: true }] };

async function login(to: string) {
  clearSchemas();
  await signedInAt(to);
}
const field = (name: string) => byTest(`field-${name}`) as HTMLInputElement | null;
test.after.each(cleanup);

test('actions list status and rules; deleting a used action asks and sends also_delete_dep_actions=true', async () => {
  await login('/rule/actions');
  const api = fakeApi({ 'GET /actions': { body: [sink] }, 'GET /alarms': alarms, 'DELETE /actions/http:out': { status: 204 } });
  await mount(<App />);
  await waitFor(() => byTest('actions-row'));
  assert.ok(text().includes('Connected'));
  assert.ok(text().includes('r1, r2'));
  await click(byTest('actions-delete'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('is used by rules. Delete it and also remove it from those rules?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'DELETE'));
  const del = api.calls.find((c) => c.method === 'DELETE')!;
  assert.is(del.path, '/actions/http:out');
  assert.is(del.query.get('also_delete_dep_actions'), 'true');
  api.restore();
});

test('sources list is empty in Chinese, and a failed load offers retry', async () => {
  await login('/rule/source');
  let fail = true;
  const api = fakeApi({ 'GET /sources': () => (fail ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'down' } } : { body: [] }), 'GET /alarms': alarms });
  setLocale('zh');
  await mount(<App />);
  await waitFor(() => byTest('state-retry'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('暂无 Source'));
  api.restore();
});

test('create binds the action to a connector of its type and posts the schema form body', async () => {
  await login('/rule/actions/create?type=http');
  const api = fakeApi({
    'GET /schemas/actions': schemas, 'GET /alarms': alarms, 'GET /connectors': connectors,
    'POST /actions': (call) => ({ status: 201, body: call.body }),
  });
  await mount(<App />);
  await waitFor(() => document.querySelectorAll('[data-test="field-connector"] option').length > 1);
  const options = [...document.querySelectorAll('[data-test="field-connector"] option')].map((o) => (o as HTMLOptionElement).value).filter(Boolean);
  assert.equal(options, ['web'], 'only http connectors, webhook ones left out');
  await type(field('name'), 'out2');
  const select = field('connector') as unknown as HTMLSelectElement;
  await act(async () => {
    select.value = 'web';
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await type(field('parameters.path'), '/in');
  await click(byTest('form-submit'));
  await waitFor(() => api.calls.some((c) => c.method === 'POST'));
  const body = api.calls.find((c) => c.method === 'POST')!.body as Record<string, any>;
  assert.is(body.type, 'http');
  assert.is(body.name, 'out2');
  assert.is(body.connector, 'web');
  assert.is(body.parameters.path, '/in');
  assert.is(body.parameters.method, 'post');
  assert.is(body.resource_opts.query_mode, 'async');
  await waitFor(() => route() === '/rule/actions/http:out2');
  api.restore();
});

test('detail: metrics by group with reset, restart warning and PUT on update, enable switch', async () => {
  await login('/rule/actions/http:out?tab=metrics');
  const metrics = { matched: 5, success: 3, failed: 1, dropped: 1, 'dropped.queue_full': 1, 'dropped.expired': 0, inflight: 2, queuing: 0, rate: 0.5, rate_max: 1, rate_last5m: 0.2 };
  const api = fakeApi({
    'GET /schemas/actions': schemas, 'GET /alarms': alarms, 'GET /connectors': connectors,
    'GET /actions/http:out': { body: sink },
    'GET /actions/http:out/metrics': { body: { metrics, node_metrics: [] } },
    'PUT /actions/http:out/metrics/reset': { status: 204 },
    'PUT /actions/http:out': (call) => ({ body: { ...sink, ...(call.body as object) } }),
    'PUT /actions/http:out/enable/false': { status: 204 },
  });
  await mount(<App />);
  await waitFor(() => byTest('metrics-bridges.dropped'));
  assert.ok(byTest('metrics-bridges.dropped')!.textContent!.includes('dropped.queue_full'));
  assert.ok(byTest('metrics-bridges.rates')!.textContent!.includes('rate_last5m'));
  assert.ok(byTest('metrics-bridges.buffer')!.textContent!.includes('inflight'));
  await click(byTest('bridge-reset'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Reset successful'));
  assert.ok(api.calls.some((c) => c.method === 'PUT' && c.path === '/actions/http:out/metrics/reset'));
  await click(byTest('tab-configuration'));
  await waitFor(() => field('parameters.path'));
  assert.ok(byTest('update-warning')!.textContent!.includes('restarts it and discards buffered'));
  await type(field('parameters.path'), '/in2');
  await click(byTest('form-submit'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.method === 'PUT' && c.path === '/actions/http:out'));
  const body = api.calls.find((c) => c.method === 'PUT' && c.path === '/actions/http:out')!.body as Record<string, any>;
  assert.is(body.parameters.path, '/in2');
  assert.is(body.connector, 'web');
  for (const key of ['type', 'name', 'status', 'rules', 'node_status', 'created_at']) assert.not.ok(key in body, key);
  await click(byTest('actions-enable'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => api.calls.some((c) => c.path === '/actions/http:out/enable/false'));
  api.restore();
});

test.run();
