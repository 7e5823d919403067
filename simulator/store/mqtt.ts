// Live MQTT state of this node, written by the broker events and read by the REST handlers:
// sessions (connected clients and offline persistent sessions), subscriptions, subscribed topic
// filters, retained topics, metrics counters and the sockets whose bytes are counted.
// Nothing here is persisted; a restart starts from zero like a rebooted broker.
import type { Socket } from 'node:net';
import type { Client } from 'aedes';
import { zeroMetrics, zeroStats, type Metrics, type Stats } from './metrics.ts';

export type Transport = 'tcp' | 'ws';

/** What the CONNECT packet said, captured before Aedes registers the client. */
export interface ConnectInfo {
  username: string | null;
  keepalive: number;
  clean: boolean;
  protoVer: number;
  protoName: string;
}

export interface Session {
  clientid: string;
  username: string | null;
  ip_address: string;
  port: number;
  proto_name: string;
  proto_ver: number;
  clean_start: boolean;
  keepalive: number;
  transport: Transport;
  created_at: number;
  connected_at: number;
  disconnected_at: number | null;
  connected: boolean;
  /** Topic filter → granted QoS. */
  subscriptions: Map<string, number>;
  /** The Aedes client while connected, for kicks and publishes. */
  client: Client | null;
}

// Packets whose count is not kept directly but summed for packets.sent.
const SENT_KEYS = [
  'packets.connack.sent', 'packets.publish.sent', 'packets.puback.sent', 'packets.pubrec.sent',
  'packets.pubrel.sent', 'packets.pubcomp.sent', 'packets.suback.sent', 'packets.unsuback.sent',
  'packets.pingresp.sent', 'packets.disconnect.sent', 'packets.auth.sent',
] as const;

function isShared(filter: string): boolean {
  return filter.startsWith('$share/') || filter.startsWith('$queue/');
}

/** Strips the IPv4-mapped IPv6 prefix so addresses read as EMQX shows them. */
export function plainAddress(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export class MqttState {
  /** Counters incremented by the broker taps; read them through `snapshotMetrics()`. */
  readonly metrics: Metrics = zeroMetrics();
  readonly sessions = new Map<string, Session>();
  readonly retained = new Set<string>();
  private readonly topics = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly max: Stats = zeroStats();
  private liveCount = 0;
  private subscriptionCount = 0;
  private sharedCount = 0;
  private closedBytesReceived = 0;
  private closedBytesSent = 0;

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
  connected(client: Client, info: ConnectInfo, transport: Transport, address: { ip: string; port: number }, now: number): Session {
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
      } as Session;
      this.sessions.set(client.id, session);
    }
    this.liveCount++;
    Object.assign(session, {
      username: info.username,
      ip_address: address.ip,
      port: address.port,
      proto_name: info.protoName,
      proto_ver: info.protoVer,
      clean_start: info.clean,
      keepalive: info.keepalive,
      transport,
      connected_at: now,
      disconnected_at: null,
      connected: true,
      client,
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
    session.connected = false;
    session.client = null;
    session.disconnected_at = now;
    if (session.clean_start) {
      this.dropSubscriptions(session);
      this.sessions.delete(client.id);
    }
  }

  subscribed(client: Client, subs: ReadonlyArray<{ topic: string; qos: number }>): void {
    const session = this.sessions.get(client.id);
    if (!session) return;
    for (const { topic, qos } of subs) {
      // 0x80 in a SUBACK is a refused filter [MQTT-3.9.3-2]; nothing was subscribed.
      if (qos === 128) continue;
      if (!session.subscriptions.has(topic)) this.addFilter(topic);
      session.subscriptions.set(topic, qos);
    }
    this.bumpMax();
  }

  unsubscribed(client: Client, topics: readonly string[]): void {
    const session = this.sessions.get(client.id);
    if (!session) return;
    for (const topic of topics) {
      if (session.subscriptions.delete(topic)) this.removeFilter(topic);
    }
  }

  /** Tracks the retained store: an empty retained payload deletes the topic's message [MQTT-3.3.1-10]. */
  retain(topic: string, payloadLength: number): void {
    if (payloadLength === 0) this.retained.delete(topic);
    else {
      this.retained.add(topic);
      if (this.retained.size > this.max['retained.max']) this.max['retained.max'] = this.retained.size;
    }
  }

  private addFilter(topic: string): void {
    this.subscriptionCount++;
    if (isShared(topic)) this.sharedCount++;
    this.topics.set(topic, (this.topics.get(topic) ?? 0) + 1);
  }

  private removeFilter(topic: string): void {
    this.subscriptionCount--;
    if (isShared(topic)) this.sharedCount--;
    const refs = (this.topics.get(topic) ?? 1) - 1;
    if (refs > 0) this.topics.set(topic, refs);
    else this.topics.delete(topic);
  }

  private dropSubscriptions(session: Session): void {
    for (const topic of session.subscriptions.keys()) this.removeFilter(topic);
    session.subscriptions.clear();
  }

  /** Number of clients currently connected. */
  get liveConnections(): number {
    return this.liveCount;
  }

  private currentCounts(): Record<string, number> {
    const sessions = this.sessions.size;
    return {
      channels: sessions,
      connections: sessions,
      delayed: 0,
      live_connections: this.liveCount,
      cluster_sessions: sessions,
      retained: this.retained.size,
      sessions,
      suboptions: this.subscriptionCount,
      subscribers: this.subscriptionCount,
      subscriptions: this.subscriptionCount,
      'subscriptions.shared': this.sharedCount,
      topics: this.topics.size,
    };
  }

  private bumpMax(): void {
    for (const [name, count] of Object.entries(this.currentCounts())) {
      if (count > this.max[`${name}.max`]) this.max[`${name}.max`] = count;
    }
  }

  /** The §5.2 stats of this node. */
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
