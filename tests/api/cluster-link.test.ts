// Cluster linking between two simulators in one process (emqx_cluster_link at e5.8.9), each a
// 5.8.9 Enterprise broker with its own cluster name and a link named after the other: a
// subscriber on cluster B receives what a publisher on cluster A sends to a linked topic, and
// only that; the links report connected and count routes and forwarded messages. The ETF codec
// the links speak round-trips the terms EMQX sends.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { atom, decodeTerm, encodeTerm, EtfError, tuple, type Term } from '../../simulator/lib/etf.ts';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let a: RunningSimulator;
let b: RunningSimulator;
const tokens = new Map<RunningSimulator, string>();
let open: MqttClient[] = [];

const call = (sim: RunningSimulator, method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token: tokens.get(sim), body });

test.before(async () => {
  a = await startSimulator({ app: { emqxVersion: '5.8.9', edition: 'ee', clusterName: 'cla' } });
  b = await startSimulator({ app: { emqxVersion: '5.8.9', edition: 'ee', clusterName: 'clb' } });
  for (const sim of [a, b]) tokens.set(sim, await login(sim.baseUrl));
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
});

test.after(async () => {
  for (const sim of [a, b]) for (const l of (await call(sim, 'GET', '/cluster/links')).json) await call(sim, 'DELETE', `/cluster/links/link/${l.name}`);
  await a.close();
  await b.close();
});

async function client(sim: RunningSimulator, clientId: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, protocolVersion: 5 });
  open.push(c);
  return c;
}

test('a message published on cluster A reaches a subscriber on cluster B over the link, and only on linked topics', async () => {
  assert.is((await call(a, 'GET', '/cluster')).json.name, 'cla');
  const toB = await call(a, 'POST', '/cluster/links', { name: 'clb', server: `127.0.0.1:${b.mqtt}`, topics: ['t/#'] });
  assert.is(toB.status, 201, toB.text);
  assert.equal([toB.json.pool_size, toB.json.retry_interval, toB.json.max_inflight, toB.json.ssl.enable], [8, '15s', 32, false]);
  const toA = await call(b, 'POST', '/cluster/links', { name: 'cla', server: `127.0.0.1:${a.mqtt}`, topics: ['t/#'] });
  assert.is(toA.status, 201, toA.text);
  await waitFor(async () => (await call(a, 'GET', '/cluster/links/link/clb')).json.status === 'connected'
    && (await call(b, 'GET', '/cluster/links/link/cla')).json.status === 'connected', 5000, 'both links connected');

  const got: string[] = [];
  const sub = await client(b, 'sub-on-b');
  sub.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
  await sub.subscribeAsync('t/+', { qos: 1 });
  await sub.subscribeAsync('local/+', { qos: 1 });
  // B's route for t/+ reaches A through B's route syncer.
  await waitFor(async () => (await call(a, 'GET', '/cluster/links/link/clb/metrics')).json.metrics.router.routes === 1, 5000, 'the route on A');

  const pub = await client(a, 'pub-on-a');
  await pub.publishAsync('t/1', 'over the link', { qos: 1, properties: { userProperties: { k: 'v' } } });
  await pub.publishAsync('local/1', 'not linked', { qos: 1 });
  await waitFor(() => got.length >= 1, 3000, 'the forwarded message');
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(got, ['t/1 over the link']);
  const forwarding = (await call(a, 'GET', '/cluster/links/link/clb/metrics')).json.metrics.forwarding;
  assert.equal([forwarding.matched, forwarding.success], [1, 1]);

  // Unsubscribed on B: A loses the route and stops forwarding.
  await sub.unsubscribeAsync('t/+');
  await waitFor(async () => (await call(a, 'GET', '/cluster/links/link/clb/metrics')).json.metrics.router.routes === 0, 5000, 'the route gone');
});

test('links answer as emqx_cluster_link_api: duplicates, unknown names, bad topics, redacted passwords', async () => {
  const body = { name: 'other', server: '127.0.0.1:1', topics: ['x/#'], password: 'secret' };
  const created = await call(a, 'POST', '/cluster/links', body);
  assert.is(created.status, 201, created.text);
  assert.is(created.json.password, '******');
  const again = await call(a, 'POST', '/cluster/links', body);
  assert.equal([again.status, again.json], [400, { code: 'ALREADY_EXISTS', message: 'Cluster link already exists' }]);
  assert.equal((await call(a, 'GET', '/cluster/links/link/none')).json, { code: 'NOT_FOUND', message: 'Cluster link not found' });
  const special = await call(a, 'POST', '/cluster/links', { ...body, name: 'sp', topics: ['$LINK/cluster/#'] });
  assert.ok(special.status === 400 && special.json.message.includes('topic_not_allowed'), special.text);
  const redundant = await call(a, 'POST', '/cluster/links', { ...body, name: 'rd', topics: ['x/#', 'x/1'] });
  assert.ok(redundant.status === 400 && redundant.json.message.includes('redundant_topics'), redundant.text);
  const updated = await call(a, 'PUT', '/cluster/links/link/other', { server: '127.0.0.1:2', topics: ['y/#'], password: '******' });
  assert.equal([updated.status, updated.json.topics], [200, ['y/#']]);
  assert.is(a.app.store.clusterLinks.find('other')?.password, 'secret', 'the masked password keeps the stored one');
  assert.is((await call(a, 'DELETE', '/cluster/links/link/other')).status, 204);
});

test('ETF: the terms of the link protocol round-trip; malformed bytes are refused', () => {
  const term = new Map<Term, Term>([[atom('$op'), Buffer.from('route')], [10, Buffer.from('emqx@n1')], [11, 1_767_225_600_000], [12, [tuple(Buffer.from('t/#'), Buffer.from('t/#')), tuple(100, Buffer.from('a'), Buffer.from('a'))]]]);
  const bytes = encodeTerm(term);
  // Version 131, MAP_EXT of arity 4, the first key as SMALL_ATOM_UTF8_EXT (OTP 26's atom encoding).
  assert.equal([...bytes.subarray(0, 10)], [131, 116, 0, 0, 0, 4, 119, 3, 36, 111]);
  assert.equal(encodeTerm(decodeTerm(bytes)), bytes);
  assert.throws(() => decodeTerm(Buffer.from([131, 108, 255, 255, 255, 255])), (e: unknown) => e instanceof EtfError);
  assert.throws(() => decodeTerm(Buffer.from([131, 80, 0, 0, 0, 1])), (e: unknown) => e instanceof EtfError);
});

test.run();
