// Hostile input never reaches a 5xx or the broker's state. security.md S25: every JSON body has a
// depth and a size limit (400/413 naming the limit) checked before any handler, and HOCON text a
// depth limit; `__proto__`, `constructor` and `prototype` are refused as HOCON keys. S9: topic
// levels follow the zone's max_topic_levels over the API and MQTT alike (110 of the default 128
// pass), and NUL or ill-formed UTF-8 in a topic closes the connection, written as raw packets so
// no client library cleans them first; a 3.1.1 CONNECT with a password but no user name is
// refused [MQTT-3.1.2-22]. S2 (change_pwd part): wrong old passwords count toward the login
// lockout, so change_pwd is no unthrottled oracle for another user's password.
import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_JSON_DEPTH } from '../../simulator/plugins/body-limits.ts';
import { MAX_HOCON_DEPTH, parseHocon } from '../../simulator/lib/hocon.ts';
import { api, buildTestApp, connectMqtt, endMqtt, login, manualClock, request, startSimulator, waitFor } from '../helpers/simulator.ts';
import { frame as packet, mqttString, u16 } from '../helpers/wire.ts';

const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

test('a 10,000-deep JSON body to every POST and PUT route is a 400 naming the depth limit, never a 5xx', async () => {
  const app = await buildTestApp({ seed: 'demo', loginRateLimit: { max: 1_000_000 } });
  const token = await login(app);
  await app.ready();
  const routes = app.apiRoutes.filter((r) => (r.method === 'POST' || r.method === 'PUT') && r.url.startsWith('/api/v5') && !r.noBody);
  assert.ok(routes.length > 50, `only ${routes.length} routes take a body`);
  const failures: string[] = [];
  for (const [i, route] of routes.entries()) {
    const res = await app.inject({
      method: route.method as 'POST',
      url: route.url.replace(/:(\w+)/g, 'x'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: i % 2 ? nestedArrays(10_000) : nestedObjects(10_000),
    });
    const body = res.json();
    if (res.statusCode !== 400 || body.code !== 'BAD_REQUEST' || !String(body.message).includes(`deeper than ${MAX_JSON_DEPTH}`)) {
      failures.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
  }
  assert.equal(failures, []);
  await app.close();
});

test('JSON exactly at the depth limit is parsed; one level more is refused', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  // `properties` of /publish takes any object: the limit counts every object and array.
  const deep = (levels: number) => `{"topic":"t/deep","payload":"x","properties":${nestedObjects(levels - 1)}}`;
  const send = (payload: string) => app.inject({
    method: 'POST', url: '/api/v5/publish', payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  assert.is((await send(deep(MAX_JSON_DEPTH))).statusCode, 202);
  const over = await send(deep(MAX_JSON_DEPTH + 1));
  assert.is(over.statusCode, 400);
  assert.equal(over.json(), { code: 'BAD_REQUEST', message: `JSON nesting deeper than ${MAX_JSON_DEPTH}` });
  // Brackets inside strings are text, not nesting.
  assert.is((await send(`{"topic":"t/deep","payload":${JSON.stringify('['.repeat(10_000))}}`)).statusCode, 202);
  await app.close();
});

test('an oversize JSON body is a 413 naming the limit, before the handler', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  const res = await api(app, 'POST', '/api/v5/users', { token, body: { username: 'big', password: 'Secret-pass1', description: 'x'.repeat(1024 * 1024) } });
  assert.is(res.statusCode, 413);
  assert.equal(res.json(), { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1048576 bytes' });
  assert.equal((await api(app, 'GET', '/api/v5/users', { token })).json().map((u: { username: string }) => u.username), ['admin']);
  await app.close();
});

const putHocon = (app: FastifyInstance, token: string, text: string) => app.inject({
  method: 'PUT', url: '/api/v5/configs', payload: text,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
});

test('HOCON nested 20,000 levels (braces or a dotted key) is a 400 naming the depth limit', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  for (const text of [
    `mqtt ${'{ a '.repeat(20_000)}= 1${' }'.repeat(20_000)}`,
    `mqtt.${'a.'.repeat(20_000)}b = 1`,
    `mqtt { a = ${'['.repeat(20_000)}${']'.repeat(20_000)} }`,
  ]) {
    const res = await putHocon(app, token, text);
    assert.is(res.statusCode, 400, res.body.slice(0, 200));
    const body = JSON.parse(res.body);
    assert.is(body.code, 'UPDATE_FAILED');
    assert.match(body.message, `nesting deeper than ${MAX_HOCON_DEPTH}`);
  }
  const fine = await putHocon(app, token, `sys_topics { sys_heartbeat_interval = 30s }`);
  assert.is(fine.statusCode, 200, fine.body);
  await app.close();
  // The document counts as the first level; braces, arrays and dotted keys each add one.
  const nested = (levels: number) => `${'a { '.repeat(levels - 1)}${'}'.repeat(levels - 1)}`;
  parseHocon(nested(MAX_HOCON_DEPTH));
  parseHocon(`${'a.'.repeat(MAX_HOCON_DEPTH - 1)}b = 1`);
  parseHocon(`a = ${'['.repeat(MAX_HOCON_DEPTH - 1)}${']'.repeat(MAX_HOCON_DEPTH - 1)}`);
  assert.throws(() => parseHocon(nested(MAX_HOCON_DEPTH + 1)), /nesting deeper than/);
  assert.throws(() => parseHocon(`${'a.'.repeat(MAX_HOCON_DEPTH)}b = 1`), /nesting deeper than/);
  assert.throws(() => parseHocon(`a = ${'['.repeat(MAX_HOCON_DEPTH)}${']'.repeat(MAX_HOCON_DEPTH)}`), /nesting deeper than/);
});

test('HOCON __proto__, constructor and prototype keys are a 400 and pollute nothing', async () => {
  const app = await buildTestApp();
  const token = await login(app);
  for (const text of [
    '__proto__ { polluted = yes }',
    '"__proto__" { polluted = yes }',
    'mqtt { __proto__ { polluted = yes } }',
    'mqtt.__proto__.polluted = yes',
    'log { constructor { prototype { polluted = yes } } }',
    'sys_topics { prototype = 1 }',
  ]) {
    const res = await putHocon(app, token, text);
    assert.is(res.statusCode, 400, text);
    assert.match(JSON.parse(res.body).message, /forbidden key/, text);
    assert.is(({} as Record<string, unknown>).polluted, undefined);
  }
  // The zone's mqtt object kept its ordinary prototype.
  const zone = (await api(app, 'GET', '/api/v5/configs/global_zone', { token })).json();
  assert.is(zone.mqtt.polluted, undefined);
  assert.is(Object.getPrototypeOf(app.store.zone.get().mqtt), Object.prototype);
  await app.close();
});

test('change_pwd: wrong old passwords count toward the login lockout; then even the right one is 401 LOGIN_LOCKED', async () => {
  const clock = manualClock();
  const app = await buildTestApp({ clock });
  const token = await login(app);
  const GOOD = 'Secret-pass1';
  await api(app, 'POST', '/api/v5/users', { token, body: { username: 'op', password: GOOD } });
  const change = (old_pwd: string) => api(app, 'POST', '/api/v5/users/op/change_pwd', { token, body: { old_pwd, new_pwd: 'Other-pass2' } });
  for (let i = 0; i < 5; i++) {
    const wrong = await change(`Guess-${i}-pass`);
    assert.is(wrong.statusCode, 400);
    assert.is(wrong.json().code, 'ERROR_PWD_NOT_MATCH');
  }
  const locked = await change(GOOD);
  assert.is(locked.statusCode, 401);
  assert.equal(locked.json(), { code: 'LOGIN_LOCKED', message: 'Login locked' });
  // The same lock as login's: op cannot log in either, the admin still can.
  const opLogin = await api(app, 'POST', '/api/v5/login', { body: { username: 'op', password: GOOD } });
  assert.is(opLogin.json().code, 'LOGIN_LOCKED');
  assert.type(await login(app), 'string');
  // Failed logins count toward change_pwd too; the lock ends after lockMs.
  clock.advance(10 * 60_000 + 1);
  assert.is((await change(GOOD)).statusCode, 204);
  assert.type(await login(app, 'op', 'Other-pass2'), 'string');
  for (let i = 0; i < 5; i++) await api(app, 'POST', '/api/v5/login', { body: { username: 'op', password: `Bad-${i}-pass` } });
  assert.is((await api(app, 'POST', '/api/v5/users/op/change_pwd', { token, body: { old_pwd: 'Other-pass2', new_pwd: GOOD } })).json().code, 'LOGIN_LOCKED');
  await app.close();
});

// ---- Against a running simulator: HTTP and raw MQTT ----


/** An MQTT 3.1.1 CONNECT with clean session; `flags` adds user name (0x80) / password (0x40) bits. */
function connectPacket(clientId: string, extra: { flags?: number; payload?: Buffer[] } = {}): Buffer {
  const header = Buffer.concat([mqttString('MQTT'), Buffer.from([4, 0x02 | (extra.flags ?? 0)]), u16(30)]);
  return packet(0x10, header, mqttString(clientId), ...(extra.payload ?? []));
}

interface RawClient {
  socket: net.Socket;
  received(): Buffer;
  closed: Promise<void>;
  isClosed(): boolean;
}

function rawClient(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let ended = false;
    const closed = new Promise<void>((r) => socket.once('close', () => {
      ended = true;
      r();
    }));
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => data, closed, isClosed: () => ended }));
    socket.once('error', reject);
  });
}

/** Connects with a well-formed CONNECT and waits for CONNACK 0. */
async function rawConnected(port: number, clientId: string): Promise<RawClient> {
  const client = await rawClient(port);
  client.socket.write(connectPacket(clientId));
  await waitFor(() => client.received().length >= 4, 2000, 'CONNACK');
  assert.equal([...client.received().subarray(0, 4)], [0x20, 2, 0, 0]);
  return client;
}

async function within(promise: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  })]);
  clearTimeout(timer);
}

function subscribe(client: MqttClient, filter: string): Promise<number> {
  return new Promise((resolve, reject) => client.subscribe(filter, { qos: 0 }, (err, granted) => {
    const code = (err as Error & { packet?: { granted?: number[] } } | null)?.packet?.granted?.[0];
    if (code !== undefined) resolve(code);
    else if (err) reject(err);
    else resolve(granted![0].qos);
  }));
}

const topicOf = (levels: number) => Array.from({ length: levels }, (_, i) => `l${i}`).join('/');

test('topic levels follow the zone (default 128) over /publish and MQTT alike; the simulator keeps running', async () => {
  const sim = await startSimulator();
  try {
    const token = await login(sim.baseUrl);
    const call = (method: string, path: string, body?: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });
    const url = `mqtt://127.0.0.1:${sim.mqtt}`;
    const deep = topicOf(110);
    const sub = await connectMqtt(url, { clientId: 'deep-sub' });
    const wild = await connectMqtt(url, { clientId: 'deep-wild' });
    const got: string[] = [];
    const gotWild: string[] = [];
    sub.on('message', (_topic, payload) => got.push(payload.toString()));
    wild.on('message', (_topic, payload) => gotWild.push(payload.toString()));
    assert.is(await subscribe(sub, deep), 0);
    assert.is(await subscribe(wild, `${topicOf(109)}/+`), 0);

    const viaApi = await call('POST', '/publish', { topic: deep, payload: 'from-api' });
    assert.is(viaApi.status, 200, viaApi.text);
    const pub = await connectMqtt(url, { clientId: 'deep-pub' });
    await new Promise<void>((resolve, reject) => pub.publish(deep, 'from-mqtt', { qos: 1 }, (err) => (err ? reject(err) : resolve())));
    await waitFor(() => [got, gotWild].every((list) => list.includes('from-api') && list.includes('from-mqtt')), 2000, 'both messages on both filters');
    assert.ok(pub.connected && sub.connected && wild.connected);
    // Retained at that depth, and found again by a wildcard subscription.
    await new Promise<void>((resolve, reject) => pub.publish(deep, 'kept', { qos: 1, retain: true }, (err) => (err ? reject(err) : resolve())));
    const late = await connectMqtt(url, { clientId: 'deep-late' });
    const gotLate: string[] = [];
    late.on('message', (topic, payload) => gotLate.push(`${topic.split('/').length}:${payload}`));
    assert.is(await subscribe(late, 'l0/#'), 0);
    await waitFor(() => gotLate.includes('110:kept'), 2000, 'the retained deep message');
    await endMqtt(late);

    const tooDeep = topicOf(129);
    const refused = await call('POST', '/publish', { topic: tooDeep, payload: 'x' });
    assert.is(refused.status, 400);
    assert.is(refused.json.reason_code, 144);
    assert.match(refused.json.message, 'more than 128 levels');
    assert.is((await call('POST', '/publish/bulk', [{ topic: 'a/b', payload: 'x' }, { topic: tooDeep, payload: 'x' }])).status, 400);
    assert.is(await subscribe(sub, tooDeep), 128);
    const gone = new Promise<void>((resolve) => pub.once('close', () => resolve()));
    pub.publish(tooDeep, 'no');
    await within(gone, 2000, 'the broker to close the publisher');

    // A lower zone setting applies to /publish as to MQTT.
    assert.is((await call('PUT', '/configs/global_zone', { mqtt: { max_topic_levels: 3 } })).status, 200);
    assert.is((await call('POST', '/publish', { topic: 'a/b/c/d', payload: 'x' })).status, 400);
    assert.is((await call('POST', '/publish', { topic: 'a/b/c', payload: 'x' })).status, 202);
    await call('PUT', '/configs/global_zone', { mqtt: { max_topic_levels: 128 } });
    await endMqtt(sub);
    await endMqtt(wild);
    assert.is((await call('GET', '/status')).status, 200);
  } finally {
    await sim.close();
  }
});

test('raw PUBLISH with NUL or ill-formed UTF-8 in the topic closes the connection and retains nothing', async () => {
  const sim = await startSimulator();
  try {
    const token = await login(sim.baseUrl);
    const retained = async () => ((await request(sim.baseUrl, 'GET', '/api/v5/mqtt/retainer/messages', { token })).json.data as { topic: string }[]).map((m) => m.topic);
    const badTopics = [
      Buffer.from('nul/\u0000/x'),
      Buffer.from([0x62, 0x61, 0x64, 0x2f, 0xff, 0xfe]), // "bad/" + bytes that are never UTF-8
      Buffer.from([0x63, 0x2f, 0xed, 0xa0, 0x80]), // an encoded surrogate (U+D800)
      Buffer.from([0x6f, 0x2f, 0xc0, 0xaf]), // an overlong "/"
    ];
    for (const topic of badTopics) {
      const client = await rawConnected(sim.mqtt, 'raw-bad');
      // PUBLISH QoS 0 with the retain flag.
      client.socket.write(packet(0x31, mqttString(topic), Buffer.from('kept?')));
      await within(client.closed, 2000, `the broker to close after topic ${topic.toString('hex')}`);
    }
    for (const filter of [Buffer.from('nul/\u0000/#'), Buffer.from([0x73, 0x2f, 0xff])]) {
      const client = await rawConnected(sim.mqtt, 'raw-sub');
      client.socket.write(packet(0x82, u16(1), mqttString(filter), Buffer.from([0])));
      await within(client.closed, 2000, `the broker to close after filter ${filter.toString('hex')}`);
    }
    // The same raw publish with a good topic is retained: the check above is not vacuous.
    const good = await rawConnected(sim.mqtt, 'raw-good');
    good.socket.write(packet(0x31, mqttString('good/t'), Buffer.from('kept')));
    await waitFor(async () => (await retained()).includes('good/t'), 2000, 'the good retained message');
    assert.equal(await retained(), ['good/t']);
    assert.not.ok(good.isClosed());
    good.socket.destroy();
  } finally {
    await sim.close();
  }
});

test('a 3.1.1 CONNECT with a password but no user name is refused and never listed [MQTT-3.1.2-22]', async () => {
  const sim = await startSimulator();
  try {
    const token = await login(sim.baseUrl);
    const client = await rawClient(sim.mqtt);
    client.socket.write(connectPacket('pw-no-user', { flags: 0x40, payload: [mqttString('secret')] }));
    await within(client.closed, 2000, 'the broker to close the connection');
    const answer = client.received();
    // Either closed at once, or CONNACK with a non-zero code first.
    if (answer.length > 0) {
      assert.is(answer[0], 0x20);
      assert.ok(answer[3] !== 0, `CONNACK ${answer[3]}`);
    }
    const rows = (await request(sim.baseUrl, 'GET', '/api/v5/clients?clientid=pw-no-user', { token })).json.data;
    assert.equal(rows, []);
    // User name and password together still connect.
    const ok = await rawClient(sim.mqtt);
    ok.socket.write(connectPacket('pw-and-user', { flags: 0xc0, payload: [mqttString('user'), mqttString('secret')] }));
    await waitFor(() => ok.received().length >= 4, 2000, 'CONNACK');
    assert.equal([...ok.received().subarray(0, 4)], [0x20, 2, 0, 0]);
    ok.socket.destroy();
  } finally {
    await sim.close();
  }
});

test('a chunked JSON body without content-length over the limit is a 413 naming it', async () => {
  const sim = await startSimulator();
  try {
    const token = await login(sim.baseUrl);
    const result = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${sim.baseUrl}/api/v5/users`, {
        method: 'POST', agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'transfer-encoding': 'chunked' },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write('{"username":"chunky","password":"Secret-pass1","description":"');
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 20) {
          sent++;
          if (!req.write(chunk)) {
            req.once('drain', more);
            return;
          }
        }
        req.end('"}');
      };
      more();
    });
    assert.is(result.status, 413);
    assert.equal(JSON.parse(result.text), { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1048576 bytes' });
  } finally {
    await sim.close();
  }
});

test.run();
