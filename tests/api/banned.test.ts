// Banned clients (issue 4, acceptance 3): both list envelopes and their filters, POST defaults
// (until = at + 1 year, as in 5.5) and refusals, a ban that kicks the connected client and refuses
// its CONNECT with CONNACK 5 (MQTT 5: 0x8A) until `until` passes on the store clock, and deletes.
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';
import { rfc3339 } from '../../simulator/lib/time.ts';

const clock = manualClock();
let sim: RunningSimulator;
let token = '';
let open: MqttClient[] = [];

test.before(async () => {
  // `until: "infinity"` and the regex kinds are 5.8 (store/profile.ts).
  sim = await startSimulator({ app: { clock, emqxVersion: '5.8.9' } });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  token = await login(sim.baseUrl);
  await del('/api/v5/banned');
});

test.after(async () => {
  await sim.close();
});

const get = (path: string) => request(sim.baseUrl, 'GET', path, { token });
const del = (path: string) => request(sim.baseUrl, 'DELETE', path, { token });
const post = (path: string, body: unknown) => request(sim.baseUrl, 'POST', path, { token, body });

async function connackCode(clientId: string, username?: string, protocolVersion: 4 | 5 = 4): Promise<number> {
  try {
    const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId, username, protocolVersion });
    c.on('error', () => {});
    open.push(c);
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

test('acceptance 3: banning a connected client id kicks it and refuses it until `until`', async () => {
  assert.is(await connackCode('b-1'), 0);
  const victim = open[0];
  const closed = new Promise<void>((resolve) => victim.once('close', () => resolve()));
  const now = clock.now();
  const res = await post('/api/v5/banned', { as: 'clientid', who: 'b-1', reason: 'tests' });
  assert.is(res.status, 200);
  // From 5.8.1 an omitted `until` is infinity (a year after `at` before; strict-input.test.ts).
  assert.equal(res.json, { as: 'clientid', who: 'b-1', by: 'mgmt_api', reason: 'tests', at: rfc3339(now), until: 'infinity' });
  await closed;
  await waitFor(async () => (await get('/api/v5/clients/b-1')).status === 404, 2000, 'the banned client to be gone');
  assert.is(await connackCode('b-1'), 5);
  assert.is(await connackCode('b-2'), 0, 'other clients still connect');

  // A short ban expires on the store clock.
  await del('/api/v5/banned/clientid/b-1');
  assert.is((await post('/api/v5/banned', { as: 'clientid', who: 'b-1', until: Math.floor(now / 1000) + 60 })).status, 200);
  assert.is(await connackCode('b-1'), 5);
  clock.advance(61_000);
  assert.is(await connackCode('b-1'), 0);
  assert.equal((await get('/api/v5/banned')).json, { data: [], meta: { page: 1, limit: 100, count: 0 } });
});

test('username and peerhost bans refuse CONNECT with code 5', async () => {
  await post('/api/v5/banned', { as: 'username', who: 'spam', until: 'infinity' });
  assert.is(await connackCode('u-1', 'spam'), 5);
  assert.is(await connackCode('u-2', 'fine'), 0);
  await post('/api/v5/banned', { as: 'peerhost', who: '127.0.0.1' });
  assert.is(await connackCode('u-3', 'fine'), 5);
  assert.is((await del('/api/v5/banned/peerhost/127.0.0.1')).status, 204);
  assert.is(await connackCode('u-3', 'fine'), 0);
});

test('a banned MQTT 5 client hears CONNACK 0x8A Banned (emqx_channel.erl check_banned: ?RC_BANNED), over mqtt.js and mosquitto', async () => {
  await post('/api/v5/banned', { as: 'clientid', who: 'v5-banned', until: 'infinity' });
  assert.is(await connackCode('v5-banned', undefined, 5), 0x8a);
  assert.is(await connackCode('v5-banned', undefined, 4), 5, 'MQTT 3.1.1 has no such code: 5, not authorized');
  // The simulator runs in this process: the client must not block its event loop.
  const said = await new Promise<string>((resolve) => {
    execFile('mosquitto_sub', ['-V', 'mqttv5', '-h', '127.0.0.1', '-p', String(sim.mqtt), '-i', 'v5-banned', '-t', 'x', '-C', '1', '-W', '3'], (_err, stdout, stderr) => resolve(`${stdout}${stderr}`));
  });
  assert.ok(/banned/i.test(said), said);
});

test('list envelopes, filters, duplicates, expired entries and deletes', async () => {
  for (let i = 0; i < 12; i++) await post('/api/v5/banned', { as: 'clientid', who: `l-${i}` });
  await post('/api/v5/banned', { as: 'username', who: 'l-user' });
  const page = (await get('/api/v5/banned?page=2&limit=5')).json;
  assert.equal(page.meta, { page: 2, limit: 5, count: 13 });
  assert.is(page.data[0].who, 'l-5');
  const exact = (await get('/api/v5/banned?clientid=l-3')).json;
  assert.equal(exact.meta, { page: 1, limit: 100, hasnext: false, count: 1 });
  const like = (await get('/api/v5/banned?like_clientid=^l-1')).json;
  assert.equal([like.data.length, like.meta], [3, { page: 1, limit: 100, hasnext: false }]);
  assert.equal((await get('/api/v5/banned?clientid=a&username=b')).json, { code: 'BAD_REQUEST', message: 'too_many_filters' });
  assert.is((await get('/api/v5/banned?like_clientid=(')).status, 400);

  const dup = await post('/api/v5/banned', { as: 'clientid', who: 'l-0' });
  assert.is(dup.status, 400);
  assert.is(dup.json.code, 'ALREADY_EXISTS');
  assert.is(JSON.parse(dup.json.message).who, 'l-0');
  const at = Math.floor(clock.now() / 1000) - 100;
  const expired = await post('/api/v5/banned', { as: 'clientid', who: 'old', at, until: at + 10 });
  assert.equal(expired.json, { code: 'BAD_REQUEST', message: `Cannot create expired banned, ${at} to ${at + 10}` });
  assert.is((await post('/api/v5/banned', { as: 'nobody', who: 'x' })).status, 400);

  assert.is((await del('/api/v5/banned/clientid/l-0')).status, 204);
  assert.equal((await del('/api/v5/banned/clientid/l-0')).json, { code: 'NOT_FOUND', message: 'clientid: l-0 not found' });
  assert.is((await del('/api/v5/banned')).status, 204);
  assert.is((await get('/api/v5/banned')).json.meta.count, 0);
});

test.run();
