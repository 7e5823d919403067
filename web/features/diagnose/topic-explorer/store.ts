/**
 * The Topic Explorer's state as a valtio module with verbs: one MQTT-over-WebSocket connection
 * (made with the test client's factory and options), its subscription, pause, clear and a
 * reconnect back-off. Messages go into the tree model outside the proxy; a timer folds them into
 * one re-render a few times a second. It lives past the route, like the test client, and ends at logout.
 */
import { proxy, subscribe as watch } from 'valtio';
import { api } from '../../../lib/api.ts';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { session } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { topicFilter } from '../../../lib/validators.ts';
import { reasonText, refusalLabel } from '../websocket/lifecycle.ts';
import { propertyPairs, type MessageProperties } from '../websocket/properties.ts';
import { brokerUrl, clientOptions, defaultSettings, listenerAddress, randomClientId, validateSettings, type Listener, type QoS } from '../websocket/settings.ts';
import { makeClient, type MqttLike, type Status } from '../websocket/store.ts';
import { TopicTree, type Sort, type TreeStats } from './tree.ts';

/** Re-renders at most this often (DESIGN.md §6: smooth at 2,000 msg/s). */
export const FLUSH_MS = 250;
/** Rates are sampled this often. */
export const SAMPLE_MS = 1000;
/** Reconnect delays double from the first to the last. */
export const BACKOFF_MS = [1000, 30_000] as const;
/** CONNACK codes that mean 'who are you': MQTT 3 4 and 5, MQTT 5 0x86 and 0x87. */
const AUTH_CODES = [4, 5, 0x86, 0x87];

const settings = () => ({ ...defaultSettings(), clientId: randomClientId().replace('emqx_', 'explorer_') });

export const explorer = proxy({
  settings: settings(),
  filter: '#',
  sys: false,
  qos: 1 as QoS,
  status: 'disconnected' as Status,
  error: '',
  errors: {} as Record<string, string>,
  /** Whether the broker asked for credentials. */
  needsAuth: false,
  /** Whether the address was taken from /listeners. */
  addressFrom: '' as '' | 'listeners' | 'page',
  paused: false,
  skipped: 0,
  search: '',
  sort: 'name' as Sort,
  selected: '',
  /** Bumped when the tree changed. */
  rev: 0,
  stats: { topics: 0, messages: 0, kept: 0, bytes: 0, dropped: 0, tooLarge: 0, untracked: 0 } as TreeStats,
  rate: 0,
});

interface Runtime {
  client?: MqttLike;
  attempt: number;
  tree: TopicTree;
  expanded: Set<string>;
  paused: boolean;
  skipped: number;
  delay: number;
  flushTimer?: ReturnType<typeof setTimeout>;
  retryTimer?: ReturnType<typeof setTimeout>;
  sampler?: ReturnType<typeof setInterval>;
}

const rt: Runtime = { attempt: 0, tree: new TopicTree(), expanded: new Set(), paused: false, skipped: 0, delay: BACKOFF_MS[0] };

/** The tree and the expanded paths (read them together with `rev`). */
export const model = () => rt;

watch(session, () => !session.token && resetExplorer());

/** Takes ws/wss, host, port and path from the first enabled WebSocket listener, keeping the page's host. */
export function addressFromListeners(listeners: Listener[], page: { hostname: string } = location) {
  const address = listenerAddress(listeners, page);
  if (!address) return false;
  Object.assign(explorer.settings, address);
  explorer.addressFrom = 'listeners';
  return true;
}

/** Starts loading mqtt.js while the operator looks at the form, so connecting does not wait for it. */
export function warmClient() {
  // A failure here shows again, with its message, when connecting loads it.
  import('mqtt').catch(() => undefined);
}

/** Fills the address from /listeners once (the page's own host and port stay when that fails). */
export async function loadAddress() {
  if (explorer.addressFrom) return;
  explorer.addressFrom = 'page';
  const listeners = await api.get<Listener[]>('/listeners').catch((error) => (handleError(error), []));
  if (explorer.status === 'disconnected') addressFromListeners(Array.isArray(listeners) ? listeners : []);
}

function flush() {
  clearTimeout(rt.flushTimer);
  rt.flushTimer = undefined;
  Object.assign(explorer.stats, rt.tree.stats);
  explorer.rate = Math.round(rt.tree.root.rate * 10) / 10;
  explorer.skipped = rt.skipped;
  explorer.rev += 1;
}

function schedule() {
  // Live views pause in hidden tabs (DESIGN.md §7): counting goes on, rendering waits.
  if (!document.hidden) rt.flushTimer ??= setTimeout(flush, FLUSH_MS);
}

if (typeof document !== 'undefined') document.addEventListener('visibilitychange', () => !document.hidden && flush());

/** The filters subscribed to: the operator's and, on request, `$SYS/#` ('#' does not match $ topics [MQTT-4.7.2-1]). */
export const filters = () => (explorer.sys ? [explorer.filter.trim(), '$SYS/#'] : [explorer.filter.trim()]);

/** Checks the settings and the filter, then connects; the state follows the client's events. */
export async function connect() {
  if (explorer.status !== 'disconnected') return;
  const errors = validateSettings(explorer.settings);
  const filterError = topicFilter(explorer.filter.trim(), {});
  if (filterError) errors.filter = filterError;
  explorer.errors = errors;
  if (Object.keys(errors).length > 0) return;
  const attempt = ++rt.attempt;
  explorer.status = 'connecting';
  explorer.error = '';
  rt.delay = BACKOFF_MS[0];
  // Reconnecting is ours (with back-off), and subscriptions are made on every CONNACK.
  const options = { ...clientOptions({ ...explorer.settings }, 0), resubscribe: false };
  let client: MqttLike;
  try {
    client = await makeClient(brokerUrl(explorer.settings), options);
  } catch (error) {
    if (attempt !== rt.attempt) return;
    explorer.status = 'disconnected';
    explorer.error = `${t('websocket.errorOccurred')}: ${(error as Error).message}`;
    return;
  }
  if (attempt !== rt.attempt) return void client.end(true);
  rt.client = client;
  wire(client);
}

function wire(client: MqttLike) {
  const current = () => rt.client === client;
  const v5 = explorer.settings.protocolVersion === 5;
  client.on('connect', () => {
    if (!current()) return;
    explorer.status = 'connected';
    explorer.error = '';
    rt.delay = BACKOFF_MS[0];
    // Retain As Published (MQTT 5 §3.8.3.1): live retained messages keep their flag.
    const options = v5 ? { qos: explorer.qos, rap: true } : { qos: explorer.qos };
    for (const filter of filters()) {
      client.subscribe(filter, options as { qos: QoS }, (error, _granted, packet) => {
        const code = packet?.granted?.[0];
        if (error || (code !== undefined && code >= 0x80)) toast(`${t('websocket.subscribeFailed')}: ${filter}${code !== undefined && code >= 0x80 ? ` ${reasonText(code, 'suback')}` : ''}`, 'error');
      });
    }
    rt.sampler ??= setInterval(() => {
      rt.tree.sample(Date.now());
      schedule();
    }, SAMPLE_MS);
  });
  client.on('reconnect', () => current() && (explorer.status = 'reconnecting'));
  client.on('close', () => {
    if (!current() || explorer.status === 'disconnecting') return;
    explorer.error = explorer.status === 'connected' ? t('websocket.connectionLost') : t('websocket.unreachable', { url: brokerUrl(explorer.settings) });
    explorer.status = 'reconnecting';
    // Back-off: each failed attempt waits twice as long, up to the last step.
    clearTimeout(rt.retryTimer);
    rt.retryTimer = setTimeout(() => current() && (client as MqttLike & { reconnect?: () => void }).reconnect?.(), rt.delay);
    rt.delay = Math.min(rt.delay * 2, BACKOFF_MS[1]);
  });
  client.on('error', (error: Error & { code?: unknown }) => {
    if (!current() || typeof error.code !== 'number' || explorer.status === 'connected') return;
    explorer.error = refusalLabel(error.code);
    explorer.needsAuth ||= AUTH_CODES.includes(error.code);
    stop();
    explorer.status = 'disconnected';
  });
  client.on('message', (topic: string, payload: Uint8Array, packet: { qos: QoS; retain: boolean; properties?: MessageProperties }) => {
    if (!current()) return;
    if (rt.paused) return void (rt.skipped += 1);
    rt.tree.add({ topic, qos: packet.qos, retain: packet.retain, time: Date.now(), payload, props: propertyPairs(packet.properties) });
    schedule();
  });
  client.on('end', () => current() && ended());
}

function stop() {
  rt.attempt += 1;
  const client = rt.client;
  rt.client = undefined;
  client?.end(true);
  rt.sampler = void clearInterval(rt.sampler);
  clearTimeout(rt.retryTimer);
}

function ended() {
  stop();
  explorer.status = 'disconnected';
}

/** Disconnects (or stops trying); the tree stays. */
export function disconnect() {
  const client = rt.client;
  if (explorer.status === 'connected' && client) {
    explorer.status = 'disconnecting';
    client.end(false, {}, () => rt.client === client && ended());
  } else {
    ended();
  }
  flush();
}

/** Stops taking messages in (they are counted as skipped), or takes them in again. */
export function setPaused(paused: boolean) {
  rt.paused = paused;
  explorer.paused = paused;
  flush();
}

/** Forgets every topic and count. */
export function clearTree() {
  rt.tree = new TopicTree();
  rt.expanded.clear();
  rt.skipped = 0;
  explorer.selected = '';
  flush();
}

export function toggle(path: string, open = !rt.expanded.has(path)) {
  if (open) rt.expanded.add(path);
  else rt.expanded.delete(path);
  explorer.rev += 1;
}

export function select(path: string) {
  explorer.selected = path;
}

/** Notes that the retained message of `topic` is gone (deleted through the API). */
export function retainedGone(topic: string) {
  const node = rt.tree.find(topic);
  if (node) node.retained = false;
  flush();
}

/** Publishes on the explorer's connection; resolves false (after saying why) when it cannot. */
export function publishHere(topic: string, payload: string, qos: QoS, retain: boolean): Promise<boolean> {
  const client = rt.client;
  if (explorer.status !== 'connected' || !client) {
    toast(t('websocket.notConnected'), 'error');
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    client.publish(topic, new TextEncoder().encode(payload), { qos, retain }, (error) => {
      if (error) toast(`${t('websocket.publishFailed')}: ${error.message}`, 'error');
      else toast(t('explorer.published'));
      resolve(!error);
    });
  });
}

/** Ends the connection and forgets everything (at logout, and for tests). */
export function resetExplorer() {
  stop();
  clearTimeout(rt.flushTimer);
  rt.flushTimer = undefined;
  rt.tree = new TopicTree();
  rt.expanded.clear();
  rt.paused = false;
  rt.skipped = 0;
  Object.assign(explorer, {
    settings: settings(), filter: '#', sys: false, qos: 1, status: 'disconnected', error: '', errors: {}, needsAuth: false, addressFrom: '',
    paused: false, skipped: 0, search: '', sort: 'name', selected: '', rate: 0,
  });
  flush();
}
