// The simulated cluster of GET /nodes, /stats and /metrics (emqx_mgmt_api_nodes, emqx_mgmt.erl):
// node 1 is this process with its real uptime, memory, load and MQTT counts; the other nodes come
// from fixtures/nodes.json, and their clients, counts and counters from fixtures/clients.json
// (see fixture-nodes.ts), since no real client is connected to them.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Clock } from '../../plugins/clock.ts';
import { loadFixtureNodes, type FixtureNode } from './fixture-nodes.ts';
import { CLUSTER_WIDE_STATS, STATS_NAMES, zeroMetrics, zeroStats, type Metrics, type Stats } from './metrics.ts';
import type { MqttState } from '../messaging/mqtt.ts';
import type { Profile } from '../profile.ts';
import type { RouteTable } from '../messaging/routes.ts';

/** This process's node name: node 1, the core node that real MQTT clients connect to. */
export const SELF_NODE = 'emqx@node1';

export interface NodeInfo {
  node: string;
  node_status: 'running' | 'stopped';
  version: string;
  edition: string;
  role: 'core' | 'replicant';
  uptime: number;
  connections: number;
  live_connections: number;
  cluster_sessions: number;
  load1: number;
  load5: number;
  load15: number;
  max_fds: number;
  memory_total: string;
  memory_used: string;
  process_available: number;
  process_used: number;
  otp_release: string;
  sys_path: string;
  log_path: string;
}

const FIXTURE = new URL('../../../fixtures/nodes.json', import.meta.url);

/** EMQX prints memory as `512.00M`, `1.50G`, or a plain byte count below 1 KiB. */
export function humanBytes(bytes: number): string {
  const units = ['K', 'M', 'G', 'T'];
  let value = bytes;
  let unit = '';
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return unit ? `${value.toFixed(2)}${unit}` : String(bytes);
}

function readMaxFds(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    if (soft) return Number(soft);
  } catch {
    // Not Linux: fall back to the common default below.
  }
  return 1024;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export class Cluster {
  /** This process's node name. */
  readonly self = SELF_NODE;
  private readonly others: NodeInfo[];
  /** The clients of every other node ever in the cluster, in node order. */
  private readonly allFixtureNodes: FixtureNode[];
  /** Nodes that were force-left (DELETE /cluster/{node}/force_leave) and not invited back. */
  private readonly left = new Set<string>();
  /** Members marked down (markDown): listed as stopped, asked for nothing. */
  private readonly down = new Set<string>();
  private readonly startedAt: number;
  private readonly maxFds = readMaxFds();
  private readonly clusterMax = zeroStats();

  constructor(
    private readonly clock: Clock,
    private readonly mqtt: MqttState,
    nodeCount: number,
    private readonly routes: RouteTable,
    fixtureClients: boolean,
    private readonly profile: Profile,
  ) {
    this.startedAt = clock.now();
    const templates = JSON.parse(readFileSync(FIXTURE, 'utf8')) as NodeInfo[];
    // More nodes than fixtures: reuse the fixtures in turn under the next node names.
    this.others = Array.from({ length: Math.max(0, nodeCount - 1) }, (_, i) => ({
      ...templates[i % templates.length],
      node: `emqx@node${i + 2}`,
      // Every member runs the same release as node 1.
      version: profile.version,
      edition: profile.editionName,
      otp_release: profile.otpRelease,
    }));
    this.allFixtureNodes = loadFixtureNodes(this.others.map((n) => n.node), clock, routes, fixtureClients);
  }

  /** The clients of the other running nodes of the cluster, in node order. */
  get fixtureNodes(): FixtureNode[] {
    return this.left.size === 0 && this.down.size === 0 ? this.allFixtureNodes : this.allFixtureNodes.filter((n) => !this.left.has(n.name) && !this.down.has(n.name));
  }

  /**
   * Marks a simulated node down (or up again): `/nodes` lists it `stopped`, and everything that
   * asks the nodes (clients, stats, metrics, monitor) answers from the running ones, as EMQX's
   * RPC to a node that is down fails. Node 1 (this process) cannot be marked down.
   */
  markDown(node: string, down = true): boolean {
    if (node === this.self || !this.has(node)) return false;
    if (down) this.down.add(node);
    else this.down.delete(node);
    return true;
  }

  /** A simulated node that may join: one of the fixture nodes, in the cluster or not. */
  knows(node: string): boolean {
    return this.others.some((n) => n.node === node);
  }

  /** Takes a fixture node out of the cluster (force leave); false if it is not a member. */
  leave(node: string): boolean {
    if (!this.has(node) || node === this.self) return false;
    this.left.add(node);
    return true;
  }

  /** Brings a known fixture node back into the cluster (invite); false if it already is a member. */
  join(node: string): boolean {
    return this.left.delete(node);
  }

  /** The fixture node of a name (not node 1), or undefined. */
  fixtureNode(node: string): FixtureNode | undefined {
    return this.fixtureNodes.find((n) => n.name === node);
  }

  /** The running nodes of the cluster, node 1 first. */
  names(): string[] {
    return [this.self, ...this.others.map((n) => n.node).filter((n) => !this.left.has(n) && !this.down.has(n))];
  }

  /** Every member, running or down. */
  members(): string[] {
    return [this.self, ...this.others.map((n) => n.node).filter((n) => !this.left.has(n))];
  }

  has(node: string): boolean {
    return node === this.self || (this.others.some((n) => n.node === node) && !this.left.has(node));
  }

  private selfInfo(): NodeInfo {
    const [load1, load5, load15] = os.loadavg();
    const total = os.totalmem();
    const sessions = this.mqtt.sessions.size;
    const live = this.mqtt.liveConnections;
    return {
      node: this.self,
      node_status: 'running',
      version: this.profile.version,
      edition: this.profile.editionName,
      role: 'core',
      uptime: this.clock.now() - this.startedAt,
      connections: sessions,
      live_connections: live,
      cluster_sessions: this.totalSessions(),
      load1: round2(load1),
      load5: round2(load5),
      load15: round2(load15),
      max_fds: this.maxFds,
      memory_total: humanBytes(total),
      memory_used: humanBytes(total - os.freemem()),
      process_available: 2097152,
      // EMQX runs about two Erlang processes per connection (connection and session) on top of
      // a base set; Node has no equivalent, so this mirrors that shape.
      process_used: 480 + 2 * live,
      otp_release: this.profile.otpRelease,
      sys_path: process.cwd(),
      log_path: 'log.file.enable is false, not logging to file.',
    };
  }

  /** nodeInfo of one node, or null when the cluster has no such node. */
  info(node: string): NodeInfo | null {
    if (node === this.self) return this.selfInfo();
    const index = this.others.findIndex((n) => n.node === node);
    if (index < 0 || this.left.has(node)) return null;
    const other = this.others[index];
    // What EMQX lists for a member it cannot reach.
    if (this.down.has(node)) return { node, node_status: 'stopped', role: other.role } as NodeInfo;
    const stats = this.allFixtureNodes[index].stats();
    // Fixture uptime is the uptime at simulator start; it keeps counting from there.
    return {
      ...other,
      uptime: other.uptime + (this.clock.now() - this.startedAt),
      connections: stats['connections.count'],
      live_connections: stats['live_connections.count'],
      cluster_sessions: this.totalSessions(),
      process_used: other.process_used + 2 * stats['live_connections.count'],
    };
  }

  all(): NodeInfo[] {
    return this.members().map((name) => this.info(name) as NodeInfo);
  }

  /** Sessions of the whole cluster (5.6+ `cluster_sessions`; also what the license counts). */
  totalSessions(): number {
    return this.fixtureNodes.reduce((sum, n) => sum + n.clients.size, this.mqtt.sessions.size);
  }

  /** The cluster-wide gauges (§5.2): the same value on every node. */
  private clusterWide(): Record<string, number> {
    const values: Record<string, number> = {
      retained: this.mqtt.retained.size,
      topics: this.routes.topicCount,
      'subscriptions.shared': this.fixtureNodes.reduce((sum, n) => sum + n.sharedSubscriptions, this.mqtt.sharedSubscriptions),
      cluster_sessions: this.totalSessions(),
    };
    for (const [name, count] of Object.entries(values)) {
      if (count > this.clusterMax[`${name}.max`]) this.clusterMax[`${name}.max`] = count;
    }
    return values;
  }

  stats(node: string): Stats | null {
    const own = node === this.self ? this.mqtt.stats() : this.fixtureNode(node)?.stats();
    if (!own) return null;
    for (const [name, count] of Object.entries(this.clusterWide())) {
      own[`${name}.count`] = count;
      own[`${name}.max`] = Math.max(count, this.clusterMax[`${name}.max`]);
    }
    return own;
  }

  metrics(node: string): Metrics | null {
    if (node === this.self) return this.mqtt.snapshotMetrics();
    return this.fixtureNode(node)?.metrics() ?? null;
  }

  /** Stats summed over running nodes, cluster-wide gauges taken once (§5.2). */
  aggregateStats(): Stats {
    const perNode = this.names().map((n) => this.stats(n) as Stats);
    const result: Stats = {};
    for (const name of STATS_NAMES) {
      for (const suffix of ['count', 'max']) {
        const key = `${name}.${suffix}`;
        result[key] = CLUSTER_WIDE_STATS.has(name)
          ? perNode[0][key]
          : perNode.reduce((sum, s) => sum + s[key], 0);
      }
    }
    return result;
  }

  aggregateMetrics(): Metrics {
    const result = zeroMetrics();
    for (const name of this.names()) {
      const metrics = this.metrics(name) as Metrics;
      for (const key of Object.keys(result) as (keyof Metrics)[]) result[key] += metrics[key];
    }
    return result;
  }
}
