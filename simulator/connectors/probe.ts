// The runtime of a connector type the simulator does not speak (databases, Kafka, cloud
// services …): its status is a real TCP reachability probe of every server its config names.
import { probe, type ProbeResult } from '../store/access/auth-common.ts';

export type ConnectorStatus = 'connected' | 'connecting' | 'disconnected';

export interface Health {
  status: ConnectorStatus;
  reason?: string;
}

/** What the store needs from a running connector. */
export interface ConnectorRuntime {
  health(): Promise<Health>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

// Default ports of the types whose servers are written `host[:port]`.
const DEFAULT_PORTS: Record<string, number> = {
  mysql: 3306, pgsql: 5432, timescale: 5432, matrix: 5432, redis: 6379, mongodb: 27017,
  kafka_producer: 9092, kafka_consumer: 9092, confluent_producer: 9092, azure_event_hub_producer: 9093,
  influxdb: 8086, elasticsearch: 9200, syskeeper_forwarder: 9092, syskeeper_proxy: 9092, mqtt: 1883,
  cassandra: 9042, sqlserver: 1433, oracle: 1521, rabbitmq: 5672, rocketmq: 9876, tdengine: 6041,
  greptimedb: 4001, clickhouse: 8123, pulsar: 6650, hstreamdb: 6570, opents: 4242,
};

// Types that reach a fixed cloud endpoint instead of a configured server.
const FIXED: Record<string, string> = { gcp_pubsub_producer: 'pubsub.googleapis.com:443', gcp_pubsub_consumer: 'pubsub.googleapis.com:443' };

const SERVER_KEYS = ['server', 'servers', 'url', 'base_url', 'bootstrap_hosts', 'endpoint', 'listen'];

/** The first server-like value in a config (top level first, then nested objects). */
function findServers(config: Json): string | null {
  for (const key of SERVER_KEYS) {
    const v = config[key];
    if (typeof v === 'string' && v.trim()) return v;
    if (Array.isArray(v) && v.length) return v.map(String).join(',');
  }
  for (const [key, v] of Object.entries(config)) {
    if (key === 'ssl' || key === 'resource_opts' || typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const found = findServers(v as Json);
    if (found) return found;
  }
  return null;
}

const SCHEME_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'mqtt:': 1883, 'mqtts:': 8883, 'pulsar:': 6650, 'pulsar+ssl:': 6651, 'hstream:': 6570 };

/** One `host[:port]` or URL → host and port, or null. */
export function hostPort(entry: string, defaultPort: number): { host: string; port: number } | null {
  const text = entry.trim();
  if (!text) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (!url.hostname) return null;
      const port = url.port ? Number(url.port) : SCHEME_PORTS[url.protocol] ?? defaultPort;
      return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
    } catch {
      return null;
    }
  }
  const m = /^(\[[0-9a-fA-F:]+\]|[^:\s/]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return null;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

/** Probes every configured server: connected when one answers, else the first failure. */
export async function probeConfig(type: string, config: Json): Promise<Health> {
  const servers = (Object.hasOwn(FIXED, type) ? FIXED[type] : undefined) ?? findServers(config);
  if (!servers) return { status: 'disconnected', reason: 'no server configured' };
  const entries = servers.split(',').map((s) => s.trim()).filter(Boolean);
  const port = Object.hasOwn(DEFAULT_PORTS, type) ? DEFAULT_PORTS[type] : 80;
  const targets = entries.map((e) => ({ entry: e, target: hostPort(e, port) }));
  const bad = targets.find((t) => !t.target);
  if (bad) return { status: 'disconnected', reason: `invalid server: ${bad.entry}` };
  const results: ProbeResult[] = await Promise.all(targets.map((t) => probe(t.target!.host, t.target!.port)));
  if (results.some((r) => r.status === 'connected')) return { status: 'connected' };
  return { status: 'disconnected', reason: results[0]?.reason ?? 'unreachable' };
}

/** A connector known only by its configuration: health is the probe. */
export class ProbeConnector implements ConnectorRuntime {
  constructor(private readonly type: string, private readonly config: Json) {}

  health(): Promise<Health> {
    return probeConfig(this.type, this.config);
  }

  async close(): Promise<void> {}
}
