// The `mqtt` zone limits on real MQTT traffic (emqx_mqtt_caps, emqx_frame, emqx_channel) and the
// retainer limits: max_packet_size closes the connection (frame_too_large), max_clientid_len refuses
// the CONNECT (identifier rejected), topic levels / wildcard / retain / QoS / subscription quota are
// checked per packet; retained messages follow the retainer's enable, count, size and expiry.
import type { Aedes, AuthenticateError, PublishPacket, Subscription } from 'aedes';
import { parseBytesize, parseDuration, structDefaults } from '../store/config-roots.ts';
import type { Store } from '../store/index.ts';
import { listenerOfSocket } from '../store/listeners.ts';
import { parseShare } from '../store/topic.ts';
import { brokerHooks } from './hooks.ts';

export interface MqttZone {
  max_packet_size: string | number;
  max_clientid_len: number;
  max_topic_levels: number;
  wildcard_subscription: boolean;
  retain_available: boolean;
  max_qos_allowed: number;
  max_subscriptions: number | 'infinity';
  [key: string]: unknown;
}

/** The zone settings the per-packet checks read, parsed once per zone object. */
export interface ZoneLimits {
  zone: MqttZone;
  /** max_packet_size in bytes (Infinity when it does not parse). */
  maxPacketSize: number;
}

let mqttDefaults: MqttZone | null = null;

const zoneCache = new WeakMap<Store, { source: unknown; limits: ZoneLimits }>();

/**
 * The zone's `mqtt` settings (GET /configs/global_zone), over the reference's defaults, with the
 * sizes parsed. Read for every packet, so it is cached until the zone store replaces its
 * persisted object.
 */
export function zoneLimits(store: Store): ZoneLimits {
  const source = (store.state as { zone?: unknown }).zone;
  const cached = zoneCache.get(store);
  if (cached && cached.source === source) return cached.limits;
  mqttDefaults ??= structDefaults('mqtt', 'mqtt') as MqttZone;
  const zone = { ...mqttDefaults, ...(store.zone.get().mqtt as Partial<MqttZone>) };
  const limits = { zone, maxPacketSize: parseBytesize(zone.max_packet_size) ?? Infinity };
  zoneCache.set(store, { source: (store.state as { zone?: unknown }).zone, limits });
  return limits;
}

/** The zone's `mqtt` settings over the reference's defaults. */
export function mqttZone(store: Store): MqttZone {
  return zoneLimits(store).zone;
}

interface ParserLike {
  packet: { length: number; cmd?: string };
  _parseLength(): boolean;
  _emitError(err: Error): void;
}

/** Number of levels of a topic, counted without splitting it. */
function levels(topic: string): number {
  let n = 1;
  for (let i = topic.indexOf('/'); i >= 0; i = topic.indexOf('/', i + 1)) n++;
  return n;
}

function isWildcard(filter: string): boolean {
  return filter.split('/').some((level) => level === '#' || level === '+');
}

/** Installs the zone and retainer limits. */
export function installMqttLimits(broker: Aedes, store: Store): void {
  const { mqtt } = store;
  const metrics = mqtt.metrics;

  // max_packet_size: checked as soon as a packet's length is known (emqx_frame frame_too_large).
  // One function for every connection's parser (the parser calls it for every packet, so its
  // call site stays monomorphic), around the parser's own method.
  let parseLength: ((this: ParserLike) => boolean) | null = null;
  const limitedLength = function (this: ParserLike): boolean {
    const ok = (parseLength as (this: ParserLike) => boolean).call(this);
    if (ok && this.packet.length > zoneLimits(store).maxPacketSize) {
      metrics['packets.received']++;
      if (this.packet.cmd === 'publish') {
        metrics['packets.publish.received']++;
        metrics['packets.publish.error']++;
      }
      this._emitError(new Error('frame_too_large'));
      return false;
    }
    return ok;
  };
  const handle = broker.handle;
  broker.handle = (stream, req) => {
    const client = handle(stream, req);
    const parser = (client as unknown as { _parser?: ParserLike })._parser;
    if (parser && parser._parseLength !== limitedLength) {
      parseLength ??= parser._parseLength;
      parser._parseLength = limitedLength;
    }
    return client;
  };

  // max_clientid_len: CONNACK 2 (MQTT 5: 0x85), as emqx_channel's check_clientid.
  const authenticate = broker.authenticate;
  broker.authenticate = (client, username, password, done) => {
    if (client.id && Buffer.byteLength(client.id) > mqttZone(store).max_clientid_len) {
      metrics['client.authenticate']++;
      done(Object.assign(new Error('client id too long'), { returnCode: 2 }) as AuthenticateError, false);
      return;
    }
    authenticate.call(broker, client, username, password, done);
  };

  // Publish caps (emqx_mqtt_caps:check_pub): a violation disconnects the client.
  const hooks = brokerHooks(broker);
  hooks.guard.add('mqtt-limits', (client, packet) => {
    const zone = zoneLimits(store).zone;
    if (levels(packet.topic) > zone.max_topic_levels || (packet.retain && !zone.retain_available) || (packet.qos ?? 0) > zone.max_qos_allowed) {
      metrics['packets.publish.error']++;
      client.close();
      return true;
    }
    return false;
  });
  hooks.after.add('mqtt-limits', (_client, packet, verdict) => {
    if (!verdict && packet.retain) limitRetain(packet);
  });

  // A retained message the retainer does not keep is still delivered, only not stored.
  const limitRetain = (packet: PublishPacket) => {
    const config = store.configRoots.get('retainer') as { enable: boolean; max_payload_size: string; backend: { max_retained_messages: number } };
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload.length : Buffer.byteLength(String(packet.payload));
    const max = config.backend.max_retained_messages;
    const full = max > 0 && !mqtt.retained.has(packet.topic) && mqtt.retained.size >= max;
    // An empty payload deletes a retained message: always allowed.
    if (payload > 0 && (!config.enable || payload > (parseBytesize(config.max_payload_size) ?? Infinity) || full)) packet.retain = false;
  };

  // Subscribe caps (check_sub) and the session's subscription quota: 0x80 in MQTT 3.1.1.
  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub: Subscription, callback) => {
    const zone = mqttZone(store);
    const filter = parseShare(sub.topic)?.topic ?? sub.topic;
    const held = (client as unknown as { subscriptions?: Record<string, unknown> }).subscriptions ?? {};
    const count = Object.keys(held).length;
    const quota = zone.max_subscriptions;
    const refused = levels(filter) > zone.max_topic_levels
      || (isWildcard(filter) && !zone.wildcard_subscription)
      || (quota !== 'infinity' && !held[sub.topic] && count >= quota);
    if (refused) {
      callback(null, null);
      return;
    }
    authorizeSubscribe.call(broker, client, sub, callback);
  };

  // Connections of other listeners than `<transport>:default` are attributed to their listener.
  broker.on('client', (client) => {
    const socket = (client.req ? client.req.socket : client.conn) as import('node:net').Socket;
    const id = listenerOfSocket(socket);
    const session = mqtt.sessions.get(client.id);
    if (id && session) session.listener = id;
  });

  // Retained messages expire after msg_expiry_interval (0 = never); checked every second.
  const expiry = setInterval(() => {
    const config = store.configRoots.get('retainer') as { msg_expiry_interval: string };
    const ttl = parseDuration(config.msg_expiry_interval) ?? 0;
    if (ttl <= 0) return;
    const now = store.clock.now();
    for (const message of [...mqtt.retained.values()]) {
      if (now - message.publish_at < ttl) continue;
      mqtt.retained.delete(message.topic);
      // An empty retained message removes it from Aedes' store too.
      const persistence = (broker as unknown as { persistence: { storeRetained(packet: object): Promise<void> } }).persistence;
      persistence.storeRetained({ cmd: 'publish', topic: message.topic, payload: Buffer.alloc(0), qos: 0, retain: true, dup: false }).catch(() => undefined);
    }
  }, 1000);
  expiry.unref();
  broker.once('closed', () => clearInterval(expiry));
}
