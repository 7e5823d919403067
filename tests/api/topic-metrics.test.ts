// Topic metrics (emqx-api-part1 §12) from real mqtt.js traffic: for a registered topic the in,
// out and dropped counters equal the messages this test published and delivered, per QoS; reset
// and delete work on one topic or all; wildcards, duplicates and the 513th topic are refused with
// EMQX's codes; registrations survive a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  api, buildTestApp, connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator,
} from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

test.before(async () => {
  sim = await startSimulator();
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  for (const m of (await get('/api/v5/mqtt/topic_metrics')).json) await request(sim.baseUrl, 'DELETE', `/api/v5/mqtt/topic_metrics/${q(m.topic)}`, { token });
});

test.after(async () => {
  await sim.close();
});

const q = encodeURIComponent;
const get = (p: string) => request(sim.baseUrl, 'GET', p, { token });
const post = (p: string, body: unknown) => request(sim.baseUrl, 'POST', p, { token, body });
const put = (p: string, body: unknown) => request(sim.baseUrl, 'PUT', p, { token, body });

async function client(clientId: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId });
  c.on('error', () => {});
  open.push(c);
  return c;
}

const counts = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).filter(([k]) => k.endsWith('.count')));

test('a registered topic counts what is published to it and delivered from it, per QoS', async () => {
  const added = await post('/api/v5/mqtt/topic_metrics', { topic: 'tm/a' });
  assert.is(added.status, 200, added.text);
  assert.is(added.json.topic, 'tm/a');
  assert.match(added.json.create_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  assert.is(added.json.metrics['messages.in.count'], 0);
  assert.is((await post('/api/v5/mqtt/topic_metrics', { topic: 'tm/nobody' })).status, 200);

  const exact = await client('tm-exact');
  await exact.subscribeAsync('tm/a', { qos: 2 });
  const wild = await client('tm-wild');
  await wild.subscribeAsync('tm/+', { qos: 0 });
  let received = 0;
  for (const c of [exact, wild]) c.on('message', (topic) => topic === 'tm/a' && received++);
  const pub = await client('tm-pub');
  for (let i = 0; i < 3; i++) await pub.publishAsync('tm/a', `q0-${i}`, { qos: 0 });
  for (let i = 0; i < 2; i++) await pub.publishAsync('tm/a', `q1-${i}`, { qos: 1 });
  await pub.publishAsync('tm/a', 'q2', { qos: 2 });
  await pub.publishAsync('tm/unregistered', 'x', { qos: 1 });
  await waitFor(() => received === 12, 2000, 'every delivery');
  // Nobody subscribes to tm/nobody … except the wildcard; `dropped/x` has no subscriber at all.
  await post('/api/v5/mqtt/topic_metrics', { topic: 'dropped/x' });
  await pub.publishAsync('dropped/x', 'lost', { qos: 1 });
  await pub.publishAsync('dropped/x', 'lost', { qos: 0 });

  await waitFor(async () => (await get(`/api/v5/mqtt/topic_metrics/${q('tm/a')}`)).json.metrics['messages.out.count'] === 12, 1000, 'out counted');
  const a = (await get(`/api/v5/mqtt/topic_metrics/${q('tm/a')}`)).json;
  assert.equal(counts(a.metrics), {
    'messages.in.count': 6, 'messages.out.count': 12, 'messages.dropped.count': 0,
    'messages.qos0.in.count': 3, 'messages.qos0.out.count': 9,
    'messages.qos1.in.count': 2, 'messages.qos1.out.count': 2,
    'messages.qos2.in.count': 1, 'messages.qos2.out.count': 1,
  });
  assert.ok(a.metrics['messages.in.rate'] > 0 && a.metrics['messages.out.rate'] > a.metrics['messages.in.rate'], JSON.stringify(a.metrics));
  assert.is(a.metrics['messages.dropped.rate'], 0);
  assert.ok((String(a.metrics['messages.in.rate']).split('.')[1] ?? '').length <= 4, 'rates have at most 4 decimals');
  const dropped = (await get(`/api/v5/mqtt/topic_metrics/${q('dropped/x')}`)).json.metrics;
  assert.equal([dropped['messages.in.count'], dropped['messages.dropped.count'], dropped['messages.out.count'], dropped['messages.qos1.in.count']], [2, 2, 0, 1]);
  const list = (await get('/api/v5/mqtt/topic_metrics')).json as { topic: string }[];
  assert.equal(list.map((m) => m.topic), ['tm/a', 'tm/nobody', 'dropped/x']);
  assert.is((await get(`/api/v5/mqtt/topic_metrics/${q('tm/nobody')}`)).json.metrics['messages.in.count'], 0);
});

test('reset one topic or all, delete, and not-found answers', async () => {
  await post('/api/v5/mqtt/topic_metrics', { topic: 'r/1' });
  await post('/api/v5/mqtt/topic_metrics', { topic: 'r/2' });
  const pub = await client('r-pub');
  await pub.publishAsync('r/1', 'x', { qos: 1 });
  await pub.publishAsync('r/2', 'x', { qos: 1 });
  await waitFor(async () => (await get(`/api/v5/mqtt/topic_metrics/${q('r/2')}`)).json.metrics['messages.in.count'] === 1, 1000, 'counted');
  const one = await put('/api/v5/mqtt/topic_metrics', { action: 'reset', topic: 'r/1' });
  assert.is(one.status, 200);
  assert.equal([one.json.topic, one.json.metrics['messages.in.count']], ['r/1', 0]);
  assert.ok(one.json.reset_time, 'reset_time is set');
  assert.is((await get(`/api/v5/mqtt/topic_metrics/${q('r/2')}`)).json.metrics['messages.in.count'], 1, 'the other topic keeps counting');
  const all = await put('/api/v5/mqtt/topic_metrics', { action: 'reset' });
  assert.equal(all.json.map((m: { topic: string; metrics: Record<string, number> }) => [m.topic, m.metrics['messages.in.count']]), [['r/1', 0], ['r/2', 0]]);
  const missing = await put('/api/v5/mqtt/topic_metrics', { action: 'reset', topic: 'r/none' });
  assert.equal([missing.status, missing.json], [404, { code: 'TOPIC_NOT_FOUND', message: 'Topic not found' }]);
  assert.is((await request(sim.baseUrl, 'DELETE', `/api/v5/mqtt/topic_metrics/${q('r/1')}`, { token })).status, 204);
  assert.is((await get(`/api/v5/mqtt/topic_metrics/${q('r/1')}`)).status, 404);
  assert.is((await request(sim.baseUrl, 'DELETE', `/api/v5/mqtt/topic_metrics/${q('r/1')}`, { token })).json.code, 'TOPIC_NOT_FOUND');
});

test('wildcards, empty and repeated topics are refused with EMQX codes', async () => {
  const refuse = async (topic: string, status: number, code: string, message: string) => {
    const res = await post('/api/v5/mqtt/topic_metrics', { topic });
    assert.equal([res.status, res.json], [status, { code, message }]);
  };
  await refuse('a/+', 400, 'BAD_TOPIC', 'Wildcard topic is not supported');
  await refuse('a/#', 400, 'BAD_TOPIC', 'Wildcard topic is not supported');
  await refuse('', 400, 'BAD_REQUEST', 'Topic can not be empty');
  await post('/api/v5/mqtt/topic_metrics', { topic: 'dup' });
  await refuse('dup', 400, 'BAD_TOPIC', 'Topic already registered');
});

test('at most 512 topics, and registrations survive a restart', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'topic-metrics-'));
  try {
    const app = await buildTestApp({ dataDir: dir });
    const t = await login(app);
    for (let i = 0; i < 512; i++) assert.is((await api(app, 'POST', '/api/v5/mqtt/topic_metrics', { token: t, body: { topic: `m/${i}` } })).statusCode, 200);
    const over = await api(app, 'POST', '/api/v5/mqtt/topic_metrics', { token: t, body: { topic: 'm/512' } });
    assert.equal([over.statusCode, over.json()], [409, { code: 'EXCEED_LIMIT', message: 'Max topic metrics count is 512' }]);
    await app.close();
    const again = await buildTestApp({ dataDir: dir });
    const t2 = await login(again);
    const list = (await api(again, 'GET', '/api/v5/mqtt/topic_metrics', { token: t2 })).json();
    assert.is(list.length, 512);
    assert.is(list[511].topic, 'm/511');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
