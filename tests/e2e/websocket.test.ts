import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { Browser } from 'playwright-core';
import { launch, loginAsAdmin, openPage, type WatchedPage } from '../helpers/browser.ts';
import { login, request, spawnSimulator, type SpawnedSimulator } from '../helpers/simulator.ts';

let sim: SpawnedSimulator;
let browser: Browser;
let w: WatchedPage;
let clientId = '';
const requested: string[] = [];
const children: ChildProcess[] = [];

/** Runs mosquitto_pub against the simulator's TCP port; resolves when it exits. */
function mosquittoPub(args: string[]) {
  const child = spawn('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(sim.mqtt), ...args]);
  children.push(child);
  return new Promise<number | null>((resolve) => child.on('close', resolve));
}

const sel = (name: string) => `[data-test=${name}]`;
const payloads = (list: string) => w.page.locator(`${sel(`ws-${list}`)} ${sel('ws-message-payload')}`).allTextContents();
const state = () => w.page.getAttribute(sel('ws-state'), 'data-state');
const props = (list: string) => w.page.locator(`${sel(`ws-${list}`)} ${sel('ws-message-props')}`).allTextContents();

async function until(check: () => Promise<boolean>, ms = 5000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Goes to a screen through the menu, inside the page (no reload, so the store survives). */
async function viaMenu(group: string, item: string) {
  const link = w.page.locator(sel(`menu-${item}`));
  if (!(await link.isVisible())) await w.page.click(sel(`menu-group-${group}`));
  await link.click();
}

async function publish(encoding: string, payload: string) {
  await w.page.selectOption(sel('ws-publishEncoding'), encoding);
  await w.page.fill(sel('ws-payload'), payload);
  const count = (await payloads('published')).length;
  await w.page.click(sel('ws-publish-submit'));
  await until(async () => (await payloads('published')).length === count + 1, 3000, `the ${encoding} publish`);
}

test.before(async () => {
  sim = await spawnSimulator(['--seed', 'demo']);
  browser = await launch();
  w = await openPage(browser);
  w.page.on('request', (r) => requested.push(r.url()));
  await loginAsAdmin(w.page, sim.baseUrl);
});

test.after(async () => {
  for (const child of children) child.kill();
  await browser?.close();
  await sim?.kill();
});

// Changed with issue #34: the default is the broker's ws listener, not the console's own port.
test('the test client connects with MQTT 5.0 and its default settings to the ws listener at /mqtt, loading mqtt.js only then; the HTTP port refuses /mqtt', async () => {
  await viaMenu('diagnose', 'websocket');
  await w.page.waitForSelector(sel('websocket-page'));
  assert.is(await w.page.inputValue(sel('ws-protocolVersion')), '5');
  assert.is(await w.page.inputValue(sel('ws-host')), '127.0.0.1');
  await w.page.waitForFunction((port) => (document.querySelector('[data-test=ws-port]') as HTMLInputElement).value === port, String(sim.ws));
  assert.is(await w.page.inputValue(sel('ws-path')), '/mqtt');
  clientId = await w.page.inputValue(sel('ws-clientId'));
  assert.match(clientId, /^emqx_[0-9a-f]{8}$/);
  assert.not.ok(requested.some((url) => /mqtt\.esm-/.test(url)), 'mqtt.js is not loaded before connecting');
  await w.page.click(sel('ws-connect'));
  await w.page.waitForSelector('[data-test=ws-state][data-state=connected]');
  assert.ok(requested.some((url) => /chunks\/mqtt\.esm-[\w-]+\.js$/.test(url)), 'mqtt.js came as its own chunk');
  const onHttpPort = await w.page.evaluate((url) => new Promise<string>((resolve) => {
    const socket = new WebSocket(url, 'mqtt');
    socket.onopen = () => (socket.close(), resolve('open'));
    socket.onerror = () => resolve('refused');
  }), `ws://127.0.0.1:${sim.http}/mqtt`);
  assert.is(onHttpPort, 'refused');
});

test('the mqtt.js chunk holds its WebSocket transport only, and no code built from strings or Worker', async () => {
  const url = requested.find((u) => /chunks\/mqtt\.esm-[\w-]+\.js$/.test(u))!;
  const code = (await request(sim.baseUrl, 'GET', new URL(url).pathname)).text;
  assert.ok(code.includes('new WebSocket('), 'the browser WebSocket transport');
  // mqtt.js's other transports in build/lib/connect/: the mini-program ones (wx.js, ali.js) open
  // their sockets with connectSocket, tcp.js with net.createConnection, tls.js waits for secureConnect.
  for (const other of ['connectSocket', 'createConnection', 'secureConnect']) assert.not.ok(code.includes(other), other);
  for (const unsafe of ['eval(', 'new Function', 'new Worker', 'Blob(']) assert.not.ok(code.includes(unsafe), unsafe);
});

test('subscribe demo/#, publish in each encoding: both lists show every message decoded right', async () => {
  await w.page.fill(sel('ws-subscribeTopic'), 'demo/#');
  await w.page.selectOption(sel('ws-subscribeQos'), '1');
  await w.page.click(sel('ws-subscribe-submit'));
  await w.page.waitForSelector('[data-test=ws-subscription][data-topic="demo/#"]');
  await w.page.fill(sel('ws-publishTopic'), 'demo/console');
  await publish('plaintext', 'hello plain');
  await publish('base64', Buffer.from('hello base64').toString('base64'));
  await publish('json', '{"n": 1, "s": "<b>x</b>"}');
  await publish('hex', Buffer.from('hello hex').toString('hex').replace(/(..)/g, '$1 '));
  const expected = ['hello hex', '{"n": 1, "s": "<b>x</b>"}', 'hello base64', 'hello plain'];
  await until(async () => (await payloads('received')).length === 4, 3000, 'four received messages');
  assert.equal(await payloads('received'), expected);
  assert.equal(await payloads('published'), expected);
  await w.page.selectOption(sel('ws-receivedEncoding'), 'hex');
  assert.is((await payloads('received'))[0], '68 65 6c 6c 6f 20 68 65 78');
  await w.page.selectOption(sel('ws-receivedEncoding'), 'base64');
  assert.is((await payloads('received'))[2], Buffer.from('hello base64').toString('base64'));
  await w.page.selectOption(sel('ws-receivedEncoding'), 'json');
  assert.is((await payloads('received'))[1], '{"n":1,"s":"<b>x</b>"}');
  assert.is(await w.page.locator(`${sel('ws-received')} b`).count(), 0, 'payload markup stays text');
  await w.page.selectOption(sel('ws-receivedEncoding'), 'plaintext');
  const topics = await w.page.locator(`${sel('ws-received')} ${sel('ws-message-topic')}`).allTextContents();
  assert.equal(topics, ['demo/console', 'demo/console', 'demo/console', 'demo/console']);
});

test('a message from mosquitto_pub shows up in the received list', async () => {
  assert.is(await mosquittoPub(['-t', 'demo/x', '-m', 'hi']), 0);
  await until(async () => (await payloads('received'))[0] === 'hi', 3000, 'the mosquitto message');
  assert.is(await w.page.locator(`${sel('ws-received')} ${sel('ws-message-topic')}`).first().textContent(), 'demo/x');
});

test('Clients lists the test client; coming back, it is still connected and the lists are intact', async () => {
  await viaMenu('monitoring', 'clients');
  await w.page.waitForSelector(`[data-test=clients-row][data-key="${clientId}"]`);
  assert.ok(((await w.page.textContent(`[data-test=clients-row][data-key="${clientId}"]`)) ?? '').includes('Connected'));
  assert.is(await mosquittoPub(['-t', 'demo/x', '-m', 'while away']), 0);
  await viaMenu('diagnose', 'websocket');
  await w.page.waitForSelector(sel('websocket-page'));
  assert.is(await state(), 'connected');
  await until(async () => (await payloads('received')).length === 6, 3000, 'the message that came while away');
  assert.equal((await payloads('received')).slice(0, 2), ['while away', 'hi']);
  assert.is((await payloads('published')).length, 4);
  assert.is(await w.page.locator('[data-test=ws-subscription][data-topic="demo/#"]').count(), 1);
});

test('MQTT 5.0: a publish with a user property and content type comes back with them shown in the received list', async () => {
  await w.page.click(`${sel('ws-publish-v5')} summary`);
  await w.page.fill(`${sel('ws-property-key')} >> nth=0`, 'origin');
  await w.page.fill(`${sel('ws-property-value')} >> nth=0`, 'console <e2e>');
  await w.page.fill(sel('ws-contentType'), 'text/plain');
  await w.page.fill(sel('ws-publishTopic'), 'demo/v5');
  await publish('plaintext', 'hello v5');
  await until(async () => (await payloads('received'))[0] === 'hello v5', 3000, 'the MQTT 5 message');
  const shown = (await props('received'))[0];
  assert.ok(shown.includes('User properties: {"origin":"console <e2e>"}'), shown);
  assert.ok(shown.includes('Content type: text/plain'), shown);
  assert.is((await props('published'))[0], shown, 'the published list shows what was sent');
  assert.is(await w.page.locator(`${sel('ws-received')} e2e`).count(), 0, 'property values stay text');
});

test('MQTT 5.0: user properties from mosquitto_pub -V mqttv5 are shown too', async () => {
  assert.is(await mosquittoPub(['-V', 'mqttv5', '-t', 'demo/mosquitto', '-m', 'from mosquitto', '-D', 'publish', 'user-property', 'site', 'plant 1']), 0);
  await until(async () => (await payloads('received'))[0] === 'from mosquitto', 3000, 'the mosquitto MQTT 5 message');
  assert.is((await props('received'))[0], 'User properties: {"site":"plant 1"}');
});

test('the client detail shows the test client as MQTT v5.0 with its queue and inflight figures', async () => {
  await viaMenu('monitoring', 'clients');
  await w.page.click(`[data-test=clients-row][data-key="${clientId}"] a`);
  await w.page.waitForSelector(sel('client-detail'));
  const facts = async (test: string) => Object.fromEntries(await w.page.locator(`${sel(test)} .description`).evaluateAll((items) =>
    items.map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent])));
  assert.is((await facts('client-connection')).Protocol, 'MQTT v5.0');
  const session = await facts('client-session');
  for (const figure of ['Inflight', 'Message Queue', 'Awaiting Release']) assert.match(session[figure], /^\d[\d,]* \/ [\d,]+$/, figure);
  assert.match(session['Message Queue Dropped'], /^\d[\d,]*$/);
  assert.ok(session['Session Expiry Interval'], 'the session expiry interval is shown');
  await viaMenu('diagnose', 'websocket');
  await w.page.waitForSelector(sel('websocket-page'));
  assert.is(await state(), 'connected');
});

test('a banned client id is refused on MQTT 5.0 with the reason in words, and not retried', async () => {
  const token = await login(sim.baseUrl);
  const ban = await request(sim.baseUrl, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'e2e-banned' } });
  assert.is(ban.status, 200, ban.text);
  await w.page.click(sel('ws-tab-add'));
  await w.page.fill(sel('ws-clientId'), 'e2e-banned');
  await w.page.fill(sel('ws-receiveMaximum'), '20');
  await w.page.click(sel('ws-connect'));
  await w.page.waitForSelector(sel('ws-error'));
  assert.match(await w.page.textContent(sel('ws-error')) ?? '', /^Connection refused: (Not authorized \(0x87\)|Banned \(0x8A\))$/);
  await until(async () => (await state()) === 'disconnected', 3000, 'the refused connection to stop');
  await new Promise((r) => setTimeout(r, 500));
  assert.is(await state(), 'disconnected', 'a refusal is not retried');
  await request(sim.baseUrl, 'DELETE', '/api/v5/banned/clientid/e2e-banned', { token });
});

test('a port nobody listens on: the attempt is retried with the address named, and cancel stops it', async () => {
  const closed = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  await w.page.click(sel('ws-tab-add'));
  await w.page.fill(sel('ws-port'), String(closed));
  await w.page.click(sel('ws-connect'));
  await w.page.waitForSelector('[data-test=ws-state][data-state=reconnecting]');
  assert.is(await w.page.textContent(sel('ws-error')), `Error occurred: cannot reach ws://127.0.0.1:${closed}/mqtt`);
  await w.page.click(sel('ws-cancel'));
  assert.is(await state(), 'disconnected');
  await new Promise((r) => setTimeout(r, 4500));
  assert.is(await state(), 'disconnected', 'no retry after cancelling');
});

test('a seventh extra connection is refused with a message', async () => {
  while ((await w.page.locator(sel('ws-tab')).count()) < 7) await w.page.click(sel('ws-tab-add'));
  await w.page.click(sel('ws-tab-add'));
  await w.page.getByText('At most 6 new connections can be created besides the default one', { exact: true }).waitFor();
  assert.is(await w.page.locator(sel('ws-tab')).count(), 7);
  await w.page.click(`${sel('ws-tab')} >> nth=0`);
  assert.is(await state(), 'connected', 'the first connection is untouched');
});

test('kicking the test client in Clients: it shows the loss, reconnects by itself and is connected again', async () => {
  await viaMenu('monitoring', 'clients');
  const row = `[data-test=clients-row][data-key="${clientId}"]`;
  await w.page.click(`${row} [data-test=clients-kick]`);
  await w.page.click('[data-test=confirm-ok]');
  await w.page.getByText('Kicked out successfully', { exact: true }).waitFor();
  // The loss is told wherever the user is (with the reason when the broker sends an MQTT 5 DISCONNECT).
  await w.page.getByText(/^connection disconnected/).first().waitFor();
  await viaMenu('diagnose', 'websocket');
  await w.page.waitForSelector(sel('websocket-page'));
  await w.page.waitForSelector('[data-test=ws-state][data-state=connected]', { timeout: 10_000 });
  assert.is(await mosquittoPub(['-t', 'demo/x', '-m', 'after the kick']), 0);
  await until(async () => (await payloads('received'))[0] === 'after the kick', 3000, 'delivery after resubscribing');
});

test('no CSP violation, page error or dialog on the way', () => {
  assert.equal(w.violations, []);
  assert.equal(w.errors, []);
  assert.equal(w.dialogs, []);
});

test.run();
