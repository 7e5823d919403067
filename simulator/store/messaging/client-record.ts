// The client object of GET /clients and GET /clients/{clientid} (emqx_mgmt_api_clients,
// emqx-api-part1 §9.2) and the records it is built from. Live clients of node 1 and fixture
// clients of the other nodes share one record shape, so paging, filters and detail treat them
// alike. Erlang-only figures (heap, reductions) are given plausible values; queue limits are
// EMQX's defaults.
import { rfc3339 } from '../../lib/time.ts';

/** Subscription options as EMQX reports them; MQTT 3.1.1 clients always have nl = rap = rh = 0. */
export interface SubOptions {
  qos: number;
  nl: number;
  rap: number;
  rh: number;
}

/** Per-connection counters of the client object; they restart with every connection, as in EMQX. */
export const CLIENT_COUNTER_KEYS = [
  'recv_pkt', 'recv_msg', 'recv_msg.qos0', 'recv_msg.qos1', 'recv_msg.qos2',
  'recv_msg.dropped', 'recv_msg.dropped.await_pubrel_timeout',
  'send_pkt', 'send_msg', 'send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2',
  'send_msg.dropped', 'send_msg.dropped.expired', 'send_msg.dropped.queue_full', 'send_msg.dropped.too_large',
  'mqueue_dropped', 'recv_oct', 'send_oct',
] as const;

export type ClientCounterKey = (typeof CLIENT_COUNTER_KEYS)[number];
export type ClientCounters = Record<ClientCounterKey, number>;

export function zeroCounters(): ClientCounters {
  const counters = {} as ClientCounters;
  for (const key of CLIENT_COUNTER_KEYS) counters[key] = 0;
  return counters;
}

export interface ClientRecord {
  clientid: string;
  username: string | null;
  ip_address: string;
  port: number;
  proto_name: string;
  proto_ver: number;
  clean_start: boolean;
  keepalive: number;
  /** Seconds the session outlives its connection (0 for a clean session). */
  expiry_interval: number;
  /** EMQX listener id, e.g. `tcp:default`. */
  listener: string;
  created_at: number;
  connected_at: number;
  disconnected_at: number | null;
  connected: boolean;
  /** Topic filter → options, in subscription order. */
  subscriptions: Map<string, SubOptions>;
  /** Creation order on its node; client cursors walk by it. */
  seq: number;
}

/** Live figures that are not in the record: bytes, queues. */
export interface ClientLive {
  counters: ClientCounters;
  recv_oct: number;
  send_oct: number;
  inflight_cnt: number;
  mqueue_len: number;
  /** The session's real figures (node 1's sessions); EMQX's defaults otherwise. */
  queues?: SessionQueueStats;
}

/** A session's window, queue and QoS 2 receipts (emqx_session_mem.erl STATS_KEYS). */
export interface SessionQueueStats {
  inflight_cnt: number;
  inflight_max: number;
  mqueue_len: number;
  /** 0 = no limit. */
  mqueue_max: number;
  mqueue_dropped: number;
  awaiting_rel_cnt: number;
  awaiting_rel_max: number | 'infinity';
}

/** A queued or in-flight message as GET /clients/{clientid}/mqueue_messages lists it (5.6+). */
export interface SessionMessageInfo {
  msgid: string;
  qos: number;
  topic: string;
  publish_at: number;
  from_clientid: string;
  from_username: string;
  payload: Buffer;
  /** Insertion time in ns, as a string. */
  inserted_at: string;
  mqueue_priority?: number;
}

/** One page of a session's messages and its continuation (emqx_mqueue query/2, inflight_query/2). */
export interface SessionMessagesPage {
  data: SessionMessageInfo[];
  start: string;
  position: string;
}

/** What the broker's session layer tells the client API about node 1's sessions. */
export interface SessionQueueView {
  /** Null when the client has no session on this node. */
  stats(clientid: string): SessionQueueStats | null;
  /** Messages after `position` (undefined: from the first), at most `limit`; null without a session. */
  messages(clientid: string, kind: 'mqueue' | 'inflight', position: string | undefined, limit: number): SessionMessagesPage | null;
}

// EMQX defaults of mqtt.max_inflight, max_mqueue_len, max_awaiting_rel, session_expiry_interval.
export const INFLIGHT_MAX = 32;
export const MQUEUE_MAX = 1000;
export const AWAITING_REL_MAX = 100;
export const SESSION_EXPIRY_SECONDS = 7200;

export type ClientView = Record<string, string | number | boolean | null>;

/** Builds the §9.2 client object. */
export function clientView(node: string, record: ClientRecord, live: ClientLive): ClientView {
  const c = live.counters;
  const subscriptions = record.subscriptions.size;
  const view: ClientView = {
    clientid: record.clientid,
    username: record.username,
    node,
    ip_address: record.ip_address,
    port: record.port,
    proto_name: record.proto_name,
    proto_ver: record.proto_ver,
    connected: record.connected,
    clean_start: record.clean_start,
    keepalive: record.keepalive,
    expiry_interval: record.expiry_interval,
    created_at: rfc3339(record.created_at, 'ms'),
    connected_at: rfc3339(record.connected_at, 'ms'),
    is_bridge: false,
    mountpoint: null,
    listener: record.listener,
    enable_authn: true,
    is_persistent: false,
    // An Erlang channel process: a few hundred words of heap that grow with its subscriptions.
    heap_size: 376 + 64 * subscriptions,
    reductions: 9000 + 180 * (c.recv_pkt + c.send_pkt),
    mailbox_len: 0,
    recv_cnt: c.recv_pkt,
    recv_oct: live.recv_oct,
    send_cnt: c.send_pkt,
    send_oct: live.send_oct,
    subscriptions_cnt: subscriptions,
    subscriptions_max: 'infinity',
    inflight_cnt: live.inflight_cnt,
    inflight_max: live.queues?.inflight_max ?? INFLIGHT_MAX,
    mqueue_len: live.mqueue_len,
    mqueue_max: live.queues?.mqueue_max ?? MQUEUE_MAX,
    awaiting_rel_cnt: live.queues?.awaiting_rel_cnt ?? 0,
    awaiting_rel_max: live.queues?.awaiting_rel_max ?? AWAITING_REL_MAX,
  };
  for (const key of CLIENT_COUNTER_KEYS) {
    if (key !== 'recv_oct' && key !== 'send_oct') view[key] = c[key];
  }
  // Dropped from the queue over the session's life, not the connection's.
  if (live.queues) view.mqueue_dropped = live.queues.mqueue_dropped;
  // Only an offline session has a disconnect time (§9.2).
  if (!record.connected && record.disconnected_at !== null) view.disconnected_at = rfc3339(record.disconnected_at, 'ms');
  return view;
}

/** Every field name the client object can have, for the `fields` projection (5.6+). */
export const CLIENT_FIELDS: ReadonlySet<string> = new Set([
  'clientid', 'username', 'node', 'ip_address', 'port', 'proto_name', 'proto_ver', 'connected', 'clean_start',
  'keepalive', 'expiry_interval', 'created_at', 'connected_at', 'disconnected_at', 'is_bridge', 'mountpoint',
  'listener', 'enable_authn', 'is_persistent', 'heap_size', 'reductions', 'mailbox_len', 'recv_cnt', 'recv_oct',
  'send_cnt', 'send_oct', 'subscriptions_cnt', 'subscriptions_max', 'inflight_cnt', 'inflight_max', 'mqueue_len',
  'mqueue_max', 'awaiting_rel_cnt', 'awaiting_rel_max', ...CLIENT_COUNTER_KEYS,
]);
