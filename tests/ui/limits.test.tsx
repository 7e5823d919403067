// The rate limits by release (issue #32): from 5.10 the listener form has the limiter's rate and
// burst for connections, messages and bytes, and the zone's MQTT settings have `mqtt.limiter`,
// both checked against the broker's rate syntax (emqx_limiter_schema.erl parse_rate/1); on 5.8
// the listener keeps max_conn_rate alone and the zone has no limiter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { clearSchemas } from '../../web/lib/schemas.ts';
import { schemaDocument } from '../../simulator/schemas/index.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, signedInAt, submit, text, type, waitFor } from '../helpers/render.tsx';

const hotconf = JSON.parse(schemaDocument('hotconf'));
const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const tcp = { id: 'tcp:default', type: 'tcp', name: 'default', enable: true, bind: '0.0.0.0:1883', acceptors: 16, max_connections: 'infinity', mountpoint: '',
  enable_authn: true, access_rules: ['allow all'], proxy_protocol: false, proxy_protocol_timeout: '3s', tcp_options: { backlog: 1024, send_timeout: '15s', buffer: '4KB' },
  running: true, current_connections: 0 };
const zone = { mqtt: { max_packet_size: '1MB', max_clientid_len: 65535, max_topic_levels: 128, max_inflight: 32 } };
const field = (name: string) => byTest<HTMLInputElement>(`field-${name}`);

async function open(path: string, version: string, routes: Parameters<typeof fakeApi>[0]) {
  setLocale('en');
  clearSchemas();
  await signedInAt(path, { version, edition: 'ee' });
  const api = fakeApi({ 'GET /alarms': alarms, 'GET /schemas/hotconf': { body: hotconf }, ...routes });
  await mount(<App />);
  return api;
}

let restore = () => {};
test.after.each(() => {
  cleanup();
  restore();
});
const puts = (api: { calls: { method: string; body: unknown }[] }) => api.calls.filter((c) => c.method === 'PUT').map((c) => c.body);

test('6.2.2: the listener form has the six limiter fields; a bad rate is refused at the field; an emptied rate is sent as infinity', async () => {
  const api = await open('/listener/detail/tcp%3Adefault', '6.2.2', {
    'GET /listeners/tcp:default': { body: { ...tcp, messages_rate: '100/s' } }, 'PUT /listeners/tcp:default': (c) => ({ body: c.body }),
  });
  restore = api.restore;
  await waitFor(() => field('messages_rate'));
  for (const name of ['max_conn_rate', 'max_conn_burst', 'messages_burst', 'bytes_rate', 'bytes_burst']) assert.ok(field(name), name);
  assert.ok(text().includes('Rate Limits'));
  for (const bad of ['0/s', '10/0s', 'lots', '1.5/s']) {
    await type(field('bytes_rate'), bad);
    await submit(byTest('config-listener-form'));
    assert.is(byTest('error-bytes_rate')?.textContent, 'Please enter a properly formatted rate configuration', bad);
  }
  await type(field('bytes_rate'), '10MB/s');
  await type(field('bytes_burst'), 'infinity');
  await submit(byTest('config-listener-form'));
  assert.is(byTest('error-bytes_burst')?.textContent, 'Please enter a properly formatted rate configuration', 'a burst is never infinity');
  await type(field('bytes_burst'), '0/1m');
  await type(field('messages_rate'), '');
  await submit(byTest('config-listener-form'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => puts(api).length === 1);
  const body = puts(api)[0] as Record<string, unknown>;
  assert.equal([body.messages_rate, body.bytes_rate, body.bytes_burst, 'max_conn_rate' in body], ['infinity', '10MB/s', '0/1m', false]);
});

test('5.8.9: the listener keeps max_conn_rate alone and the zone has no limiter', async () => {
  let api = await open('/listener/detail/tcp%3Adefault', '5.8.9', { 'GET /listeners/tcp:default': { body: { ...tcp, max_conn_rate: '1000/s' } } });
  restore = api.restore;
  await waitFor(() => field('max_conn_rate'));
  assert.is(field('max_conn_rate')!.value, '1000/s');
  for (const name of ['messages_rate', 'bytes_rate', 'max_conn_burst']) assert.not.ok(field(name), name);
  cleanup();
  restore();
  api = await open('/mqtt/general', '5.8.9', { 'GET /configs/global_zone': { body: zone } });
  restore = api.restore;
  await waitFor(() => field('max_packet_size'));
  assert.not.ok(field('limiter.messages_rate'));
  assert.not.ok(text().includes('Rate Limits'));
});

test('6.2.2: the zone limiter is saved under mqtt.limiter without the fields left empty', async () => {
  const api = await open('/mqtt/general', '6.2.2', {
    'GET /configs/global_zone': { body: { mqtt: { ...zone.mqtt, limiter: { messages_rate: '100/s', bytes_rate: '1MB/s' } } } },
    'PUT /configs/global_zone': (c) => ({ body: c.body }),
  });
  restore = api.restore;
  await waitFor(() => field('limiter.messages_rate'));
  assert.is(field('limiter.bytes_rate')!.value, '1MB/s');
  await type(field('limiter.messages_rate'), '');
  await type(field('limiter.max_conn_rate'), '50/s');
  await submit(byTest('config-mqtt-general-form'));
  await waitFor(() => puts(api).length === 1);
  assert.equal((puts(api)[0] as { mqtt: { limiter: unknown } }).mqtt.limiter, { bytes_rate: '1MB/s', max_conn_rate: '50/s' });
});

test.run();
