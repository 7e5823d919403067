// Topic rewrite (emqx-api-part1 §17, emqx_rewrite): the whole-list PUT with EMQX's checks and
// persistence, and the rules applied to real mqtt.js clients' publishes, subscriptions and
// unsubscriptions.
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
  await request(sim.baseUrl, 'DELETE', '/api/v5/mqtt/retainer/messages', { token });
});

test.after(async () => {
  await sim.close();
});

const put = (body: unknown) => request(sim.baseUrl, 'PUT', '/api/v5/mqtt/topic_rewrite', { token, body });
const get = (p: string) => request(sim.baseUrl, 'GET', p, { token });
const rule = (action: string, source_topic: string, re: string, dest_topic: string) => ({ action, source_topic, re, dest_topic });

async function client(clientId: string, options: Parameters<typeof connectMqtt>[1] = {}): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, ...options });
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** Collects `topic=payload` of every message a client receives. */
function inbox(c: MqttClient): string[] {
  const got: string[] = [];
  c.on('message', (topic, payload) => got.push(`${topic}=${payload}`));
  return got;
}

const subscriptionsOf = async (id: string) =>
  ((await get(`/api/v5/clients/${encodeURIComponent(id)}/subscriptions`)).json as { topic: string }[]).map((s) => s.topic);

test('PUT replaces the whole list and GET returns it as stored', async () => {
  assert.equal((await get('/api/v5/mqtt/topic_rewrite')).json, []);
  const rules = [rule('publish', 'x/#', '^x/(.+)$', 'y/$1'), rule('subscribe', 'a/+', '^a/(\\w+)$', 'b/#')];
  const res = await put(rules);
  assert.is(res.status, 200);
  assert.equal(res.json, rules);
  assert.equal((await get('/api/v5/mqtt/topic_rewrite')).json, rules);
  assert.equal((await put([rules[1]])).json, [rules[1]], 'a shorter list drops the others');
  assert.equal((await get('/api/v5/mqtt/topic_rewrite')).json, [rules[1]]);
});

test('20 rules are refused with 413 EXCEED_LIMIT, 19 are accepted', async () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => rule('all', `t${i}/#`, '^(.+)$', `u/$1`));
  const refused = await put(many(20));
  assert.is(refused.status, 413);
  assert.equal(refused.json, { code: 'EXCEED_LIMIT', message: 'Max rewrite rules count is 20' });
  assert.is((await put(many(19))).status, 200);
});

test('a wildcard destination is refused for publish and all rules, allowed for subscribe rules', async () => {
  const res = await put([rule('publish', 'x/#', '^x/(.+)$', 'y/#'), rule('all', 'z/#', '^z/(.+)$', 'w/+/$1')]);
  assert.is(res.status, 400);
  assert.equal(res.json, { code: 'BAD_REQUEST', message: 'Cannot use wildcard for destination topic. Invalid topics: [<<"w/+/$1">>,<<"y/#">>]' });
  assert.equal((await get('/api/v5/mqtt/topic_rewrite')).json, [], 'nothing was stored');
  assert.is((await put([rule('subscribe', 'x/#', '^x/(.+)$', 'y/#')])).status, 200);
});

test('a regex that does not compile and a bad action are 400 BAD_REQUEST', async () => {
  const bad = await put([rule('all', 'x/#', '^x/(.+$', 'y/$1')]);
  assert.is(bad.status, 400);
  assert.is(bad.json.code, 'BAD_REQUEST');
  const reason = JSON.parse(bad.json.message);
  assert.is(reason.path, 'rewrite.1.re');
  assert.is(reason.reason.regexp, '^x/(.+$');
  const action = await put([rule('deliver', 'x/#', '^x/(.+)$', 'y/$1')]);
  assert.is(action.status, 400);
  assert.match(action.json.message, /action/);
  assert.is((await put([{ action: 'all', source_topic: 'x/#' }])).status, 400, 'every field is required');
});

test('the rules survive a restart', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-rewrite-'));
  try {
    const first = await buildTestApp({ dataDir: dir });
    const rules = [rule('all', 'x/#', '^x/(.+)$', 'y/$1')];
    assert.is((await api(first, 'PUT', '/api/v5/mqtt/topic_rewrite', { token: await login(first), body: rules })).statusCode, 200);
    await first.close();
    const second = await buildTestApp({ dataDir: dir });
    assert.equal((await api(second, 'GET', '/api/v5/mqtt/topic_rewrite', { token: await login(second) })).json(), rules);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('x/# → y/$1: a subscriber on y/# receives what a client publishes to x/a', async () => {
  await put([rule('publish', 'x/#', '^x/(.+)$', 'y/$1')]);
  const sub = await client('rw-sub');
  const got = inbox(sub);
  await sub.subscribeAsync(['y/#', 'x/#'], { qos: 1 });
  const pub = await client('rw-pub');
  await pub.publishAsync('x/a', 'hello', { qos: 1 });
  await pub.publishAsync('x/b/c', 'deep', { qos: 0 });
  await waitFor(() => got.length >= 2, 2000, 'two deliveries');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got.sort(), ['y/a=hello', 'y/b/c=deep'], 'delivered on the new topic only');
});

test('the publish API and retained messages are rewritten too', async () => {
  await put([rule('publish', 'x/#', '^x/(.+)$', 'y/$1')]);
  const res = await request(sim.baseUrl, 'POST', '/api/v5/publish', { token, body: { topic: 'x/kept', payload: 'r', retain: true } });
  // 202: nobody subscribes to it (§24.1).
  assert.is(res.status, 202);
  const retained = await get('/api/v5/mqtt/retainer/messages');
  assert.equal(retained.json.data.map((m: { topic: string }) => m.topic), ['y/kept']);
});

test('a subscribe rule rewrites the subscription (also inside $share) and the unsubscription', async () => {
  await put([rule('subscribe', 'x/#', '^x/(.+)$', 'y/$1')]);
  const sub = await client('rw-subscriber');
  const got = inbox(sub);
  await sub.subscribeAsync('x/b', { qos: 1 });
  await sub.subscribeAsync('$share/g/x/s', { qos: 0 });
  await waitFor(async () => (await subscriptionsOf('rw-subscriber')).length === 2, 1000, 'two subscriptions');
  assert.equal((await subscriptionsOf('rw-subscriber')).sort(), ['$share/g/y/s', 'y/b']);
  const pub = await client('rw-publisher');
  await pub.publishAsync('y/b', 'to-y', { qos: 1 });
  await pub.publishAsync('x/b', 'to-x', { qos: 1 });
  await waitFor(() => got.length >= 1, 2000, 'a delivery');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, ['y/b=to-y'], 'the client now listens on y/b, not x/b');
  await sub.unsubscribeAsync('x/b');
  await waitFor(async () => !(await subscriptionsOf('rw-subscriber')).includes('y/b'), 1000, 'the rewritten unsubscribe');
});

test('the last matching rule decides; a non-matching regex leaves the topic as it is', async () => {
  await put([
    rule('publish', 'x/#', '^x/(.+)$', 'first/$1'),
    rule('publish', 'x/+', '^x/(\\d+)$', 'second/$1'),
  ]);
  const sub = await client('rw-order-sub');
  const got = inbox(sub);
  await sub.subscribeAsync('#', { qos: 1 });
  const pub = await client('rw-order-pub');
  await pub.publishAsync('x/42', 'n', { qos: 1 });
  // x/abc matches the second rule's filter but not its regex: no rewrite, the first rule is not tried.
  await pub.publishAsync('x/abc', 's', { qos: 1 });
  await pub.publishAsync('x/a/b', 'd', { qos: 1 });
  await waitFor(() => got.length >= 3, 2000, 'three deliveries');
  assert.equal(got.sort(), ['first/a/b=d', 'second/42=n', 'x/abc=s']);
});

test('${clientid} and ${username} in the destination are the publisher\'s', async () => {
  await put([rule('publish', 'up/#', '^up/(.+)$', 'by/${clientid}/${username}/$1')]);
  const sub = await client('rw-bind-sub');
  const got = inbox(sub);
  await sub.subscribeAsync('by/#', { qos: 1 });
  const pub = await client('rw-dev-7', { username: 'alice' });
  await pub.publishAsync('up/temp', '21', { qos: 1 });
  await waitFor(() => got.length >= 1, 2000, 'a delivery');
  assert.equal(got, ['by/rw-dev-7/alice/temp=21']);
});

test('the routes need credentials', async () => {
  for (const method of ['GET', 'PUT'] as const) {
    const res = await request(sim.baseUrl, method, '/api/v5/mqtt/topic_rewrite', { body: method === 'PUT' ? [] : undefined });
    assert.is(res.status, 401);
  }
});

test.run();
