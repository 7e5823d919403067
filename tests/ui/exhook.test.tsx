import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const metrics = (succeed = 0) => ({ succeed, failed: 1, rate: 2, max_rate: 3 });
const server = (name: string, over: Record<string, unknown> = {}) => ({
  name, enable: true, url: `http://127.0.0.1:90${name.length}`, request_timeout: '5s', failed_action: 'deny', pool_size: 8, auto_reconnect: '60s',
  ssl: { enable: false }, socket_options: { keepalive: true, nodelay: true },
  metrics: metrics(10), node_metrics: [{ node: 'emqx@n1', metrics: metrics(7) }],
  node_status: [{ node: 'emqx@n1', status: 'connected' }], hooks: [{ name: 'client.connect', params: {} }, { name: 'message.publish', params: { topics: ['#'] } }],
  ...over,
});
const config = (h: ReturnType<typeof server>) => {
  const { metrics: _m, node_metrics: _n, node_status: _s, hooks: _h, ...rest } = h;
  return rest;
};

async function open(path: string) {
  await signedInAt(path);
}

function broker(start: ReturnType<typeof server>[], extra: Parameters<typeof fakeApi>[0] = {}) {
  let list = start;
  const api = fakeApi({ 'GET /exhooks': () => ({ body: list }), 'GET /alarms': alarms, ...extra });
  return { api, set: (next: typeof list) => (list = next), writes: () => api.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body]) };
}

const row = (name: string) => document.querySelector(`[data-test=exhooks-row][data-key="${name}"]`);
const cells = (name: string) => [...row(name)!.querySelectorAll('td')].map((td) => td.textContent);
const buttons = (name: string) => [...row(name)!.querySelectorAll('button')].map((b) => b.getAttribute('data-test'));

test('lists servers with hook count, URL, status and enable switch; moves offered by position', async () => {
  await open('/exhook');
  const { api } = broker([
    server('a'),
    server('bb', { node_status: [{ node: 'emqx@n1', status: 'connecting' }], hooks: [] }),
    server('ccc', { enable: false, node_status: [{ node: 'emqx@n1', status: 'disabled' }] }),
  ]);
  await mount(<App />);
  await waitFor(() => row('ccc'));
  assert.equal(cells('a').slice(0, 4), ['a', '2', 'http://127.0.0.1:901', 'Connected']);
  assert.equal(cells('bb').slice(1, 4), ['0', 'http://127.0.0.1:902', 'Connecting']);
  assert.is(cells('ccc')[3], 'Disabled');
  assert.ok(row('a')!.querySelector<HTMLInputElement>('[data-test=exhooks-enable]')!.checked);
  assert.not.ok(row('ccc')!.querySelector<HTMLInputElement>('[data-test=exhooks-enable]')!.checked);
  assert.equal(buttons('a'), ['exhooks-down', 'exhooks-bottom', 'exhooks-delete']);
  assert.equal(buttons('bb'), ['exhooks-up', 'exhooks-down', 'exhooks-top', 'exhooks-bottom', 'exhooks-delete']);
  assert.equal(buttons('ccc'), ['exhooks-up', 'exhooks-top', 'exhooks-delete']);
  assert.is(row('a')!.querySelector('a')!.getAttribute('href'), '#/exhook/detail/a');
  api.restore();
});

test('the empty state, and a failed load with retry', async () => {
  await open('/exhook');
  let fail = true;
  const api = fakeApi({ 'GET /exhooks': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } : { body: [] }), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No ExHook servers yet'));
  api.restore();
});

test('up, down, top and bottom send before:/after:/front/rear moves', async () => {
  await open('/exhook');
  const ok = { status: 204 };
  const { api, writes } = broker([server('a'), server('bb'), server('ccc')], { 'POST /exhooks/bb/move': ok });
  await mount(<App />);
  for (const key of ['up', 'down', 'top', 'bottom']) {
    await click(await waitFor(() => row('bb')?.querySelector(`[data-test=exhooks-${key}]`)));
    await waitFor(() => text().includes('Order changed'));
  }
  assert.equal(writes().map((w) => w[2]), [{ position: 'before:a' }, { position: 'after:ccc' }, { position: 'front' }, { position: 'rear' }]);
  assert.ok(writes().every((w) => w[1] === '/exhooks/bb/move'));
  api.restore();
});

test('disabling asks first and PUTs the whole config with enable false; enabling does not ask', async () => {
  await open('/exhook');
  let a = server('a');
  const { api, writes } = broker([], {
    'GET /exhooks': () => ({ body: [a] }),
    'PUT /exhooks/a': (call) => ((a = { ...a, ...(call.body as object) }), { body: a }),
  });
  await mount(<App />);
  await click(await waitFor(() => row('a')?.querySelector('[data-test=exhooks-enable]')));
  await waitFor(() => text().includes('Disable a? Its hooks are no longer called.'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row('a')!.querySelector<HTMLInputElement>('[data-test=exhooks-enable]')!.checked);
  assert.ok(text().includes('ExHook disabled'));
  await click(row('a')!.querySelector('[data-test=exhooks-enable]'));
  await waitFor(() => row('a')!.querySelector<HTMLInputElement>('[data-test=exhooks-enable]')!.checked);
  assert.equal(writes(), [['PUT', '/exhooks/a', { ...config(server('a')), enable: false }], ['PUT', '/exhooks/a', { ...config(server('a')), enable: true }]]);
  api.restore();
});

for (const [locale, ask, done] of [['en', 'Delete the ExHook a?', 'ExHook deleted'], ['zh', '确定删除 ExHook a 吗？', 'ExHook 已删除']] as const) {
  test(`delete asks first (${locale}) and sends DELETE /exhooks/{name}`, async () => {
    await open('/exhook');
    setLocale(locale);
    const { api, set, writes } = broker([server('a')], { 'DELETE /exhooks/a': () => (set([]), { status: 204 }) });
    await mount(<App />);
    await click(await waitFor(() => row('a')?.querySelector('[data-test=exhooks-delete]')));
    await waitFor(() => text().includes(ask));
    await click(byTest('confirm-ok'));
    await waitFor(() => text().includes(done));
    assert.equal(writes(), [['DELETE', '/exhooks/a', undefined]]);
    api.restore();
  });
}

test('create checks name and URL, posts the server config with defaults, and returns to the list', async () => {
  await open('/exhook/create');
  const { api, writes } = broker([], { 'POST /exhooks': (call) => ({ body: server((call.body as { name: string }).name) }) });
  await mount(<App />);
  const form = await waitFor(() => byTest('exhook-form'));
  await submit(form);
  assert.ok(text().includes('Name is required'));
  await type(form.querySelector('[name=name]'), 'grpc1');
  await type(form.querySelector('[name=url]'), 'tcp://x');
  await submit(form);
  assert.ok(text().includes('Enter a URL starting with http:// or https://'));
  await type(form.querySelector('[name=url]'), 'https://hooks.local:9000');
  const auto = form.querySelector<HTMLInputElement>('[name=auto_reconnect_on]')!;
  await act(() => { auto.checked = false; auto.dispatchEvent(new Event('change', { bubbles: true })); });
  assert.not.ok(form.querySelector('[name=auto_reconnect]'));
  const tls = form.querySelector<HTMLInputElement>('[name="ssl.enable"]')!;
  await act(() => { tls.checked = true; tls.dispatchEvent(new Event('change', { bubbles: true })); });
  await type(form.querySelector('[name="ssl.server_name_indication"]'), 'hooks.local');
  await submit(form);
  await waitFor(() => route() === '/exhook');
  assert.ok(text().includes('ExHook added'));
  assert.equal(writes(), [['POST', '/exhooks', {
    name: 'grpc1', enable: true, url: 'https://hooks.local:9000', pool_size: 8, request_timeout: '5s', failed_action: 'deny',
    ssl: { enable: true, verify: 'verify_none', server_name_indication: 'hooks.local' }, auto_reconnect: false,
  }]]);
  api.restore();
});

test('a duplicate name is reported and the page stays', async () => {
  await open('/exhook/create');
  const { api } = broker([], { 'POST /exhooks': { status: 400, body: { code: 'BAD_REQUEST', message: 'Already exists' } } });
  await mount(<App />);
  const form = await waitFor(() => byTest('exhook-form'));
  await type(form.querySelector('[name=name]'), 'a');
  await type(form.querySelector('[name=url]'), 'http://127.0.0.1:9000');
  await submit(form);
  await waitFor(() => text().includes('BAD_REQUEST: Already exists'));
  assert.is(route(), '/exhook/create');
  api.restore();
});

test('detail shows metrics, node status and metrics, registered hooks with metrics, and saves settings', async () => {
  await open('/exhook/detail/a');
  const a = server('a');
  const { api, writes } = broker([], {
    'GET /exhooks/a': { body: a },
    'GET /exhooks/a/hooks': { body: [{ name: 'client.connect', params: {}, metrics: metrics(5), node_metrics: [{ node: 'emqx@n1', metrics: metrics(3) }, { node: 'emqx@n2', metrics: metrics(2) }] }, { name: 'message.publish', params: { topics: ['#'] }, metrics: metrics(9), node_metrics: [] }] },
    'PUT /exhooks/a': { body: a },
  });
  await mount(<App />);
  await waitFor(() => byTest('exhook-hook'));
  assert.ok(byTest('exhook-metrics')!.textContent!.includes('http://127.0.0.1:901'));
  assert.equal([...byTest('exhook-node')!.querySelectorAll('td')].map((td) => td.textContent), ['emqx@n1', 'Connected', '7', '1', '2', '3']);
  const hooks = [...document.querySelectorAll('[data-test=exhook-hook]')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  assert.equal(hooks.map((h) => h.slice(1)), [['—', '5', '1', '2', '3'], ['{"topics":["#"]}', '9', '1', '2', '3']]);
  assert.is(hooks[1][0], 'message.publish');
  const perNode = [...byTest('exhook-hook-nodes')!.querySelectorAll('div')].map((d) => d.textContent);
  assert.equal(perNode, ['emqx@n1: Succeeded 3, Failed 1', 'emqx@n2: Succeeded 2, Failed 1']);
  assert.is(document.querySelectorAll('[data-test=exhook-hook-nodes]').length, 1);
  await click(byTest('tab-settings'));
  const form = await waitFor(() => byTest('exhook-form'));
  assert.not.ok(form.querySelector('[name=name]'));
  await type(form.querySelector('[name=pool_size]'), '16');
  const action = form.querySelector<HTMLSelectElement>('[name=failed_action]')!;
  await act(() => { action.value = 'ignore'; action.dispatchEvent(new Event('change', { bubbles: true })); });
  await submit(form);
  await waitFor(() => text().includes('ExHook updated'));
  assert.equal(writes(), [['PUT', '/exhooks/a', { ...config(a), pool_size: 16, failed_action: 'ignore', ssl: { enable: false, verify: 'verify_none' } }]]);
  api.restore();
});

test('detail of an unknown server says so; a server with no hooks says why', async () => {
  await open('/exhook/detail/zz');
  const api = fakeApi({ 'GET /exhooks/zz': { status: 404, body: { code: 'BAD_REQUEST', message: 'Server not found' } }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('exhook-not-found'));
  api.restore();
  await open('/exhook/detail/b');
  const api2 = fakeApi({ 'GET /exhooks/b': { body: server('b', { enable: false }) }, 'GET /exhooks/b/hooks': { body: [] }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('exhook-no-hooks'));
  assert.ok(text().includes('No registered hooks (empty while the server is not connected)'));
  api2.restore();
});

test.after(cleanup);
test.run();
