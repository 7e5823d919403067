// Live MQTT state of node 1 (this process), written by the broker events and read by the REST
// handlers: sessions (connected clients and offline persistent sessions) with their per-connection
// counters, subscriptions, retained messages, metrics counters and the sockets whose bytes are
// counted. Nothing here is persisted; a restart starts from zero like a rebooted broker.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Client } from 'aedes';
import { SESSION_EXPIRY_SECONDS, type ClientCounters, type ClientRecord, type SubOptions } from './client-record.ts';
import { zeroMetrics, zeroStats, type Metrics, type Stats } from '../cluster/metrics.ts';
import type { RouteTable } from './routes.ts';
import { FilterIndex, parseShare, routeTopic } from '../../lib/topic.ts';

export type Transport = 'tcp' | 'ws';

/** What the CONNECT packet said, captured before Aedes registers the client. */
export interface ConnectInfo {
  username: string | null;
  keepalive: number;
  clean: boolean;
  protoVer: number;
  protoName: string;
}

export interface Session extends ClientRecord {
  transport: Transport;
  /** The Aedes client while connected, for kicks and API subscriptions. */
  client: Client | null;
  /** The transport socket while connected (its byte counts are the client's octets). */
  socket: Socket | null;
  counters: ClientCounters;
}

/** A retained message as the retainer API describes it (emqx-api-part1 §11). */
export interface RetainedMessage {
  msgid: string;
  topic: string;
  qos: number;
  publish_at: number;
  from_clientid: string | null;
  from_username: string | null;
  payload: Buffer;
}

/** A subscription as Aedes reports it; MQTT 5 options arrive as booleans or numbers. */
export interface SubscribedFilter {
  topic: string;
  qos: number;
  nl?: boolean | number;
  rap?: boolean | number;
  rh?: number;
}

export interface ConnectionDetails {
  transport: Transport;
  ip: string;
  port: number;
  socket: Socket | null;
  counters: ClientCounters;
}

// Packets whose count is not kept directly but summed for packets.sent.
const SENT_KEYS = [
  'packets.connack.sent', 'packets.publish.sent', 'packets.puback.sent', 'packets.pubrec.sent',
  'packets.pubrel.sent', 'packets.pubcomp.sent', 'packets.suback.sent', 'packets.unsuback.sent',
  'packets.pingresp.sent', 'packets.disconnect.sent', 'packets.auth.sent',
] as const;

/** Strips the IPv4-mapped IPv6 prefix so addresses read as EMQX shows them. */
export function plainAddress(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

let guidCounter = 0;
// As EMQX's guid carries the node and process instead of randomness per message: drawn once.
const GUID_ORIGIN = randomBytes(8).toString('hex').toUpperCase();
let guidMs = -1;
let guidTime = '';

/** A 128-bit message id in hex, time-ordered like EMQX's guid (time, sequence, origin). */
export function messageId(now: number): string {
  guidCounter = (guidCounter + 1) & 0xffff;
  const ms = Math.floor(now);
  if (ms !== guidMs) {
    guidMs = ms;
    guidTime = ms.toString(16).toUpperCase().padStart(12, '0').slice(-12);
  }
  return guidTime + (guidCounter + 0x10000).toString(16).slice(1).toUpperCase() + GUID_ORIGIN;
}

function flag(value: boolean | number | undefined): number {
  return value ? 1 : 0;
}

export class MqttState {
  /** Counters incremented by the broker taps; read them through `snapshotMetrics()`. */
  readonly metrics: Metrics = zeroMetrics();
  readonly sessions = new Map<string, Session>();
  /** Retained messages by topic, in the order they were first retained. */
  readonly retained = new Map<string, RetainedMessage>();
  /** The filters this node's sessions hold, for "does anybody subscribe to this topic?". */
  readonly filters = new FilterIndex();
  private readonly sockets = new Set<Socket>();
  private readonly max: Stats = zeroStats();
  private liveCount = 0;
  private subscriptionCount = 0;
  private sharedCount = 0;
  private closedBytesReceived = 0;
  private closedBytesSent = 0;
  private seq = 0;
  /** Messages held by delayed publish, for stats `delayed.count` (set by broker/delayed.ts). */
  heldDelayed: () => number = () => 0;

  constructor(
    /** This node's name. */
    readonly node: string,
    private readonly routes: RouteTable,
  ) {}

  /** Counts a transport socket's bytes for its whole life (TCP socket, or the socket under a WebSocket). */
  trackSocket(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.closedBytesReceived += socket.bytesRead;
      this.closedBytesSent += socket.bytesWritten;
    });
  }

  /** Every open transport socket (closed at shutdown). */
  openSockets(): Iterable<Socket> {
    return this.sockets;
  }

  /** Records a client that Aedes has registered; resumes a persistent session of the same id. */
  connected(client: Client, info: ConnectInfo, details: ConnectionDetails, now: number): Session {
    let session = this.sessions.get(client.id);
    // A stale connection of the same id that was never reported closed is replaced, not added.
    if (session?.connected) this.liveCount--;
    if (session && info.clean) {
      // [MQTT-3.1.2-6] a clean session discards any previous session state.
      this.dropSubscriptions(session);
      this.sessions.delete(client.id);
      session = undefined;
    }
    if (!session) {
      session = {
        clientid: client.id,
        subscriptions: new Map(),
        created_at: now,
        seq: ++this.seq,
      } as Session;
      this.sessions.set(client.id, session);
    }
    this.liveCount++;
    Object.assign(session, {
      username: info.username,
      ip_address: details.ip,
      port: details.port,
      proto_name: info.protoName,
      proto_ver: info.protoVer,
      clean_start: info.clean,
      keepalive: info.keepalive,
      // MQTT 3.1.1 has no session expiry: EMQX applies its session_expiry_interval to
      // persistent sessions and ends clean ones with the connection.
      expiry_interval: info.clean ? 0 : SESSION_EXPIRY_SECONDS,
      listener: `${details.transport}:default`,
      transport: details.transport,
      connected_at: now,
      disconnected_at: null,
      connected: true,
      client,
      socket: details.socket,
      counters: details.counters,
    });
    this.bumpMax();
    return session;
  }

  /** Records a disconnect; a clean session ends with its connection [MQTT-3.1.2-6]. */
  disconnected(client: Client, now: number): void {
    const session = this.sessions.get(client.id);
    // After a takeover the session already belongs to the new connection.
    if (!session || session.client !== client) return;
    this.liveCount--;
    if (session.socket) {
      session.counters.recv_oct = session.socket.bytesRead;
      session.counters.send_oct = session.socket.bytesWritten;
    }
    session.connected = false;
    session.client = null;
    session.socket = null;
    session.disconnected_at = now;
    if (session.clean_start) this.discard(client.id);
  }

  /** Removes a session and its subscriptions (kick, clean end); returns what was removed. */
  discard(clientid: string): Session | undefined {
    const session = this.sessions.get(clientid);
    if (!session) return undefined;
    this.dropSubscriptions(session);
    this.sessions.delete(clientid);
    return session;
  }

  subscribed(client: Client, subs: readonly SubscribedFilter[]): void {
    const session = this.sessions.get(client.id);
    if (!session || session.client !== client) return;
    for (const sub of subs) {
      // 0x80 or more in a SUBACK is a refused filter [MQTT-3.9.3-2]; nothing was subscribed.
      if (sub.qos >= 0x80) continue;
      if (!session.subscriptions.has(sub.topic)) this.addFilter(sub.topic);
      session.subscriptions.set(sub.topic, { qos: sub.qos, nl: flag(sub.nl), rap: flag(sub.rap), rh: sub.rh ?? 0 });
    }
    this.bumpMax();
  }

  unsubscribed(client: Client, topics: readonly string[]): void {
    const session = this.sessions.get(client.id);
    if (!session || session.client !== client) return;
    for (const topic of topics) {
      if (session.subscriptions.delete(topic)) this.removeFilter(topic);
    }
  }

  /** True when a session of this node (online or offline) subscribes to a matching filter. */
  hasSubscriber(topic: string): boolean {
    return this.filters.hasMatch(topic);
  }

  /**
   * Tracks the retained store: a retained message replaces the topic's previous one and an
   * empty payload deletes it [MQTT-3.3.1-5, MQTT-3.3.1-10].
   */
  retain(topic: string, qos: number, payload: Buffer, from: { clientid: string | null; username: string | null }, now: number): void {
    if (payload.length === 0) {
      this.retained.delete(topic);
      return;
    }
    this.retained.set(topic, {
      msgid: messageId(now), topic, qos, publish_at: now,
      from_clientid: from.clientid, from_username: from.username, payload,
    });
    if (this.retained.size > this.max['retained.max']) this.max['retained.max'] = this.retained.size;
  }

  private addFilter(topic: string): void {
    this.subscriptionCount++;
    if (parseShare(topic)) this.sharedCount++;
    this.filters.add(routeTopic(topic));
    this.routes.add(topic, this.node);
  }

  private removeFilter(topic: string): void {
    this.subscriptionCount--;
    if (parseShare(topic)) this.sharedCount--;
    this.filters.remove(routeTopic(topic));
    this.routes.remove(topic, this.node);
  }

  private dropSubscriptions(session: Session): void {
    for (const topic of session.subscriptions.keys()) this.removeFilter(topic);
    session.subscriptions.clear();
  }

  /**
   * Sizes of what this node keeps per client (sessions, sockets, subscriptions and the filter
   * index and route table they feed): read-only figures for leak checks, back to where they
   * were once the clients have left.
   */
  sizes(): Record<'sessions' | 'liveConnections' | 'sockets' | 'subscriptions' | 'filterNodes' | 'routeTopics' | 'retained', number> {
    return {
      sessions: this.sessions.size,
      liveConnections: this.liveCount,
      sockets: this.sockets.size,
      subscriptions: this.subscriptionCount,
      filterNodes: this.filters.nodeCount,
      routeTopics: this.routes.topicCount,
      retained: this.retained.size,
    };
  }

  /** Number of clients currently connected. */
  get liveConnections(): number {
    return this.liveCount;
  }

  /** Number of subscriptions held by this node's sessions. */
  get subscriptions(): number {
    return this.subscriptionCount;
  }

  /** Number of shared subscriptions held by this node's sessions. */
  get sharedSubscriptions(): number {
    return this.sharedCount;
  }

  private currentCounts(): Record<string, number> {
    const sessions = this.sessions.size;
    return {
      channels: sessions,
      connections: sessions,
      delayed: this.heldDelayed(),
      live_connections: this.liveCount,
      cluster_sessions: sessions,
      retained: this.retained.size,
      sessions,
      suboptions: this.subscriptionCount,
      subscribers: this.subscriptionCount,
      subscriptions: this.subscriptionCount,
      'subscriptions.shared': this.sharedCount,
      topics: this.routes.topicCount,
    };
  }

  private bumpMax(): void {
    for (const [name, count] of Object.entries(this.currentCounts())) {
      if (count > this.max[`${name}.max`]) this.max[`${name}.max`] = count;
    }
  }

  /** The §5.2 stats of this node (cluster-wide gauges as this node sees them). */
  stats(): Stats {
    const stats: Stats = {};
    for (const [name, count] of Object.entries(this.currentCounts())) {
      stats[`${name}.count`] = count;
      stats[`${name}.max`] = Math.max(count, this.max[`${name}.max`]);
    }
    return stats;
  }

  /** The §5.3 metrics of this node, with byte and sent-packet totals filled in. */
  snapshotMetrics(): Metrics {
    const metrics = { ...this.metrics };
    let received = this.closedBytesReceived;
    let sent = this.closedBytesSent;
    for (const socket of this.sockets) {
      received += socket.bytesRead;
      sent += socket.bytesWritten;
    }
    metrics['bytes.received'] = received;
    metrics['bytes.sent'] = sent;
    metrics['packets.sent'] = SENT_KEYS.reduce((sum, key) => sum + metrics[key], 0);
    return metrics;
  }
}
