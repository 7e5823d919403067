// The session delivery layer over Aedes, as emqx_session_mem.erl and emqx_channel.erl (v5.5.1)
// keep it: per session an inflight window of QoS 1/2 messages awaiting PUBACK or PUBREC→PUBCOMP
// (zone max_inflight, capped by the client's MQTT 5 Receive Maximum), then a message queue of
// max_mqueue_len that drops its oldest message when full, QoS 0 in it only with mqueue_store_qos0.
// A persistent session (MQTT 3.1.1 clean session off, MQTT 5 Session Expiry Interval > 0) stays
// subscribed while its client is away: messages queue, and on reconnect the inflight messages are
// resent (DUP) before the queue drains in order. Unacknowledged messages are resent after
// retry_interval; incoming QoS 2 ids awaiting PUBREL are bounded by max_awaiting_rel and expire
// after await_rel_timeout. Every delivery — Aedes' subscriptions, retained messages, and whoever
// calls a client's deliverQoS/deliver0 — goes through the window, at the QoS of the subscription
// that matched (one delivery per matching subscription, as emqx_broker.erl dispatches per route).
// Zone settings apply to sessions created (queue) or connected (the rest) after they change.
// Message priorities and durable (disk) sessions are not modelled.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Aedes, Client } from 'aedes';
import type {
  ClientCounterKey, SessionMessageInfo, SessionMessagesPage, SessionQueueStats, SessionQueueView,
} from '../store/messaging/client-record.ts';
import type { Store } from '../store/index.ts';
import type { MetricKey, Metrics } from '../store/cluster/metrics.ts';
import { parseDuration } from '../lib/units.ts';
import { parseShare, topicMatches } from '../lib/topic.ts';
import { brokerHooks, publishGivenUp } from './hooks.ts';
import { setDeliveringQos } from './metrics.ts';
import { mqttZone } from './mqtt-limits.ts';
import { RC_ADMINISTRATIVE_ACTION, RC_RECEIVE_MAXIMUM_EXCEEDED, RC_UNSPECIFIED_ERROR } from './reason-codes.ts';
import { insertionTime, MQueue, type SessionMessage } from './session-mqueue.ts';
import { SessionPersistence } from './session-persistence.ts';

type Done = (err?: Error | null) => void;
type Listener = (packet: DeliveredPacket, done: Done) => void;

/** A message as Aedes hands it to a subscription (an aedes-packet Packet). */
interface DeliveredPacket {
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
  brokerId?: string;
  brokerCounter: number;
  clientId?: string;
  nl?: boolean;
  properties?: Record<string, unknown>;
  messageExpiry?: number;
}

/** Aedes' record of one subscription of a client (lib/handlers/subscribe.js). */
interface AedesSubscription {
  qos: number;
  func: Listener;
  rap?: boolean;
  nl?: boolean;
  si?: number;
}

const SESSION = Symbol('session');

/** The Aedes client fields this layer reads (lib/client.js). */
interface ChannelClient extends Client {
  broker: Aedes;
  errored: boolean;
  _wireVersion: number | null;
  _nextId: number;
  _cleanStart?: boolean;
  will: { topic: string; properties?: { willDelayInterval?: number } } | null;
  subscriptions: Record<string, AedesSubscription | undefined>;
  deliver0: Listener;
  deliverQoS: Listener;
  waitForDrain(done: Done): void;
  [SESSION]: SessionState | null;
}

interface AedesInternals {
  mq: { on(topic: string, listener: Listener): void; removeListener(topic: string, listener: Listener): void };
  persistence: unknown;
  subscribe(topic: string, func: Listener, done?: Done): void;
  unsubscribe(topic: string, func: Listener, done?: Done): void;
  publishWill(client: Client, will: object): void;
  clearDelayedWill(clientid: string): void;
}

// Aedes' own packet writer and Client class, resolved from Aedes so the same copies are used.
const aedesRequire = createRequire(createRequire(import.meta.url).resolve('aedes'));
const mqttPacket = aedesRequire('mqtt-packet') as { writeToStream(packet: object, stream: unknown, opts: object): boolean };
const AedesPacket = aedesRequire('aedes-packet') as new (...args: never[]) => object;
const clientModule = pathToFileURL(path.join(path.dirname(aedesRequire.resolve('aedes')), 'lib', 'client.js')).href;
const AedesClient = ((await import(clientModule)) as { default: { prototype: { close(this: ChannelClient, done?: () => void): void } } }).default;

/** The session layer of each broker (one per simulator). */
const layers = new WeakMap<object, SessionLayer>();

// Every way a connection ends goes through Client#close (socket end and error handlers are bound
// to it when the client is made, so it is wrapped on the prototype before any client exists). The
// session is detached first, while the client's subscriptions still route to it: a persistent one
// then keeps them (the offline listeners below), so nothing published meanwhile is lost.
{
  const close = AedesClient.prototype.close;
  AedesClient.prototype.close = function (this: ChannelClient, done?: () => void) {
    if (!this.closed) layers.get(this.broker)?.closing(this);
    // What this turn wrote (a last delivery, a DISCONNECT) goes out before the socket is destroyed.
    uncork(this.conn as unknown as Corkable);
    close.call(this, done);
  };
}

const WRITE_OPTIONS: Record<number, object> = {
  3: Object.freeze({ protocolVersion: 3 }),
  4: Object.freeze({ protocolVersion: 4 }),
  5: Object.freeze({ protocolVersion: 5 }),
};

/** A connection the session layer holds corked until the end of this turn of the event loop. */
interface Corkable {
  cork(): void;
  uncork(): void;
}
const corked: Corkable[] = [];
const isCorked = new WeakSet<Corkable>();
/** Ends the session layer's cork of one connection now (it is closing). */
function uncork(conn: Corkable): void {
  if (!isCorked.delete(conn)) return;
  const at = corked.indexOf(conn);
  if (at >= 0) corked.splice(at, 1);
  conn.uncork();
}

function uncorkAll(): void {
  for (let i = 0; i < corked.length; i++) {
    isCorked.delete(corked[i]);
    corked[i].uncork();
  }
  corked.length = 0;
}

/**
 * Writes a packet as Aedes' lib/write.js does; `done` (the routing callback of a delivery) is
 * called once the socket took it or, when its buffer is full, once it drains. The packets a
 * connection gets in one turn of the event loop leave in one write (its socket stays corked until
 * the turn's immediates run), as emqx_connection sends the packets of a batch together; Aedes
 * writes each packet on its own.
 */
function write(client: ChannelClient, packet: object, done: Done | null): void {
  if (client.connecting || client.connected) {
    let flushed = true;
    const conn = client.conn as unknown as Corkable;
    if (!isCorked.has(conn)) {
      isCorked.add(conn);
      conn.cork();
      if (corked.push(conn) === 1) setImmediate(uncorkAll);
    }
    try {
      flushed = mqttPacket.writeToStream(packet, client.conn, WRITE_OPTIONS[client._wireVersion ?? 4] ?? WRITE_OPTIONS[4]);
    } catch (err) {
      client.emit('error', new Error('packet received not valid', { cause: err }));
    }
    if (done === null) return;
    // A close fails what waits for a drain with an error, which mqemitter would throw: the
    // routing only needs to know the write is over.
    if (!flushed && !client.errored) client.waitForDrain(() => done());
    else setImmediate(done);
  } else if (done !== null) {
    setImmediate(done);
  }
}

/** Writes a packet of the broker's own to a connection, batched as `write` does (an acknowledgement the limiter answers). */
export function writePacket(client: Client, packet: object): void {
  write(client as ChannelClient, packet, null);
}

/** An outgoing PUBLISH (and what the delivery hooks see of a message queued while offline). */
class Publish {
  readonly cmd = 'publish';
  dup = false;
  messageId: number | undefined = undefined;
  constructor(
    readonly topic: string,
    readonly payload: Buffer,
    readonly qos: number,
    readonly retain: boolean,
    public properties: Record<string, unknown> | undefined,
    readonly clientId: string | undefined,
    readonly brokerId: string | undefined,
    readonly brokerCounter: number,
    readonly messageExpiry: number | undefined,
  ) {}
}

/** One slot of the inflight window (emqx_session_mem's #inflight_data). */
class InflightEntry {
  constructor(
    readonly packet: Publish,
    /** 1: waits for PUBACK (QoS 1) or PUBREC (QoS 2); 2: waits for PUBCOMP. */
    public phase: 1 | 2,
    /** When it was (re)sent, epoch ms: the retry clock. */
    public sentAt: number,
    readonly insertedUs: number,
    readonly publishedAt: number,
  ) {}
}

interface PubrelPacket {
  cmd: 'pubrel';
  messageId: number;
  reasonCode: number;
}

/** The zone settings of a session, parsed once per zone object. */
interface SessionLimits {
  maxInflight: number;
  maxMqueueLen: number;
  storeQos0: boolean;
  retryMs: number;
  awaitRelMs: number;
  maxAwaitingRel: number;
  upgradeQos: boolean;
  /** mqtt.session_expiry_interval for MQTT 3.1.1 persistent sessions, ms (0 = never). */
  expiryMs: number;
}

const limitsCache = new WeakMap<object, SessionLimits>();

function count(value: unknown, fallback: number): number {
  if (value === 'infinity') return 0;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function sessionLimits(store: Store): SessionLimits {
  const zone = mqttZone(store);
  let limits = limitsCache.get(zone);
  if (!limits) {
    const maxAwaiting = zone.max_awaiting_rel === 'infinity' ? Infinity : count(zone.max_awaiting_rel, 100);
    limits = {
      // emqx_channel.erl receive_maximum/2: 0 means the protocol's maximum.
      maxInflight: count(zone.max_inflight, 32) || 65535,
      maxMqueueLen: count(zone.max_mqueue_len, 1000),
      storeQos0: zone.mqueue_store_qos0 !== false,
      retryMs: parseDuration(zone.retry_interval as string) ?? 0,
      awaitRelMs: parseDuration(zone.await_rel_timeout as string) ?? 0,
      maxAwaitingRel: maxAwaiting,
      upgradeQos: zone.upgrade_qos === true,
      expiryMs: parseDuration(zone.session_expiry_interval as string) ?? 0,
    };
    limitsCache.set(zone, limits);
  }
  return limits;
}

const NOT_FOUND = new Error('no such packet');
const AWAITED = Object.freeze({});

const QOS_SENT: readonly MetricKey[] = ['messages.qos0.sent', 'messages.qos1.sent', 'messages.qos2.sent'];
const CLIENT_QOS_SENT: readonly ClientCounterKey[] = ['send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2'];

/** One session's state; it outlives its connections when persistent. */
export class SessionState {
  client: ChannelClient | null = null;
  /** CONNACK is out: packets may be written. */
  ready = false;
  discarded = false;
  readonly inflight = new Map<number, InflightEntry>();
  readonly mqueue: MQueue;
  /** Incoming QoS 2 packet ids awaiting PUBREL → when received (epoch ms). */
  readonly awaiting = new Map<number, number>();
  maxInflight: number;
  retryMs: number;
  awaitRelMs: number;
  maxAwaitingRel: number;
  upgradeQos: boolean;
  nextId = 1;
  /** The routes kept while offline: filter → listener. */
  private offline: { filter: string; listener: Listener }[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private awaitTimer: NodeJS.Timeout | null = null;
  expiryTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly clientid: string,
    private readonly layer: SessionLayer,
    limits: SessionLimits,
  ) {
    this.mqueue = new MQueue(limits.maxMqueueLen, limits.storeQos0);
    this.maxInflight = limits.maxInflight;
    this.retryMs = limits.retryMs;
    this.awaitRelMs = limits.awaitRelMs;
    this.maxAwaitingRel = limits.maxAwaitingRel;
    this.upgradeQos = limits.upgradeQos;
  }

  /** emqx_session_mem.erl apply_conf/resize_inflight: the zone and the client's Receive Maximum. */
  configure(limits: SessionLimits, client: ChannelClient): void {
    this.maxInflight = Math.max(1, Math.min(limits.maxInflight, client.receiveMaximum || 65535));
    this.retryMs = limits.retryMs;
    this.awaitRelMs = limits.awaitRelMs;
    this.maxAwaitingRel = limits.maxAwaitingRel;
    this.upgradeQos = limits.upgradeQos;
  }

  // ---- Broker → client

  /** A delivery at `qos` (already the subscription's): sent now, or queued behind the window. */
  deliver(packet: DeliveredPacket, qos: number, done: Done): void {
    const client = this.client as ChannelClient;
    if (qos === 0) {
      // emqx_session_mem deliver_msg: QoS 0 takes no slot; only held until CONNACK is out.
      if (this.ready) this.send(client, packet, 0, packet.retain, packet.properties, 0, done);
      else {
        this.enqueue(this.message(packet, 0, packet), true);
        setImmediate(done);
      }
      return;
    }
    if (this.ready && this.inflight.size < this.maxInflight) {
      this.send(client, packet, qos, packet.retain, packet.properties, 0, done);
      return;
    }
    this.enqueue(this.message(packet, qos, packet), !this.ready);
    setImmediate(done);
  }

  private message(packet: DeliveredPacket, qos: number, source: DeliveredPacket | undefined): SessionMessage {
    const now = Date.now();
    return {
      topic: packet.topic, payload: packet.payload, qos, retain: packet.retain, properties: packet.properties,
      clientId: packet.clientId, brokerId: packet.brokerId, brokerCounter: packet.brokerCounter,
      messageExpiry: packet.messageExpiry, publishedAt: now, insertedUs: insertionTime(now), source,
    };
  }

  /**
   * Hands a message to the delivery hooks and writes it: `routed` is what they see (the packet as
   * routed, as Aedes' getToForwardPacket passes it); the PUBLISH goes out at `qos`. QoS 1/2 take
   * a slot of the window, numbered with the id a hook may already have given it.
   */
  private send(
    client: ChannelClient, routed: object, qos: number, retain: boolean, properties: Record<string, unknown> | undefined,
    publishedAt: number, done: Done | null,
  ): void {
    setDeliveringQos(qos);
    const result = client.broker.authorizeForward(client, routed as never) as unknown as (DeliveredPacket & { messageId?: number }) | null;
    if (!result) {
      if (done) setImmediate(done);
      return;
    }
    const out = new Publish(result.topic, result.payload, qos, retain, properties, result.clientId, result.brokerId,
      result.brokerCounter, result.messageExpiry);
    if (qos === 0) {
      write(client, out, done);
      return;
    }
    let id = result.messageId;
    if (!id || this.inflight.has(id)) id = this.allocateId(client);
    out.messageId = id;
    const now = Date.now();
    this.inflight.set(id, new InflightEntry(out, 1, now, insertionTime(now), publishedAt || now));
    write(client, out, done);
    if (this.retryMs > 0 && this.retryTimer === null) this.armRetry(this.retryMs);
  }

  /** The next free packet id, from the counter Aedes and the delivery taps share. */
  allocateId(client: ChannelClient): number {
    let id = client._nextId;
    for (let n = 0; n < 65535 && this.inflight.has(id); n++) id = id >= 65535 ? 1 : id + 1;
    client._nextId = id >= 65535 ? 1 : id + 1;
    return id;
  }

  /** emqx_session_mem enqueue_msg: the queue takes it or drops (its oldest, or a QoS 0 one). */
  enqueue(message: SessionMessage, force = false): void {
    const dropped = this.mqueue.in(message, force);
    if (dropped === null) return;
    const metrics = this.layer.metrics;
    const counters = this.layer.countersOf(this.clientid);
    metrics['delivery.dropped']++;
    if (dropped === message) {
      // emqx_session_events: a QoS 0 message the queue does not store.
      metrics['delivery.dropped.qos0_msg']++;
      if (counters) counters['send_msg.dropped']++;
    } else {
      metrics['delivery.dropped.queue_full']++;
      if (counters) {
        counters['send_msg.dropped']++;
        counters['send_msg.dropped.queue_full']++;
      }
    }
  }

  /** A delivery while offline, through a route kept for the subscription `sub` of `filter`. */
  offlineDeliver(packet: DeliveredPacket, sub: Pick<AedesSubscription, 'qos' | 'nl' | 'rap' | 'si'>): void {
    // emqx_session.erl enrich_message: no local, QoS, retain as published, subscription id.
    if (sub.nl && packet.clientId === this.clientid) {
      this.layer.dropNoLocal();
      return;
    }
    const qos = this.upgradeQos ? Math.max(sub.qos, packet.qos) : Math.min(sub.qos, packet.qos);
    const message = this.message(packet, qos, undefined);
    if (!sub.rap) message.retain = false;
    if (sub.si !== undefined) message.properties = { ...packet.properties, subscriptionIdentifier: sub.si };
    this.enqueue(message);
  }

  /** emqx_session_mem dequeue/2: fills the window from the queue; QoS 0 takes no slot. */
  dequeue(): void {
    const client = this.client;
    if (client === null || !this.ready) return;
    for (;;) {
      const next = this.mqueue.peek();
      if (next === undefined || (next.qos > 0 && this.inflight.size >= this.maxInflight)) return;
      this.mqueue.out();
      const now = Date.now();
      if (next.messageExpiry !== undefined) {
        if (next.messageExpiry <= now) {
          this.layer.dropExpired(this.clientid);
          continue;
        }
        // [MQTT-3.3.2-6] the interval sent is what is left of it.
        next.properties = { ...next.properties, messageExpiryInterval: Math.ceil((next.messageExpiry - now) / 1000) };
      }
      const routed = next.source ?? new Publish(next.topic, next.payload, next.qos, next.retain, next.properties, next.clientId,
        next.brokerId, next.brokerCounter, next.messageExpiry);
      this.send(client, routed, next.qos, next.retain, next.properties, next.publishedAt, null);
    }
  }

  // ---- Client → broker acknowledgements (emqx_session_mem puback/pubrec/pubcomp)

  puback(id: number): void {
    const entry = this.inflight.get(id);
    if (entry === undefined) this.layer.metrics['packets.puback.missed']++;
    else if (entry.packet.qos !== 1) this.layer.metrics['packets.puback.inuse']++;
    else {
      this.inflight.delete(id);
      this.dequeue();
    }
  }

  pubrec(id: number, reasonCode: number | undefined): void {
    const entry = this.inflight.get(id);
    if (entry === undefined) this.layer.metrics['packets.pubrec.missed']++;
    else if (entry.packet.qos !== 2 || entry.phase !== 1) this.layer.metrics['packets.pubrec.inuse']++;
    else if (this.client?.version === 5 && reasonCode !== undefined && reasonCode >= RC_UNSPECIFIED_ERROR) {
      // [MQTT-4.3.3] an error PUBREC ends the exchange: no PUBREL follows (Aedes sends none).
      this.inflight.delete(id);
      this.dequeue();
    } else {
      entry.phase = 2;
    }
  }

  pubcomp(id: number): void {
    const entry = this.inflight.get(id);
    if (entry === undefined) this.layer.metrics['packets.pubcomp.missed']++;
    else if (entry.phase !== 2) this.layer.metrics['packets.pubcomp.inuse']++;
    else {
      this.inflight.delete(id);
      this.dequeue();
    }
  }

  // ---- Retry (emqx_session_mem retry/2)

  private armRetry(ms: number): void {
    this.retryTimer = setTimeout(() => this.retry(), Math.max(1, ms));
    this.retryTimer.unref();
  }

  private retry(): void {
    this.retryTimer = null;
    const client = this.client;
    if (client === null || !this.ready || this.retryMs <= 0) return;
    const now = Date.now();
    let next = this.retryMs;
    for (const [id, entry] of this.inflight) {
      const age = now - entry.sentAt;
      if (age < this.retryMs) {
        next = Math.min(next, this.retryMs - age);
        continue;
      }
      if (entry.phase === 1 && entry.packet.messageExpiry !== undefined && entry.packet.messageExpiry <= now) {
        this.inflight.delete(id);
        this.layer.dropExpired(this.clientid);
        continue;
      }
      entry.sentAt = now;
      this.resend(client, entry);
    }
    if (this.inflight.size > 0) this.armRetry(next);
    this.dequeue();
  }

  /** Writes an inflight message again: the PUBLISH with DUP set, or the PUBREL. */
  private resend(client: ChannelClient, entry: InflightEntry): void {
    const metrics = this.layer.metrics;
    const counters = this.layer.countersOf(this.clientid);
    if (entry.phase === 1) {
      entry.packet.dup = true;
      write(client, entry.packet, null);
      metrics['packets.publish.sent']++;
      metrics['messages.sent']++;
      metrics[QOS_SENT[entry.packet.qos]]++;
      if (counters) {
        counters.send_pkt++;
        counters.send_msg++;
        counters[CLIENT_QOS_SENT[entry.packet.qos]]++;
      }
    } else {
      const pubrel: PubrelPacket = { cmd: 'pubrel', messageId: entry.packet.messageId as number, reasonCode: 0 };
      write(client, pubrel, null);
      metrics['packets.pubrel.sent']++;
      if (counters) counters.send_pkt++;
    }
  }

  // ---- Incoming QoS 2 (emqx_session_mem publish/3 and pubrel/2, expire/2)

  awaitRel(id: number): boolean {
    // is_awaiting_full: the limit counts before the new id.
    if (this.awaiting.size >= this.maxAwaitingRel) return false;
    this.awaiting.set(id, Date.now());
    if (this.awaitRelMs > 0 && this.awaitTimer === null) this.armAwait(this.awaitRelMs);
    return true;
  }

  private armAwait(ms: number): void {
    this.awaitTimer = setTimeout(() => this.expireAwaiting(), Math.max(1, ms));
    this.awaitTimer.unref();
  }

  private expireAwaiting(): void {
    this.awaitTimer = null;
    const now = Date.now();
    let expired = 0;
    let next = this.awaitRelMs;
    for (const [id, at] of this.awaiting) {
      const age = now - at;
      if (age >= this.awaitRelMs) {
        this.awaiting.delete(id);
        expired++;
      } else {
        next = Math.min(next, this.awaitRelMs - age);
      }
    }
    if (expired > 0) this.layer.dropAwaitingRel(this.clientid, expired);
    if (this.awaiting.size > 0 && this.awaitRelMs > 0) this.armAwait(next);
  }

  // ---- Connection changes

  /** CONNACK is out: resend the inflight window (DUP, PUBREL) and drain the queue (replay/2). */
  replay(): void {
    const client = this.client;
    if (client === null) return;
    this.ready = true;
    const now = Date.now();
    for (const entry of this.inflight.values()) {
      entry.sentAt = now;
      this.resend(client, entry);
    }
    this.dequeue();
    if (this.inflight.size > 0 && this.retryMs > 0 && this.retryTimer === null) this.armRetry(this.retryMs);
  }

  /** The connection is closing: nothing more is written to it. */
  detach(client: ChannelClient): void {
    this.nextId = client._nextId;
    this.client = null;
    this.ready = false;
    if (this.retryTimer !== null) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
  }

  /**
   * Keeps routes for the subscriptions while the client is away (emqx_broker keeps a
   * disconnected session's subscriptions): what they match is queued.
   */
  goOffline(subscriptions: Record<string, AedesSubscription | undefined>): void {
    const mq = this.layer.mq;
    for (const [filter, sub] of Object.entries(subscriptions)) {
      // Shared subscriptions are not kept for an absent member (emqx_shared_sub redispatches).
      if (!sub || parseShare(filter)) continue;
      const blockSys = filter.startsWith('+') || filter.startsWith('#');
      const listener: Listener = (packet, done) => {
        // [MQTT-4.7.2-1] wildcard filters at the first level do not match `$` topics.
        if (this.client === null && !this.discarded && !(blockSys && packet.topic.charCodeAt(0) === 36)) this.offlineDeliver(packet, sub);
        setImmediate(done);
      };
      mq.on(filter, listener);
      this.offline.push({ filter, listener });
    }
  }

  /** Drops the routes kept while offline (reconnected or discarded). */
  private dropOffline(): void {
    const mq = this.layer.mq;
    for (const { filter, listener } of this.offline) mq.removeListener(filter, listener);
    this.offline = [];
  }

  /** A new connection takes the session over (emqx_session_mem resume/2). */
  resume(): void {
    this.dropOffline();
    if (this.expiryTimer !== null) {
      clearTimeout(this.expiryTimer);
      this.expiryTimer = null;
    }
  }

  /** The session ends: queued and inflight messages go with it. */
  discard(): void {
    this.discarded = true;
    this.dropOffline();
    for (const timer of [this.retryTimer, this.awaitTimer, this.expiryTimer]) if (timer !== null) clearTimeout(timer);
    this.retryTimer = this.awaitTimer = this.expiryTimer = null;
    this.inflight.clear();
    this.mqueue.clear();
    this.awaiting.clear();
  }

  stats(): SessionQueueStats {
    return {
      inflight_cnt: this.inflight.size,
      inflight_max: this.maxInflight,
      mqueue_len: this.mqueue.length,
      mqueue_max: this.mqueue.maxLen,
      mqueue_dropped: this.mqueue.dropped,
      awaiting_rel_cnt: this.awaiting.size,
      awaiting_rel_max: Number.isFinite(this.maxAwaitingRel) ? this.maxAwaitingRel : 'infinity',
    };
  }
}

/** The message id of the API: time-ordered hex like EMQX's guid (time, sequence, origin). */
function guid(publishedAt: number, brokerCounter: number, brokerId: string | undefined): string {
  const origin = Buffer.from(brokerId ?? '').toString('hex').padEnd(8, '0').slice(0, 8).toUpperCase();
  return publishedAt.toString(16).toUpperCase().padStart(12, '0').slice(-12)
    + (brokerCounter % 2 ** 48).toString(16).toUpperCase().padStart(12, '0') + origin;
}

/** The broker-wide part: sessions by client id, the hooks into Aedes and the API's view. */
class SessionLayer implements SessionQueueView {
  readonly sessions = new Map<string, SessionState>();
  readonly metrics: Metrics;
  readonly mq: AedesInternals['mq'];
  /** The filters of the latest SUBSCRIBE of each client, for its retained messages. */
  readonly lastSubscribed = new WeakMap<Client, readonly { topic: string; qos: number }[]>();

  constructor(
    readonly broker: Aedes,
    readonly store: Store,
  ) {
    this.metrics = store.mqtt.metrics;
    this.mq = (broker as unknown as AedesInternals).mq;
  }

  countersOf(clientid: string) {
    return this.store.mqtt.sessions.get(clientid)?.counters;
  }

  dropNoLocal(): void {
    this.metrics['delivery.dropped']++;
    this.metrics['delivery.dropped.no_local']++;
  }

  /** emqx_session_events {expired, Msg}. */
  dropExpired(clientid: string): void {
    this.metrics['delivery.dropped']++;
    this.metrics['delivery.dropped.expired']++;
    const counters = this.countersOf(clientid);
    if (counters) {
      counters['send_msg.dropped']++;
      counters['send_msg.dropped.expired']++;
    }
  }

  /** emqx_session_events {expired_rel, N}. */
  dropAwaitingRel(clientid: string, n: number): void {
    this.metrics['messages.dropped'] += n;
    this.metrics['messages.dropped.await_pubrel_timeout'] += n;
    const counters = this.countersOf(clientid);
    if (counters) {
      counters['recv_msg.dropped'] += n;
      counters['recv_msg.dropped.await_pubrel_timeout'] += n;
    }
  }

  /** A new connection: its delivery entry points go through its session. */
  adopt(client: ChannelClient): void {
    client[SESSION] = null;
    client.deliver0 = (packet, done) => this.deliver(client, packet, done, true);
    client.deliverQoS = (packet, done) => this.deliver(client, packet, done, false);
  }

  /** A delivery to a connected client (deliver0: through a QoS 0 subscription). */
  private deliver(client: ChannelClient, packet: DeliveredPacket, done: Done, qos0: boolean): void {
    // The subscription that routed it (see the subscribe wrapper below).
    const topic = routing.topic;
    const func = routing.func;
    const session = client[SESSION];
    if (session === null || session.client !== client) {
      // Restored routes before the session is attached, or a closing connection: the session's
      // offline routes (or nobody, for a clean session) take the message.
      setImmediate(done);
      return;
    }
    // [MQTT-3.8.3-3] no local (Aedes marks the packet with the subscription's flag).
    if (packet.nl && packet.clientId === client.id) {
      this.dropNoLocal();
      setImmediate(done);
      return;
    }
    let qos = qos0 ? 0 : packet.qos;
    // [MQTT-3.8.4-6] the QoS of the subscription that matched, not of one to the exact topic;
    // upgrade_qos makes it the higher of the two (emqx_session.erl enrich_subopts).
    if (qos === 2 || (session.upgradeQos && qos < 2) || (topic === null && packet.retain && qos > 0)) {
      const sub = topic !== null ? client.subscriptions[topic] : undefined;
      let granted: number | undefined;
      if (sub !== undefined && sub.func === func) granted = sub.qos;
      // A retained message Aedes sends on SUBSCRIBE comes outside any route.
      else if (topic === null && packet.retain && packet instanceof AedesPacket) granted = this.retainedGrant(client, packet.topic);
      if (granted !== undefined) qos = session.upgradeQos ? Math.max(granted, packet.qos) : Math.min(granted, packet.qos);
    }
    session.deliver(packet, qos, done);
  }

  /** A retained message sent on SUBSCRIBE: the QoS granted to the filter that asked for it. */
  private retainedGrant(client: Client, topic: string): number | undefined {
    const subs = this.lastSubscribed.get(client);
    if (!subs) return undefined;
    for (const sub of subs) if (sub.qos < RC_UNSPECIFIED_ERROR && topicMatches(sub.topic, topic)) return sub.qos;
    return undefined;
  }

  /** Aedes registered the client: a new session, or the one it resumes (emqx_cm open_session). */
  attach(client: ChannelClient): void {
    const id = client.id;
    const limits = sessionLimits(this.store);
    let session = this.sessions.get(id);
    // [MQTT-3.1.2-4] Clean Start discards the previous session.
    if (session !== undefined && (client._cleanStart || session.discarded)) {
      session.discard();
      this.sessions.delete(id);
      session = undefined;
    }
    if (session !== undefined && session.client !== null && session.client !== client) session.detach(session.client);
    if (session === undefined) {
      session = new SessionState(id, this, limits);
      this.sessions.set(id, session);
    } else {
      session.resume();
      client._nextId = session.nextId;
      resumed.add(client);
    }
    session.configure(limits, client);
    session.client = client;
    session.ready = false;
    client[SESSION] = session;
    const record = this.store.mqtt.sessions.get(id);
    // emqx_channel.erl expiry_interval/2: MQTT 5 says it; 3.1.1 persistent sessions take the zone's.
    if (record) record.expiry_interval = client.version === 5 ? client.sessionExpiryInterval : client.clean ? 0 : Math.round(limits.expiryMs / 1000);
  }

  /** CONNACK went out. */
  connacked(client: ChannelClient): void {
    const session = client[SESSION];
    if (session !== null && session.client === client) session.replay();
  }

  /** Client#close starts (the subscriptions still route to the client). */
  closing(client: ChannelClient): void {
    const session = client[SESSION];
    if (session === null || session.client !== client) return;
    session.detach(client);
    // Aedes decided at CONNECT (and on an MQTT 5 DISCONNECT) whether the session outlives it.
    if (!client.clean && this.sessions.get(client.id) === session && !session.discarded) {
      session.goOffline(client.subscriptions);
    } else {
      session.discard();
      if (this.sessions.get(client.id) === session) this.sessions.delete(client.id);
    }
  }

  /** Aedes reported the disconnect: MQTT 3.1.1 sessions expire by the zone's setting. */
  disconnected(client: ChannelClient): void {
    const id = client.id;
    const session = this.sessions.get(id);
    if (session === undefined || session.client !== null) {
      // An MQTT 5 session that ended with its connection (Clean Start 0 and no expiry).
      const record = this.store.mqtt.sessions.get(id);
      if (session === undefined && record && !record.connected) this.store.mqtt.discard(id);
      return;
    }
    if (client.version === 5) return;
    const ms = sessionLimits(this.store).expiryMs;
    if (ms <= 0 || session.expiryTimer !== null) return;
    session.expiryTimer = setTimeout(() => {
      session.expiryTimer = null;
      if (session.client !== null || this.sessions.get(id) !== session) return;
      // As Aedes ends an expired MQTT 5 session: its stored subscriptions and will go too.
      const persistence = (this.broker as unknown as AedesInternals).persistence as SessionPersistence & { delWill(c: object): Promise<unknown> };
      persistence.cleanSubscriptions({ id }).catch(() => undefined);
      persistence.delWill({ id, brokerId: this.broker.id }).catch(() => undefined);
      this.ended(id);
    }, Math.min(ms, 2 ** 31 - 1));
    session.expiryTimer.unref();
  }

  /** The session is gone for good: its state and its API record (when offline). */
  private ended(clientid: string): void {
    const session = this.sessions.get(clientid);
    if (session !== undefined && session.client === null) {
      session.discard();
      this.sessions.delete(clientid);
    }
    const record = this.store.mqtt.sessions.get(clientid);
    if (record && !record.connected && !this.sessions.has(clientid)) this.store.mqtt.discard(clientid);
  }

  // ---- SessionStoreHooks (session-persistence.ts)

  storeIncoming(client: Client, packet: { messageId?: number }): Promise<void> {
    const session = (client as ChannelClient)[SESSION];
    if (!session) return Promise.resolve();
    if (session.awaitRel(packet.messageId ?? 0)) return Promise.resolve();
    // emqx_channel.erl do_publish: RC_RECEIVE_MAXIMUM_EXCEEDED disconnects (3.1.1: closes).
    this.metrics['packets.publish.dropped']++;
    publishGivenUp(client, packet);
    (client as ChannelClient).disconnect({ reasonCode: RC_RECEIVE_MAXIMUM_EXCEEDED });
    // Never settles: the packet is not published and the connection closes.
    return new Promise<void>(() => {});
  }

  getIncoming(client: Client, packet: { cmd?: string; messageId?: number }): Promise<object> {
    const session = (client as ChannelClient)[SESSION];
    const id = packet.messageId ?? 0;
    if (!session || !session.awaiting.has(id)) return Promise.reject(NOT_FOUND);
    // A QoS 2 PUBLISH with an id awaiting PUBREL: emqx_session_mem.erl (v5.5.1) publish/4 says
    // RC_PACKET_IDENTIFIER_IN_USE (the PUBREC carries it in MQTT 5) and does not publish it again.
    if (packet.cmd === 'publish') {
      this.metrics['packets.publish.inuse']++;
      publishGivenUp(client, packet);
      if ((client as ChannelClient).version === 5) {
        let ids = inUse.get(client);
        if (!ids) inUse.set(client, (ids = new Set()));
        ids.add(id);
      }
    }
    return Promise.resolve(AWAITED);
  }

  delIncoming(client: Client, packet: { messageId?: number }): Promise<void> {
    // Always settles: Aedes waits on it with `finally` only, and a session discarded between the
    // PUBREL's lookup and this (its connection closed in the same write) has nothing to forget.
    (client as ChannelClient)[SESSION]?.awaiting.delete(packet.messageId ?? 0);
    return Promise.resolve();
  }

  cleaned(clientid: string): void {
    this.ended(clientid);
  }

  // ---- SessionQueueView (the client API)

  stats(clientid: string): SessionQueueStats | null {
    return this.sessions.get(clientid)?.stats() ?? null;
  }

  messages(clientid: string, kind: 'mqueue' | 'inflight', position: string | undefined, limit: number): SessionMessagesPage | null {
    const session = this.sessions.get(clientid);
    if (!session) return null;
    // Positions are insertion times in ns (µs here, with three zero digits); the queue's carry
    // the priority after `_` (always 0: no priorities).
    const after = position === undefined ? -1 : Number(position.split('_')[0].slice(0, -3) || '0');
    const ns = (us: number) => `${us}000`;
    const pos = (us: number) => (kind === 'mqueue' ? `${ns(us)}_0` : ns(us));
    const rows: SessionMessageInfo[] = [];
    let first: number | null = null;
    let last: number | null = null;
    const take = (info: Omit<SessionMessageInfo, 'inserted_at'>, us: number) => {
      if (first === null) first = us;
      if (us <= after || rows.length >= limit) return;
      rows.push({ ...info, inserted_at: ns(us) });
      last = us;
    };
    const username = (from: string | undefined) => (from ? this.store.mqtt.sessions.get(from)?.username ?? '' : '');
    if (kind === 'mqueue') {
      for (const m of session.mqueue.toArray()) {
        take({
          msgid: guid(m.publishedAt, m.brokerCounter, m.brokerId), qos: m.qos, topic: m.topic, publish_at: m.publishedAt,
          from_clientid: m.clientId ?? '', from_username: username(m.clientId), payload: m.payload, mqueue_priority: 0,
        }, m.insertedUs);
      }
    } else {
      const entries = [...session.inflight.values()].sort((a, b) => a.insertedUs - b.insertedUs);
      for (const e of entries) {
        const p = e.packet;
        take({
          msgid: guid(e.publishedAt, p.brokerCounter, p.brokerId), qos: p.qos, topic: p.topic, publish_at: e.publishedAt,
          from_clientid: p.clientId ?? '', from_username: username(p.clientId), payload: p.payload,
        }, e.insertedUs);
      }
    }
    return {
      data: rows,
      start: first === null ? 'none' : pos(first),
      position: last !== null ? pos(last) : position ?? 'none',
    };
  }

  close(): void {
    for (const session of this.sessions.values()) session.discard();
    this.sessions.clear();
  }
}

/**
 * The subscription being routed: set by the wrapper of each Aedes subscription right before it
 * hands the message to the client's delivery entry point (synchronously), read there.
 */
const routing: { topic: string | null; func: Listener | null } = { topic: null, func: null };

// Packet ids of MQTT 5 QoS 2 publishes that came again while awaiting PUBREL, until their PUBREC.
const inUse = new WeakMap<Client, Set<number>>();

/**
 * The packet id a QoS 1/2 delivery being handed to `client` goes out with, for the delivery taps
 * that must know it before it is written (trace, slow subscriptions, rules, shared
 * subscriptions): the session's next free id, which the session then keeps for it.
 */
export function nextPacketId(client: Client): number {
  const c = client as ChannelClient;
  const session = c[SESSION];
  if (session) return session.allocateId(c);
  const id = c._nextId;
  c._nextId = id >= 65535 ? 1 : id + 1;
  return id;
}

/** Whether the PUBREC for `id` answers a publish whose id was in use (taken once). */
export function identifierInUse(client: Client, id: number): boolean {
  return inUse.get(client)?.delete(id) ?? false;
}

// Connections that resumed an existing session (emqx_cm open_session: present, even without
// subscriptions, which is all Aedes looks at), until their CONNACK says so.
const resumed = new WeakSet<Client>();

/** Whether `client`'s CONNACK is to say Session Present (taken once). */
export function resumedSession(client: Client): boolean {
  return resumed.delete(client);
}

/** The session a persistent client left behind, while it is away (null when there is none). */
export function awaySession(broker: Aedes, clientid: string): SessionState | null {
  const session = layers.get(broker)?.sessions.get(clientid);
  return session !== undefined && session.client === null && !session.discarded ? session : null;
}

/** Installs the session layer; the broker must use SessionPersistence. */
export function installSessionQueue(broker: Aedes, store: Store): void {
  const internals = broker as unknown as AedesInternals;
  const persistence = internals.persistence;
  if (!(persistence instanceof SessionPersistence)) throw new Error('the session layer needs the broker built with SessionPersistence');
  const layer = new SessionLayer(broker, store);
  layers.set(broker, layer);
  persistence.hooks = layer;
  store.clients.sessionQueues = layer;

  // Each subscription's route names its filter for the delivery it makes (one closure per
  // subscription; Aedes unsubscribes by the same function, hence the map back).
  const wrapped = new WeakMap<Listener, Listener>();
  const subscribe = internals.subscribe;
  const unsubscribe = internals.unsubscribe;
  internals.subscribe = function (topic, func, done) {
    const route: Listener = (packet, cb) => {
      // Restored after: a delivery hook may publish, and route, synchronously.
      const outerTopic = routing.topic;
      const outerFunc = routing.func;
      routing.topic = topic;
      routing.func = func;
      func(packet, cb);
      routing.topic = outerTopic;
      routing.func = outerFunc;
    };
    wrapped.set(func, route);
    subscribe.call(broker, topic, route, done);
  };
  internals.unsubscribe = function (topic, func, done) {
    unsubscribe.call(broker, topic, wrapped.get(func) ?? func, done);
  };

  const handle = broker.handle;
  broker.handle = (stream, req) => {
    const client = handle(stream, req);
    layer.adopt(client as ChannelClient);
    return client;
  };

  broker.on('client', (client) => layer.attach(client as ChannelClient));
  broker.on('connackSent', (packet, client) => {
    if ((packet.returnCode ?? 0) === 0 && ((packet as { reasonCode?: number }).reasonCode ?? 0) === 0) layer.connacked(client as ChannelClient);
  });
  broker.on('clientDisconnect', (client) => layer.disconnected(client as ChannelClient));
  broker.on('subscribe', (subs, client) => layer.lastSubscribed.set(client, subs));
  broker.once('closed', () => layer.close());

  brokerHooks(broker).packet.add('session', (client, packet) => {
    const cmd = packet.cmd;
    if (cmd !== 'puback' && cmd !== 'pubrec' && cmd !== 'pubcomp') return;
    const session = (client as ChannelClient)[SESSION];
    if (!session || session.client !== client) return;
    const id = packet.messageId ?? 0;
    if (cmd === 'puback') session.puback(id);
    else if (cmd === 'pubrec') session.pubrec(id, packet.reasonCode as number | undefined);
    else session.pubcomp(id);
  });
}

/**
 * DELETE /clients/{clientid} on a live connection, as emqx_channel.erl (v5.5.1) handles `kick`:
 * the will is published now (a Will Delay Interval does not hold it), an MQTT 5 client is told
 * DISCONNECT 0x98 (administrative action), and the connection closes.
 */
export function kickClient(client: Client): Promise<void> {
  const c = client as ChannelClient;
  const internals = c.broker as unknown as AedesInternals;
  const will = c.will;
  if (will && (will.properties?.willDelayInterval ?? 0) > 0 && c.version === 5) {
    c.will = null;
    internals.clearDelayedWill(c.id);
    internals.publishWill(c, will);
  }
  return new Promise((resolve) => c.disconnect({ reasonCode: RC_ADMINISTRATIVE_ACTION }, () => resolve()));
}
