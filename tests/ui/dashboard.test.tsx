import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { Freshness, useStale } from '../../web/ui/Freshness.tsx';
import { act } from 'preact/test-utils';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { downsample, timeLabel, toChartData } from '../../web/features/monitoring/dashboard/monitor.ts';
import { writeSettings } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, text, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0, hasnext: false } } };
const current = {
  received_msg_rate: 120, sent_msg_rate: 240, dropped_msg_rate: 3, subscriptions: 45, topics: 12,
  connections: 1234, live_connections: 1200, retained_msg_count: 7, node_uptime: 5000,
};
const running = {
  node: 'emqx@node1', node_status: 'running', role: 'core', version: '5.5.1', edition: 'Opensource', uptime: 90_061_000,
  connections: 1234, live_connections: 1200, load1: 0.5, load5: 0.4, load15: 0.3, max_fds: 1048576,
  memory_total: '7.63G', memory_used: '2.18G', process_available: 2097152, process_used: 512,
  otp_release: '25.3.2-2/13.2.2.5', sys_path: '/opt/emqx', log_path: '/opt/emqx/log',
};
const stopped = { node: 'emqx@node2', node_status: 'stopped', role: 'core' };
const license = {
  customer: 'Acme Ltd', email: 'ops@acme.example', deployment: 'default', max_connections: 5000,
  start_at: '2024-01-01', expiry_at: '2025-01-01', type: 'trial', customer_type: 10, expiry: true, max_sessions: 5000,
};
const t0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const samples = [
  { time_stamp: t0, connections: 10, live_connections: 9, subscriptions: 4, topics: 2, received: 100, sent: 50, dropped: 0 },
  { time_stamp: t0 + 10_000 },
  { time_stamp: t0 + 20_000, connections: 12, live_connections: 11, subscriptions: 5, topics: 3, received: 200, sent: 80, dropped: 10 },
];

async function loggedIn(path: string) {
  const [hash, search] = path.split('?');
  reset(hash);
  // The hash router keeps the query in location.search, before the hash.
  if (search) history.replaceState(null, '', `/?${search}#${hash}`);
  await saveUser({ username: 'admin', token: 'tok-1' });
  // An Enterprise broker: the overview shows its license.
  writeSettings({ edition: 'ee' });
  await restoreSession();
}

const overviewApi = (extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) => fakeApi({
  'GET /monitor_current': { body: current },
  'GET /nodes': { body: [running, stopped] },
  'GET /license': { body: license },
  'GET /monitor': { body: samples },
  'GET /alarms': alarms,
  ...extra,
});
const calls = (api: { calls: Call[] }, path: string) => api.calls.filter((c) => c.method === 'GET' && c.path === path);

test('monitor samples become per-second rates; gap buckets count as zero; long series are merged', () => {
  const data = toChartData([samples[2], samples[0], samples[1]], 3600);
  assert.equal(data.values.connections, [10, 0, 12]);
  assert.equal(data.values.received, [10, 0, 20], '100 in 10 s is 10/s');
  assert.equal(data.values.dropped, [0, 0, 1]);
  assert.is(data.labels.length, 3);
  assert.match(timeLabel(t0, 3600), /^\d\d:\d\d$/);
  assert.match(timeLabel(t0, 7 * 86_400), /^\d\d-\d\d \d\d:\d\d$/);
  const long = Array.from({ length: 60_480 }, (_, i) => ({ time_stamp: t0 + i * 10_000, received: 1, connections: i }));
  const merged = downsample(long);
  assert.ok(merged.length <= 240);
  assert.is(merged[0].received, 252, 'deltas of a merged bucket add up');
  assert.is(merged[0].connections, 251, 'gauges keep the last value');
  assert.equal(toChartData([], 3600), { labels: [], values: { connections: [], live_connections: [], subscriptions: [], topics: [], received: [], sent: [], dropped: [] } });
});

test('the overview asks monitor_current, nodes, license and the last hour of samples, and shows them', async () => {
  await loggedIn('/dashboard/overview');
  const api = overviewApi();
  await mount(<App />);
  await waitFor(() => byTest('overview-connections')?.textContent?.includes('1,234'));
  assert.match(byTest('overview-live-connections')!.textContent!, /1,200/);
  assert.match(byTest('overview-subscriptions')!.textContent!, /45/);
  assert.match(byTest('overview-topics')!.textContent!, /12/);
  assert.match(byTest('overview-retained')!.textContent!, /7/);
  assert.match(byTest('overview-received-rate')!.textContent!, /Received \(msg\/s\)120/);
  assert.match(byTest('overview-sent-rate')!.textContent!, /240/);
  assert.match(byTest('overview-dropped-rate')!.textContent!, /3/);
  assert.is(calls(api, '/monitor')[0].query.get('latest'), '3600');
  assert.is(calls(api, '/monitor_current').length, 1);
  assert.is(calls(api, '/license').length, 1);
  // The tabs link to the three dashboard screens.
  assert.equal([...byTest('dashboard-tabs')!.querySelectorAll('a')].map((a) => a.getAttribute('href')), ['#/dashboard/overview', '#/dashboard/nodes', '#/dashboard/metrics']);
  api.restore();
});

test('a stopped node is listed as stopped, not as an error', async () => {
  await loggedIn('/dashboard/overview');
  const api = overviewApi();
  await mount(<App />);
  const row = await waitFor(() => document.querySelector('[data-test=overview-node][data-key="emqx@node2"]'));
  assert.match(row.textContent!, /Stopped/);
  assert.ok(row.querySelector('.tag-bad'));
  assert.match(byTest('overview-nodes')!.textContent!, /1 running of 2/);
  const first = document.querySelector('[data-test=overview-node][data-key="emqx@node1"]')!;
  assert.match(first.textContent!, /Running/);
  assert.match(first.textContent!, /1d 1h/);
  assert.is(first.querySelector('a')!.getAttribute('href'), '#/dashboard/nodes/emqx%40node1');
  assert.is(byTest('state-error'), null);
  api.restore();
});

test('the license card shows customer, dates, usage against the quota, trial and expiry', async () => {
  await loggedIn('/dashboard/overview');
  const api = overviewApi();
  await mount(<App />);
  const card = await waitFor(() => byTest('license-details') && byTest('license-card'));
  assert.match(card.textContent!, /Acme Ltd/);
  assert.match(card.textContent!, /ops@acme\.example/);
  assert.match(card.textContent!, /Issued at2024-01-01/);
  assert.match(card.textContent!, /Expire at2025-01-01/);
  assert.is(byTest('license-type')!.textContent, 'Trial');
  assert.ok(byTest('license-expired'));
  await waitFor(() => byTest('license-usage')!.textContent!.includes('1,234 of 5,000'));
  assert.is(byTest('license-usage')!.querySelector('progress')!.getAttribute('max'), '5000');
  api.restore();
});

test('a 404 from /license hides the card without an error', async () => {
  await loggedIn('/dashboard/overview');
  const api = overviewApi({ 'GET /license': { status: 404, body: { code: 'NOT_FOUND', message: 'Request Path Not Found' } } });
  await mount(<App />);
  await waitFor(() => byTest('overview-node'));
  await waitFor(() => calls(api, '/license').length === 1);
  await new Promise((r) => setTimeout(r, 30));
  assert.is(byTest('license-card'), null);
  assert.is(byTest('state-error'), null);
  assert.not.match(text(), /License/);
  api.restore();
});

test('other license failures show an error with a retry inside the card', async () => {
  await loggedIn('/dashboard/overview');
  const api = overviewApi({ 'GET /license': { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } } });
  await mount(<App />);
  const card = await waitFor(() => byTest('license-card')?.querySelector('[data-test=state-error]') && byTest('license-card'));
  await click(card.querySelector('[data-test=state-retry]'));
  await waitFor(() => calls(api, '/license').length === 2);
  api.restore();
});

test('picking 7 d asks for 604800 seconds and keeps the range in the URL across a reload', async () => {
  await loggedIn('/dashboard/overview');
  let api = overviewApi();
  await mount(<App />);
  await waitFor(() => byTest('chart-connections'));
  assert.is(byTest('range-1h')!.getAttribute('aria-pressed'), 'true');
  await click(byTest('range-7d'));
  await waitFor(() => calls(api, '/monitor').some((c) => c.query.get('latest') === '604800'));
  assert.is(route(), '/dashboard/overview?range=7d');
  assert.is(byTest('range-7d')!.getAttribute('aria-pressed'), 'true');
  api.restore();
  cleanup();
  api = overviewApi();
  await mount(<App />);
  await waitFor(() => calls(api, '/monitor').length > 0);
  assert.equal(calls(api, '/monitor').map((c) => c.query.get('latest')), ['604800']);
  api.restore();
});

test('gap samples render charts without crashing; no samples shows an empty state', async () => {
  await loggedIn('/dashboard/overview');
  let api = overviewApi({ 'GET /monitor': { body: [{ time_stamp: t0 }, { time_stamp: t0 + 10_000 }, samples[2]] } });
  await mount(<App />);
  for (const chart of ['connections', 'subscriptions', 'topics', 'received', 'sent', 'dropped']) await waitFor(() => byTest(`chart-${chart}`));
  assert.match(byTest('chart-received')!.textContent!, /Received messages \(msg\/s\)/);
  assert.is(byTest('screen-error'), null);
  api.restore();
  cleanup();
  api = overviewApi({ 'GET /monitor': { body: [] } });
  await mount(<App />);
  await waitFor(() => text().includes('No samples in this time range'));
  api.restore();
});

test('the overview shows loading first, then an error with retry when monitor_current fails', async () => {
  await loggedIn('/dashboard/overview');
  let fail = true;
  const api = overviewApi({
    'GET /monitor_current': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'down' }, delay: 50 } : { body: current }),
    'GET /monitor': { body: samples, delay: 50 },
  });
  await mount(<App />);
  await waitFor(() => byTest('overview-page'));
  assert.ok(byTest('monitor-charts')!.querySelector('[data-test=state-loading]'), 'charts load');
  assert.match(byTest('overview-connections')!.textContent!, /…/);
  await waitFor(() => byTest('overview-page')!.querySelector(':scope > [data-test=state-error]'));
  assert.match(byTest('overview-page')!.textContent!, /Internal server error/);
  assert.match(byTest('overview-connections')!.textContent!, /—/);
  fail = false;
  await click(byTest('overview-page')!.querySelector(':scope > [data-test=state-error] [data-test=state-retry]'));
  await waitFor(() => byTest('overview-connections')!.textContent!.includes('1,234'));
  api.restore();
});

test('the overview refreshes every 10 s while the tab is visible and pauses while it is hidden', async () => {
  await loggedIn('/dashboard/overview');
  const timers: (() => void)[] = [];
  const original = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void, ms?: number) => (ms === 10_000 && timers.push(fn), original(() => {}, 60_000))) as typeof setInterval;
  const api = overviewApi();
  const live = () => ['/monitor_current', '/nodes', '/monitor'].map((p) => calls(api, p).length);
  try {
    await mount(<App />);
    await waitFor(() => byTest('chart-connections') && byTest('overview-node'));
    assert.is(timers.length, 3, 'monitor_current, nodes and monitor');
    assert.equal(live(), [1, 1, 1]);
    timers.forEach((fire) => fire());
    await waitFor(() => live().every((n) => n === 2));
    assert.is(calls(api, '/license').length, 1, 'the license is not polled');
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    timers.forEach((fire) => fire());
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(live(), [2, 2, 2], 'no request while hidden');
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => live().every((n) => n === 3));
  } finally {
    globalThis.setInterval = original;
    delete (document as { hidden?: boolean }).hidden;
    api.restore();
  }
});

test('Nodes lists every node with role, status, uptime, connections, memory, load and version', async () => {
  await loggedIn('/dashboard/nodes');
  const api = fakeApi({ 'GET /nodes': { body: [running, stopped] }, 'GET /alarms': alarms });
  await mount(<App />);
  const row = await waitFor(() => document.querySelector('[data-test=nodes-row][data-key="emqx@node1"]'));
  for (const s of ['core', 'Running', '1d 1h', '1,234', '2.18G / 7.63G', '0.5 / 0.4 / 0.3', '5.5.1']) assert.ok(row.textContent!.includes(s), s);
  assert.is(row.querySelector('a')!.getAttribute('href'), '#/dashboard/nodes/emqx%40node1');
  const off = document.querySelector('[data-test=nodes-row][data-key="emqx@node2"]')!;
  assert.match(off.textContent!, /Stopped/);
  assert.is(calls(api, '/nodes').length, 1);
  assert.ok(byTest('dashboard-tab-nodes')!.classList.contains('active'));
  api.restore();
});

test('Nodes shows loading, then an error with retry, then the empty state', async () => {
  await loggedIn('/dashboard/nodes');
  let reply: { status?: number; body: unknown; delay?: number } = { status: 500, body: { code: 'INTERNAL_ERROR', message: 'nope' }, delay: 40 };
  const api = fakeApi({ 'GET /nodes': () => reply, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('nodes-page')?.querySelector('[data-test=state-loading]'));
  await waitFor(() => byTest('state-error'));
  reply = { body: [] };
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No nodes'));
  api.restore();
});

const detailApi = (extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) => fakeApi({
  'GET /nodes/emqx%40node1': { body: running },
  'GET /nodes/emqx%40node1/stats': { body: { 'connections.count': 3, 'connections.max': 9, 'topics.count': 2, 'subscriptions.count': 4 } },
  'GET /nodes/emqx%40node1/metrics': { body: { 'packets.received': 11, 'messages.sent': 22, 'session.created': 5 } },
  'GET /monitor/nodes/emqx%40node1': { body: samples },
  'GET /listeners': {
    body: [
      { id: 'tcp:default', type: 'tcp', name: 'default', enable: true, bind: '0.0.0.0:1883', status: { running: true, current_connections: 7, max_connections: 'infinity' },
        node_status: [{ node: 'emqx@node1', status: { running: true, current_connections: 5, max_connections: 'infinity' } }, { node: 'emqx@node2', status: { running: true, current_connections: 2, max_connections: 'infinity' } }] },
      { id: 'ws:default', type: 'ws', name: 'default', enable: true, bind: '0.0.0.0:8083', status: { running: false, current_connections: 0, max_connections: 1000 },
        node_status: [{ node: 'emqx@node1', status: { running: false, current_connections: 0, max_connections: 1000 } }] },
      { id: 'ssl:other', type: 'ssl', name: 'other', enable: true, bind: '0.0.0.0:8883', node_status: [{ node: 'emqx@node2', status: { running: true, current_connections: 1, max_connections: 10 } }] },
    ],
  },
  'GET /alarms': alarms,
  ...extra,
});

test('node details ask the node, its stats, metrics, listeners and samples, and show them', async () => {
  await loggedIn('/dashboard/nodes/emqx%40node1');
  const api = detailApi();
  await mount(<App />);
  const info = await waitFor(() => byTest('node-info'));
  for (const s of ['5.5.1', 'Opensource', 'core', '1d 1h', '2.18G / 7.63G', '1,048,576', '512 / 2,097,152', '0.5 / 0.4 / 0.3', '25.3.2-2/13.2.2.5', '/opt/emqx/log']) {
    assert.ok(info.textContent!.includes(s), s);
  }
  assert.is(byTest('node-status')!.textContent, 'Running');
  await waitFor(() => byTest('node-listeners'));
  const listeners = [...document.querySelectorAll('[data-test=node-listener]')];
  assert.equal(listeners.map((r) => r.getAttribute('data-key')), ['tcp:default', 'ws:default'], "only this node's listeners");
  assert.match(listeners[0].textContent!, /tcp0\.0\.0\.0:1883Running5infinity/);
  assert.match(listeners[1].textContent!, /Stopped01,000/);
  await waitFor(() => byTest('node-stats')?.textContent?.includes('connections.max'));
  await waitFor(() => byTest('node-metrics')?.textContent?.includes('packets.received'));
  assert.ok(byTest('metrics-dashboard.groupSession'));
  await waitFor(() => calls(api, '/monitor/nodes/emqx%40node1').length === 1);
  assert.is(calls(api, '/monitor/nodes/emqx%40node1')[0].query.get('latest'), '3600');
  assert.is(calls(api, '/listeners')[0].query.toString(), '');
  api.restore();
});

test('an unknown node shows "node not found"; a broker without /listeners shows no listeners', async () => {
  await loggedIn('/dashboard/nodes/emqx%40ghost');
  let api = fakeApi({ 'GET /nodes/emqx%40ghost': { status: 404, body: { code: 'NOT_FOUND', message: 'Node not found: emqx@ghost' } }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('node-not-found'));
  assert.match(text(), /Node emqx@ghost not found/);
  assert.is(byTest('node-back')!.getAttribute('href'), '#/dashboard/nodes');
  api.restore();
  cleanup();
  reset('/dashboard/nodes/emqx%40node1');
  await saveUser({ username: 'admin', token: 'tok-1' });
  await restoreSession();
  api = detailApi({ 'GET /listeners': { status: 404, body: { code: 'NOT_FOUND', message: 'Request Path Not Found' } } });
  await mount(<App />);
  await waitFor(() => text().includes('No listener information for this node'));
  api.restore();
});

test('Metrics shows the aggregated counters grouped by prefix, and one node after picking it', async () => {
  await loggedIn('/dashboard/metrics');
  const api = fakeApi({
    'GET /nodes': { body: [running, stopped] },
    'GET /metrics': (call) => (call.query.get('aggregate') === 'true'
      ? { body: { 'packets.received': 100, 'messages.received': 50, 'bytes.sent': 2048, 'delivery.dropped': 1, 'client.connected': 3, 'session.created': 3, 'authorization.allow': 8, 'authentication.success': 9 } }
      : { body: [{ node: call.query.get('node'), 'packets.received': 42 }] }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('metrics-dashboard.groupPackets'));
  for (const g of ['Packets', 'Messages', 'Bytes', 'Delivery', 'Client', 'Session', 'Authorization', 'Authentication']) {
    assert.ok([...document.querySelectorAll('.metric-group h4')].some((h) => h.textContent === g), g);
  }
  assert.equal(Object.fromEntries(calls(api, '/metrics')[0].query), { aggregate: 'true' });
  const select = byTest<HTMLSelectElement>('metrics-node')!;
  await waitFor(() => [...select.options].some((o) => o.value === 'emqx@node2'));
  select.value = 'emqx@node2';
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => byTest('metrics-dashboard.groupPackets')!.textContent!.includes('42'));
  assert.equal(Object.fromEntries(calls(api, '/metrics').at(-1)!.query), { node: 'emqx@node2' });
  assert.is(route(), '/dashboard/metrics?node=emqx%40node2');
  assert.is(byTest('metrics-dashboard.groupMessages'), null);
  api.restore();
});

test('Metrics is live like the overview: it says when it was read, Refresh reads at once, and Pause stops the readings', async () => {
  await loggedIn('/dashboard/metrics');
  const api = fakeApi({ 'GET /nodes': { body: [running] }, 'GET /metrics': { body: { 'packets.received': 1 } }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('metrics-dashboard.groupPackets'));
  assert.match(byTest('updated-at')!.textContent!, /^Updated \d{2}:\d{2}:\d{2}$/);
  const reads = () => calls(api, '/metrics').length;
  await click(byTest('metrics-refresh'));
  await waitFor(() => reads() === 2);
  // Coming back to the tab reads again while live…
  await act(async () => void document.dispatchEvent(new Event('visibilitychange')));
  await waitFor(() => reads() === 3);
  await click(byTest('metrics-pause'));
  assert.is(byTest('metrics-pause')!.getAttribute('aria-pressed'), 'true');
  assert.is(byTest('metrics-pause')!.textContent, 'Resume');
  // …and not once paused.
  await act(async () => void document.dispatchEvent(new Event('visibilitychange')));
  await new Promise((r) => setTimeout(r, 50));
  assert.is(reads(), 3);
  api.restore();
});

test('a live figure older than two refresh periods is marked stale and greyed by itself, without a new answer', async () => {
  const at = Date.now();
  await mount(<><Freshness at={at} every={40} /><Probe at={at} /></>);
  assert.is(byTest('updated-at')!.dataset.stale, undefined);
  await waitFor(() => byTest('updated-at')!.dataset.stale === 'true', 1000);
  assert.match(byTest('updated-at')!.textContent!, /^Not live: last updated \d{2}:\d{2}:\d{2}$/);
  assert.ok(byTest('updated-at')!.classList.contains('stale'));
  await waitFor(() => byTest('probe')!.textContent === 'stale', 1000);
});

function Probe({ at }: { at: number }) {
  return <span data-test="probe">{useStale(at, 40) ? 'stale' : 'live'}</span>;
}

test('Metrics shows loading, an error with retry, and the empty state for an unknown node', async () => {
  await loggedIn('/dashboard/metrics?node=emqx%40gone');
  let reply: { status?: number; body: unknown; delay?: number } = { status: 500, body: { code: 'INTERNAL_ERROR', message: 'nope' }, delay: 40 };
  const api = fakeApi({ 'GET /nodes': { body: [running] }, 'GET /metrics': () => reply, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('metrics-page')?.querySelector('[data-test=state-loading]'));
  await waitFor(() => byTest('state-error'));
  reply = { body: [] };
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No metrics for this node'));
  assert.is(calls(api, '/metrics')[0].query.get('node'), 'emqx@gone');
  api.restore();
});

test.after(cleanup);
test.run();
