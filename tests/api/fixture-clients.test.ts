// The clients of the simulated nodes (fixtures/clients.json) behave like real ones in the API:
// node filter, paging across nodes, detail, subscriptions over the API, kick; and they count in
// their nodes' stats, node info and metrics.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login, manualClock } from '../helpers/simulator.ts';

async function setup(nodes = 3) {
  const clock = manualClock();
  // cluster_sessions and /clients_v2 are 5.8 (store/profile.ts).
  const app = await buildTestApp({ fixtureClients: true, nodes, clock, emqxVersion: '5.8.9' });
  const token = await login(app);
  const get = async (url: string) => (await api(app, 'GET', url, { token })).json();
  return { app, token, clock, get };
}

test('fixture clients are listed per node, and their nodes count them in stats and node info', async () => {
  const { app, get } = await setup();
  const node2 = await get('/api/v5/clients?node=emqx@node2&limit=100');
  assert.ok(node2.meta.count >= 5, `node2 has ${node2.meta.count} clients`);
  assert.ok(node2.data.every((c: { node: string }) => c.node === 'emqx@node2'));
  const stats = await get('/api/v5/nodes/emqx@node2/stats');
  assert.is(stats['connections.count'], node2.meta.count);
  const connected = node2.data.filter((c: { connected: boolean }) => c.connected).length;
  assert.is(stats['live_connections.count'], connected);
  assert.is(stats['subscriptions.count'], node2.data.reduce((sum: number, c: { subscriptions_cnt: number }) => sum + c.subscriptions_cnt, 0));
  const info = await get('/api/v5/nodes/emqx@node2');
  assert.equal([info.connections, info.live_connections], [node2.meta.count, connected]);
  const all = await get('/api/v5/clients?limit=1');
  const aggregate = await get('/api/v5/stats?aggregate=true');
  assert.is(aggregate['connections.count'], all.meta.count);
  assert.is((await get('/api/v5/nodes/emqx@node1')).cluster_sessions, all.meta.count);
  await app.close();
});

test('fixture clients have full client objects, offline sessions included', async () => {
  const { app, get } = await setup();
  const truck = await get('/api/v5/clients/truck-0107');
  assert.equal([truck.node, truck.proto_ver, truck.clean_start, truck.expiry_interval, truck.connected], ['emqx@node3', 5, false, 3600, true]);
  for (const key of ['recv_msg', 'send_msg', 'recv_oct', 'send_oct', 'heap_size', 'mqueue_max', 'awaiting_rel_max']) assert.type(truck[key], 'number', key);
  const offline = await get('/api/v5/clients?node=emqx@node3&conn_state=disconnected');
  assert.ok(offline.meta.count >= 1);
  for (const row of offline.data) {
    assert.is(row.connected, false);
    assert.type(row.disconnected_at, 'string');
    assert.is(row.clean_start, false, 'only persistent sessions outlive their connection');
  }
  await app.close();
});

test('fixture counters grow with the clock and feed the node metrics', async () => {
  const { app, clock, get } = await setup();
  const before = await get('/api/v5/clients/plant-a-line1-plc');
  const metricsBefore = (await get('/api/v5/metrics?node=emqx@node2'))[0];
  clock.advance(60_000);
  const after = await get('/api/v5/clients/plant-a-line1-plc');
  assert.ok(after.recv_msg > before.recv_msg, 'the client keeps publishing');
  const metricsAfter = (await get('/api/v5/metrics?node=emqx@node2'))[0];
  assert.ok(metricsAfter['messages.received'] > metricsBefore['messages.received']);
  assert.ok(metricsAfter['bytes.received'] > metricsBefore['bytes.received']);
  await app.close();
});

test('the page envelope and the cursor walk cover every node exactly once', async () => {
  const { app, get } = await setup(4);
  const all = await get('/api/v5/clients?limit=1000');
  const nodes = new Set(all.data.map((c: { node: string }) => c.node));
  assert.equal([...nodes], ['emqx@node2', 'emqx@node3', 'emqx@node4'], 'node order; node 1 has no clients here');
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const res = await get(`/api/v5/clients_v2?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    seen.push(...res.data.map((c: { clientid: string }) => c.clientid));
    cursor = res.meta.cursor;
    if (!cursor) break;
  }
  assert.equal(seen, all.data.map((c: { clientid: string }) => c.clientid));
  assert.is(new Set(seen).size, seen.length);
  const five = await setup(5);
  const reused = await five.get('/api/v5/clients?node=emqx@node5&limit=1');
  assert.match(reused.data[0].clientid, /-node5$/, 'reused templates get unique client ids');
  await five.app.close();
  await app.close();
});

test('subscribing and unsubscribing a fixture client over the API changes its subscriptions and routes', async () => {
  const { app, token, get } = await setup();
  const made = await api(app, 'POST', '/api/v5/clients/truck-0112/subscribe', { token, body: { topic: 'fleet/all/cmd', qos: 2 } });
  assert.equal(made.json(), { topic: 'fleet/all/cmd', qos: 2, nl: 0, rap: 0, rh: 0, node: 'emqx@node3', clientid: 'truck-0112' });
  assert.equal((await get('/api/v5/topics?topic=fleet/all/cmd')).data, [{ topic: 'fleet/all/cmd', node: 'emqx@node3' }]);
  assert.is((await get('/api/v5/clients/truck-0112')).subscriptions_cnt, 2);
  const removed = await api(app, 'POST', '/api/v5/clients/truck-0112/unsubscribe', { token, body: { topic: 'fleet/all/cmd' } });
  assert.is(removed.statusCode, 204);
  assert.equal((await get('/api/v5/topics?topic=fleet/all/cmd')).meta.count, 0);
  await app.close();
});

test('kicking a fixture client removes it; its node counts drop but its counters stay in the metrics', async () => {
  const { app, token, get } = await setup();
  const stats = await get('/api/v5/nodes/emqx@node3/stats');
  const metrics = (await get('/api/v5/metrics?node=emqx@node3'))[0];
  const res = await api(app, 'DELETE', '/api/v5/clients/truck-0107', { token });
  assert.is(res.statusCode, 204);
  assert.is((await api(app, 'GET', '/api/v5/clients/truck-0107', { token })).statusCode, 404);
  const after = await get('/api/v5/nodes/emqx@node3/stats');
  assert.is(after['connections.count'], stats['connections.count'] - 1);
  assert.is(after['subscriptions.count'], stats['subscriptions.count'] - 1);
  const metricsAfter = (await get('/api/v5/metrics?node=emqx@node3'))[0];
  assert.ok(metricsAfter['messages.received'] >= metrics['messages.received'], 'counters never go back');
  assert.is(metricsAfter['session.discarded'], metrics['session.discarded'] + 1);
  await app.close();
});

test('the empty seed has no fixture clients unless asked for', async () => {
  const app = await buildTestApp({ nodes: 3 });
  const token = await login(app);
  assert.is((await api(app, 'GET', '/api/v5/clients', { token })).json().meta.count, 0);
  await app.close();
  const demo = await buildTestApp({ seed: 'demo', nodes: 3 });
  const demoToken = await login(demo);
  assert.ok((await api(demo, 'GET', '/api/v5/clients', { token: demoToken })).json().meta.count > 0, 'the demo seed has them');
  await demo.close();
});

test.run();
