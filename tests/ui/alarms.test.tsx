import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { levelOf } from '../../web/features/monitoring/alarms/alarms.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, text, waitFor } from '../helpers/render.tsx';

const active = [
  { node: 'emqx@node1', name: 'high_cpu_usage', message: 'CPU usage is higher than 80%', details: { usage: '86%' }, duration: 3_780_000, activate_at: '2024-05-01T10:00:00.000+00:00' },
  { node: 'emqx@node2', name: 'partition', message: 'Network partition <detected>', details: {}, duration: 5000, activate_at: '2024-05-01T11:00:00.000+00:00' },
  { node: 'emqx@node1', name: 'custom', message: 'x', details: { level: 'error' }, duration: 1000, activate_at: '2024-05-01T12:00:00.000+00:00' },
];
const history = [
  { node: 'emqx@node1', name: 'conn_congestion/c1/u1', message: 'connection congested: c1', details: { clientid: 'c1' }, duration: 240_000,
    activate_at: '2024-04-30T08:00:00.000+00:00', deactivate_at: '2024-04-30T08:04:00.000+00:00' },
];
const envelope = (data: unknown[], call: Call) => ({
  body: { data, meta: { page: Number(call.query.get('page')), limit: Number(call.query.get('limit')), hasnext: false, count: data.length } },
});

async function loggedIn(path: string) {
  reset(path);
  await saveUser({ username: 'admin', token: 'tok-a' });
  await restoreSession();
}
const lists = (api: { calls: Call[] }, activated: string) =>
  api.calls.filter((c) => c.method === 'GET' && c.path === '/alarms' && c.query.get('activated') === activated && c.query.get('limit') !== '1');
const banner = (api: { calls: Call[] }) => api.calls.filter((c) => c.path === '/alarms' && c.query.get('limit') === '1');
const rowOf = (name: string) => [...document.querySelectorAll('[data-test=alarms-row]')].find((r) => r.textContent!.includes(name));

test('levels come from details.level, else from the alarm name', () => {
  assert.is(levelOf(active[0]), 'warning');
  assert.is(levelOf(active[1]), 'critical');
  assert.is(levelOf(active[2]), 'error');
  assert.is(levelOf({ node: 'n', name: 'resource/x_down', message: '' }), 'critical');
});

test('Active asks /alarms?activated=true and shows name, node, message, level, activation and duration', async () => {
  await loggedIn('/alarm/current-alarm');
  const api = fakeApi({ 'GET /alarms': (call) => envelope(call.query.get('activated') === 'true' ? active : history, call) });
  await mount(<App />);
  await waitFor(() => rowOf('high_cpu_usage'));
  assert.equal(Object.fromEntries(lists(api, 'true')[0].query), { activated: 'true', page: '1', limit: '20' });
  const cpu = rowOf('high_cpu_usage')!;
  for (const s of ['emqx@node1', 'CPU usage is higher than 80%', 'Warning', '2024-05-01', '1h 3m']) assert.ok(cpu.textContent!.includes(s), s);
  assert.match(rowOf('partition')!.textContent!, /Critical/);
  assert.match(rowOf('partition')!.textContent!, /Network partition <detected>/);
  assert.match(rowOf('custom')!.textContent!, /Error/);
  assert.is(byTest('tab-current-alarm')!.getAttribute('aria-selected'), 'true');
  assert.not.ok([...document.querySelectorAll('th')].some((th) => th.textContent === 'Deactivated at'));
  assert.is(byTest('alarms-clear'), null, 'active alarms cannot be cleared');
  await click(rowOf('high_cpu_usage')!.querySelector('[data-test=alarms-details]'));
  assert.match(byTest('alarm-details')!.textContent!, /"usage": "86%"/);
  api.restore();
});

test('the History tab goes to /alarm/history-alarm, asks activated=false and shows when alarms ended', async () => {
  await loggedIn('/alarm/current-alarm');
  const api = fakeApi({ 'GET /alarms': (call) => envelope(call.query.get('activated') === 'true' ? active : history, call) });
  await mount(<App />);
  await waitFor(() => rowOf('high_cpu_usage'));
  await click(byTest('tab-history-alarm'));
  await waitFor(() => rowOf('conn_congestion/c1/u1'));
  assert.is(route().split('?')[0], '/alarm/history-alarm');
  assert.equal(Object.fromEntries(lists(api, 'false')[0].query), { activated: 'false', page: '1', limit: '20' });
  assert.ok([...document.querySelectorAll('th')].some((th) => th.textContent === 'Deactivated at'));
  assert.match(rowOf('conn_congestion/c1/u1')!.textContent!, /2024-04-30 \d\d:04:00/);
  assert.match(rowOf('conn_congestion/c1/u1')!.textContent!, /4m/);
  assert.is(rowOf('high_cpu_usage'), undefined);
  await click(byTest('tab-current-alarm'));
  await waitFor(() => rowOf('high_cpu_usage'));
  assert.is(route().split('?')[0], '/alarm/current-alarm');
  api.restore();
});

for (const [locale, toastText] of [['en', 'History alarms cleared'], ['zh', '历史告警已清除']] as const) {
  test(`clearing the history asks first, sends DELETE /alarms, toasts "${toastText}" and reloads the banner`, async () => {
    await loggedIn('/alarm/history-alarm');
    setLocale(locale);
    let past = history;
    const api = fakeApi({
      'GET /alarms': (call) => envelope(call.query.get('activated') === 'true' ? active : past, call),
      'DELETE /alarms': () => ((past = []), { status: 204 }),
    });
    await mount(<App />);
    await waitFor(() => rowOf('conn_congestion/c1/u1'));
    await waitFor(() => byTest('alarm-banner'));
    const before = banner(api).length;
    await click(byTest('alarms-clear'));
    await waitFor(() => byTest('confirm-dialog'));
    await click(byTest('confirm-cancel'));
    assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
    await click(byTest('alarms-clear'));
    await click(await waitFor(() => byTest('confirm-ok')));
    await waitFor(() => text().includes(toastText));
    assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path + c.query), ['/alarms']);
    await waitFor(() => !rowOf('conn_congestion/c1/u1'));
    await waitFor(() => banner(api).length > before);
    assert.ok(byTest<HTMLButtonElement>('alarms-clear')!.disabled);
    setLocale('en');
    api.restore();
  });
}

test('alarms show loading, an error with retry, and an empty state', async () => {
  await loggedIn('/alarm/current-alarm');
  let fail = true;
  const api = fakeApi({
    'GET /alarms': (call) => (call.query.get('limit') === '1' ? envelope([], call)
      : fail ? { status: 500, body: { code: 'NODE_DOWN', message: 'bad rpc call emqx@node2' }, delay: 40 } : envelope([], call)),
  });
  await mount(<App />);
  await waitFor(() => byTest('alarms-page')?.querySelector('[data-test=state-loading]'));
  await waitFor(() => byTest('state-error'));
  assert.match(byTest('state-error')!.textContent!, /The node emqx@node2 is down or cannot be reached/);
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No active alarms'));
  api.restore();
});

test.after(cleanup);
test.run();
