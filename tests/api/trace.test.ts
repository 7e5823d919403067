// Log trace (emqx-api-part1 §18) against real MQTT clients: a client-id trace records the
// client's CONNECT, SUBSCRIBE, PUBLISH and delivery lines with the payload in the chosen
// encoding, the log pages by position and bytes (envelope G), the download is a real zip named by
// content-disposition, topic and IP traces follow what they name, and status follows the clock.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  api, buildTestApp, connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor, type RunningSimulator,
} from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
let dataDir = '';
let open: MqttClient[] = [];

test.before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'trace-test-'));
  sim = await startSimulator({ dataDir });
  token = await login(sim.baseUrl);
});

test.after.each(async () => {
  await Promise.all(open.map((c) => endMqtt(c)));
  open = [];
  await request(sim.baseUrl, 'DELETE', '/api/v5/trace', { token });
});

test.after(async () => {
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (p: string) => request(sim.baseUrl, 'GET', p, { token });
const post = (p: string, body: unknown) => request(sim.baseUrl, 'POST', p, { token, body });

async function client(clientId: string): Promise<MqttClient> {
  const c = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId });
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** The whole node-1 log, read in pages of `bytes` the way the console follows it. */
async function readLog(name: string, bytes = 1000): Promise<{ text: string; pages: number }> {
  let position = 0;
  let text = '';
  let pages = 0;
  for (;;) {
    const res = await get(`/api/v5/trace/${name}/log?bytes=${bytes}&position=${position}`);
    assert.is(res.status, 200, res.text);
    assert.is(res.json.meta.bytes, bytes);
    if (res.json.items === '') return { text, pages };
    text += res.json.items;
    position = res.json.meta.position;
    assert.is(position, Buffer.byteLength(text), 'position counts bytes');
    pages++;
  }
}

/** GET as raw bytes (the zip). */
function download(p: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(new URL(p, sim.baseUrl), { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Runs a program without blocking the simulator in this process; resolves with its stdout. */
function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('a client-id trace records the client connecting, subscribing, publishing and receiving, payload as text', async () => {
  const created = await post('/api/v5/trace', { name: 'dev1', type: 'clientid', clientid: 'traced-1' });
  assert.is(created.status, 200, created.text);
  assert.is(created.json.clientid, 'traced-1');
  assert.is(created.json.status, 'running');
  assert.equal(Object.keys(created.json.log_size), ['emqx@node1', 'emqx@node2', 'emqx@node3']);
  const other = await client('bystander');
  const traced = await client('traced-1');
  await traced.subscribeAsync('t/trace', { qos: 1 });
  const got = new Promise<string>((resolve) => traced.once('message', (_t, p) => resolve(String(p))));
  await traced.publishAsync('t/trace', 'hello trace', { qos: 1 });
  assert.is(await got, 'hello trace');
  await other.publishAsync('t/other', 'not traced', { qos: 0 });
  await waitFor(async () => (await readLog('dev1')).text.includes('mqtt_packet_sent, packet: PUBLISH(Q1'), 2000, 'the delivery line');

  const { text, pages } = await readLog('dev1', 200);
  assert.ok(pages > 1, 'several pages of 200 bytes');
  const lines = text.trim().split('\n');
  for (const line of lines) assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d \[MQTT\] traced-1@127\.0\.0\.1:\d+ msg: /);
  assert.ok(text.includes('msg: mqtt_packet_received, packet: CONNECT(Q0, R0, D0, ClientId=traced-1, ProtoName=MQTT, ProtoVsn=4'), text);
  assert.ok(text.includes('msg: mqtt_packet_sent, packet: CONNACK(Q0, R0, D0, AckFlags=0, ReasonCode=0)'));
  assert.match(text, /packet: SUBSCRIBE\(Q1, R0, D0, PacketId=\d+ TopicFilters=\[t\/trace\(#\{nl => 0,qos => 1,rap => 0,rh => 0\}\)\]\)/);
  assert.match(text, /mqtt_packet_received, packet: PUBLISH\(Q1, R0, D0, Topic=t\/trace, PacketId=\d+, Payload=hello trace\)/);
  // A QoS 1 delivery is traced with the packet id it goes out with, as EMQX traces what it sends.
  assert.match(text, /mqtt_packet_sent, packet: PUBLISH\(Q1, R0, D0, Topic=t\/trace, PacketId=[1-9]\d*, Payload=hello trace\)/);
  assert.not.ok(text.includes('Q1, R0, D0, Topic=t/trace, PacketId=undefined'), text);
  assert.match(text, /mqtt_packet_received, packet: PUBACK\(Q0, R0, D0, PacketId=\d+, ReasonCode=0\)/);
  assert.not.ok(text.includes('bystander') || text.includes('not traced'), 'other clients are not traced');

  const listed = (await get('/api/v5/trace')).json[0];
  assert.is(listed.log_size['emqx@node1'], Buffer.byteLength(text));
  assert.is(listed.log_size['emqx@node2'], 0);
  // Past the end: nothing, and the position is the size.
  const eof = await get(`/api/v5/trace/dev1/log?bytes=10&position=${Buffer.byteLength(text) + 50}`);
  assert.equal(eof.json, { items: '', meta: { position: Buffer.byteLength(text), bytes: 10 } });
  const detail = (await get('/api/v5/trace/dev1/log_detail')).json as { node: string; size: number }[];
  assert.equal(detail.map((d) => [d.node, d.size]), [['emqx@node1', Buffer.byteLength(text)], ['emqx@node2', 0], ['emqx@node3', 0]]);
  // Disconnecting ends with a terminate line.
  await endMqtt(traced);
  open = open.filter((c) => c !== traced);
  await waitFor(async () => (await readLog('dev1')).text.includes('msg: terminate, reason: normal'), 1000, 'terminate line');
});

test('the download is a zip named by content-disposition holding the node-1 log', async () => {
  await post('/api/v5/trace', { name: 'zipme', type: 'clientid', clientid: 'zip-client', payload_encode: 'hex' });
  const c = await client('zip-client');
  await c.publishAsync('z/1', 'hello', { qos: 0 });
  await waitFor(async () => (await readLog('zipme')).text.includes('Payload(hex)=68656C6C6F'), 1000, 'hex payload line');
  const { text } = await readLog('zipme');
  assert.not.ok(text.includes('Payload=hello'), 'hex encoding only');

  const res = await download('/api/v5/trace/zipme/download');
  assert.is(res.status, 200);
  assert.is(res.headers['content-type'], 'application/x-zip');
  assert.is(res.headers['content-disposition'], 'attachment; filename=zipme.zip');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trace-zip-'));
  try {
    const file = path.join(dir, 'zipme.zip');
    writeFileSync(file, res.body);
    const listing = await run('unzip', ['-l', file]);
    assert.is(listing.code, 0, 'unzip accepts the archive');
    assert.match(listing.out, /emqx@node1-trace_zipme_\d{4}-\d\d-\d\d\.log/);
    const tested = await run('unzip', ['-t', file]);
    assert.match(tested.out, /No errors detected/, 'CRCs are right');
    const content = await run('unzip', ['-p', file]);
    assert.is(content.out, text, 'the archived log is the log');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A node without lines has nothing to download.
  const empty = await download('/api/v5/trace/zipme/download?node=emqx@node2');
  assert.is(empty.status, 404);
  assert.equal(JSON.parse(empty.body.toString()), { code: 'NOT_FOUND', message: 'Trace is empty' });
  assert.is((await download('/api/v5/trace/zipme/download?node=emqx@nowhere')).status, 404);
});

test('hidden payloads are masked; a topic trace follows its filter; an IP trace follows the address', async () => {
  await post('/api/v5/trace', { name: 'hidden', type: 'clientid', clientid: 'secretive', payload_encode: 'hidden' });
  await post('/api/v5/trace', { name: 'bytopic', type: 'topic', topic: 'sensors/+/temp' });
  await post('/api/v5/trace', { name: 'byip', type: 'ip_address', ip_address: '127.0.0.1' });
  const c = await client('secretive');
  await c.publishAsync('sensors/1/temp', 'top secret', { qos: 0 });
  await c.publishAsync('sensors/1/humidity', 'other topic', { qos: 0 });
  await waitFor(async () => (await readLog('bytopic')).text.includes('Topic=sensors/1/temp'), 1000, 'topic line');
  const hidden = (await readLog('hidden')).text;
  assert.ok(hidden.includes('Topic=sensors/1/temp, PacketId=undefined, Payload=******)'), hidden);
  assert.not.ok(hidden.includes('top secret'));
  const byTopic = (await readLog('bytopic')).text;
  assert.not.ok(byTopic.includes('humidity'), 'only the filter');
  assert.not.ok(byTopic.includes('CONNECT('), 'connects are not about a topic');
  const byIp = (await readLog('byip')).text;
  assert.ok(byIp.includes('CONNECT(') && byIp.includes('sensors/1/humidity'), byIp);
});

test('creating checks names, conditions and times with EMQX codes; stop and delete', async () => {
  const bad = async (body: Record<string, unknown>, status: number, code: string, message?: RegExp) => {
    const res = await post('/api/v5/trace', body);
    assert.is(res.status, status, res.text);
    assert.is(res.json.code, code);
    if (message) assert.match(res.json.message, message);
  };
  await bad({ name: '1abc', type: 'clientid', clientid: 'x' }, 400, 'BAD_REQUEST');
  await bad({ name: 'noval', type: 'clientid' }, 400, 'INVALID_PARAMS', /^required clientid field$/);
  await bad({ name: 'badtopic', type: 'topic', topic: 'a/#/b' }, 400, 'INVALID_PARAMS', /^topic: a\/#\/b invalid/);
  await bad({ name: 'badip', type: 'ip_address', ip_address: '300.1.1.1' }, 400, 'INVALID_PARAMS', /^ip address: einval$/);
  await bad({ name: 'past', type: 'clientid', clientid: 'x', end_at: '2020-01-01T00:00:00Z' }, 400, 'INVALID_PARAMS', /^end_at time has already passed$/);
  const soon = new Date(Date.now() + 3600_000).toISOString();
  await bad({ name: 'inverted', type: 'clientid', clientid: 'x', start_at: soon, end_at: new Date(Date.now() + 60_000).toISOString() }, 400, 'INVALID_PARAMS', /^failed by start_at >= end_at$/);
  // emqx_trace.erl insert_new_trace: a duplicate condition is the same type and filter starting in
  // the same second, so both name one start time (taking "now" twice could fall in two seconds).
  const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toISOString();
  assert.is((await post('/api/v5/trace', { name: 'one', type: 'clientid', clientid: 'x', start_at: at })).status, 200);
  await bad({ name: 'one', type: 'clientid', clientid: 'y' }, 409, 'ALREADY_EXISTS', /^one Already Exists$/);
  await bad({ name: 'two', type: 'clientid', clientid: 'x', start_at: at }, 409, 'DUPLICATE_CONDITION', /^one Duplication Condition$/);

  const stopped = await request(sim.baseUrl, 'PUT', '/api/v5/trace/one/stop', { token });
  assert.equal(stopped.json, { enable: false, name: 'one' });
  assert.is((await get('/api/v5/trace')).json[0].status, 'stopped');
  assert.is((await request(sim.baseUrl, 'PUT', '/api/v5/trace/none/stop', { token })).json.message, 'none NOT FOUND');
  assert.is((await request(sim.baseUrl, 'DELETE', '/api/v5/trace/one', { token })).status, 204);
  const gone = await request(sim.baseUrl, 'DELETE', '/api/v5/trace/one', { token });
  assert.equal([gone.status, gone.json], [404, { code: 'NOT_FOUND', message: 'one NOT FOUND' }]);
  assert.is((await get('/api/v5/trace/one/log')).status, 404);
  const tooBig = await post('/api/v5/trace', { name: 'big', type: 'clientid', clientid: 'b' });
  assert.is(tooBig.status, 200);
  const chunk = await get(`/api/v5/trace/big/log?bytes=${2 ** 31 - 1}`);
  assert.equal([chunk.status, chunk.json.code], [503, 'SERVICE_UNAVAILABLE']);
  assert.is((await get('/api/v5/trace/big/log?node=emqx@nowhere')).json.message, 'Node NOT FOUND');
});

test('status follows the clock: waiting, running, stopped; a waiting trace has an empty log and nothing to download', async () => {
  const clock = manualClock(Date.UTC(2026, 0, 1, 8, 0, 0));
  const app = await buildTestApp({ clock });
  const t = await login(app);
  try {
    const start = new Date(clock.now() + 60_000).toISOString();
    const end = new Date(clock.now() + 120_000).toISOString();
    const created = await api(app, 'POST', '/api/v5/trace', { token: t, body: { name: 'later', type: 'topic', topic: 'a/#', start_at: start, end_at: end } });
    assert.is(created.json().status, 'waiting');
    // EMQX 5.5's create answer repeats start_at as end_at.
    assert.is(created.json().end_at, created.json().start_at);
    const status = async () => (await api(app, 'GET', '/api/v5/trace', { token: t })).json()[0].status;
    assert.equal((await api(app, 'GET', '/api/v5/trace/later/log?position=5', { token: t })).json(), { items: '', meta: { position: 5, bytes: 1000 } });
    assert.is((await api(app, 'GET', '/api/v5/trace/later/download', { token: t })).json().message, 'Trace is empty');
    assert.equal((await api(app, 'GET', '/api/v5/trace/later/log_detail', { token: t })).json(), []);
    clock.advance(60_000);
    assert.is(await status(), 'running');
    clock.advance(60_000);
    assert.is(await status(), 'stopped');
    // The list shows the filter under its type and second-precision times.
    const row = (await api(app, 'GET', '/api/v5/trace', { token: t })).json()[0];
    assert.is(row.topic, 'a/#');
    assert.match(row.start_at, /^2026-01-01T\d\d:01:00[+-]\d\d:\d\d$/);
    assert.is(Date.parse(row.end_at) - Date.parse(row.start_at), 60_000);
  } finally {
    await app.close();
  }
});

test('traces and their logs survive a restart of the simulator', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trace-restart-'));
  try {
    const first = await startSimulator({ dataDir: dir });
    const t1 = await login(first.baseUrl);
    await request(first.baseUrl, 'POST', '/api/v5/trace', { token: t1, body: { name: 'kept', type: 'clientid', clientid: 'keeper' } });
    const c = await connectMqtt(`mqtt://127.0.0.1:${first.mqtt}`, { clientId: 'keeper' });
    await c.publishAsync('k/1', 'persisted line', { qos: 0 });
    await endMqtt(c);
    await waitFor(async () => (await request(first.baseUrl, 'GET', '/api/v5/trace', { token: t1 })).json[0].log_size['emqx@node1'] > 0, 1000, 'log written');
    const size = (await request(first.baseUrl, 'GET', '/api/v5/trace', { token: t1 })).json[0].log_size['emqx@node1'];
    await first.close();
    const second = await startSimulator({ dataDir: dir });
    try {
      const t2 = await login(second.baseUrl);
      const row = (await request(second.baseUrl, 'GET', '/api/v5/trace', { token: t2 })).json[0];
      assert.equal([row.name, row.log_size['emqx@node1']], ['kept', size]);
      const log = await request(second.baseUrl, 'GET', `/api/v5/trace/kept/log?bytes=${size}`, { token: t2 });
      assert.ok(log.json.items.includes('Payload=persisted line'));
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
