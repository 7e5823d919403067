// Authorization against real MQTT clients (issue 4): the sources API (prepend on create, move,
// order, status with a TCP probe), the file source's ACL text (validated, enforced with
// placeholders), built-in rules per client / username / all with `eq` topics, no_match and
// deny_action (disconnect really disconnects), the cache settings and clearing, and an http
// authorizer called for real.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];
const DEFAULT_SETTINGS = { no_match: 'allow', deny_action: 'ignore', cache: { enable: true, max_size: 32, ttl: '1m', excludes: [] } };

test.before(async () => {
  // The sources order endpoint and `max_rules` are 5.8 (store/profile.ts).
  sim = await startSimulator({ nodes: 1, app: { emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
  DEFAULT_RULES = (await get('/api/v5/authorization/sources/file')).json.rules;
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  for (const s of (await get('/api/v5/authorization/sources')).json.sources) {
    if (s.type !== 'file') await del(`/api/v5/authorization/sources/${s.type}`);
  }
  await put('/api/v5/authorization/settings', DEFAULT_SETTINGS);
  const file = (await get('/api/v5/authorization/sources/file')).json;
  await put('/api/v5/authorization/sources/file', { ...file, enable: true, rules: DEFAULT_RULES });
});

test.after(async () => {
  await sim.close();
});

const get = (path: string) => request(sim.baseUrl, 'GET', path, { token });
const del = (path: string) => request(sim.baseUrl, 'DELETE', path, { token });
const post = (path: string, body: unknown) => request(sim.baseUrl, 'POST', path, { token, body });
const put = (path: string, body?: unknown) => request(sim.baseUrl, 'PUT', path, { token, body });
let DEFAULT_RULES = '';
const RULES = '/api/v5/authorization/sources/built_in_database/rules';

async function connect(clientId: string, username?: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, username });
  c.on('error', () => {});
  open.push(c);
  return c;
}

function grant(c: MqttClient, topic: string): Promise<number> {
  return new Promise((resolve) => c.subscribe(topic, { qos: 1 }, (err, granted) => {
    const refused = (err as { packet?: { granted?: number[] } } | null)?.packet?.granted?.[0];
    resolve(refused ?? granted?.[0]?.qos ?? -1);
  }));
}

test('sources: default file source, create prepends with 204, duplicates and unknown types refused', async () => {
  const list = (await get('/api/v5/authorization/sources')).json;
  assert.is(list.sources.length, 1);
  assert.is(list.sources[0].type, 'file');
  assert.match(list.sources[0].rules, /\{allow, all\}\./);
  assert.is(list.sources[0].rules, DEFAULT_RULES);
  assert.is((await post('/api/v5/authorization/sources', { type: 'built_in_database' })).status, 204);
  assert.is((await post('/api/v5/authorization/sources', { type: 'http', method: 'post', url: 'http://127.0.0.1:9/acl', headers: { authorization: 'Bearer t' } })).status, 204);
  const types = async () => (await get('/api/v5/authorization/sources')).json.sources.map((s: { type: string }) => s.type);
  assert.equal(await types(), ['http', 'built_in_database', 'file']);
  const http1 = (await get('/api/v5/authorization/sources/http')).json;
  assert.is(http1.headers.authorization, '******');
  assert.is(http1.request_timeout, '30s');
  assert.is((await put('/api/v5/authorization/sources/http', { ...http1, pool_size: 3 })).status, 204);
  assert.is(sim.app.store.authz.enabledSources()[0].headers.authorization, 'Bearer t', 'the ****** kept the stored secret');
  const dup = await post('/api/v5/authorization/sources', { type: 'http', method: 'get', url: 'http://127.0.0.1:9/' });
  assert.is(dup.status, 400);
  assert.is((await get('/api/v5/authorization/sources/mysql')).status, 404);
  assert.is((await get('/api/v5/authorization/sources/nope')).status, 400);
  assert.equal((await put('/api/v5/authorization/sources/http', { type: 'file', rules: '' })).json.message, 'Type mismatch');
  assert.is((await post('/api/v5/authorization/sources/file/move', { position: 'front' })).status, 204);
  assert.is((await post('/api/v5/authorization/sources/http/move', { position: 'after:built_in_database' })).status, 204);
  assert.equal(await types(), ['file', 'built_in_database', 'http']);
  assert.is((await post('/api/v5/authorization/sources/http/move', { position: 'up' })).status, 400);
  assert.is((await put('/api/v5/authorization/sources/order', [{ type: 'http' }, { type: 'file' }])).status, 400);
  assert.is((await put('/api/v5/authorization/sources/order', [{ type: 'http' }, { type: 'built_in_database' }, { type: 'file' }])).status, 204);
  assert.equal(await types(), ['http', 'built_in_database', 'file']);
});

test('file source: invalid ACL text is a 400; rules with placeholders decide real subscriptions', async () => {
  for (const rules of ['{allow, all', '{maybe, all}.', '{allow, {username, "x"}, publish, "t"}.', '{allow, {ipaddr, "300.1.1.1"}, all, ["#"]}.']) {
    const res = await put('/api/v5/authorization/sources/file', { type: 'file', enable: true, rules });
    assert.is(res.status, 400, rules);
  }
  const rules = [
    '{allow, {username, "u1"}, subscribe, ["u/${username}/#"]}.',
    '{allow, {clientid, {re, "^dev-"}}, subscribe, [{eq, "d/#"}]}.',
    '{allow, {\'and\', [{username, "u1"}, {ipaddr, "127.0.0.0/8"}]}, publish, ["x"]}.',
    '{deny, all}.',
  ].join('\n');
  assert.is((await put('/api/v5/authorization/sources/file', { type: 'file', enable: true, rules })).status, 204);
  assert.is((await get('/api/v5/authorization/sources/file')).json.rules, rules);
  const u1 = await connect('f-1', 'u1');
  assert.is(await grant(u1, 'u/u1/a'), 1);
  assert.is(await grant(u1, 'u/u2/a'), 128);
  const dev = await connect('dev-7');
  assert.is(await grant(dev, 'd/#'), 1);
  assert.is(await grant(dev, 'd/a'), 128);
  const status = (await get('/api/v5/authorization/sources/file/status')).json;
  assert.is(status.status, 'connected');
  assert.equal([status.metrics.allow, status.metrics.deny], [2, 2]);
});

test('built-in rules: users, clients and all with paging, errors and real enforcement order', async () => {
  assert.is((await get(`${RULES}/users`)).status, 404);
  await post('/api/v5/authorization/sources', { type: 'built_in_database', max_rules: 3 });
  assert.is((await post(`${RULES}/users`, [{ username: 'ann', rules: [{ permission: 'allow', action: 'subscribe', topic: 'a/${username}' }, { permission: 'deny', action: 'sub', topic: 'a/#' }] }])).status, 204);
  assert.is((await post(`${RULES}/users`, [{ username: 'ann', rules: [] }])).status, 409);
  const tooMany = await post(`${RULES}/users`, [{ username: 'zed', rules: Array(4).fill({ permission: 'allow', action: 'all', topic: 'x' }) }]);
  assert.equal([tooMany.status, tooMany.json.message], [400, "The rules length of User 'zed' exceeds the maximum limit."]);
  for (let i = 0; i < 12; i++) await post(`${RULES}/clients`, [{ clientid: `cl-${i}`, rules: [{ permission: 'deny', action: 'publish', topic: 'p/1', qos: 1 }] }]);
  const page = (await get(`${RULES}/clients?page=2&limit=5`)).json;
  assert.equal(page.meta, { page: 2, limit: 5, hasnext: true, count: 12 });
  assert.equal(page.data[0], { clientid: 'cl-5', rules: [{ permission: 'deny', action: 'publish', topic: 'p/1', qos: [1], retain: 'all' }] });
  assert.equal((await get(`${RULES}/clients?like_clientid=cl-1`)).json.meta, { page: 1, limit: 100, hasnext: false });
  assert.equal((await get(`${RULES}/users/ann`)).json.rules[1], { permission: 'deny', action: 'subscribe', topic: 'a/#', qos: [0, 1, 2], retain: 'all' });
  assert.equal((await get(`${RULES}/users/bob`)).json.message, 'Username Not Found');
  assert.equal((await del(`${RULES}/clients/nobody`)).json.message, 'ClientID Not Found');
  assert.is((await put(`${RULES}/clients/cl-0`, { clientid: 'cl-0', rules: [{ permission: 'allow', action: 'subscribe', topic: 'eq t/#' }, { permission: 'deny', action: 'subscribe', topic: 't/#' }] })).status, 204);
  assert.equal((await get(`${RULES}/all`)).json, { rules: [] });
  assert.is((await post(`${RULES}/all`, { rules: [{ permission: 'deny', action: 'subscribe', topic: '#' }] })).status, 204);

  const ann = await connect('x-ann', 'ann');
  assert.is(await grant(ann, 'a/ann'), 1);
  assert.is(await grant(ann, 'a/other'), 128);
  assert.is(await grant(ann, 'b/1'), 128, 'the all rules deny the rest');
  const cl0 = await connect('cl-0');
  assert.is(await grant(cl0, 't/#'), 1, 'eq t/# allows the literal filter');
  assert.is(await grant(cl0, 't/a'), 128);
  assert.is((await del(`${RULES}/all`)).status, 204);
  assert.equal((await get(`${RULES}/all`)).json, { rules: [] });
  assert.is((await del(RULES)).status, 400, 'purge needs the source disabled');
});

test('no_match, deny_action disconnect and the cache settings', async () => {
  assert.equal((await get('/api/v5/authorization/settings')).json, DEFAULT_SETTINGS);
  const file = (await get('/api/v5/authorization/sources/file')).json;
  assert.is((await put('/api/v5/authorization/sources/file', { ...file, enable: false })).status, 204);
  const c1 = await connect('nm-1');
  assert.is(await grant(c1, 'n/1'), 1);
  const denied = { ...DEFAULT_SETTINGS, no_match: 'deny', deny_action: 'ignore', cache: { ...DEFAULT_SETTINGS.cache, excludes: ['nocache/#'] } };
  const res = await put('/api/v5/authorization/settings', denied);
  assert.equal([res.status, res.json], [200, denied]);
  assert.is((await put('/api/v5/authorization/settings', { ...denied, no_match: 'maybe' })).status, 400);
  // The cached allow for n/1 stays until the cache is cleared.
  assert.is(await grant(c1, 'n/1'), 1);
  assert.is(await grant(c1, 'n/2'), 128);
  const cache = (await get('/api/v5/clients/nm-1/authorization/cache')).json;
  assert.equal(cache.map((e: { topic: string; result: string }) => `${e.topic}=${e.result}`).sort(), ['n/1=allow', 'n/2=deny']);
  await grant(c1, 'nocache/1');
  assert.is((await get('/api/v5/clients/nm-1/authorization/cache')).json.length, 2, 'excluded topics are not cached');
  assert.is((await del('/api/v5/authorization/cache')).status, 204);
  assert.equal((await get('/api/v5/clients/nm-1/authorization/cache')).json, []);
  assert.is(await grant(c1, 'n/1'), 128);

  // deny_action disconnect: a denied publish ends the connection (a denied subscription too:
  // emqx_channel.erl check_sub_authzs, tested in mqtt5.test.ts).
  const disconnecting = { ...denied, deny_action: 'disconnect' };
  assert.equal((await put('/api/v5/authorization/settings', disconnecting)).json, disconnecting);
  const closed = new Promise<void>((resolve) => c1.once('close', () => resolve()));
  c1.publish('n/3', 'x', { qos: 0 });
  await closed;
  await waitFor(async () => (await get('/api/v5/clients/nm-1')).status === 404, 2000, 'the client to be gone');
});

test('an http authorizer is called with the client, topic and action; database sources probe their server', async () => {
  const calls: Record<string, string>[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const parsed = JSON.parse(body) as Record<string, string>;
      calls.push(parsed);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result: parsed.topic.startsWith('ok/') ? 'allow' : parsed.topic.startsWith('no/') ? 'deny' : 'ignore' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acl`;
  await post('/api/v5/authorization/sources', { type: 'http', method: 'post', url, body: { clientid: '${clientid}', username: '${username}', topic: '${topic}', action: '${action}' } });
  const c = await connect('h-1', 'hu');
  assert.is(await grant(c, 'ok/1'), 1);
  assert.is(await grant(c, 'no/1'), 128);
  assert.is(await grant(c, 'other/1'), 1, 'ignore passes to the file source, which allows 127.0.0.1');
  assert.equal(calls[0], { clientid: 'h-1', username: 'hu', topic: 'ok/1', action: 'subscribe' });
  const status = (await get('/api/v5/authorization/sources/http/status')).json;
  assert.equal([status.status, status.metrics.allow, status.metrics.deny, status.metrics.nomatch], ['connected', 1, 1, 1]);
  server.close();

  assert.is((await post('/api/v5/authorization/sources', { type: 'redis', redis_type: 'single', server: '127.0.0.1:1', cmd: 'HGETALL mqtt_acl:${username}', password: 'r' })).status, 204);
  const redis = (await get('/api/v5/authorization/sources/redis/status')).json;
  assert.is(redis.status, 'disconnected');
  assert.match(redis.status_reason, /127\.0\.0\.1:1/);
  assert.is((await get('/api/v5/authorization/sources/redis')).json.password, '******');
  assert.is((await post('/api/v5/authorization/sources', { type: 'mysql', server: 'db:3306' })).status, 400, 'query and database are required');
});

test.run();
