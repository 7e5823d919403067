// GET /subscriptions and GET /topics over the cluster's subscriptions (emqx-api-part1 §10), on
// the fixture clients of the simulated nodes, whose subscriptions are known.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, login } from '../helpers/simulator.ts';

interface Sub {
  node: string;
  topic: string;
  clientid: string;
  qos: number;
}

async function setup() {
  const app = await buildTestApp({ emqxVersion: '5.5.1', fixtureClients: true, nodes: 3 });
  const token = await login(app);
  const res = async (url: string) => api(app, 'GET', url, { token });
  const get = async (url: string) => (await res(url)).json();
  return { app, get, res };
}

const q = encodeURIComponent;

test('GET /subscriptions lists every subscription with exact filters keeping count', async () => {
  const { app, get } = await setup();
  const clients = await get('/api/v5/clients?limit=1000');
  const expected = clients.data.reduce((sum: number, c: { subscriptions_cnt: number }) => sum + c.subscriptions_cnt, 0);
  const all = await get('/api/v5/subscriptions?limit=1000');
  assert.is(all.meta.count, expected);
  for (const s of all.data) assert.equal(Object.keys(s).sort(), ['clientid', 'nl', 'node', 'qos', 'rap', 'rh', 'topic']);
  const page = await get('/api/v5/subscriptions?limit=5&page=1');
  assert.equal(page.meta, { page: 1, limit: 5, hasnext: true, count: expected });

  const dispatch = await get('/api/v5/subscriptions?clientid=dispatch-console');
  assert.equal(dispatch.data.map((s: Sub) => [s.topic, s.qos]), [['fleet/+/status', 1], ['fleet/+/alert', 2]]);
  assert.is(dispatch.meta.count, 2);
  const shared = await get(`/api/v5/subscriptions?topic=${q('$share/ingest/fleet/+/position')}`);
  assert.equal(shared.data.map((s: Sub) => s.clientid).sort(), ['ingest-worker-1', 'ingest-worker-2']);
  assert.equal((await get('/api/v5/subscriptions?share_group=ingest')).meta.count, 2);
  assert.equal((await get('/api/v5/subscriptions?node=emqx@node3&qos=2')).data.map((s: Sub) => s.topic), ['fleet/+/alert']);
  const node2 = await get('/api/v5/subscriptions?node=emqx@node2&limit=1000');
  assert.ok(node2.data.length > 0 && node2.data.every((s: Sub) => s.node === 'emqx@node2'));
  await app.close();
});

test('match_topic selects subscriptions its filter matches and leaves count out', async () => {
  const { app, get, res } = await setup();
  const fleet = await get(`/api/v5/subscriptions?match_topic=${q('fleet/#')}&limit=1000`);
  assert.is(fleet.meta.count, undefined);
  assert.is(fleet.meta.hasnext, false);
  const topics = fleet.data.map((s: Sub) => s.topic);
  assert.ok(topics.includes('fleet/#') && topics.includes('fleet/+/status') && topics.includes('fleet/truck-0107/cmd'));
  assert.ok(topics.every((t: string) => t.startsWith('fleet/')), 'shared subscriptions are not matched');
  const exact = await get(`/api/v5/subscriptions?match_topic=${q('fleet/truck-0107/status')}`);
  assert.equal(exact.data.map((s: Sub) => s.clientid), ['app-android-3f9e']);
  const bad = await res(`/api/v5/subscriptions?match_topic=${q('$share/g/x')}`);
  assert.equal([bad.statusCode, bad.json()], [400, { code: 'INVALID_PARAMETER', message: 'match_topic_invalid' }]);
  await app.close();
});

test('GET /topics lists the routes of the cluster; a $share topic asks for its real topic', async () => {
  const { app, get, res } = await setup();
  const all = await get('/api/v5/topics?limit=1000');
  const stats = await get('/api/v5/stats?aggregate=true');
  assert.is(new Set(all.data.map((r: { topic: string }) => r.topic)).size, stats['topics.count']);
  assert.is(all.meta.count, all.data.length);
  for (const r of all.data) assert.equal(Object.keys(r).sort(), ['node', 'topic']);
  const position = await get(`/api/v5/topics?topic=${q('$share/ingest/fleet/+/position')}`);
  assert.equal(position.data, [{ topic: 'fleet/+/position', node: 'emqx@node3' }]);
  assert.ok((await get('/api/v5/topics?node=emqx@node2&limit=1000')).data.every((r: { node: string }) => r.node === 'emqx@node2'));
  assert.equal(await get(`/api/v5/topics/${q('fleet/+/position')}`), [{ topic: 'fleet/+/position', node: 'emqx@node3' }]);
  const missing = await res(`/api/v5/topics/${q('no/such/topic')}`);
  assert.equal([missing.statusCode, missing.json()], [404, { code: 'TOPIC_NOT_FOUND', message: 'Topic not found' }]);
  const bad = await res(`/api/v5/topics?topic=${q('a/#/b')}`);
  assert.equal([bad.statusCode, bad.json().message], [400, 'topic_filter_invalid']);
  await app.close();
});

test.run();
