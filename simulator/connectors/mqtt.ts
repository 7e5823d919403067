// The mqtt connector (emqx_bridge_mqtt): a real MQTT client connected to the configured remote
// broker. Actions (egress) publish through it; sources (ingress) subscribe on the remote and hand
// each received message to the rule engine as the columns of `$bridges/mqtt:<name>`.
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { topicMatches } from '../lib/topic.ts';
import type { Obj } from '../rules/values.ts';
import { durationMs } from './http.ts';
import { hostPort, type ConnectorRuntime, type Health } from './probe.ts';

type Json = Record<string, unknown>;

interface Subscription {
  filter: string;
  qos: 0 | 1 | 2;
  deliver: (columns: Obj) => void;
}

const PROTOCOLS: Record<string, 3 | 4 | 5> = { v3: 3, v4: 4, v5: 5 };

function userProps(properties: Json | undefined): Obj {
  const out: Obj = { 'User-Property': (properties?.userProperties as Obj | undefined) ?? {} };
  if (properties?.contentType !== undefined) out['Content-Type'] = properties.contentType;
  return out;
}

export class MqttConnector implements ConnectorRuntime {
  private readonly client: MqttClient | null;
  private readonly server: string;
  private lastError = '';
  private everConnected = false;
  private readonly subs = new Map<string, Subscription>();

  constructor(name: string, conf: Json) {
    this.server = String(conf.server ?? '');
    const target = hostPort(this.server, 1883);
    if (!target) {
      this.client = null;
      this.lastError = `invalid server: ${this.server}`;
      return;
    }
    const ssl = (conf.ssl as Json | undefined)?.enable === true;
    this.client = mqtt.connect({
      protocol: ssl ? 'mqtts' : 'mqtt',
      host: target.host,
      port: target.port,
      rejectUnauthorized: (conf.ssl as Json | undefined)?.verify === 'verify_peer',
      clientId: `${String(conf.clientid_prefix ?? '')}${name}:${randomBytes(4).toString('hex')}`,
      protocolVersion: PROTOCOLS[String(conf.proto_ver ?? 'v4')] ?? 4,
      username: typeof conf.username === 'string' && conf.username ? conf.username : undefined,
      password: typeof conf.password === 'string' && conf.password ? conf.password : undefined,
      clean: conf.clean_start !== false,
      keepalive: Math.round((durationMs(conf.keepalive, 300_000) ?? 300_000) / 1000),
      connectTimeout: durationMs(conf.connect_timeout, 10_000) ?? 10_000,
      reconnectPeriod: 2000,
      resubscribe: false,
      timerVariant: 'native',
    });
    this.client.on('connect', () => {
      this.everConnected = true;
      this.lastError = '';
      for (const sub of this.subs.values()) this.client!.subscribe(sub.filter, { qos: sub.qos });
    });
    this.client.on('error', (err) => (this.lastError = err.message));
    this.client.on('close', () => {
      if (!this.lastError && this.everConnected) this.lastError = 'connection closed';
    });
    this.client.on('message', (topic, payload, packet) => {
      const columns: Obj = {
        topic,
        server: this.server,
        qos: packet.qos,
        dup: packet.dup,
        retain: packet.retain,
        pub_props: userProps(packet.properties as Json | undefined),
        payload: payload.toString('utf8'),
        message_received_at: Date.now(),
      };
      for (const sub of this.subs.values()) {
        const filter = sub.filter.replace(/^\$share\/[^/]+\//, '');
        if (topicMatches(filter, topic)) sub.deliver({ ...columns });
      }
    });
  }

  async health(): Promise<Health> {
    if (this.client?.connected) return { status: 'connected' };
    if (!this.client) return { status: 'disconnected', reason: this.lastError };
    if (!this.everConnected && !this.lastError) return { status: 'connecting' };
    return { status: 'disconnected', reason: this.lastError || 'not connected' };
  }

  /** Egress: publishes to the remote broker; rejects when it is not connected. */
  publish(topic: string, payload: string, qos: 0 | 1 | 2, retain: boolean): Promise<void> {
    const client = this.client;
    if (!client?.connected) return Promise.reject(new Error(this.lastError || 'not connected'));
    return new Promise((resolve, reject) => client.publish(topic, payload, { qos, retain }, (err) => (err ? reject(err) : resolve())));
  }

  /** Ingress: one source's subscription on the remote broker. */
  subscribe(id: string, filter: string, qos: 0 | 1 | 2, deliver: (columns: Obj) => void): void {
    this.subs.set(id, { filter, qos, deliver });
    if (this.client?.connected) this.client.subscribe(filter, { qos });
  }

  unsubscribe(id: string): void {
    const sub = this.subs.get(id);
    if (!sub) return;
    this.subs.delete(id);
    if (this.client?.connected && ![...this.subs.values()].some((s) => s.filter === sub.filter)) this.client.unsubscribe(sub.filter);
  }

  close(): Promise<void> {
    const client = this.client;
    if (!client) return Promise.resolve();
    return new Promise((resolve) => client.end(true, {}, () => resolve()));
  }
}

/** A one-off real MQTT connect for the probe endpoint (connected on CONNACK, else the reason). */
export async function probeMqtt(conf: Json): Promise<Health> {
  const runtime = new MqttConnector('probe', { ...conf, connect_timeout: '5s' });
  try {
    const deadline = Date.now() + 5000;
    for (;;) {
      const health = await runtime.health();
      if (health.status !== 'connecting' || Date.now() > deadline) return health.status === 'connecting' ? { status: 'disconnected', reason: 'connect timeout' } : health;
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await runtime.close();
  }
}
