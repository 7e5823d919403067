// Client churn: a few thousand real mqtt.js clients (TCP and WebSocket) connect, subscribe,
// exchange QoS 1 messages with every per-message tap switched on (slow subscriptions, topic
// rewrite, auto subscribe, topic metrics, a rule on message_acked), then leave — half with a
// DISCONNECT, half by dropping the socket. Afterwards everything the simulator keeps per client
// (sessions, sockets, subscriptions, filter index, routes, Aedes' clients, event listeners,
// timers and handles of this process) must be back to the sizes it had before.
import net from 'node:net';
import { MqttClient } from 'mqtt';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket, { createWebSocketStream } from 'ws';
import { login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

const CLIENTS = 2000;
const BATCH = 250;

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator();
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

const call = (method: 'POST' | 'PUT', path: string, body: unknown) => request(sim.baseUrl, method, `/api/v5${path}`, { token, body });

/** Everything that grows with the clients of this process, as plain numbers. */
function sizes(): Record<string, number> {
  const broker = sim.app.broker as unknown as {
    clients: Record<string, unknown>;
    connectedClients: number;
    eventNames(): (string | symbol)[];
    listenerCount(event: string | symbol): number;
  };
  const out: Record<string, number> = { ...sim.app.store.mqtt.sizes() };
  out['aedes.clients'] = Object.keys(broker.clients).length;
  out['aedes.connectedClients'] = broker.connectedClients;
  for (const event of broker.eventNames()) out[`aedes.listeners.${String(event)}`] = broker.listenerCount(event);
  // Timers, sockets and other handles that keep this process busy (the clients' ends included).
  for (const resource of process.getActiveResourcesInfo()) out[`process.${resource}`] = (out[`process.${resource}`] ?? 0) + 1;
  return out;
}

/** One client's life: connect, subscribe, a QoS 1 message to itself and back, then leave. */
function life(id: string, ws: boolean, graceful: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = () => (ws
      ? createWebSocketStream(new WebSocket(`ws://127.0.0.1:${sim.ws}/mqtt`, ['mqtt']))
      : net.connect(sim.mqtt, '127.0.0.1'));
    const client = new MqttClient(stream, { clientId: id, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 10_000 });
    const timer = setTimeout(() => reject(new Error(`${id} did not finish`)), 15_000);
    client.on('error', () => {});
    client.once('message', () => {
      // Let the PUBACK go out before leaving.
      setImmediate(() => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        if (graceful) client.end(false, {}, done);
        else {
          (client.stream as unknown as { destroy(): void }).destroy();
          client.end(true, {}, done);
        }
      });
    });
    client.once('connect', () => {
      client.subscribe(`churn/${id}/#`, { qos: 1 }, (err) => {
        if (err) reject(err);
        else client.publish(`churn/${id}/up`, 'hello', { qos: 1 });
      });
    });
  });
}

async function churn(prefix: string, count: number): Promise<void> {
  for (let from = 0; from < count; from += BATCH) {
    const lives: Promise<void>[] = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) lives.push(life(`${prefix}-${i}`, i % 10 === 0, i % 2 === 0));
    await Promise.all(lives);
  }
}

/** Waits until the simulator has seen every client go. */
async function settled(): Promise<void> {
  await waitFor(() => sim.app.store.mqtt.sizes().sessions === 0 && sim.app.store.mqtt.sizes().sockets === 0, 10_000, 'every client to be gone');
  // Closing handshakes and socket handles end a moment later.
  await new Promise((r) => setTimeout(r, 500));
}

test(`${CLIENTS} clients come and go with every tap on: the per-client structures return to their baseline`, async () => {
  // Every tap that keeps something per client or per delivery is switched on.
  assert.is((await call('PUT', '/slow_subscriptions/settings', { enable: true, threshold: '100ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole' })).status, 200);
  assert.is((await call('PUT', '/mqtt/topic_rewrite', [{ action: 'all', source_topic: 'churn/#', re: '^churn/(.+)$', dest_topic: 'churn/$1' }])).status, 200);
  assert.is((await call('PUT', '/mqtt/auto_subscribe', [{ topic: 'auto/${clientid}', qos: 1 }])).status, 200);
  assert.is((await call('POST', '/mqtt/topic_metrics', { topic: 'churn/none' })).status, 200);
  assert.is((await call('POST', '/rules', { id: 'churn_acked', sql: 'SELECT clientid FROM "$events/message_acked"', actions: [] })).status, 201);

  // A first small round warms up what is made once (parsers, caches), then the baseline.
  await churn('warm', 40);
  await settled();
  const before = sizes();

  const started = Date.now();
  await churn('churn', CLIENTS);
  await settled();
  const after = sizes();
  const seconds = (Date.now() - started) / 1000;

  const grown = Object.keys({ ...before, ...after })
    .filter((key) => (after[key] ?? 0) !== (before[key] ?? 0))
    .map((key) => `${key}: ${before[key] ?? 0} → ${after[key] ?? 0}`);
  assert.equal(grown, [], `grew after ${CLIENTS} clients (${seconds.toFixed(1)} s): ${grown.join(', ')}`);
  // The clients really went through the broker: every one of them was counted.
  const metrics = sim.app.store.mqtt.snapshotMetrics();
  assert.ok(metrics['client.connected'] >= CLIENTS + 40, `client.connected ${metrics['client.connected']}`);
  assert.ok(metrics['messages.qos1.received'] >= CLIENTS + 40, `messages.qos1.received ${metrics['messages.qos1.received']}`);
});

test.run();
