// Retained messages and the publish API with real mqtt.js clients (emqx-api-part1 §11, §24.1,
// security.md M4): what MQTT clients retain is listed and readable over the API, what the API
// deletes is gone for new subscribers, and POST /publish goes through the real broker.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator,
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
  await request(sim.baseUrl, 'DELETE', '/api/v5/mqtt/retainer/messages', { token });
});

test.after(async () => {
  await sim.close();
});

const get = (path: string) => request(sim.baseUrl, 'GET', path, { token });
const del = (path: string) => request(sim.baseUrl, 'DELETE', path, { token });
const post = (path: string, body: unknown) => request(sim.baseUrl, 'POST', path, { token, body });
const q = encodeURIComponent;

async function client(clientId: string, options: Parameters<typeof connectMqtt>[1] = {}): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, ...options });
  // A message that arrives while the test ends it would make mqtt.js write after end.
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** Subscribes a new client and returns the first message it gets; a sentinel published after the
 * subscription arrives first when nothing was retained. */
async function firstAfterSubscribe(filter: string): Promise<string> {
  const pub = await client(`sentinel-${Math.random().toString(36).slice(2, 8)}`);
  const late = await client(`late-${Math.random().toString(36).slice(2, 8)}`);
  const first = new Promise<string>((resolve) => late.once('message', (topic, payload) => resolve(`${topic}=${payload}`)));
  await late.subscribeAsync([filter, 'sentinel'], { qos: 1 });
  // Retained messages are sent right after the SUBACK; give them a moment before the sentinel.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await pub.publishAsync('sentinel', 'end', { qos: 1 });
  return first;
}

test('a retained publish is listed, readable with its payload in base64, and counted', async () => {
  const pub = await client('ret-pub', { username: 'bob' });
  await pub.publishAsync('ret/a', 'hello', { qos: 1, retain: true });
  await waitFor(async () => (await get('/api/v5/mqtt/retainer/messages')).json.meta.count === 1, 1000, 'listed');
  const list = (await get('/api/v5/mqtt/retainer/messages')).json;
  assert.equal(list.meta, { page: 1, limit: 100, hasnext: false, count: 1 });
  const row = list.data[0];
  assert.match(row.msgid, /^[0-9A-F]{32}$/);
  assert.equal({ ...row, msgid: '', publish_at: '' }, { msgid: '', topic: 'ret/a', qos: 1, publish_at: '', from_clientid: 'ret-pub', from_username: 'bob' });
  assert.match(row.publish_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
  const one = await get(`/api/v5/mqtt/retainer/message/${q('ret/a')}`);
  assert.is(one.status, 200);
  assert.equal(one.json, { ...row, payload: Buffer.from('hello').toString('base64') });
  assert.is((await get('/api/v5/stats?aggregate=true')).json['retained.count'], 1);
  assert.is((await get('/api/v5/monitor_current')).json.retained_msg_count, 1);
});

test('the topic filter selects retained messages and leaves count out; a new message replaces the old', async () => {
  const pub = await client('ret-filter');
  await pub.publishAsync('site/1/temp', '20', { qos: 0, retain: true });
  await pub.publishAsync('site/2/temp', '21', { qos: 0, retain: true });
  await pub.publishAsync('other/x', 'x', { qos: 0, retain: true });
  await pub.publishAsync('site/1/temp', '22', { qos: 2, retain: true });
  await waitFor(async () => (await get('/api/v5/mqtt/retainer/messages')).json.meta.count === 3, 1000, 'three retained');
  const site = (await get(`/api/v5/mqtt/retainer/messages?topic=${q('site/+/temp')}&limit=1`)).json;
  assert.equal(site.meta, { page: 1, limit: 1, hasnext: true });
  const page2 = (await get(`/api/v5/mqtt/retainer/messages?topic=${q('site/+/temp')}&limit=1&page=2`)).json;
  assert.equal(page2.meta, { page: 2, limit: 1, hasnext: false });
  const latest = (await get(`/api/v5/mqtt/retainer/message/${q('site/1/temp')}`)).json;
  assert.equal([latest.qos, Buffer.from(latest.payload, 'base64').toString()], [2, '22']);
  assert.is((await get(`/api/v5/mqtt/retainer/messages?topic=${q('a/#/b')}`)).status, 400);
});

test('DELETE removes a retained message from the broker: a new subscriber gets nothing', async () => {
  const pub = await client('ret-del');
  await pub.publishAsync('door/1', 'open', { qos: 1, retain: true });
  await waitFor(async () => (await get(`/api/v5/mqtt/retainer/message/${q('door/1')}`)).status === 200, 1000, 'retained');
  assert.is(await firstAfterSubscribe('door/#'), 'door/1=open', 'retained before the delete');
  const res = await del(`/api/v5/mqtt/retainer/message/${q('door/1')}`);
  assert.equal([res.status, res.text], [204, '']);
  const gone = await get(`/api/v5/mqtt/retainer/message/${q('door/1')}`);
  assert.equal([gone.status, gone.json], [404, { code: 'NOT_FOUND', message: "Viewed message doesn't exist" }]);
  assert.is((await del(`/api/v5/mqtt/retainer/message/${q('door/1')}`)).status, 404);
  assert.is(await firstAfterSubscribe('door/#'), 'sentinel=end', 'nothing retained any more');
  assert.is((await get(`/api/v5/mqtt/retainer/message/${q('door/+')}`)).status, 400, 'a filter is not a topic name');
});

test('DELETE /mqtt/retainer/messages clears every retained message', async () => {
  const pub = await client('ret-clear');
  await pub.publishAsync('clear/a', '1', { qos: 1, retain: true });
  await pub.publishAsync('clear/b', '2', { qos: 1, retain: true });
  await waitFor(async () => (await get('/api/v5/mqtt/retainer/messages')).json.meta.count === 2, 1000, 'two retained');
  assert.is((await del('/api/v5/mqtt/retainer/messages')).status, 204);
  assert.equal((await get('/api/v5/mqtt/retainer/messages')).json.data, []);
  assert.is((await get('/api/v5/stats?aggregate=true')).json['retained.count'], 0);
  assert.is(await firstAfterSubscribe('clear/#'), 'sentinel=end');
});

test('POST /publish reaches subscribers (200 with an id) and says when nobody listens (202)', async () => {
  const sub = await client('pub-sub');
  await sub.subscribeAsync('api/pub/#', { qos: 1 });
  const got = new Promise<[string, Buffer]>((resolve) => sub.once('message', (topic, payload) => resolve([topic, payload])));
  const ok = await post('/api/v5/publish', { topic: 'api/pub/1', payload: 'hi', qos: 1 });
  assert.is(ok.status, 200);
  assert.match(ok.json.id, /^[0-9A-F]{32}$/);
  assert.equal((await got).map(String), ['api/pub/1', 'hi']);
  const binary = new Promise<Buffer>((resolve) => sub.once('message', (_t, payload) => resolve(payload)));
  assert.is((await post('/api/v5/publish', { topic: 'api/pub/2', payload: 'AAEC/w==', payload_encoding: 'base64' })).status, 200);
  assert.equal([...(await binary)], [0, 1, 2, 255]);
  const nobody = await post('/api/v5/publish', { topic: 'nobody/home', payload: 'x' });
  assert.equal([nobody.status, nobody.json], [202, { reason_code: 16, message: 'no_matching_subscribers' }]);
  const metrics = (await get('/api/v5/metrics?aggregate=true')).json;
  assert.ok(metrics['messages.dropped.no_subscribers'] >= 1);
});

test('a retained message published over the API is stored even with no subscriber', async () => {
  const res = await post('/api/v5/publish', { topic: 'api/retained', payload: 'kept', retain: true });
  assert.is(res.status, 202);
  const row = (await get(`/api/v5/mqtt/retainer/message/${q('api/retained')}`)).json;
  assert.equal([row.from_clientid, Buffer.from(row.payload, 'base64').toString()], ['http_api', 'kept']);
  assert.is(await firstAfterSubscribe('api/#'), 'api/retained=kept');
});

test('bad publishes are refused with EMQX reason codes; bulk answers per message', async () => {
  const wildcard = await post('/api/v5/publish', { topic: 'a/+', payload: 'x' });
  assert.equal([wildcard.status, wildcard.json.reason_code, wildcard.json.message], [400, 144, 'topic_name_invalid']);
  const base64 = await post('/api/v5/publish', { topic: 'a', payload: '***', payload_encoding: 'base64' });
  assert.equal([base64.status, base64.json.reason_code], [400, 131]);
  const large = await post('/api/v5/publish', { topic: 'a', payload: 'x'.repeat(1024 * 1024 + 1) });
  assert.equal([large.status, large.json.reason_code, large.json.message], [400, 151, 'packet_too_large']);
  assert.equal((await post('/api/v5/publish', { payload: 'no topic' })).json.code, 'BAD_REQUEST');

  const sub = await client('bulk-sub');
  await sub.subscribeAsync('bulk/#', { qos: 1 });
  const mixed = await post('/api/v5/publish/bulk', [{ topic: 'bulk/1', payload: '1' }, { topic: 'nobody', payload: '2' }]);
  assert.is(mixed.status, 202);
  assert.match(mixed.json[0].id, /^[0-9A-F]{32}$/);
  assert.equal(mixed.json[1], { reason_code: 16, message: 'no_matching_subscribers' });
  const all = await post('/api/v5/publish/bulk', [{ topic: 'bulk/2', payload: '1' }, { topic: 'bulk/3', payload: '2' }]);
  assert.equal([all.status, all.json.length], [200, 2]);
  const refused = await post('/api/v5/publish/bulk', [{ topic: 'bulk/4', payload: '1' }, { topic: 'bulk/#', payload: '2' }]);
  assert.equal([refused.status, refused.json.reason_code], [400, 144]);
});

test.run();
