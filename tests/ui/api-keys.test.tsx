import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { formatDateTime } from '../../web/lib/format.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const key = (name: string, over: Record<string, unknown> = {}) => ({
  name, api_key: `k-${name}`, expired_at: 'infinity', created_at: '2026-01-01T08:00:00+00:00', desc: '', enable: true, expired: false, ...over,
});
const SECRET = 'Zx9SecretOnlyOnce0123456789abcdefABCDEF';

async function open() {
  await signedInAt('/api-key');
}

function broker(start: ReturnType<typeof key>[], extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) {
  let list = start;
  const api = fakeApi({
    'GET /api_key': () => ({ body: list }),
    'POST /api_key': (call: Call) => {
      const body = call.body as { name: string; desc: string; enable: boolean; expired_at: string };
      const created = key(body.name, { desc: body.desc, enable: body.enable, expired_at: body.expired_at, api_key: 'a1b2c3d4e5f60718' });
      list = [...list, created];
      return { body: { ...created, api_secret: SECRET } };
    },
    'GET /alarms': alarms,
    ...extra,
  });
  return { api, writes: () => api.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body]) };
}

const row = (name: string) => document.querySelector(`[data-test=api-key-row][data-key="${name}"]`);
const cells = (name: string) => [...row(name)!.querySelectorAll('td')].map((td) => td.textContent);
const form = () => (byTest('api-key-create-form') ?? byTest('api-key-edit-form'))!.querySelector('form')!;
const field = (name: string) => form().querySelector<HTMLInputElement>(`[name=${name}]`);

test('lists keys with status, expiry or Never, an Expired tag, creation time and description', async () => {
  await open();
  const { api } = broker([
    key('ci', { desc: 'pipeline' }),
    key('old', { enable: false, expired: true, expired_at: '2025-06-01T00:00:00+00:00' }),
  ]);
  await mount(<App />);
  await waitFor(() => row('old'));
  assert.equal(cells('ci').slice(0, 6), ['ci', 'k-ci', 'Enabled', 'Never', formatDateTime('2026-01-01T08:00:00+00:00'), 'pipeline']);
  assert.equal(cells('old').slice(0, 4), ['old', 'k-old', 'Disabled', `${formatDateTime('2025-06-01T00:00:00+00:00')} Expired`]);
  assert.ok(row('old')!.querySelector('[data-test=api-key-expired]'));
  assert.not.ok(row('ci')!.querySelector('[data-test=api-key-expired]'));
  assert.ok(row('ci')!.querySelector('[data-test=api-key-disable]'));
  assert.ok(row('old')!.querySelector('[data-test=api-key-enable]'));
  api.restore();
});

test('the empty state and a failed load with retry', async () => {
  await open();
  let fail = true;
  const api = fakeApi({ 'GET /api_key': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } : { body: [] }), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No API keys yet'));
  api.restore();
});

test('creating checks the name, posts a never-expiring key and shows the secret once, with copy', async () => {
  await open();
  const { api, writes } = broker([]);
  const copied: string[] = [];
  const clipboard = { writeText: async (value: string) => void copied.push(value) };
  Object.defineProperty(navigator, 'clipboard', { configurable: true, get: () => clipboard });
  try {
    await mount(<App />);
    await waitFor(() => byTest('state-empty'));
    await click(byTest('api-key-create'));
    assert.is(field('never')!.checked, true, 'never expire by default');
    assert.is(field('expired_at'), null, 'no date while it never expires');
    assert.is(field('enable')!.checked, true);
    await submit(form());
    assert.is(byTest('error-name')!.textContent, 'Name is required');
    await type(field('name'), '1st-key');
    await submit(form());
    assert.is(byTest('error-name')!.textContent,
      'Start with a letter, then use only letters, digits, hyphens (-) and underscores (_); Chinese characters are not supported');
    await type(field('name'), 'ci_deploy');
    await type(field('desc'), 'for CI');
    await submit(form());
    await waitFor(() => byTest('api-key-result'));
    assert.equal(writes(), [['POST', '/api_key', { name: 'ci_deploy', desc: 'for CI', enable: true, expired_at: 'infinity' }]]);
    assert.is(byTest<HTMLInputElement>('api-key-secret')!.value, SECRET);
    assert.is(byTest<HTMLInputElement>('api-key-key')!.value, 'a1b2c3d4e5f60718');
    assert.ok(text().includes('Save the API Key and Secret Key somewhere safe: the Secret Key will not be shown again.'));
    await click(byTest('api-key-secret-copy'));
    await waitFor(() => copied.length === 1);
    assert.equal(copied, [SECRET]);
    assert.ok(text().includes('Copied'));
    await waitFor(() => row('ci_deploy'));
    assert.not.ok(byTest('api-key-create-form'), 'the form closed');
    await click(byTest('api-key-result-close'));
    assert.not.ok(byTest('api-key-result'));
    assert.not.ok(document.body.innerHTML.includes(SECRET), 'the secret is gone from the page');
    await click(row('ci_deploy')!.querySelector('[data-test=api-key-view]'));
    await waitFor(() => byTest('api-key-detail'));
    assert.ok(byTest('api-key-detail')!.textContent!.includes('Only shown once, when created'));
    assert.not.ok(document.body.innerHTML.includes(SECRET), 'not in the detail either');
  } finally {
    delete (navigator as { clipboard?: unknown }).clipboard;
    api.restore();
  }
});

test('an expiry date must be in the future and is sent as RFC 3339', async () => {
  await open();
  const { api, writes } = broker([]);
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  await click(byTest('api-key-create'));
  await type(field('name'), 'temp');
  await click(field('never'));
  await waitFor(() => field('expired_at'));
  await submit(form());
  // One wording for required (issue #34): '<label> is required', as the specification words it.
  assert.is(byTest('error-expired_at')!.textContent, 'Expire At is required');
  await type(field('expired_at'), '2020-01-01T10:00');
  await submit(form());
  assert.is(byTest('error-expired_at')!.textContent, 'The expiry must be later than now');
  await type(field('expired_at'), '2099-03-04T05:06');
  await click(field('enable'));
  await submit(form());
  await waitFor(() => writes().length === 1);
  assert.equal(writes()[0][2], { name: 'temp', desc: '', enable: false, expired_at: new Date('2099-03-04T05:06').toISOString() });
  api.restore();
});

test('editing sends desc, enable and expired_at, keeping the current expiry', async () => {
  await open();
  const until = '2099-01-01T00:00:00+00:00';
  const { api, writes } = broker([key('ci', { expired_at: until, desc: 'old' })], {
    'PUT /api_key/ci': (call) => ({ body: key('ci', call.body as Record<string, unknown>) }),
  });
  await mount(<App />);
  await waitFor(() => row('ci'));
  await click(row('ci')!.querySelector('[data-test=api-key-edit]'));
  await waitFor(() => byTest('api-key-edit-form'));
  assert.is(field('never')!.checked, false);
  assert.is(field('name'), null, 'the name cannot change');
  await type(field('desc'), 'new');
  await submit(form());
  await waitFor(() => writes().length === 1);
  assert.equal(writes()[0], ['PUT', '/api_key/ci', { desc: 'new', enable: true, expired_at: until }]);
  await waitFor(() => text().includes('API key updated'));
  await click(row('ci')!.querySelector('[data-test=api-key-edit]'));
  await waitFor(() => byTest('api-key-edit-form'));
  await click(field('never'));
  await submit(form());
  await waitFor(() => writes().length === 2);
  assert.equal(writes()[1][2], { desc: 'old', enable: true, expired_at: 'infinity' });
  api.restore();
});

test('disabling asks first and PUTs enable false with the rest unchanged; enabling does not ask', async () => {
  await open();
  let ci = key('ci', { desc: 'd', expired_at: '2099-01-01T00:00:00+00:00' });
  const { api, writes } = broker([], {
    'GET /api_key': () => ({ body: [ci] }),
    'PUT /api_key/ci': (call) => ((ci = { ...ci, ...(call.body as object) }), { body: ci }),
  });
  await mount(<App />);
  await waitFor(() => row('ci'));
  await click(row('ci')!.querySelector('[data-test=api-key-disable]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Disable the API key ci? Requests using it will be refused.'));
  await click(byTest('confirm-ok'));
  await waitFor(() => row('ci')?.querySelector('[data-test=api-key-enable]'));
  assert.equal(writes(), [['PUT', '/api_key/ci', { desc: 'd', enable: false, expired_at: '2099-01-01T00:00:00+00:00' }]]);
  assert.ok(text().includes('API key disabled'));
  await click(row('ci')!.querySelector('[data-test=api-key-enable]'));
  await waitFor(() => row('ci')?.querySelector('[data-test=api-key-disable]'));
  assert.not.ok(byTest('confirm-dialog'));
  assert.equal(writes()[1][2], { desc: 'd', enable: true, expired_at: '2099-01-01T00:00:00+00:00' });
  api.restore();
});

test('deleting asks with the name and sends DELETE /api_key/{name}', async () => {
  await open();
  let list = [key('ci'), key('ops')];
  const api = fakeApi({
    'GET /api_key': () => ({ body: list }),
    'DELETE /api_key/ops': () => ((list = [key('ci')]), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('ops'));
  await click(row('ops')!.querySelector('[data-test=api-key-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Delete the API key ops?'));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
  await click(row('ops')!.querySelector('[data-test=api-key-delete]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => !row('ops'));
  assert.ok(text().includes('API key deleted'));
  api.restore();
});

test('a name the broker already has is reported and the form stays', async () => {
  await open();
  const { api } = broker([key('ci')], { 'POST /api_key': { status: 400, body: { code: 'BAD_REQUEST', message: 'name_already_existed' } } });
  await mount(<App />);
  await waitFor(() => row('ci'));
  await click(byTest('api-key-create'));
  await type(field('name'), 'ci');
  await submit(form());
  await waitFor(() => text().includes('BAD_REQUEST: name_already_existed'));
  assert.ok(byTest('api-key-create-form'));
  assert.not.ok(byTest('api-key-result'));
  api.restore();
});

test.after(cleanup);
test.run();
