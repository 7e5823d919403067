// The `mqtt` zone limits on real MQTT traffic (emqx_mqtt_caps, emqx_frame, emqx_channel) and the
// retainer limits: max_packet_size and strict_mode reach each connection's parser (frame.ts),
// max_clientid_len refuses the CONNECT (identifier rejected), topic levels / wildcard / retain /
// QoS / subscription quota are checked per packet; retained messages follow the retainer's enable,
// count, size and expiry. Topic names and filters of PUBLISH, SUBSCRIBE and UNSUBSCRIBE are checked
// as emqx_packet check does (a bad one disconnects), and `$` topics are kept from filters starting
// with a wildcard, retained messages included.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { Aedes, AuthenticateError, Client, PublishPacket, Subscription } from 'aedes';
import { parseBytesize, parseDuration } from '../lib/units.ts';
import { structDefaults } from '../store/config/config-roots.ts';
import type { Store } from '../store/index.ts';
import { WIRE } from '../store/profile.ts';
import { listenerOfSocket } from '../store/config/listeners.ts';
import { isSharedFilter, parseShare, startsWithWildcard, topicFilterError, topicNameError } from '../lib/topic.ts';
import { installFrame, MALFORMED } from './frame.ts';
import { brokerHooks, type ParsedPacket } from './hooks.ts';
import {
  RC_PROTOCOL_ERROR, RC_QOS_NOT_SUPPORTED, RC_QUOTA_EXCEEDED, RC_RETAIN_NOT_SUPPORTED, RC_TOPIC_FILTER_INVALID, RC_TOPIC_NAME_INVALID,
  RC_WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED,
} from './reason-codes.ts';

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

/**
 * The most topic levels the broker routes, whatever the zone says (EMQX allows max_topic_levels up
 * to 65535): Aedes' matchers (qlobber) walk a topic level by level on the call stack, which holds
 * a few thousand levels; a deeper topic is refused like one over the zone's limit.
 */
export const MAX_ROUTED_TOPIC_LEVELS = 1024;

// Aedes clamps its own level limit to 100 because mqemitter and aedes-persistence build their
// qlobber tries with qlobber's default `max_words` (100) and take no option to change it, so a
// deeper topic would make them throw. Every qlobber instance reads the limit from `_max_words`;
// an accessor on the shared prototype, in place before Aedes builds its tries, raises it to
// MAX_ROUTED_TOPIC_LEVELS (an explicitly larger `max_words` still wins).
{
  const { Qlobber } = createRequire(import.meta.url)('qlobber') as { Qlobber: { prototype: object } };
  const given = new WeakMap<object, number>();
  if (!Object.getOwnPropertyDescriptor(Qlobber.prototype, '_max_words')) {
    Object.defineProperty(Qlobber.prototype, '_max_words', {
      configurable: true,
      get(this: object) {
        return Math.max(given.get(this) ?? 0, MAX_ROUTED_TOPIC_LEVELS);
      },
      set(this: object, value: number) {
        given.set(this, value);
      },
    });
  }
}

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

/** The most levels a topic name or filter may have: the zone's max_topic_levels (default 128). */
export function maxTopicLevels(store: Store): number {
  return Math.min(zoneLimits(store).zone.max_topic_levels, MAX_ROUTED_TOPIC_LEVELS);
}

/** Number of levels of a topic, counted without splitting it. */
export function topicLevels(topic: string): number {
  let n = 1;
  for (let i = topic.indexOf('/'); i >= 0; i = topic.indexOf('/', i + 1)) n++;
  return n;
}

/** Subscriptions the zone refused, with the MQTT 5 SUBACK reason code (Aedes answers 0x87). */
const subscribeRefusals = new WeakMap<object, number>();

/** The MQTT 5 SUBACK reason code the zone refused a subscription with, if it did. */
export function subscribeRefusal(sub: object): number | undefined {
  return subscribeRefusals.get(sub);
}

interface CheckedPacket extends ParsedPacket {
  topic?: string;
  properties?: { topicAlias?: number; subscriptionIdentifier?: number; responseTopic?: string };
  subscriptions?: { topic: string }[];
  unsubscriptions?: string[];
  [MALFORMED]?: true;
}

/**
 * emqx_packet.erl (v5.5.1) check for PUBLISH, SUBSCRIBE and UNSUBSCRIBE: the reason code the
 * packet is refused with, or 0. A PUBLISH needs a valid topic name (an empty one only with a
 * Topic Alias, else it is a protocol error); every filter of a SUBSCRIBE or UNSUBSCRIBE must be
 * valid, or the whole packet is refused (not answered per filter in the SUBACK).
 */
function packetRefusal(packet: CheckedPacket): number {
  switch (packet.cmd) {
    case 'publish': {
      if (packet[MALFORMED]) return RC_TOPIC_NAME_INVALID;
      const topic = packet.topic as string;
      if (topic.length === 0) return packet.properties?.topicAlias === undefined ? RC_PROTOCOL_ERROR : pubPropsRefusal(packet.properties);
      return topicNameError(topic) ? RC_TOPIC_NAME_INVALID : pubPropsRefusal(packet.properties);
    }
    case 'subscribe': {
      if (packet[MALFORMED]) return RC_TOPIC_FILTER_INVALID;
      const subs = packet.subscriptions ?? [];
      for (let i = 0; i < subs.length; i++) if (filterRefused(subs[i].topic)) return RC_TOPIC_FILTER_INVALID;
      return 0;
    }
    case 'unsubscribe': {
      if (packet[MALFORMED]) return RC_TOPIC_FILTER_INVALID;
      const filters = packet.unsubscriptions ?? [];
      for (let i = 0; i < filters.length; i++) if (filterRefused(filters[i])) return RC_TOPIC_FILTER_INVALID;
      return 0;
    }
    default:
      return 0;
  }
}

/** emqx_packet.erl (v5.5.1) check_pub_props: Subscription Identifier 0 and a Response Topic that is no topic name. */
function pubPropsRefusal(properties: CheckedPacket['properties']): number {
  if (properties === undefined) return 0;
  if (properties.subscriptionIdentifier === 0) return RC_PROTOCOL_ERROR;
  const response = properties.responseTopic;
  return response !== undefined && (response === '' || topicNameError(response) !== null) ? RC_PROTOCOL_ERROR : 0;
}

function filterRefused(filter: string): boolean {
  return !isSharedFilter(filter) && topicFilterError(filter) !== null;
}

/** Set on a client once a packet of it was refused: what it sends after is not handled. */
const REFUSED = Symbol('refused');
type RefusingClient = Client & { [REFUSED]?: number };

/**
 * Refuses a packet as emqx_channel handle_out(disconnect) does: MQTT 5 clients get a DISCONNECT
 * with the reason code, older ones are closed; nothing the client sends after it is handled. A
 * packet that came before the CONNACK was written is refused once it is (Aedes may still answer
 * packets queued before it). False when the client has not sent CONNECT yet: Aedes closes such a
 * connection itself.
 */
function refuse(client: RefusingClient, code: number): boolean {
  if (client.connected) client.disconnect({ reasonCode: code });
  else if (client.connecting) client.once('connected', () => client.disconnect({ reasonCode: code }));
  else return false;
  client[REFUSED] = code;
  return true;
}

/** What comes back for a retained message: only its topic is read here. */
interface RetainedPacket {
  topic: string;
}

interface RetainedStreams {
  createRetainedStream(pattern: string): AsyncIterable<RetainedPacket>;
  createRetainedStreamCombi(patterns: string[]): Readable;
}

/** The retained messages for some filters, without `$` topics for those starting with a wildcard. */
async function* retainedFor(persistence: RetainedStreams, patterns: readonly string[]): AsyncGenerator<RetainedPacket> {
  for (const pattern of patterns) {
    const wild = startsWithWildcard(pattern);
    for await (const packet of persistence.createRetainedStream(pattern)) {
      if (!wild || packet.topic.charCodeAt(0) !== 0x24 /* $ */) yield packet;
    }
  }
}

function isWildcard(filter: string): boolean {
  return filter.split('/').some((level) => level === '#' || level === '+');
}

/** Installs the zone and retainer limits. */
export function installMqttLimits(broker: Aedes, store: Store): void {
  const { mqtt } = store;
  const metrics = mqtt.metrics;

  // Each connection's parser reads packets as emqx_frame does (frame.ts), with this zone's settings.
  const frameSettings = {
    maxPacketSize: () => zoneLimits(store).maxPacketSize,
    strictMode: () => zoneLimits(store).zone.strict_mode === true,
    tooLarge(cmd: string | undefined) {
      metrics['packets.received']++;
      if (cmd === 'publish') {
        metrics['packets.publish.received']++;
        metrics['packets.publish.error']++;
      }
    },
  };
  const handle = broker.handle;
  broker.handle = (stream, req) => {
    const client = handle(stream, req);
    const parser = (client as unknown as { _parser?: unknown })._parser;
    if (parser) installFrame(parser, client, frameSettings);
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

  // Aedes refuses MQTT 3.1 client ids over 23 characters; EMQX's only bound is max_clientid_len.
  (broker as unknown as { maxClientsIdLength: number }).maxClientsIdLength = Infinity;

  // Aedes' own level check (clamped to 100) gives way to the zone's, checked below.
  (broker as unknown as { maxTopicLevels: number }).maxTopicLevels = MAX_ROUTED_TOPIC_LEVELS;

  // Topic names and filters, before Aedes and the other modules see the packet (emqx_channel
  // handle_in checks the packet first). Aedes' own checks pass `a#`, `a+` and `a/+b` as filters
  // and close without a reason code.
  const hooks = brokerHooks(broker);
  hooks.received.add('mqtt-limits', (client, packet) => {
    if ((client as RefusingClient)[REFUSED] !== undefined) return true;
    const code = packetRefusal(packet as CheckedPacket);
    return code !== 0 && refuse(client, code);
  });

  // Publish caps (emqx_mqtt_caps:check_pub): a violation disconnects the client, with the reason
  // code for MQTT 5 (emqx_channel process_publish).
  hooks.guard.add('mqtt-limits', (client, packet) => {
    const zone = zoneLimits(store).zone;
    const code = topicLevels(packet.topic) > maxTopicLevels(store) ? RC_TOPIC_NAME_INVALID
      : (packet.qos ?? 0) > zone.max_qos_allowed ? RC_QOS_NOT_SUPPORTED
        : packet.retain && !zone.retain_available ? RC_RETAIN_NOT_SUPPORTED : 0;
    if (code === 0) return false;
    metrics['packets.publish.error']++;
    client.disconnect({ reasonCode: code });
    return true;
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

  // [MQTT-4.7.2-1] `$` topics match no filter starting with a wildcard: Aedes keeps them from live
  // deliveries to such filters, and here from the retained messages a SUBSCRIBE brings (EMQX's
  // retainer matches with emqx_topic:match from 5.8.1; releases before hand them out, store/profile.ts WIRE).
  const persistence = (broker as unknown as { persistence: RetainedStreams }).persistence;
  const retainedCombi = persistence.createRetainedStreamCombi;
  const leaks = WIRE.retainedDollarToLeadingWildcard(store.profile);
  persistence.createRetainedStreamCombi = function (this: RetainedStreams, patterns: string[]) {
    if (leaks || !patterns.some(startsWithWildcard)) return retainedCombi.call(this, patterns);
    return Readable.from(retainedFor(this, patterns));
  };

  // Subscribe caps (emqx_mqtt_caps.erl check_sub) and the session's subscription quota
  // (emqx_session_mem.erl subscribe): 0x80 in MQTT 3.1.1, the reason code in MQTT 5.
  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub: Subscription, callback) => {
    const zone = mqttZone(store);
    const filter = parseShare(sub.topic)?.topic ?? sub.topic;
    const held = (client as unknown as { subscriptions?: Record<string, unknown> }).subscriptions ?? {};
    const quota = zone.max_subscriptions;
    const refusal = topicLevels(filter) > maxTopicLevels(store) ? RC_TOPIC_FILTER_INVALID
      : isWildcard(filter) && !zone.wildcard_subscription ? RC_WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED
        : quota !== 'infinity' && !held[sub.topic] && Object.keys(held).length >= quota ? RC_QUOTA_EXCEEDED : 0;
    if (refusal !== 0) {
      subscribeRefusals.set(sub, refusal);
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
