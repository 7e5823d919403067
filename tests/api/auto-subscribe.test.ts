// Auto subscribe (emqx-api-part1 §17, emqx_auto_subscribe): the whole-list PUT with its limit and
// persistence, and real mqtt.js clients subscribed at connect with placeholders filled in, seen
// in /clients/{id}/subscriptions and /subscriptions and receiving messages.
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
  await put([]);
  await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body: [] });
});

test.after(async () => {
  await sim.close();
});

const put = (body: unknown) => request(sim.baseUrl, 'PUT', '/api/v5/mqtt/auto_subscribe', { token, body });
const get = (p: string) => request(sim.baseUrl, 'GET', p, { token });

async function client(clientId: string, options: Parameters<typeof connectMqtt>[1] = {}): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, ...options });
  c.on('error', () => {});
  open.push(c);
  return c;
}

type Sub = { topic: string; qos: number; nl: number; rap: number; rh: number };
const subscriptionsOf = async (id: string) => (await get(`/api/v5/clients/${encodeURIComponent(id)}/subscriptions`)).json as Sub[];

test('PUT replaces the list and fills qos, rh, rap and nl with 0', async () => {
  assert.equal((await get('/api/v5/mqtt/auto_subscribe')).json, []);
  const res = await put([{ topic: 'a/${clientid}', qos: 1, rh: 2, rap: 1, nl: 1 }, { topic: 'b' }]);
  assert.is(res.status, 200);
  const expected = [{ topic: 'a/${clientid}', qos: 1, rh: 2, rap: 1, nl: 1 }, { topic: 'b', qos: 0, rh: 0, rap: 0, nl: 0 }];
  assert.equal(res.json, expected);
  assert.equal((await get('/api/v5/mqtt/auto_subscribe')).json, expected);
});

test('21 topics are refused with 409 EXCEED_LIMIT, 20 are accepted; bad options are 400', async () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ topic: `t/${i}` }));
  const refused = await put(many(21));
  assert.is(refused.status, 409);
  assert.equal(refused.json, { code: 'EXCEED_LIMIT', message: 'Max auto subscribe topic count is  20' });
  assert.is((await put(many(20))).status, 200);
  assert.is((await get('/api/v5/mqtt/auto_subscribe')).json.length, 20);
  assert.is((await put([{ topic: 'x', qos: 3 }])).status, 400);
  assert.is((await put([{ topic: 'x', nl: 2 }])).status, 400);
  assert.is((await put([{ qos: 1 }])).status, 400);
  assert.is((await put({ topic: 'x' })).status, 400, 'the body is the list itself');
});

test('the list survives a restart', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-autosub-'));
  try {
    const first = await buildTestApp({ dataDir: dir });
    const body = [{ topic: 'fleet/${clientid}/cmd', qos: 2, rh: 0, rap: 0, nl: 0 }];
    assert.is((await api(first, 'PUT', '/api/v5/mqtt/auto_subscribe', { token: await login(first), body })).statusCode, 200);
    await first.close();
    const second = await buildTestApp({ dataDir: dir });
    assert.equal((await api(second, 'GET', '/api/v5/mqtt/auto_subscribe', { token: await login(second) })).json(), body);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a new client has the auto-subscribe topics right after connect, placeholders filled in', async () => {
  await put([
    { topic: 'cmd/${clientid}', qos: 1, rh: 0, rap: 0, nl: 0 },
    { topic: 'user/${username}/#', qos: 2, rh: 1, rap: 1, nl: 1 },
    { topic: 'from/${host}', qos: 0 },
  ]);
  await client('auto-1', { username: 'bob' });
  const subs = await subscriptionsOf('auto-1');
  assert.equal(subs.map((s) => s.topic).sort(), ['cmd/auto-1', 'from/127.0.0.1', 'user/bob/#']);
  const user = subs.find((s) => s.topic === 'user/bob/#')!;
  assert.equal([user.qos, user.rh, user.rap, user.nl], [2, 1, 1, 1]);
  const all = (await get('/api/v5/subscriptions?clientid=auto-1')).json as { data: Sub[] };
  assert.is(all.data.length, 3);
  // No username: the topic that needs one is skipped, as EMQX does.
  await client('auto-2');
  assert.equal((await subscriptionsOf('auto-2')).map((s) => s.topic).sort(), ['cmd/auto-2', 'from/127.0.0.1']);
});

test('messages to an auto-subscribed topic reach the client, retained ones included', async () => {
  await request(sim.baseUrl, 'POST', '/api/v5/publish', { token, body: { topic: 'cmd/auto-3', payload: 'kept', retain: true } });
  await put([{ topic: 'cmd/${clientid}', qos: 1 }]);
  const got: string[] = [];
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'auto-3' });
  c.on('error', () => {});
  open.push(c);
  c.on('message', (topic, payload) => got.push(`${topic}=${payload}`));
  const pub = await client('auto-pub');
  await waitFor(async () => (await subscriptionsOf('auto-3')).length === 1, 1000, 'the subscription');
  await pub.publishAsync('cmd/auto-3', 'go', { qos: 1 });
  await waitFor(() => got.includes('cmd/auto-3=go') && got.includes('cmd/auto-3=kept'), 2000, 'both messages');
  await request(sim.baseUrl, 'DELETE', '/api/v5/mqtt/retainer/messages', { token });
});

test('auto subscriptions are neither rewritten nor counted as SUBSCRIBE packets', async () => {
  await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', {
    token, body: [{ action: 'subscribe', source_topic: 'cmd/#', re: '^cmd/(.+)$', dest_topic: 'other/$1' }],
  });
  await put([{ topic: 'cmd/${clientid}' }]);
  const before = (await get('/api/v5/metrics?aggregate=true')).json['client.subscribe'];
  await client('auto-4');
  assert.equal((await subscriptionsOf('auto-4')).map((s) => s.topic), ['cmd/auto-4']);
  assert.is((await get('/api/v5/metrics?aggregate=true')).json['client.subscribe'], before);
});

test('changing the list affects new connections only', async () => {
  await put([{ topic: 'first' }]);
  await client('auto-5');
  await put([{ topic: 'second' }]);
  await client('auto-6');
  assert.equal((await subscriptionsOf('auto-5')).map((s) => s.topic), ['first']);
  assert.equal((await subscriptionsOf('auto-6')).map((s) => s.topic), ['second']);
});

test('the routes need credentials', async () => {
  assert.is((await request(sim.baseUrl, 'GET', '/api/v5/mqtt/auto_subscribe')).status, 401);
  assert.is((await request(sim.baseUrl, 'PUT', '/api/v5/mqtt/auto_subscribe', { body: [] })).status, 401);
});

test.run();
