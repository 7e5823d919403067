// Nodes, stats, metrics and alarms as the simulated cluster answers them (emqx-api-part1 §5, §8).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { METRIC_KEYS } from '../../simulator/store/cluster/metrics.ts';
import { api, buildTestApp, login, manualClock } from '../helpers/simulator.ts';

const STATS_KEYS = [
  'channels.count', 'channels.max', 'connections.count', 'connections.max', 'delayed.count', 'delayed.max',
  'live_connections.count', 'live_connections.max', 'retained.count', 'retained.max', 'sessions.count',
  'sessions.max', 'suboptions.count', 'suboptions.max', 'subscribers.count', 'subscribers.max',
  'subscriptions.count', 'subscriptions.max', 'subscriptions.shared.count', 'subscriptions.shared.max',
  'topics.count', 'topics.max',
];

async function setup(options: Parameters<typeof buildTestApp>[0] = {}) {
  const app = await buildTestApp(options);
  return { app, token: await login(app) };
}

test('GET /nodes lists emqx@node1 as core and the other nodes as replicants', async () => {
  const { app, token } = await setup({ emqxVersion: '5.5.1', nodes: 3 });
  const nodes = (await api(app, 'GET', '/api/v5/nodes', { token })).json();
  assert.equal(nodes.map((n: { node: string }) => n.node), ['emqx@node1', 'emqx@node2', 'emqx@node3']);
  assert.equal(nodes.map((n: { role: string }) => n.role), ['core', 'replicant', 'replicant']);
  for (const node of nodes) {
    assert.is(node.node_status, 'running');
    assert.is(node.version, '5.5.1');
    assert.is(node.edition, 'Enterprise');
    for (const key of ['uptime', 'connections', 'live_connections', 'load1', 'load5', 'load15', 'max_fds', 'process_available', 'process_used']) {
      assert.type(node[key], 'number', `${node.node}.${key}`);
    }
    assert.match(node.memory_total, /^\d+(\.\d\d[KMGT])?$/);
    assert.type(node.otp_release, 'string');
  }
  assert.is(nodes[1].connections, 0);
  await app.close();
});

test('otp_release is the OTP each release is built with (.tool-versions at the tag) and its ERTS version', async () => {
  // emqx_mgmt.erl otp_rel/0: emqx_vm:get_otp_version() "/" erlang:system_info(version); erts from
  // OTP's otp_versions.table (OTP-26.2.1: erts-14.2.1, OTP-26.2.5.14: erts-14.2.5.11).
  for (const [emqxVersion, otp] of [['5.5.1', '26.2.1-2/14.2.1'], ['5.8.9', '26.2.5.14-1/14.2.5.11']] as const) {
    const { app, token } = await setup({ emqxVersion, nodes: 2 });
    const nodes = (await api(app, 'GET', '/api/v5/nodes', { token })).json();
    assert.equal(nodes.map((n: { otp_release: string }) => n.otp_release), [otp, otp], emqxVersion);
    assert.is((await api(app, 'GET', '/api/v5/nodes/emqx@node1', { token })).json().otp_release, otp);
    await app.close();
  }
});

test('node 1 uptime follows the clock; --nodes beyond the fixtures still get nodes', async () => {
  const clock = manualClock();
  const { app, token } = await setup({ clock, nodes: 6 });
  clock.advance(90_000);
  const node1 = (await api(app, 'GET', '/api/v5/nodes/emqx@node1', { token })).json();
  assert.is(node1.uptime, 90_000);
  const nodes = (await api(app, 'GET', '/api/v5/nodes', { token })).json();
  assert.is(nodes.length, 6);
  assert.is(nodes[5].node, 'emqx@node6');
  await app.close();
});

test('an unknown node is 404 NOT_FOUND "Node not found: <node>" on all node paths', async () => {
  const { app, token } = await setup();
  for (const suffix of ['', '/stats', '/metrics']) {
    const res = await api(app, 'GET', `/api/v5/nodes/emqx@ghost${suffix}`, { token });
    assert.is(res.statusCode, 404);
    assert.equal(res.json(), { code: 'NOT_FOUND', message: 'Node not found: emqx@ghost' });
  }
  await app.close();
});

test('GET /stats is one object aggregated, else one object per node with node', async () => {
  const { app, token } = await setup({ nodes: 2 });
  const aggregate = (await api(app, 'GET', '/api/v5/stats?aggregate=true', { token })).json();
  for (const key of STATS_KEYS) assert.type(aggregate[key], 'number', key);
  assert.is(aggregate.node, undefined);
  const perNode = (await api(app, 'GET', '/api/v5/stats', { token })).json();
  assert.equal(perNode.map((s: { node: string }) => s.node), ['emqx@node1', 'emqx@node2']);
  for (const key of STATS_KEYS) assert.type(perNode[1][key], 'number', key);
  const one = (await api(app, 'GET', '/api/v5/nodes/emqx@node2/stats', { token })).json();
  assert.is(one['connections.count'], 0);
  await app.close();
});

test('GET /metrics has every §5.3 key, aggregated or per node, and [] for an unknown node', async () => {
  // §5.3 lists the 5.8 keys too (messages.persisted, validation, transformation).
  const { app, token } = await setup({ nodes: 2, emqxVersion: '5.8.9' });
  const aggregate = (await api(app, 'GET', '/api/v5/metrics?aggregate=true', { token })).json();
  // The limiter's two counters come with 5.10 (emqx_metrics.erl at e5.10.4, not at e5.8.9; mqtt-limiter.test.ts).
  const later: string[] = ['packets.publish.quota_exceeded', 'messages.dropped.quota_exceeded'];
  for (const key of METRIC_KEYS) assert.type(aggregate[key], later.includes(key) ? 'undefined' : 'number', key);
  assert.ok(METRIC_KEYS.includes('messages.received') && METRIC_KEYS.includes('bytes.sent'));
  const perNode = (await api(app, 'GET', '/api/v5/metrics', { token })).json();
  assert.is(perNode.length, 2);
  assert.is(perNode[0].node, 'emqx@node1');
  const one = (await api(app, 'GET', '/api/v5/metrics?node=emqx@node2', { token })).json();
  assert.equal(one.map((m: { node: string }) => m.node), ['emqx@node2']);
  assert.equal((await api(app, 'GET', '/api/v5/metrics?node=emqx@ghost', { token })).json(), []);
  const nodeMetrics = (await api(app, 'GET', '/api/v5/nodes/emqx@node1/metrics', { token })).json();
  assert.is(nodeMetrics.node, undefined);
  assert.type(nodeMetrics['packets.received'], 'number');
  await app.close();
});

test('the demo seed has active alarms and history in envelope A; empty has none', async () => {
  const clock = manualClock();
  const { app, token } = await setup({ seed: 'demo', clock });
  const active = (await api(app, 'GET', '/api/v5/alarms?activated=true', { token })).json();
  assert.ok(active.data.length >= 2);
  assert.equal(active.meta, { page: 1, limit: 100, hasnext: false, count: active.data.length });
  for (const alarm of active.data) {
    for (const key of ['node', 'name', 'message']) assert.type(alarm[key], 'string');
    assert.type(alarm.details, 'object');
    assert.match(alarm.activate_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    assert.is(alarm.deactivate_at, undefined);
  }
  const before = active.data[0].duration;
  clock.advance(1000);
  const later = (await api(app, 'GET', '/api/v5/alarms', { token })).json();
  assert.is(later.data[0].duration, before + 1000, 'active durations grow; activated defaults to true');
  const history = (await api(app, 'GET', '/api/v5/alarms?activated=false', { token })).json();
  assert.ok(history.data.length >= 1);
  assert.type(history.data[0].deactivate_at, 'string');
  const empty = await setup({ seed: 'empty' });
  assert.equal((await api(empty.app, 'GET', '/api/v5/alarms', { token: empty.token })).json().data, []);
  await empty.app.close();
  await app.close();
});

test('alarm pages respect page and limit and report hasnext', async () => {
  const { app, token } = await setup({ seed: 'demo' });
  const first = (await api(app, 'GET', '/api/v5/alarms?page=1&limit=1', { token })).json();
  assert.is(first.data.length, 1);
  assert.is(first.meta.hasnext, true);
  const second = (await api(app, 'GET', '/api/v5/alarms?page=2&limit=1', { token })).json();
  assert.is(second.meta.hasnext, false);
  assert.is.not(second.data[0].name, first.data[0].name);
  await app.close();
});

test('DELETE /alarms clears the history only', async () => {
  const { app, token } = await setup({ seed: 'demo' });
  const res = await api(app, 'DELETE', '/api/v5/alarms', { token });
  assert.is(res.statusCode, 204);
  assert.equal((await api(app, 'GET', '/api/v5/alarms?activated=false', { token })).json().data, []);
  assert.ok((await api(app, 'GET', '/api/v5/alarms?activated=true', { token })).json().data.length >= 2);
  await app.close();
});

test('with one node the alarms of fixture nodes that do not exist are left out', async () => {
  const { app, token } = await setup({ seed: 'demo', nodes: 1 });
  const active = (await api(app, 'GET', '/api/v5/alarms', { token })).json();
  assert.ok(active.data.every((a: { node: string }) => a.node === 'emqx@node1'));
  await app.close();
});

test.run();
