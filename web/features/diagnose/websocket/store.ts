/**
 * The test client's state as a valtio module with verbs: the connection tabs, their settings,
 * status, subscriptions, forms and topic monitors. It owns the MQTT clients, so leaving the route
 * keeps the sockets open and the lists filled. Messages live in capped logs outside the proxy;
 * a short timer folds bursts into one re-render. mqtt.js is loaded lazily on the first connect.
 * Connecting is in lifecycle.ts, subscribing and publishing in messaging.ts.
 */
import { proxy, subscribe as watch } from 'valtio';
import { api } from '../../../lib/api.ts';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { session } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { topicFilter } from '../../../lib/validators.ts';
import { MessageLog } from './messageLog.ts';
import { TopicCounter, type Counts, type Direction, type Rates } from './monitors.ts';
import type { Encoding } from './payload.ts';
import { emptyPublishProps, type PublishProps } from './properties.ts';
import { defaultSettings, listenerAddress, type clientOptions, type Listener, type QoS, type Settings } from './settings.ts';

export type Status = 'connecting' | 'connected' | 'disconnecting' | 'disconnected' | 'reconnecting';

/** Spec part1 §2, §9: at most 6 new connections besides the default one. */
export const MAX_EXTRA_CONNECTIONS = 6;
/** How long mqtt.js waits before reconnecting a dropped connection. */
export const RECONNECT_MS = 4000;
/** Messages arriving within this window are shown with one re-render. */
export const FLUSH_MS = 100;
/** Monitor rates are sampled this often. */
export const SAMPLE_MS = 1000;

/** What the store needs of an mqtt.js client; tests pass a fake with the same shape. */
export interface MqttLike {
  on(event: string, listener: (...args: any[]) => void): unknown;
  subscribe(topic: string, options: { qos: QoS; properties?: object }, callback: (error?: Error | null, granted?: { topic: string; qos: number }[], packet?: Ack) => void): unknown;
  unsubscribe(topic: string, callback: (error?: Error | null) => void): unknown;
  publish(topic: string, payload: Uint8Array, options: { qos: QoS; retain: boolean; properties?: object }, callback: (error?: Error | null, packet?: Ack) => void): unknown;
  end(force?: boolean, options?: object, callback?: () => void): unknown;
}
/** The parts of an acknowledgement the client reads: SUBACK codes and the MQTT 5 reason string. */
export interface Ack {
  granted?: number[];
  properties?: { reasonString?: string };
}
export type ClientFactory = (url: string, options: ReturnType<typeof clientOptions>) => MqttLike | Promise<MqttLike>;

export interface Monitor extends Counts {
  topic: string;
  rates: Rates;
}

export interface Connection {
  id: string;
  /** The number in the tab title (1 is the default connection). */
  n: number;
  settings: Settings;
  status: Status;
  /** The last refusal or loss, in words. */
  error: string;
  errors: Record<string, string>;
  subscriptions: { topic: string; qos: QoS }[];
  subscribeForm: { topic: string; qos: QoS; subscriptionId: number | ''; errors: Record<string, string> };
  publishForm: PublishProps & { topic: string; qos: QoS; retain: boolean; payload: string; encoding: Encoding; errors: Record<string, string> };
  received: { total: number; kept: number; encoding: Encoding };
  published: { total: number; kept: number; encoding: Encoding };
  /** Bumped when the message logs changed. */
  rev: number;
  monitors: Monitor[];
  activeMonitor: string;
  monitorForm: { topic: string; error: string };
}

export interface Runtime {
  client?: MqttLike;
  attempt: number;
  received: MessageLog;
  published: MessageLog;
  totals: { received: number; published: number };
  counters: TopicCounter[];
  /** The Topic Alias Maximum of the broker's CONNACK (0: no aliases). */
  aliasMax: number;
  flushTimer?: ReturnType<typeof setTimeout>;
}

const loadMqtt: ClientFactory = async (url, options) => {
  const mqtt = (await import('mqtt')).default;
  return mqtt.connect(url, options as Parameters<typeof mqtt.connect>[1]) as unknown as MqttLike;
};
let factory: ClientFactory = loadMqtt;

/** Makes a client with the current factory. */
export const makeClient: ClientFactory = (url, options) => factory(url, options);

/** Replaces how clients are made (tests inject fakes); `null` restores mqtt.js. */
export function setClientFactory(next: ClientFactory | null) {
  factory = next ?? loadMqtt;
}

/** The first WebSocket listener's address once `/listeners` has answered (loadListenerAddress). */
let fromListener: Partial<Settings> | undefined;
let addressAsked = false;

function newConnection(n: number): Connection {
  return {
    id: `c${n}`, n, settings: { ...defaultSettings(), ...fromListener }, status: 'disconnected', error: '', errors: {}, subscriptions: [],
    subscribeForm: { topic: 'testtopic/#', qos: 0, subscriptionId: '', errors: {} },
    publishForm: { topic: 'testtopic/1', qos: 0, retain: false, payload: '{ "msg": "hello" }', encoding: 'json', errors: {}, ...emptyPublishProps() },
    received: { total: 0, kept: 0, encoding: 'plaintext' }, published: { total: 0, kept: 0, encoding: 'plaintext' },
    rev: 0, monitors: [], activeMonitor: '', monitorForm: { topic: '', error: '' },
  };
}

export const wsClient = proxy({ connections: [newConnection(1)], active: 'c1', nextNumber: 2 });
const runtimes = new Map<string, Runtime>();

// Logging out (or an expired session) closes every test-client connection.
watch(session, () => !session.token && resetWebSocketClient());

export function runtime(id: string): Runtime {
  let rt = runtimes.get(id);
  if (!rt) runtimes.set(id, (rt = { attempt: 0, received: new MessageLog(), published: new MessageLog(), totals: { received: 0, published: 0 }, counters: [], aliasMax: 0 }));
  return rt;
}

/** The connection with `id` (the proxy, for verbs). */
export function connectionOf(id: string): Connection {
  const conn = wsClient.connections.find((c) => c.id === id);
  if (!conn) throw new Error(`no connection ${id}`);
  return conn;
}

/** The received and published logs of a connection (read them together with `rev`). */
export function logsOf(id: string): { received: MessageLog; published: MessageLog } {
  return runtime(id);
}

/** Opens a new connection tab, or says why not (the default one plus at most 6 more). */
export function addConnection(): boolean {
  if (wsClient.connections.length - 1 >= MAX_EXTRA_CONNECTIONS) {
    toast(t('websocket.tooManyConnections', { max: MAX_EXTRA_CONNECTIONS }), 'error');
    return false;
  }
  const conn = newConnection(wsClient.nextNumber++);
  wsClient.connections.push(conn);
  wsClient.active = conn.id;
  return true;
}

/** Closes an extra connection tab: its client ends and its messages are discarded. */
export function removeConnection(id: string) {
  const index = wsClient.connections.findIndex((c) => c.id === id);
  if (index <= 0) return;
  stopClient(id);
  clearTimeout(runtime(id).flushTimer);
  runtimes.delete(id);
  wsClient.connections.splice(index, 1);
  if (wsClient.active === id) wsClient.active = wsClient.connections[index - 1].id;
}

export function selectConnection(id: string) {
  wsClient.active = id;
}

export function stopClient(id: string) {
  const rt = runtime(id);
  rt.attempt += 1;
  const client = rt.client;
  rt.client = undefined;
  client?.end(true);
}

export function countFor(rt: Runtime, topic: string, direction: Direction) {
  for (const counter of rt.counters) counter.count(topic, direction);
}

export function schedule(conn: Connection, rt: Runtime) {
  // Live views pause in hidden tabs (DESIGN.md §7): counting goes on, rendering waits.
  if (!document.hidden) rt.flushTimer ??= setTimeout(() => flush(conn), FLUSH_MS);
}

document.addEventListener('visibilitychange', () => {
  if (!document.hidden) wsClient.connections.forEach((conn) => flush(conn));
});

/** Copies what the logs and counters gathered into the proxy (one re-render per burst). */
export function flush(conn: Connection) {
  const rt = runtime(conn.id);
  clearTimeout(rt.flushTimer);
  rt.flushTimer = undefined;
  conn.received.total = rt.totals.received;
  conn.received.kept = rt.received.length;
  conn.published.total = rt.totals.published;
  conn.published.kept = rt.published.length;
  for (const monitor of conn.monitors) {
    const counter = rt.counters.find((c) => c.filter === monitor.topic);
    if (counter) Object.assign(monitor, counter.counts);
  }
  conn.rev += 1;
}

let sampler: ReturnType<typeof setInterval> | undefined;

/** Adds a topic monitor, or jumps to it when the topic is already watched (spec part1 §2). */
export function addMonitor(id: string) {
  const conn = connectionOf(id);
  const topic = conn.monitorForm.topic.trim();
  conn.monitorForm.error = topicFilter(topic, {}) ?? '';
  if (conn.monitorForm.error) return;
  conn.monitorForm.topic = '';
  conn.activeMonitor = topic;
  if (conn.monitors.some((m) => m.topic === topic)) return;
  runtime(id).counters.push(new TopicCounter(topic, Date.now()));
  conn.monitors.push({ topic, incoming: 0, outgoing: 0, dropped: 0, rates: { incoming: 0, outgoing: 0, dropped: 0 } });
  sampler ??= setInterval(() => !document.hidden && sampleMonitors(), SAMPLE_MS);
}

export function removeMonitor(id: string, topic: string) {
  const conn = connectionOf(id);
  const rt = runtime(id);
  rt.counters = rt.counters.filter((c) => c.filter !== topic);
  conn.monitors = conn.monitors.filter((m) => m.topic !== topic);
  if (conn.activeMonitor === topic) conn.activeMonitor = conn.monitors[0]?.topic ?? '';
  if (!wsClient.connections.some((c) => c.monitors.length > 0)) sampler = void clearInterval(sampler);
}

/** Takes a rate sample of every monitor (the timer calls it each second; tests pass the time). */
export function sampleMonitors(now = Date.now()) {
  for (const conn of wsClient.connections) {
    const rt = runtime(conn.id);
    for (const monitor of conn.monitors) {
      const counter = rt.counters.find((c) => c.filter === monitor.topic);
      if (counter) Object.assign(monitor, counter.counts, { rates: counter.sample(now) });
    }
  }
}

/**
 * Reads the broker's WebSocket listener address once per session: new connections take it, and
 * so do the ones not connected whose address is still the page's own.
 */
export async function loadListenerAddress() {
  if (addressAsked) return;
  addressAsked = true;
  let listeners: Listener[] = [];
  try {
    listeners = await api.get<Listener[]>('/listeners');
  } catch (error) {
    addressAsked = false;
    return handleError(error);
  }
  fromListener = listenerAddress(Array.isArray(listeners) ? listeners : []);
  if (!fromListener) return;
  const page = defaultSettings();
  for (const { status, settings } of wsClient.connections) {
    if (status === 'disconnected' && (['protocol', 'host', 'port', 'path'] as const).every((key) => settings[key] === page[key])) Object.assign(settings, fromListener);
  }
}

/** Ends every client and starts over with one default connection (at logout, and for tests). */
export function resetWebSocketClient() {
  for (const conn of wsClient.connections) {
    stopClient(conn.id);
    clearTimeout(runtime(conn.id).flushTimer);
  }
  runtimes.clear();
  sampler = void clearInterval(sampler);
  fromListener = undefined;
  addressAsked = false;
  wsClient.connections = [newConnection(1)];
  wsClient.active = 'c1';
  wsClient.nextNumber = 2;
}
