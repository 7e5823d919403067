// The clients of the simulated nodes other than node 1 (fixtures/clients.json), so per-node views
// have data. No socket stands behind them: their counters grow with the clock from the message
// rates of the fixture, and they can be listed, filtered, subscribed, unsubscribed and kicked
// like real clients. Times in the fixture are relative to start (`*_ago` in ms).
import { readFileSync } from 'node:fs';
import type { Clock } from '../../plugins/clock.ts';
import {
  SESSION_EXPIRY_SECONDS, zeroCounters, type ClientLive, type ClientRecord, type SubOptions,
} from '../messaging/client-record.ts';
import { zeroMetrics, zeroStats, type Metrics, type Stats } from './metrics.ts';
import type { RouteTable } from '../messaging/routes.ts';
import { parseShare } from '../../lib/topic.ts';

interface FixtureClientSpec {
  clientid: string;
  username: string | null;
  ip_address: string;
  port: number;
  proto_ver: number;
  clean_start: boolean;
  keepalive: number;
  listener: string;
  expiry_interval?: number;
  created_ago: number;
  connected_ago: number;
  disconnected_ago?: number;
  subscriptions: { topic: string; qos: number }[];
  /** QoS of the messages this client publishes. */
  publish_qos: number;
  /** Messages per second this client publishes and receives while connected. */
  recv_rate: number;
  send_rate: number;
}

interface FixtureTemplate {
  node: string;
  clients: FixtureClientSpec[];
}

export interface FixtureClient extends ClientRecord {
  publishQos: number;
  recvRate: number;
  sendRate: number;
}

const FIXTURE = new URL('../../../fixtures/clients.json', import.meta.url);
// A fixed payload size for the byte counters: a small JSON reading.
const PAYLOAD_BYTES = 96;
// Share of received messages nobody subscribed to (EMQX counts them as dropped).
const DROPPED_SHARE = 0.03;

function loadTemplates(): FixtureTemplate[] {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as FixtureTemplate[];
}

/** How much a fixture client did since it connected, as whole numbers. */
function activity(client: FixtureClient, now: number) {
  const end = client.connected ? now : (client.disconnected_at ?? now);
  const seconds = Math.max(0, (end - client.connected_at) / 1000);
  const recv = Math.floor(client.recvRate * seconds);
  const sent = Math.floor(client.sendRate * seconds);
  const pings = client.keepalive > 0 ? Math.floor(seconds / client.keepalive) : 0;
  let sendQos = 0;
  for (const sub of client.subscriptions.values()) sendQos = Math.max(sendQos, sub.qos);
  return { recv, sent, pings, sendQos, subs: client.subscriptions.size };
}

function counters(client: FixtureClient, now: number): ClientLive {
  const a = activity(client, now);
  const c = zeroCounters();
  const acksIn = client.publishQos === 0 ? 0 : a.recv * client.publishQos;
  const acksOut = a.sendQos === 0 ? 0 : a.sent * a.sendQos;
  c.recv_msg = a.recv;
  c[`recv_msg.qos${client.publishQos}` as 'recv_msg.qos0'] = a.recv;
  c.send_msg = a.sent;
  c[`send_msg.qos${a.sendQos}` as 'send_msg.qos0'] = a.sent;
  // CONNECT, SUBSCRIBEs, PUBLISHes, PINGREQs, and the acks of QoS 1/2 flows in each direction.
  c.recv_pkt = 1 + a.subs + a.recv + a.pings + acksOut;
  c.send_pkt = 1 + a.subs + a.sent + a.pings + acksIn;
  const recv_oct = c.recv_pkt * 4 + a.recv * PAYLOAD_BYTES;
  const send_oct = c.send_pkt * 4 + a.sent * PAYLOAD_BYTES;
  return { counters: c, recv_oct, send_oct, inflight_cnt: 0, mqueue_len: client.connected ? 0 : Math.min(1000, Math.floor(a.sent / 50)) };
}

/** One simulated node's clients and the stats and metrics they add up to. */
export class FixtureNode {
  readonly clients = new Map<string, FixtureClient>();
  /** Metrics of clients that are gone (kicked or taken over), so counters never go back. */
  private readonly retired = zeroMetrics();
  private readonly max = zeroStats();
  private seq = 0;

  constructor(
    readonly name: string,
    private readonly clock: Clock,
    private readonly routes: RouteTable,
  ) {}

  /** Loads a template's clients; `suffix` keeps client ids unique when a template is reused. */
  load(specs: readonly FixtureClientSpec[], suffix: string): void {
    const now = this.clock.now();
    for (const spec of specs) {
      const connectedAt = now - spec.connected_ago;
      const client: FixtureClient = {
        clientid: spec.clientid + suffix,
        username: spec.username,
        ip_address: spec.ip_address,
        port: spec.port,
        proto_name: 'MQTT',
        proto_ver: spec.proto_ver,
        clean_start: spec.clean_start,
        keepalive: spec.keepalive,
        expiry_interval: spec.expiry_interval ?? (spec.clean_start ? 0 : SESSION_EXPIRY_SECONDS),
        listener: spec.listener,
        // A clean session is new at every connect.
        created_at: spec.clean_start ? connectedAt : now - spec.created_ago,
        connected_at: connectedAt,
        disconnected_at: spec.disconnected_ago === undefined ? null : now - spec.disconnected_ago,
        connected: spec.disconnected_ago === undefined,
        subscriptions: new Map(),
        seq: ++this.seq,
        publishQos: spec.publish_qos,
        recvRate: spec.recv_rate,
        sendRate: spec.send_rate,
      };
      this.clients.set(client.clientid, client);
      for (const sub of spec.subscriptions) this.subscribe(client, sub.topic, { qos: sub.qos, nl: 0, rap: 0, rh: 0 });
    }
    this.bumpMax();
  }

  live(client: FixtureClient): ClientLive {
    return counters(client, this.clock.now());
  }

  subscribe(client: FixtureClient, topic: string, options: SubOptions): void {
    if (!client.subscriptions.has(topic)) this.routes.add(topic, this.name);
    client.subscriptions.set(topic, options);
    this.bumpMax();
  }

  unsubscribe(client: FixtureClient, topic: string): void {
    if (client.subscriptions.delete(topic)) this.routes.remove(topic, this.name);
  }

  /** Removes a client and its session (kick, takeover); its counters stay in the node's metrics. */
  remove(clientid: string): boolean {
    const client = this.clients.get(clientid);
    if (!client) return false;
    const metrics = this.clientMetrics(client);
    for (const key of Object.keys(metrics) as (keyof Metrics)[]) this.retired[key] += metrics[key];
    this.retired['session.discarded']++;
    this.retired['client.disconnected'] += client.connected ? 1 : 0;
    for (const topic of client.subscriptions.keys()) this.routes.remove(topic, this.name);
    this.clients.delete(clientid);
    return true;
  }

  /** Shared subscriptions held by this node's clients. */
  get sharedSubscriptions(): number {
    return this.counts()['subscriptions.shared'];
  }

  /** Clients connected right now. */
  get liveConnections(): number {
    return this.counts().live_connections;
  }

  private counts(): Record<string, number> {
    let live = 0;
    let subs = 0;
    let shared = 0;
    for (const client of this.clients.values()) {
      if (client.connected) live++;
      subs += client.subscriptions.size;
      for (const topic of client.subscriptions.keys()) if (parseShare(topic)) shared++;
    }
    const sessions = this.clients.size;
    return {
      channels: sessions, connections: sessions, delayed: 0, live_connections: live, cluster_sessions: sessions,
      retained: 0, sessions, suboptions: subs, subscribers: subs, subscriptions: subs,
      'subscriptions.shared': shared, topics: this.routes.topicCount,
    };
  }

  private bumpMax(): void {
    for (const [name, count] of Object.entries(this.counts())) {
      if (count > this.max[`${name}.max`]) this.max[`${name}.max`] = count;
    }
  }

  /** Node-local §5.2 stats; the cluster fills in the cluster-wide gauges. */
  stats(): Stats {
    const stats: Stats = {};
    for (const [name, count] of Object.entries(this.counts())) {
      stats[`${name}.count`] = count;
      stats[`${name}.max`] = Math.max(count, this.max[`${name}.max`]);
    }
    return stats;
  }

  private clientMetrics(client: FixtureClient): Metrics {
    const m = zeroMetrics();
    const live = this.live(client);
    const c = live.counters;
    const dropped = Math.floor(c.recv_msg * DROPPED_SHARE);
    m['bytes.received'] = live.recv_oct;
    m['bytes.sent'] = live.send_oct;
    m['packets.received'] = c.recv_pkt;
    m['packets.sent'] = c.send_pkt;
    m['packets.connect.received'] = 1;
    m['packets.connack.sent'] = 1;
    m['packets.publish.received'] = c.recv_msg;
    m['packets.publish.sent'] = c.send_msg;
    m['packets.subscribe.received'] = client.subscriptions.size;
    m['packets.suback.sent'] = client.subscriptions.size;
    m['messages.received'] = c.recv_msg;
    m['messages.publish'] = c.recv_msg;
    m['messages.sent'] = c.send_msg;
    m['messages.delivered'] = c.send_msg;
    for (const q of [0, 1, 2] as const) {
      m[`messages.qos${q}.received`] = c[`recv_msg.qos${q}`];
      m[`messages.qos${q}.sent`] = c[`send_msg.qos${q}`];
    }
    m['messages.acked'] = c['send_msg.qos1'] + c['send_msg.qos2'];
    m['packets.puback.received'] = c['send_msg.qos1'];
    m['packets.puback.sent'] = c['recv_msg.qos1'];
    m['packets.pubrec.sent'] = c['recv_msg.qos2'];
    m['packets.pubcomp.sent'] = c['recv_msg.qos2'];
    m['packets.pubrel.received'] = c['recv_msg.qos2'];
    m['messages.dropped'] = dropped;
    m['messages.dropped.no_subscribers'] = dropped;
    const { pings } = activity(client, this.clock.now());
    m['packets.pingreq.received'] = pings;
    m['packets.pingresp.sent'] = pings;
    for (const key of ['client.connect', 'client.connack', 'client.connected', 'client.authenticate', 'authentication.success'] as const) m[key] = 1;
    m['client.subscribe'] = client.subscriptions.size;
    m['session.created'] = 1;
    if (!client.connected) m['client.disconnected'] = 1;
    return m;
  }

  /** The §5.3 metrics of this node: every client's activity plus what departed clients did. */
  metrics(): Metrics {
    const total = { ...this.retired };
    for (const client of this.clients.values()) {
      const m = this.clientMetrics(client);
      for (const key of Object.keys(m) as (keyof Metrics)[]) total[key] += m[key];
    }
    return total;
  }
}

/** Builds the fixture nodes for the given node names (all but node 1), reusing templates in turn. */
export function loadFixtureNodes(names: readonly string[], clock: Clock, routes: RouteTable, withClients: boolean): FixtureNode[] {
  const templates = loadTemplates();
  return names.map((name, i) => {
    const node = new FixtureNode(name, clock, routes);
    if (withClients && templates.length > 0) {
      const template = templates[i % templates.length];
      node.load(template.clients, template.node === name ? '' : `-${name.split('@')[1] ?? name}`);
    }
    return node;
  });
}
