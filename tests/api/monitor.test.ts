// The dashboard time series and the alarms raised by real conditions (emqx-api-part1 §6, §7, §8):
// samples taken as a fake clock moves, deltas per bucket and gauges, gap buckets, downsampling by
// window, the back-filled history, rates in /monitor_current, the license quota and memory alarms.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROFILES } from '../../simulator/store/profile.ts';
import {
  api, buildTestApp, connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor,
} from '../helpers/simulator.ts';

const HOUR = 3_600_000;

test('samples follow the fake clock: deltas per bucket, gauges at sample time, rates per second', async () => {
  const clock = manualClock();
  // 5.5.1: its samplers are the seven of this test (the later ones: the release test below).
  const sim = await startSimulator({ nodes: 2, app: { clock, emqxVersion: '5.5.1' } });
  const token = await login(sim.baseUrl);
  const get = async (path: string) => (await request(sim.baseUrl, 'GET', path, { token })).json;
  try {
    const start = await get('/api/v5/monitor');
    assert.is(start.length, 1, 'one sample taken at start');
    assert.equal(start[0], { time_stamp: clock.now(), connections: 0, live_connections: 0, subscriptions: 0, topics: 0, received: 0, sent: 0, dropped: 0 });

    const sub = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'mon-sub' });
    const pub = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'mon-pub' });
    await sub.subscribeAsync('mon/#');
    for (let i = 0; i < 20; i++) pub.publish('mon/a', String(i));
    for (let i = 0; i < 10; i++) pub.publish('nobody/a', String(i));
    await waitFor(async () => (await get('/api/v5/metrics?aggregate=true'))['messages.sent'] === 20, 1000, 'delivered');
    await waitFor(async () => (await get('/api/v5/metrics?aggregate=true'))['messages.received'] === 30, 1000, 'received');
    assert.equal(await get('/api/v5/monitor?latest=60'), start, 'no new sample before the interval passes');

    clock.advance(10_000);
    const samples = await get('/api/v5/monitor?latest=60');
    assert.is(samples.length, 2);
    assert.equal(samples[1], { time_stamp: start[0].time_stamp + 10_000, connections: 2, live_connections: 2, subscriptions: 1, topics: 1, received: 30, sent: 20, dropped: 10 });
    const current = await get('/api/v5/monitor_current');
    assert.equal(
      [current.received_msg_rate, current.sent_msg_rate, current.dropped_msg_rate, current.connections, current.live_connections, current.subscriptions, current.topics],
      [3, 2, 1, 2, 2, 1, 1],
    );
    const node = await get('/api/v5/monitor_current/nodes/emqx@node1');
    assert.equal([node.received_msg_rate, node.node_uptime, node.license_quota, node.retained_msg_count], [3, 10_000, 10_000, 0]);
    assert.is(current.node_uptime, undefined, 'uptime only per node');

    clock.advance(10_000);
    const quiet = await get('/api/v5/monitor?latest=60');
    assert.equal([quiet[2].received, quiet[2].sent, quiet[2].connections], [0, 0, 2], 'deltas restart, gauges stay');
    assert.is((await get('/api/v5/monitor_current')).received_msg_rate, 0);
    await endMqtt(sub);
    await endMqtt(pub);
  } finally {
    await sim.close();
  }
});

// emqx_dashboard.hrl ?GAUGE_SAMPLER_LIST / ?DELTA_SAMPLER_LIST / ?DELTA_SAMPLER_RATE_MAP and
// emqx_dashboard_monitor.erl non_rate_value/0, adjust_synthetic_cluster_metrics/1 at each tag.
const BASE_GAUGES = ['connections', 'live_connections', 'subscriptions', 'topics'];
const SAMPLERS: Record<string, { gauges: string[]; deltas: string[]; ram: boolean }> = {
  '5.5.1': { gauges: BASE_GAUGES, deltas: ['received', 'sent', 'dropped'], ram: false },
  '5.8.9': {
    gauges: [...BASE_GAUGES, 'disconnected_durable_sessions', 'subscriptions_durable'],
    deltas: ['received', 'sent', 'dropped', 'validation_succeeded', 'validation_failed', 'transformation_succeeded', 'transformation_failed', 'persisted'],
    ram: true,
  },
};
SAMPLERS['5.10.4'] = { ...SAMPLERS['5.8.9'], deltas: [...SAMPLERS['5.8.9'].deltas, 'rules_matched', 'actions_executed'] };
SAMPLERS['6.2.2'] = { ...SAMPLERS['5.10.4'], deltas: [...SAMPLERS['5.10.4'].deltas, 'actions_messages'] };
const rateOf = (d: string) => (['received', 'sent', 'dropped'].includes(d) ? `${d}_msg_rate` : `${d}_rate`);

for (const { version, edition } of PROFILES) {
  test(`${version}-${edition}: /monitor and /monitor_current carry the release's samplers`, async () => {
    const clock = manualClock();
    const app = await buildTestApp({ clock, nodes: 1, emqxVersion: version, edition });
    const token = await login(app);
    const want = SAMPLERS[version];
    const get = async (url: string) => (await api(app, 'GET', `/api/v5${url}`, { token })).json();
    const rule = await api(app, 'POST', '/api/v5/rules', { token, body: { id: 'mon', sql: 'SELECT * FROM "mon/#"', actions: [{ function: 'console' }] } });
    assert.is(rule.statusCode, 201, rule.body);
    for (let i = 0; i < 20; i++) assert.is((await api(app, 'POST', '/api/v5/publish', { token, body: { topic: 'mon/t', payload: String(i) } })).statusCode < 300, true);
    clock.advance(10_000);
    const [sample] = (await get('/monitor?latest=10')).slice(-1);
    const ram = want.ram ? ['subscriptions_ram'] : [];
    assert.equal(Object.keys(sample).sort(), ['time_stamp', ...want.gauges, ...want.deltas, ...ram].sort());
    // A REST publish is no MQTT PUBLISH received (emqx_channel counts messages.received).
    assert.is(sample.received, 0);
    if (want.deltas.includes('rules_matched')) assert.is(sample.rules_matched, 20, 'each publish matched the rule');
    const node = await get('/monitor/nodes/emqx@node1?latest=10');
    assert.equal(Object.keys(node.slice(-1)[0]).sort(), ['time_stamp', ...want.gauges, ...want.deltas].sort(), 'no synthetic figure per node');
    const current = await get('/monitor_current');
    const rates = want.deltas.map(rateOf);
    for (const key of [...rates, ...want.gauges, ...ram]) assert.type(current[key], 'number', `${key} in /monitor_current`);
    for (const key of Object.keys(current)) assert.ok([...rates, ...want.gauges, ...ram, 'retained_msg_count', 'license_quota', 'shared_subscriptions'].includes(key), `${key} is no sampler of ${version}`);
    if (want.deltas.includes('rules_matched')) assert.is(current.rules_matched_rate, 2);
    await app.close();
  });
}

test('missed intervals read as gap buckets with time_stamp only', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, nodes: 1 });
  const token = await login(app);
  clock.advance(60_000);
  const samples = (await api(app, 'GET', '/api/v5/monitor?latest=120', { token })).json();
  assert.equal(samples.map((s: { time_stamp: number }) => s.time_stamp - samples[0].time_stamp), [0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
  for (const gap of samples.slice(1, -1)) assert.equal(Object.keys(gap), ['time_stamp']);
  assert.type(samples[6].connections, 'number');
  await app.close();
});

test('per-node series exist for every node; unknown nodes are 404', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, nodes: 3, fixtureClients: true });
  const token = await login(app);
  const get = async (url: string) => api(app, 'GET', url, { token });
  clock.advance(10_000);
  const perNode = [];
  for (const node of ['emqx@node1', 'emqx@node2', 'emqx@node3']) {
    const samples = (await get(`/api/v5/monitor/nodes/${node}?latest=60`)).json();
    assert.is(samples.length, 2, node);
    perNode.push(samples[1]);
  }
  assert.ok(perNode[1].connections > 0 && perNode[1].received > 0, 'fixture nodes have clients and traffic');
  const cluster = (await get('/api/v5/monitor?latest=60')).json()[1];
  assert.is(cluster.connections, perNode.reduce((sum, s) => sum + s.connections, 0));
  assert.is(cluster.received, perNode.reduce((sum, s) => sum + s.received, 0));
  assert.is(cluster.topics, perNode[0].topics, 'topics are cluster-wide, not summed');
  for (const url of ['/api/v5/monitor/nodes/emqx@ghost', '/api/v5/monitor_current/nodes/emqx@ghost']) {
    const res = await get(url);
    assert.equal([res.statusCode, res.json()], [404, { code: 'NOT_FOUND', message: 'Node not found: emqx@ghost' }]);
  }
  assert.is((await get('/api/v5/monitor?latest=0')).statusCode, 400);
  await app.close();
});

test('the back-filled history has data in every range, downsampled by window length', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, seed: 'demo', nodes: 3 });
  const token = await login(app);
  const now = clock.now();
  for (const [latest, step] of [[3600, 10], [21600, 60], [43200, 60], [86400, 60], [259200, 300], [604800, 600]]) {
    const samples = (await api(app, 'GET', `/api/v5/monitor?latest=${latest}`, { token })).json();
    const expected = latest / step;
    assert.ok(Math.abs(samples.length - expected) <= 2, `${latest}s: ${samples.length} buckets, expected about ${expected}`);
    assert.ok(samples[0].time_stamp >= now - latest * 1000 - step * 1000, `${latest}s starts inside the window`);
    for (let i = 1; i < samples.length; i++) assert.is(samples[i].time_stamp - samples[i - 1].time_stamp, step * 1000, `${latest}s is sorted in ${step}s buckets`);
    // A gap bucket has time_stamp only; a full one every sampler of the release.
    const full = samples.filter((s: object) => Object.keys(s).length > 1 && 'connections' in s && 'received' in s);
    assert.is(full.length, samples.length, `${latest}s: the cluster view has no gaps`);
    assert.ok(full.some((s: { received: number }) => s.received > 0) && full.some((s: { connections: number }) => s.connections > 0), `${latest}s has traffic`);
  }
  const node3 = (await api(app, 'GET', '/api/v5/monitor/nodes/emqx@node3?latest=259200', { token })).json();
  assert.ok(node3.some((s: object) => Object.keys(s).length === 1), 'the restart of node 3 two days ago shows as gaps');
  const all = (await api(app, 'GET', '/api/v5/monitor', { token })).json();
  assert.is(all.length, (await api(app, 'GET', '/api/v5/monitor?latest=604800', { token })).json().length, 'no latest means everything retained');
  await app.close();
});

test('the buffer keeps 7 days: old samples are compacted and then dropped', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock, nodes: 1 });
  const { monitor } = app.store;
  for (let i = 0; i < 3 * 360; i++) {
    clock.advance(10_000);
    monitor.tick();
  }
  // Three hours of 10 s samples: the last hour kept as is, the two before merged per minute.
  assert.ok(Math.abs(monitor.stored('emqx@node1') - (360 + 120)) <= 8, `stored ${monitor.stored('emqx@node1')}`);
  for (let i = 0; i < 8 * 24 * 6; i++) {
    clock.advance(600_000);
    monitor.tick();
  }
  const token = await login(app);
  const week = (await api(app, 'GET', '/api/v5/monitor', { token })).json();
  assert.ok(week[0].time_stamp >= clock.now() - 7 * 24 * HOUR - 600_000, 'nothing older than 7 days');
  assert.ok(monitor.stored('emqx@node1') <= 7 * 24 * 6 + 10, `stored ${monitor.stored('emqx@node1')}`);
  await app.close();
});

test('license_quota alarm: raised above the high watermark, cleared below the low one, then history', async () => {
  const sim = await startSimulator({ nodes: 1, app: { license: { max_connections: 5 } } });
  const token = await login(sim.baseUrl);
  const get = async (path: string) => (await request(sim.baseUrl, 'GET', path, { token })).json;
  const quota = async (activated: boolean) =>
    (await get(`/api/v5/alarms?activated=${activated}`)).data.filter((a: { name: string }) => a.name === 'license_quota');
  try {
    assert.equal([(await get('/api/v5/license')).max_connections, (await get('/api/v5/monitor_current')).license_quota], [5, 5]);
    assert.equal(await get('/api/v5/license/setting'), { connection_low_watermark: '75%', connection_high_watermark: '80%' });
    const clients = [];
    for (let i = 0; i < 4; i++) clients.push(await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `quota-${i}` }));
    assert.equal(await quota(true), [], '4 of 5 is not above 80 %');
    clients.push(await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'quota-4' }));
    await waitFor(async () => (await quota(true)).length === 1, 1000, 'alarm raised');
    const [alarm] = await quota(true);
    assert.equal([alarm.node, alarm.message, alarm.details], ['emqx@node1', 'License: live connection number exceeds 80%', { high_watermark: '80' }]);
    await endMqtt(clients.pop()!);
    await waitFor(async () => (await get('/api/v5/stats?aggregate=true'))['live_connections.count'] === 4, 1000, 'one gone');
    assert.is((await quota(true)).length, 1, '4 of 5 is not below 75 %: still active (hysteresis)');
    await endMqtt(clients.pop()!);
    // 3 of 5 is below 75 %: cleared.
    await waitFor(async () => (await quota(true)).length === 0, 1000, 'alarm cleared');
    const [history] = await quota(false);
    assert.type(history.deactivate_at, 'string');
    assert.ok(history.duration >= 0);
    assert.is((await request(sim.baseUrl, 'DELETE', '/api/v5/alarms', { token })).status, 204);
    assert.equal(await quota(false), [], 'DELETE /alarms clears the history');
    // Lower watermarks apply at once: 3 of 5 is above 50 %.
    const put = await request(sim.baseUrl, 'PUT', '/api/v5/license/setting', { token, body: { connection_low_watermark: '40%', connection_high_watermark: '50%' } });
    assert.equal(put.json, { connection_low_watermark: '40%', connection_high_watermark: '50%' });
    assert.equal((await quota(true)).map((a: { message: string }) => a.message), ['License: live connection number exceeds 50%']);
    assert.is((await get('/api/v5/alarms?activated=true')).data.length, 1);
    const bad = await request(sim.baseUrl, 'PUT', '/api/v5/license/setting', { token, body: { connection_low_watermark: '90%', connection_high_watermark: '50%' } });
    assert.equal([bad.status, bad.json], [400, { code: 'BAD_REQUEST', message: 'Bad license setting' }]);
    for (const c of clients) await endMqtt(c);
  } finally {
    await sim.close();
  }
});

test('the memory alarm of node 1 follows its memory use against the threshold', async () => {
  const clock = manualClock();
  let usage = 2 * 1024 ** 2;
  const app = await buildTestApp({ clock, memoryHighWatermark: 1024 ** 2, memoryUsage: () => usage });
  const token = await login(app);
  const alarms = async (activated: boolean) =>
    (await api(app, 'GET', `/api/v5/alarms?activated=${activated}`, { token })).json().data.filter((a: { name: string }) => a.name === 'high_process_memory_usage');
  const [raised] = await alarms(true);
  assert.equal([raised.node, raised.details], ['emqx@node1', { high_watermark: '1.00M', usage: '2.00M' }]);
  usage = 512 * 1024;
  assert.is((await alarms(true)).length, 1, 'checked with the samples, not on every read');
  clock.advance(10_000);
  await api(app, 'GET', '/api/v5/monitor_current', { token });
  assert.equal(await alarms(true), []);
  assert.is((await alarms(false)).length, 1);
  const active = (await api(app, 'GET', '/api/v5/alarms', { token })).json().data;
  assert.equal(active, []);
  await app.close();
});

test.run();
