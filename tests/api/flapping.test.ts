// Flapping detection and the global zone config (issue 4, acceptance 3): GET/PUT
// /configs/global_zone with EMQX's defaults and merge semantics, and a client that disconnects
// max_count times within window_time gets banned for ban_time — visible in /banned and refused
// on CONNECT — only while detection is enabled.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

const clock = manualClock();
let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ app: { clock } });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const get = (path: string) => request(sim.baseUrl, 'GET', path, { token });
const put = (path: string, body: unknown) => request(sim.baseUrl, 'PUT', path, { token, body });

async function flap(clientId: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId });
    await endMqtt(c);
    await waitFor(async () => (await get(`/api/v5/clients/${clientId}`)).status === 404, 2000, 'the disconnect');
  }
}

async function connackCode(clientId: string): Promise<number> {
  try {
    await endMqtt(await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId }));
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

test('global_zone answers the defaults and merges a PUT', async () => {
  const zone = (await get('/api/v5/configs/global_zone')).json;
  assert.equal(zone.flapping_detect, { enable: false, window_time: '1m', max_count: 15, ban_time: '5m' });
  assert.equal(zone.force_shutdown, { enable: true, max_mailbox_size: 1000, max_heap_size: '32MB' });
  assert.equal(zone.force_gc, { enable: true, count: 16000, bytes: '16MB' });
  assert.is(zone.mqtt.max_packet_size, '1MB');
  assert.is(zone.mqtt.session_expiry_interval, '2h');
  const res = await put('/api/v5/configs/global_zone', { mqtt: { max_inflight: 64 } });
  assert.is(res.status, 200);
  assert.is(res.json.mqtt.max_inflight, 64);
  assert.is(res.json.mqtt.max_packet_size, '1MB', 'other keys are kept');
  assert.equal(sim.app.store.zone.get().mqtt.max_inflight, 64);
  // emqx_dashboard_swagger.erl check_request_body/5 checks each zone root before the handler: an
  // unknown field is 400 BAD_REQUEST `unknown_fields` at `mqtt` (the list form has no `root.`).
  const unknown = await put('/api/v5/configs/global_zone', { mqtt: { no_such_key: 1 } });
  assert.is(unknown.json.code, 'BAD_REQUEST');
  assert.equal(JSON.parse(unknown.json.message), { kind: 'validation_error', path: 'mqtt', reason: 'unknown_fields', unknown: 'no_such_key', unmatched: 'await_rel_timeout,client_attrs_init,...' });
  assert.is((await put('/api/v5/configs/global_zone', { flapping_detect: { window_time: 'soon' } })).status, 400);
  assert.is((await put('/api/v5/configs/global_zone', { flapping_detect: { enable: 'yes' } })).status, 400);
});

test('acceptance 3: flapping N times in the window bans the client id for ban_time', async () => {
  await flap('flappy', 4);
  assert.equal((await get('/api/v5/banned')).json.meta.count, 0, 'disabled detection bans nobody');

  const res = await put('/api/v5/configs/global_zone', { flapping_detect: { enable: true, max_count: 3, window_time: '1m', ban_time: '2m' } });
  assert.equal(res.json.flapping_detect, { enable: true, max_count: 3, window_time: '1m', ban_time: '2m' });
  await flap('flappy', 2);
  assert.is((await get('/api/v5/banned')).json.meta.count, 0);
  await flap('flappy', 1);
  const banned = (await get('/api/v5/banned')).json.data;
  assert.is(banned.length, 1);
  assert.equal([banned[0].as, banned[0].who, banned[0].by, banned[0].reason], ['clientid', 'flappy', 'flapping detector', 'flapping is detected']);
  assert.is(Date.parse(banned[0].until) - Date.parse(banned[0].at), 120_000);
  assert.is(await connackCode('flappy'), 5);

  // Disconnects spread wider than the window do not add up.
  await flap('slow', 2);
  clock.advance(61_000);
  await flap('slow', 2);
  assert.is((await get('/api/v5/banned?clientid=slow')).json.meta.count, 0);

  clock.advance(60_000);
  assert.is(await connackCode('flappy'), 0, 'the ban ends after ban_time');
});

test.run();
