import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { rowText, parsePayload } from '../../web/features/diagnose/websocket/payload.ts';
import { MessageLog } from '../../web/features/diagnose/websocket/messageLog.ts';
import { topicMatches } from '../../web/features/diagnose/websocket/monitors.ts';
import { clientOptions, defaultSettings, validateSettings, NEVER_EXPIRE } from '../../web/features/diagnose/websocket/settings.ts';
import { addConnection, connectionOf, logsOf, resetWebSocketClient, sampleMonitors, setClientFactory, wsClient, type MqttLike } from '../../web/features/diagnose/websocket/store.ts';
import { ROW_PX, VIEW_PX } from '../../web/features/diagnose/websocket/MessageList.tsx';
import '../../web/features/diagnose/websocket/messages.ts';
import { toasts } from '../../web/lib/toasts.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { navigate } from '../../web/lib/navigation.ts';
import { clearSession, restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const bytes = (s: string) => [...new TextEncoder().encode(s)];

/** An mqtt.js stand-in: records calls, and the test fires its events and answers its callbacks. */
class FakeClient implements MqttLike {
  handlers = new Map<string, ((...args: any[]) => void)[]>();
  calls: unknown[][] = [];
  callbacks: ((...args: any[]) => void)[] = [];
  on(event: string, listener: (...args: any[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }
  subscribe(topic: string, options: object, cb: (...args: any[]) => void) {
    this.calls.push(['subscribe', topic, options]);
    this.callbacks.push(cb);
  }
  unsubscribe(topic: string, cb: (...args: any[]) => void) {
    this.calls.push(['unsubscribe', topic]);
    this.callbacks.push(cb);
  }
  publish(topic: string, payload: Uint8Array, options: object, cb: (...args: any[]) => void) {
    this.calls.push(['publish', topic, [...payload], options]);
    this.callbacks.push(cb);
  }
  end(force?: boolean, _options?: object, cb?: () => void) {
    this.calls.push(['end', Boolean(force)]);
    if (cb) this.callbacks.push(cb);
  }
  /** Answers the oldest pending callback. */
  answer(...args: unknown[]) {
    const cb = this.callbacks.shift();
    if (!cb) throw new Error('no pending callback');
    cb(...args);
  }
}

let made: { url: string; options: ReturnType<typeof clientOptions>; client: FakeClient }[] = [];
const last = () => made[made.length - 1].client;

async function open(path = '/websocket', listeners: unknown[] = []) {
  resetWebSocketClient();
  made = [];
  setClientFactory((url, options) => {
    const client = new FakeClient();
    made.push({ url, options, client });
    return client;
  });
  reset(path);
  await saveUser({ username: 'admin', token: 'tok-1' });
  await restoreSession();
  const api = fakeApi({ 'GET /alarms': alarms, 'GET /users': { body: [{ username: 'admin', description: '' }] }, 'GET /listeners': { body: listeners } });
  await mount(<App />);
  await waitFor(() => byTest('websocket-page'));
  await waitFor(() => api.calls.some((c) => c.path === '/listeners'));
  return api;
}

const state = () => byTest('ws-state')?.dataset.state;
const input = (name: string) => document.querySelector<HTMLInputElement>(`[data-test=ws-${name}]`)!;
async function choose(name: string, value: string) {
  const select = input(name) as unknown as HTMLSelectElement;
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => true);
}
/** Fires an mqtt.js event and lets the page render it. */
async function fire(client: FakeClient, event: string, ...args: unknown[]) {
  client.emit(event, ...args);
  await waitFor(() => true);
}
async function connected() {
  await click(byTest('ws-connect'));
  await waitFor(() => made.length > 0 && state() === 'connecting');
  await fire(last(), 'connect', { returnCode: 0 });
  await waitFor(() => state() === 'connected');
  return last();
}
const payloads = (list: string) => [...document.querySelectorAll(`[data-test=ws-${list}] [data-test=ws-message-payload]`)].map((p) => p.textContent);
const flushed = () => waitFor(() => true).then(() => new Promise((r) => setTimeout(r, 120))).then(() => waitFor(() => true));

test('payloads are read in each encoding, and wrong input says what is wrong', () => {
  assert.equal(parsePayload('hi ✓', 'plaintext'), { bytes: new TextEncoder().encode('hi ✓') });
  assert.equal([...(parsePayload('aGk=', 'base64') as { bytes: Uint8Array }).bytes], bytes('hi'));
  assert.equal([...(parsePayload('68 69\n0a', 'hex') as { bytes: Uint8Array }).bytes], [0x68, 0x69, 0x0a]);
  assert.equal([...(parsePayload('0x6869', 'hex') as { bytes: Uint8Array }).bytes], bytes('hi'));
  assert.equal([...(parsePayload('{"a": [1]}', 'json') as { bytes: Uint8Array }).bytes], bytes('{"a": [1]}'));
  assert.equal(parsePayload('aGk', 'base64'), { error: 'Please enter valid base64' });
  assert.equal(parsePayload('a=Gk', 'base64'), { error: 'Please enter valid base64' });
  assert.equal(parsePayload('686', 'hex'), { error: 'Please enter hex bytes, e.g. 68 69' });
  assert.equal(parsePayload('zz', 'hex'), { error: 'Please enter hex bytes, e.g. 68 69' });
  assert.equal(parsePayload('{a: 1}', 'json'), { error: 'Please enter the correct JSON' });
});

test('list rows show payloads compactly, refuse what cannot be shown and never decode over 1 MB', () => {
  const json = new TextEncoder().encode('{\n  "a": 1\n}');
  assert.is(rowText(json, json.length, 'json'), '{"a":1}');
  assert.is(rowText(json, json.length, 'plaintext'), '{\n  "a": 1\n}');
  assert.is(rowText(Uint8Array.from([0x68, 0x69]), 2, 'hex'), '68 69');
  assert.is(rowText(Uint8Array.from([0x68, 0x69]), 2, 'base64'), 'aGk=');
  assert.is(rowText(Uint8Array.from([0xff, 0xfe]), 2, 'plaintext'), null);
  assert.is(rowText(Uint8Array.from([0x68]), 1, 'json'), null);
  assert.is(rowText(null, 2 * 1024 * 1024, 'hex'), null);
  const long = rowText(new Uint8Array(5000).fill(0x61), 5000, 'plaintext')!;
  assert.is(long.length, 601);
  assert.ok(long.endsWith('…'));
});

test('settings: defaults come from the page with MQTT 5.0, numbers are range-checked, MQTT 5 fields only for 5.0', () => {
  const page = defaultSettings({ protocol: 'https:', hostname: 'ops.example', port: '' });
  assert.is(page.protocol, 'wss');
  assert.is(page.host, 'ops.example');
  assert.is(page.port, 443);
  assert.is(page.path, '/mqtt');
  assert.is(page.protocolVersion, 5);
  assert.match(page.clientId, /^emqx_[0-9a-f]{8}$/);
  assert.is.not(defaultSettings().clientId, defaultSettings().clientId);
  assert.equal(validateSettings(page), {});
  const bad = { ...page, protocolVersion: 4 as const, port: 70000 as const, keepalive: -1 as const, path: 'mqtt', host: ' ', receiveMaximum: 0 as const };
  assert.equal(validateSettings(bad), {
    host: 'Host is required', port: 'the number range is 1 - 65535', path: 'The mount point must start with /',
    keepalive: 'the number range is 0 - 65535',
  });
  assert.equal(validateSettings({ ...bad, port: 1, keepalive: 0, path: '/', host: 'h', protocolVersion: 5, sessionExpiry: NEVER_EXPIRE + 1 }), {
    sessionExpiry: 'the number range is 0 - 4294967295', receiveMaximum: 'the number range is 1 - 65535',
  });
  assert.equal(validateSettings({ ...page, willTopic: 'a/+' }), { willTopic: "A publish topic cannot contain '#' or '+'" });
  const v5 = clientOptions({ ...page, protocolVersion: 5, neverExpire: true, receiveMaximum: 10, willTopic: 'w', willPayload: 'bye', willQos: 1 }, 4000);
  assert.equal(v5.properties, { sessionExpiryInterval: NEVER_EXPIRE, receiveMaximum: 10 });
  assert.equal(v5.will, { topic: 'w', payload: 'bye', qos: 1, retain: false });
  assert.is(v5.timerVariant, 'native');
  const v3 = clientOptions({ ...page, protocolVersion: 3 }, 4000);
  assert.is(v3.protocolId, 'MQIsdp');
  assert.is(v3.properties, undefined);
  assert.is(v3.will, undefined);
});

test('invalid settings are shown at their fields and nothing connects', async () => {
  await open();
  await type(input('port'), '99999');
  await click(byTest('ws-connect'));
  assert.is(byTest('error-port')?.textContent, 'the number range is 1 - 65535');
  assert.is(made.length, 0);
  assert.is(state(), 'disconnected');
});

test('the default address is the first enabled ws listener on the page host, with its path; new connections take it too', async () => {
  await open('/websocket', [
    { id: 'tcp:default', type: 'tcp', enable: true, bind: '0.0.0.0:1883' },
    { id: 'ws:off', type: 'ws', enable: false, bind: '0.0.0.0:9083' },
    { id: 'ws:default', type: 'ws', enable: true, bind: '0.0.0.0:8083', websocket: { mqtt_path: '/ws' } },
  ]);
  await waitFor(() => input('port').value === '8083');
  assert.is(input('host').value, '127.0.0.1');
  assert.is(input('path').value, '/ws');
  await click(byTest('ws-connect'));
  await waitFor(() => made.length === 1);
  assert.is(made[0].url, 'ws://127.0.0.1:8083/ws', 'not the console\'s own port, which serves no MQTT on a broker');
  await click(byTest('ws-cancel'));
  assert.ok(addConnection());
  assert.is(wsClient.connections[1].settings.port, 8083);
});

test('without a ws listener the page host and port stay: connect opens ws://<page host>:<page port>/mqtt with MQTT 5.0 by default, cancel ends the attempt', async () => {
  await open();
  assert.is(input('protocolVersion').value, '5');
  assert.equal([...input('protocolVersion').querySelectorAll('option')].map((o) => o.textContent), ['3.1', '3.1.1', '5.0'], 'the older versions stay');
  assert.not.ok(text().includes('3.1/3.1.1 only'), 'no hint that the simulator refuses 5.0');
  await type(input('username'), 'probe');
  await click(byTest('ws-connect'));
  await waitFor(() => state() === 'connecting');
  assert.is(made[0].url, 'ws://127.0.0.1:18083/mqtt');
  const o = made[0].options;
  assert.is(o.protocolVersion, 5);
  assert.equal(o.properties, { sessionExpiryInterval: 0 });
  assert.is(o.username, 'probe');
  assert.is(o.password, undefined);
  assert.is(o.keepalive, 60);
  assert.is(o.clean, true);
  assert.match(o.clientId, /^emqx_[0-9a-f]{8}$/);
  assert.ok(input('host').closest('fieldset')!.disabled, 'settings are locked while connecting');
  await click(byTest('ws-cancel'));
  assert.is(state(), 'disconnected');
  assert.equal(made[0].client.calls, [['end', true]]);
  await fire(made[0].client, 'connect', {});
  assert.is(state(), 'disconnected', 'a cancelled client no longer drives the state');
  await click(byTest('ws-connect'));
  await fire(last(), 'close');
  assert.is(state(), 'reconnecting', 'a socket that does not open is retried');
  assert.is(byTest('ws-error')?.textContent, 'Error occurred: cannot reach ws://127.0.0.1:18083/mqtt');
  await click(byTest('ws-cancel'));
  assert.is(state(), 'disconnected');
  assert.equal(last().calls, [['end', true]]);
});

test('states follow the client: connected, connection lost → reconnecting, back, disconnecting, disconnected', async () => {
  await open();
  const client = await connected();
  assert.ok(byTest('ws-disconnect'));
  await fire(client, 'close');
  assert.is(state(), 'reconnecting');
  assert.is(byTest('ws-error')?.textContent, 'connection disconnected');
  assert.ok(text().includes('connection disconnected'), 'toasted');
  await fire(client, 'reconnect');
  assert.is(state(), 'reconnecting');
  assert.ok(byTest('ws-cancel'), 'a reconnecting loop can be cancelled');
  await fire(client, 'connect', {});
  assert.is(state(), 'connected');
  assert.not.ok(byTest('ws-error'));
  await click(byTest('ws-disconnect'));
  assert.is(state(), 'disconnecting');
  assert.equal(client.calls, [['end', false]]);
  await fire(client, 'close');
  assert.is(state(), 'disconnecting', 'closing on request is not a loss');
  client.answer();
  await waitFor(() => state() === 'disconnected');
  assert.ok(byTest('ws-connect'));
  assert.ok(text().includes('Successfully disconnect'), 'a requested disconnect is confirmed');
});

test('a refused CONNACK is told in words and not retried: MQTT 3 code 1, MQTT 5 code 0x86', async () => {
  await open();
  assert.ok(byTest('ws-sessionExpiry') && byTest('ws-receiveMaximum') && byTest('ws-topicAliasMaximum') && byTest('ws-neverExpire'), 'MQTT 5 properties appear');
  await click(byTest('ws-connect'));
  assert.is(made[0].options.protocolVersion, 5);
  await fire(last(), 'error', Object.assign(new Error('Connection refused: Unacceptable protocol version'), { code: 1 }));
  assert.is(state(), 'disconnected');
  assert.is(byTest('ws-error')?.textContent, 'Connection refused: unacceptable protocol version');
  assert.equal(last().calls, [['end', true]]);
  await click(byTest('ws-connect'));
  await fire(last(), 'error', Object.assign(new Error('Connection refused: Bad User Name or Password'), { code: 0x86 }));
  assert.is(byTest('ws-error')?.textContent, 'Connection refused: Bad User Name or Password (0x86)');
  const other = await connected();
  await fire(other, 'error', new Error('socket hiccup'));
  assert.is(state(), 'connected');
  assert.ok(text().includes('Error occurred: socket hiccup'));
});

test('subscribe checks the filter, needs a connection, lists what the broker granted and says when it refused', async () => {
  await open();
  await type(input('subscribeTopic'), 'a/#/b');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  assert.is(byTest('error-subscribeTopic')?.textContent, "Invalid use of '#': it must stand alone in the last level");
  await type(input('subscribeTopic'), 'demo/#');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  assert.ok(text().includes('Client not connected'));
  const client = await connected();
  await choose('subscribeQos', '1');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  assert.equal(client.calls, [['subscribe', 'demo/#', { qos: 1 }]]);
  client.answer(null, [{ topic: 'demo/#', qos: 1 }]);
  await waitFor(() => byTest('ws-subscription'));
  assert.is(byTest('ws-subscription')!.dataset.topic, 'demo/#');
  assert.ok(byTest('ws-subscription')!.textContent!.includes('QoS 1'));
  await type(input('subscribeTopic'), 'denied/#');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  client.answer(Object.assign(new Error('Subscribe error: '), { code: 128 }), [{ topic: 'denied/#', qos: 128 }]);
  await waitFor(() => text().includes('Subscription failure'));
  assert.is(document.querySelectorAll('[data-test=ws-subscription]').length, 1);
  // mqtt.js sends no SUBSCRIBE for a filter it already holds and answers (null, []): not a failure.
  toasts.items.splice(0);
  await type(input('subscribeTopic'), 'demo/#');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  client.answer(null, []);
  await waitFor(() => text().includes('Already subscribed to demo/#'));
  assert.equal(toasts.items.map((item) => [item.kind, item.text]), [['info', 'Already subscribed to demo/#']]);
  assert.is(document.querySelectorAll('[data-test=ws-subscription]').length, 1);
  await click(byTest('ws-unsubscribe'));
  assert.equal(client.calls.at(-1), ['unsubscribe', 'demo/#']);
  client.answer(null);
  await waitFor(() => byTest('ws-no-subscriptions'));
});

test('publish checks topic and payload encoding, needs a connection, sends the decoded bytes and lists them', async () => {
  await open();
  await type(input('publishTopic'), 'demo/+');
  await choose('publishEncoding', 'hex');
  await type(byTest('ws-payload'), '6g');
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.is(byTest('error-publishTopic')?.textContent, "A publish topic cannot contain '#' or '+'");
  assert.is(byTest('error-payload')?.textContent, 'Please enter hex bytes, e.g. 68 69');
  await type(input('publishTopic'), 'demo/x');
  await type(byTest('ws-payload'), '68 69');
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.ok(text().includes('Client not connected'));
  const client = await connected();
  await choose('publishQos', '2');
  await click(input('publishRetain'));
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.equal(client.calls, [['publish', 'demo/x', bytes('hi'), { qos: 2, retain: true }]]);
  client.answer(null);
  await flushed();
  assert.equal(payloads('published'), ['hi']);
  assert.ok(byTest('ws-published')!.textContent!.includes('Published (1)'));
  assert.ok(byTest('ws-published')!.querySelector('[data-test=ws-message-retain]'));
  await choose('publishEncoding', 'base64');
  await type(byTest('ws-payload'), 'aGk');
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.is(byTest('error-payload')?.textContent, 'Please enter valid base64');
  await type(byTest('ws-payload'), 'eyJhIjoxfQ==');
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.equal(client.calls.at(-1), ['publish', 'demo/x', bytes('{"a":1}'), { qos: 2, retain: true }]);
  client.answer(new Error('No connection to broker'));
  await waitFor(() => text().includes('Publishing failure'));
  await flushed();
  assert.equal(payloads('published'), ['hi'], 'a failed publish is not listed');
});

test('received messages show newest first with topic, QoS, retain and the payload in the chosen encoding', async () => {
  await open();
  const client = await connected();
  client.emit('message', 'demo/a', new TextEncoder().encode('hello'), { qos: 0, retain: false });
  client.emit('message', 'demo/<b>x</b>', new TextEncoder().encode('{"t": 21}'), { qos: 1, retain: true });
  client.emit('message', 'demo/big', new Uint8Array(1024 * 1024 + 1), { qos: 0, retain: false });
  await flushed();
  assert.ok(byTest('ws-received')!.textContent!.includes('Received (3)'));
  const topics = [...document.querySelectorAll('[data-test=ws-received] [data-test=ws-message-topic]')].map((e) => e.textContent);
  assert.equal(topics, ['demo/big', 'demo/<b>x</b>', 'demo/a']);
  assert.is(byTest('ws-received')!.querySelector('b'), null, 'topics are text');
  assert.equal(payloads('received'), ['The payload is 1 MB: payloads over 1 MB are not shown', '{"t": 21}', 'hello']);
  const rows = [...document.querySelectorAll<HTMLElement>('[data-test=ws-received] [data-test=ws-message]')];
  assert.ok(rows[1].querySelector('[data-test=ws-message-retain]'));
  assert.not.ok(rows[2].querySelector('[data-test=ws-message-retain]'));
  assert.is(rows[1].querySelector('[data-test=ws-message-qos]')!.textContent, 'QoS 1');
  await choose('receivedEncoding', 'hex');
  assert.equal(payloads('received').slice(1), ['7b 22 74 22 3a 20 32 31 7d', '68 65 6c 6c 6f']);
  await choose('receivedEncoding', 'json');
  assert.equal(payloads('received').slice(1), ['{"t":21}', 'The payload is not valid JSON']);
  await click(rows[2].querySelector('[data-test=ws-message-view]'));
  await waitFor(() => byTest('ws-message-drawer'));
  assert.ok(byTest('ws-message-drawer')!.querySelector('[data-test=payload-view]'));
});

test('ten thousand messages render only the visible window, and the lists keep the newest 10 000', async () => {
  await open();
  const client = await connected();
  for (let i = 0; i < 10_005; i++) client.emit('message', `load/${i}`, new TextEncoder().encode(`m${i}`), { qos: 0, retain: false });
  await flushed();
  assert.ok(byTest('ws-received')!.textContent!.includes('Received (10,005)'));
  assert.ok(text().includes('Only the newest 10,000 are kept'));
  assert.is(logsOf('c1').received.length, 10_000);
  const rendered = document.querySelectorAll('[data-test=ws-received] [data-test=ws-message]').length;
  assert.ok(rendered > 0 && rendered <= Math.ceil(VIEW_PX / ROW_PX) + 8, `rendered ${rendered} rows`);
  assert.is(payloads('received')[0], 'm10004');
  const list = byTest('ws-received')!.querySelector<HTMLElement>('.ws-list')!;
  assert.is(list.querySelector('ul')!.style.height, `${10_000 * ROW_PX}px`);
  list.scrollTop = 9_990 * ROW_PX;
  list.dispatchEvent(new Event('scroll'));
  await waitFor(() => payloads('received').includes('m5'));
  assert.ok(payloads('received').includes('m5'));
  assert.not.ok(payloads('received').includes('m4'), 'the oldest five were dropped');
  await click(byTest('ws-received-clear'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => byTest('ws-received')!.textContent!.includes('No messages yet'));
  assert.is(logsOf('c1').received.length, 0);
});

test('the message log drops the oldest past its count and byte bounds, and keeps only the size of payloads over 1 MB', () => {
  const log = new MessageLog(3, 10);
  const push = (topic: string, size: number) => log.push({ topic, qos: 0, retain: false, time: 0, payload: new Uint8Array(size) });
  push('a', 1);
  push('b', 1);
  push('c', 1);
  push('d', 1);
  assert.equal([0, 1, 2, 3].map((i) => log.newest(i)?.topic), ['d', 'c', 'b', undefined]);
  push('e', 9);
  assert.equal([0, 1].map((i) => log.newest(i)?.topic), ['e', 'd']);
  assert.is(log.length, 2);
  const big = new MessageLog(3, 100).push({ topic: 'x', qos: 0, retain: false, time: 0, payload: new Uint8Array(1024 * 1024 + 1) });
  assert.is(big.payload, null);
  assert.is(big.size, 1024 * 1024 + 1);
});

test('the default connection plus six more: a seventh extra is refused with a message; closing one asks first', async () => {
  await open();
  for (let i = 0; i < 6; i++) await click(byTest('ws-tab-add'));
  assert.is(document.querySelectorAll('[data-test=ws-tab]').length, 7);
  assert.is(document.querySelector('[data-test=ws-tab][aria-selected=true]')!.textContent, 'Connection 7');
  await click(byTest('ws-tab-add'));
  assert.is(document.querySelectorAll('[data-test=ws-tab]').length, 7);
  assert.ok(text().includes('At most 6 new connections can be created besides the default one'));
  assert.is(document.querySelectorAll('[data-test=ws-tab-close]').length, 6, 'the default connection cannot be closed');
  await click(document.querySelectorAll('[data-test=ws-tab-close]')[5]);
  await click(await waitFor(() => byTest('confirm-cancel')));
  assert.is(document.querySelectorAll('[data-test=ws-tab]').length, 7);
  await click(document.querySelectorAll('[data-test=ws-tab-close]')[5]);
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => document.querySelectorAll('[data-test=ws-tab]').length === 6);
  assert.is(document.querySelector('[data-test=ws-tab][aria-selected=true]')!.textContent, 'Connection 6');
  await click(byTest('ws-tab-add'));
  assert.is(document.querySelector('[data-test=ws-tab][aria-selected=true]')!.textContent, 'Connection 8');
});

test('each tab is its own client: connecting the second leaves the first alone', async () => {
  await open();
  const first = await connected();
  await click(byTest('ws-tab-add'));
  assert.is(state(), 'disconnected');
  assert.is.not(input('clientId').value, connectionOf('c1').settings.clientId);
  const second = await connected();
  assert.is.not(first, second);
  const tabs = [...document.querySelectorAll<HTMLElement>('[data-test=ws-tab]')].map((tab) => tab.dataset.state);
  assert.equal(tabs, ['connected', 'connected']);
  await click(document.querySelector('[data-test=ws-tab-close]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => document.querySelectorAll('[data-test=ws-tab]').length === 1);
  assert.equal(second.calls, [['end', true]], 'closing the tab ends its client');
  assert.equal(first.calls, []);
});

test('topic monitor: counts incoming, outgoing and dropped with per-second rates; adding it again jumps to it', async () => {
  await open();
  assert.ok(topicMatches('demo/#', 'demo/a/b') && topicMatches('demo/+', 'demo/a') && !topicMatches('demo/+', 'demo/a/b'));
  assert.ok(!topicMatches('#', '$SYS/x') && topicMatches('$SYS/#', '$SYS/x'));
  await type(input('monitorTopic'), 'demo/#');
  await submit(byTest('ws-monitor')!.querySelector('form'));
  await type(input('monitorTopic'), 'other/t');
  await submit(byTest('ws-monitor')!.querySelector('form'));
  const active = () => document.querySelector<HTMLElement>('[data-test=ws-monitor-tab][aria-selected=true]')?.dataset.topic;
  assert.is(active(), 'other/t');
  await type(input('monitorTopic'), 'demo/#');
  await submit(byTest('ws-monitor')!.querySelector('form'));
  assert.is(active(), 'demo/#', 'jumped to the existing topic');
  assert.is(document.querySelectorAll('[data-test=ws-monitor-tab]').length, 2);
  const start = Date.now();
  sampleMonitors(start);
  await type(input('publishTopic'), 'demo/out');
  await submit(byTest('ws-publish')!.querySelector('form'));
  const client = await connected();
  for (let i = 0; i < 10; i++) client.emit('message', 'demo/in', new Uint8Array(1), { qos: 0, retain: false });
  client.emit('message', 'else/where', new Uint8Array(1), { qos: 0, retain: false });
  await submit(byTest('ws-publish')!.querySelector('form'));
  client.answer(null);
  await submit(byTest('ws-publish')!.querySelector('form'));
  client.answer(new Error('nope'));
  sampleMonitors(start + 2000);
  await flushed();
  const cell = (d: string, c: string) => byTest(`ws-monitor-${d}`)!.querySelector(`[data-test=ws-monitor-${c}]`)!.textContent;
  assert.equal(['incoming', 'outgoing', 'dropped'].map((d) => [cell(d, 'count'), cell(d, 'rate')]), [['10', '5'], ['1', '0.5'], ['2', '1']]);
  assert.equal(connectionOf('c1').monitors[1], { topic: 'other/t', incoming: 0, outgoing: 0, dropped: 0, rates: { incoming: 0, outgoing: 0, dropped: 0 } });
  sampleMonitors(start + 3000);
  await waitFor(() => true);
  assert.is(cell('incoming', 'rate'), '0', 'no messages in the last second');
  await click(document.querySelectorAll('[data-test=ws-monitor-remove]')[0]);
  assert.is(active(), 'other/t');
});

test('leaving the route keeps the connection open and the lists filled', async () => {
  await open();
  const client = await connected();
  client.emit('message', 'demo/kept', new TextEncoder().encode('still here'), { qos: 0, retain: false });
  await flushed();
  await navigate('/users');
  await waitFor(() => byTest('users-page') && !byTest('websocket-page'));
  client.emit('message', 'demo/kept', new TextEncoder().encode('while away'), { qos: 0, retain: false });
  assert.equal(client.calls, [], 'nothing ended the client');
  await navigate('/websocket');
  await waitFor(() => byTest('websocket-page'));
  await flushed();
  assert.is(state(), 'connected');
  assert.equal(payloads('received'), ['while away', 'still here']);
  assert.is(wsClient.connections.length, 1);
});

test('logging out ends every test-client connection', async () => {
  await open();
  const client = await connected();
  await click(byTest('ws-tab-add'));
  await clearSession();
  await waitFor(() => client.calls.length > 0);
  assert.equal(client.calls, [['end', true]]);
  assert.is(wsClient.connections.length, 1);
  assert.is(wsClient.connections[0].status, 'disconnected');
});

const props = (list: string) => [...document.querySelectorAll(`[data-test=ws-${list}] [data-test=ws-message-props]`)].map((p) => p.textContent);
const keys = () => [...document.querySelectorAll<HTMLInputElement>('[data-test=ws-property-key]')];
const values = () => [...document.querySelectorAll<HTMLInputElement>('[data-test=ws-property-value]')];

test('MQTT 5 publish: user property rows, content type, expiry, alias, response topic and correlation data go out as properties', async () => {
  await open();
  const client = await connected();
  await fire(client, 'connect', { returnCode: 0, properties: { topicAliasMaximum: 10 } });
  assert.ok(byTest('ws-publish-v5'), 'the MQTT 5 properties of a publish are offered');
  await type(keys()[0], 'source');
  await type(values()[0], 'console');
  await click(byTest('ws-property-add'));
  await click(byTest('ws-property-add'));
  await type(keys()[1], 'source');
  await type(values()[1], 'again');
  await type(values()[2], 'no key');
  await type(input('contentType'), 'application/json');
  await type(input('messageExpiryInterval'), '4294967296');
  await type(input('topicAlias'), '11');
  await type(input('responseTopic'), 'reply/#');
  await type(input('correlationData'), 'req-1');
  await submit(byTest('ws-publish')!.querySelector('form'));
  // One wording for required (issue #34): '<label> is required', as the specification words it.
  assert.is(byTest('error-userProperties')?.textContent, 'Key is required');
  assert.is(keys()[2].getAttribute('aria-invalid'), 'true', 'the row without a key is marked');
  assert.is(byTest('error-messageExpiryInterval')?.textContent, 'the number range is 0 - 4294967295');
  assert.is(byTest('error-topicAlias')?.textContent, 'the number range is 1 - 10', 'no alias above the Topic Alias Maximum of CONNACK');
  assert.is(byTest('error-responseTopic')?.textContent, "A publish topic cannot contain '#' or '+'");
  assert.equal(client.calls, [], 'nothing is sent while a field is wrong');
  await click(document.querySelectorAll('[data-test=ws-property-remove]')[2]);
  assert.is(keys().length, 2);
  await type(input('messageExpiryInterval'), '60');
  await type(input('topicAlias'), '3');
  await type(input('responseTopic'), 'reply/console');
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.equal(client.calls, [['publish', 'testtopic/1', bytes('{ "msg": "hello" }'), {
    qos: 0, retain: false,
    properties: {
      userProperties: { source: ['console', 'again'] }, contentType: 'application/json', messageExpiryInterval: 60, topicAlias: 3,
      responseTopic: 'reply/console', correlationData: 'req-1',
    },
  }]]);
  client.answer(null);
  await flushed();
  assert.equal(props('published'), ['User properties: {"source":["console","again"]} · Content type: application/json · Message expiry interval (s): 60 · Topic alias: 3 · Response topic: reply/console · Correlation data: req-1']);
});

test('a topic alias needs the broker to allow one; on MQTT 3.1.1 no MQTT 5 field is shown and nothing extra is sent', async () => {
  await open();
  const client = await connected();
  await type(input('topicAlias'), '1');
  await submit(byTest('ws-publish')!.querySelector('form'));
  assert.is(byTest('error-topicAlias')?.textContent, 'The broker takes no topic alias');
  await click(byTest('ws-tab-add'));
  await choose('protocolVersion', '4');
  assert.not.ok(byTest('ws-publish-v5') || byTest('ws-subscriptionId') || byTest('ws-sessionExpiry'), 'MQTT 5 fields are hidden for 3.1.1');
  const v4 = await connected();
  assert.is(made.at(-1)!.options.protocolVersion, 4);
  assert.is(made.at(-1)!.options.properties, undefined);
  connectionOf(wsClient.active).publishForm.contentType = 'text/plain';
  await submit(byTest('ws-publish')!.querySelector('form'));
  await type(input('subscribeTopic'), 'a/b');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  assert.equal(v4.calls, [['publish', 'testtopic/1', bytes('{ "msg": "hello" }'), { qos: 0, retain: false }], ['subscribe', 'a/b', { qos: 0 }]]);
  assert.equal(client.calls, []);
});

test('a subscription identifier is range-checked and sent with the subscription', async () => {
  await open();
  const client = await connected();
  await type(input('subscriptionId'), '0');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  assert.is(byTest('error-subscriptionId')?.textContent, 'the number range is 1 - 268435455');
  await type(input('subscriptionId'), '7');
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  assert.equal(client.calls, [['subscribe', 'testtopic/#', { qos: 0, properties: { subscriptionIdentifier: 7 } }]]);
});

test('received MQTT 5 messages show their properties in the row and in the drawer, as text', async () => {
  await open();
  const client = await connected();
  client.emit('message', 'demo/plain', new TextEncoder().encode('none'), { qos: 0, retain: false });
  client.emit('message', 'demo/v5', new TextEncoder().encode('hi'), {
    qos: 1, retain: false,
    properties: {
      userProperties: { who: '<b>me</b>', tags: ['a', 'b'] }, contentType: 'text/plain', messageExpiryInterval: 42, topicAlias: 2,
      subscriptionIdentifier: 7, responseTopic: 'reply/x', correlationData: new TextEncoder().encode('c-1'), payloadFormatIndicator: true,
    },
  });
  await flushed();
  assert.equal(props('received'), ['User properties: {"who":"<b>me</b>","tags":["a","b"]} · Content type: text/plain · Message expiry interval (s): 42 · Topic alias: 2 · Response topic: reply/x · Correlation data: c-1 · Subscription identifier: 7']);
  assert.is(byTest('ws-received')!.querySelector('b'), null, 'property values are text');
  const rows = document.querySelectorAll<HTMLElement>('[data-test=ws-received] [data-test=ws-message]');
  assert.not.ok(rows[1].querySelector('[data-test=ws-message-props]'), 'a message without properties shows none');
  await click(rows[0].querySelector('[data-test=ws-message-view]'));
  const drawer = await waitFor(() => byTest('ws-message-drawer'));
  const facts = Object.fromEntries([...drawer.querySelectorAll('.description')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));
  assert.equal([facts['User properties'], facts['Content type'], facts['Message expiry interval (s)'], facts['Topic alias'], facts['Subscription identifier'], facts['Correlation data']],
    ['{"who":"<b>me</b>","tags":["a","b"]}', 'text/plain', '42', '2', '7', 'c-1']);
  assert.is(drawer.querySelector('b'), null);
});

test('refusals are told with the reason code in words: SUBACK, PUBACK and a server DISCONNECT with its reason string', async () => {
  await open();
  const client = await connected();
  await submit(byTest('ws-subscribe')!.querySelector('form'));
  client.answer(new Error('Subscribe error: Not authorized'), [{ topic: 'testtopic/#', qos: 0 }], { granted: [0x87], properties: { reasonString: 'denied by ACL' } });
  await waitFor(() => text().includes('Subscription failure: Not authorized (0x87): denied by ACL'));
  assert.ok(byTest('ws-no-subscriptions'));
  await submit(byTest('ws-publish')!.querySelector('form'));
  client.answer(Object.assign(new Error('Publish error: Quota exceeded'), { code: 0x97 }), { properties: { reasonString: 'slow down' } });
  await waitFor(() => text().includes('Publishing failure: Quota exceeded (0x97): slow down'));
  await fire(client, 'disconnect', { reasonCode: 0x8e, properties: { reasonString: 'another connection took the client id' } });
  await fire(client, 'close');
  assert.is(byTest('ws-error')?.textContent, 'connection disconnected: Session taken over (0x8E): another connection took the client id');
  await fire(client, 'connect', {});
  await fire(client, 'close');
  assert.is(byTest('ws-error')?.textContent, 'connection disconnected', 'the reason belongs to that disconnect only');
});

test('a refused CONNACK reads in Chinese too', async () => {
  await open();
  setLocale('zh');
  try {
    await click(byTest('ws-connect'));
    await fire(last(), 'error', Object.assign(new Error('refused'), { code: 1 }));
    assert.is(byTest('ws-error')?.textContent, '连接被拒绝：不支持的协议版本');
    await click(byTest('ws-connect'));
    await fire(last(), 'error', Object.assign(new Error('refused'), { code: 0x84 }));
    assert.is(byTest('ws-error')?.textContent, '连接被拒绝：不支持的协议版本 (0x84)');
  } finally {
    setLocale('en');
  }
});

test.after(() => {
  resetWebSocketClient();
  setClientFactory(null);
  cleanup();
});

test.run();
