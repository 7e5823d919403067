import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const bans = [
  { as: 'clientid', who: 'bad/one', by: 'mgmt_api', reason: 'spam', at: '2026-01-01T00:00:00Z', until: 'infinity' },
  { as: 'peerhost', who: '10.0.0.9', by: 'flapping', reason: 'flapping', at: '2026-01-01T00:00:00Z', until: '2099-01-01T00:00:00Z' },
];
const list = (data: unknown[]) => ({ body: { data, meta: { page: 1, limit: 20, count: data.length } } });

async function login(path: string) {
  await signedInAt(path);
}
const row = (key: string) => document.querySelector(`[data-test=banned-row][data-key="${key}"]`);

test.after.each(() => cleanup());

test('the banned list shows as, who, reason and until (infinity as Never) from GET /banned with page and limit', async () => {
  await login('/banned-clients');
  const api = fakeApi({ 'GET /banned': list(bans), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('clientid:bad/one'));
  assert.match(row('clientid:bad/one')!.textContent!, /Client ID.*bad\/one.*spam.*Never/);
  assert.match(row('peerhost:10.0.0.9')!.textContent!, /IP Address.*10\.0\.0\.9.*2099/);
  const call = api.calls.find((c) => c.path === '/banned')!;
  assert.is(call.query.get('page'), '1');
  assert.is(call.query.get('limit'), '20');
  cleanup();
  api.restore();
});

test('adding needs a value and an end time not in the past, then posts as/who/reason/until', async () => {
  await login('/banned-clients');
  let data: unknown[] = [];
  const api = fakeApi({
    'GET /banned': () => list(data),
    'POST /banned': (call) => ((data = [call.body]), { body: call.body }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No banned clients'));
  await click(byTest('banned-create'));
  // The dialog speaks of what the menu calls it, not of a "Blacklist".
  assert.is(byTest('banned-create-form')!.querySelector('h3')!.textContent, 'Add a Banned Client');
  const form = byTest('banned-create-form')!.querySelector('form')!;
  await submit(form);
  assert.is(byTest('error-who')!.textContent, 'Value is required');
  await type(form.querySelector('[name=who]'), 'bad/two');
  await type(form.querySelector('[name=reason]'), 'abuse');
  await type(form.querySelector('[name=until]'), '2020-01-01T10:00');
  await submit(form);
  assert.is(byTest('error-until')!.textContent, 'Ban end time cannot be earlier than now');
  assert.not.ok(api.calls.some((c) => c.method === 'POST'));
  await type(form.querySelector('[name=until]'), '2099-01-01T10:00');
  await submit(form);
  await waitFor(() => row('clientid:bad/two'));
  assert.equal(api.calls.find((c) => c.method === 'POST')!.body, {
    as: 'clientid', who: 'bad/two', reason: 'abuse', until: new Date('2099-01-01T10:00').toISOString(),
  });
  assert.ok(text().includes('Client banned'));
  cleanup();
  api.restore();
});

test('delete encodes who in DELETE /banned/{as}/{who}; clear all asks and calls DELETE /banned', async () => {
  await login('/banned-clients');
  const api = fakeApi({
    'GET /banned': list(bans),
    'DELETE /banned/clientid/bad%2Fone': { status: 204 },
    'DELETE /banned': { status: 204 },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('clientid:bad/one'));
  await click(row('clientid:bad/one')!.querySelector('[data-test=banned-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Remove the ban on clientid:bad/one?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Ban removed'));
  await click(byTest('banned-clear'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Clear every ban?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('All bans cleared'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/banned/clientid/bad%2Fone', '/banned']);
  cleanup();
  api.restore();
});

test('a failed list shows the error with retry', async () => {
  await login('/banned-clients');
  const api = fakeApi({ 'GET /banned': { status: 500, body: { code: 'NODE_DOWN', message: 'node down' } }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  assert.ok(byTest('state-retry'));
  cleanup();
  api.restore();
});

test('flapping detection is reached from the banned page and PUTs only flapping_detect of global_zone', async () => {
  await login('/banned-clients');
  const zone = { mqtt: { max_inflight: 32 }, flapping_detect: { enable: false, window_time: '1m', max_count: 15, ban_time: '5m' } };
  const api = fakeApi({
    'GET /banned': list([]),
    'GET /configs/global_zone': { body: zone },
    'PUT /configs/global_zone': (call) => ({ body: { ...zone, ...(call.body as object) } }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await click(await waitFor(() => byTest('banned-flapping')));
  await waitFor(() => route().startsWith('/flapping-detect'));
  const form = await waitFor(() => byTest('flapping-form'));
  assert.not.ok(form.querySelector('[name=max_count]'), 'details hidden while disabled');
  await click(form.querySelector('[name=enable]'));
  await type(form.querySelector('[name=max_count]'), '3');
  await type(form.querySelector('[name=window_time]'), '30');
  await submit(form);
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { flapping_detect: { enable: true, window_time: '30m', max_count: 3, ban_time: '5m' } });
  assert.ok(text().includes('Settings saved'));
  cleanup();
  api.restore();
});

test('in Chinese the banned page speaks Chinese', async () => {
  await login('/banned-clients');
  setLocale('zh');
  const api = fakeApi({ 'GET /banned': list(bans), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('clientid:bad/one'));
  assert.ok(text().includes('黑名单'));
  assert.match(row('clientid:bad/one')!.textContent!, /客户端 ID.*永不过期/);
  assert.ok(text().includes('连接抖动检测'));
  setLocale('en');
  cleanup();
  api.restore();
});

test.run();
