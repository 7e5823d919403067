// MQTT 5 on the wire as EMQX 5.5 speaks it where Aedes 2 (beta) says it differently: the CONNACK
// advertises the zone's capabilities, an assigned client id looks like EMQX's, topic aliases work
// both ways, the client's Maximum Packet Size is honoured, a will's delay stays out of the will
// message, and DISCONNECT carries EMQX's reason codes (keepalive timeout, protocol errors, a will
// kept for a client's error disconnect). Sessions, queues, flow control and shared subscriptions
// are the session and shared-subscription modules' business, not this one's.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import type { Aedes, Client } from 'aedes';
import type { Store } from '../store/index.ts';
import { WIRE } from '../store/profile.ts';
import { droppedPackets, NotAuthorized } from './authz.ts';
import { bannedClients } from './banned.ts';
import { brokerHooks, type ParsedPacket } from './hooks.ts';
import { webSocketStreams } from './websocket.ts';
import { subscribeRefusal, zoneLimits, type MqttZone } from './mqtt-limits.ts';
import {
  RC_BANNED, RC_DISCONNECT_WITH_WILL, RC_KEEP_ALIVE_TIMEOUT, RC_NO_MATCHING_SUBSCRIBERS, RC_NOT_AUTHORIZED, RC_PACKET_IDENTIFIER_IN_USE, RC_PROTOCOL_ERROR,
  RC_TOPIC_ALIAS_INVALID,
} from './reason-codes.ts';
import { routedTopic } from './rewrite.ts';
import { identifierInUse, resumedSession } from './session-queue.ts';
import { compatConnack, connackReason } from './connect.ts';
import { readVarint, USER_PROPERTY_ORDER, varint, type UserPropertyPairs } from './frame.ts';

type Properties = Record<string, unknown>;

interface Packet {
  cmd: string;
  reasonCode?: number;
  properties?: Properties;
  [key: string]: unknown;
}

interface PublishOut extends Packet {
  topic: string;
  payload: Buffer | string;
  qos: number;
  retain: boolean;
  dup?: boolean;
  messageId?: number;
}

interface Stream {
  client?: Client;
  write(bytes: Buffer | string): boolean;
  cork?(): void;
  uncork?(): void;
  destroy?(error?: Error): void;
}

type Write = (packet: Packet, stream: Stream, opts?: { protocolVersion?: number }) => boolean;

interface MqttPacketLib {
  writeToStream: Write;
  generate(packet: Packet, opts?: { protocolVersion?: number }): Buffer;
  [mark: symbol]: unknown;
}

/** The Aedes client fields this module reads or sets (set by Aedes' connect handler). */
interface ChannelClient extends Client {
  will: { topic: string; properties?: Properties } | null;
  connackSent: boolean;
  errored: boolean;
  _assignedClientId?: string;
  _serverKeepAlive?: number;
  _connectSessionExpiryInterval?: number;
  _topicAliases: Map<number, string>;
  disconnectReasonCode: number | null;
}

type DisconnectOptions = { reasonCode?: number; properties?: Properties } | undefined;

interface ClientPrototype {
  disconnect(this: ChannelClient, opts?: DisconnectOptions | (() => void), done?: () => void): void;
  [mark: symbol]: unknown;
}

interface AedesInternals {
  topicAliasMaximum: number;
  responseInformation: ((client: Client) => string | undefined) | string | null;
  publishWill(client: Client, will: Packet): void;
}

/** The zone settings of EMQX's `mqtt` root read here (emqx_mqtt_caps:get_caps and a few more). */
interface Mqtt5Zone extends MqttZone {
  max_topic_alias: number;
  shared_subscription: boolean;
  server_keepalive: number | 'disabled';
  response_information: string;
  max_inflight: number;
}

const V5 = Object.freeze({ protocolVersion: 5 });

/** What one MQTT 5 connection asked for and what this module remembers about it. */
class Connection {
  /** Outbound topic aliases given so far (topic → alias), made on first use. */
  aliases: Map<string, number> | null = null;
  /** UTF-8 bytes of the topics in `aliases`. */
  aliasBytes = 0;
  /** UTF-8 bytes of the topics in the client's own aliases (Aedes keeps them). */
  inboundAliasBytes = 0;
  /** The last inbound alias error was an unknown alias: EMQX calls that a protocol error. */
  unknownAlias = false;
  /** Packet ids of QoS 1/2 publishes authorization refused, whose acknowledgement says 0x87. */
  refused: Set<number> | null = null;
  /** Packet ids of QoS 1/2 publishes that no subscription matched, acknowledged 0x10. */
  unrouted: Set<number> | null = null;
  /** A DISCONNECT went out: nothing follows it [MQTT-3.14.4-1]. */
  disconnected = false;
  /** SUBSCRIBE packets by packet id until their SUBACK is written. */
  subscribes: Map<number, { subscriptions: object[] }> | null = null;

  constructor(
    readonly store: Store,
    /** The client's Topic Alias Maximum (0: it takes no aliases from the server). */
    readonly aliasMaximum: number,
    /** The client's Maximum Packet Size (0: none; see `nothingFits`). */
    readonly maxPacketSize: number,
    /** The client asked for a Maximum Packet Size of 0, which no packet fits. */
    readonly nothingFits: boolean,
    /** The client's Receive Maximum (0: none given). */
    readonly receiveMaximum: number,
  ) {}
}

const connections = new WeakMap<Client, Connection>();

const require = createRequire(import.meta.url);
// Aedes' own copy of mqtt-packet, whose writeToStream Aedes (and the session layer) look up per write.
const lib = createRequire(require.resolve('aedes'))('mqtt-packet') as MqttPacketLib;

// emqx_guid:to_base62(emqx_guid:gen()): a 128-bit id in base 62, as emqx_channel.erl (v5.5.1)
// maybe_assign_clientid makes one for an empty client id.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function base62Id(): string {
  let n = BigInt(`0x${randomBytes(16).toString('hex')}`);
  let id = '';
  while (n > 0n) {
    id = BASE62[Number(n % 62n)] + id;
    n /= 62n;
  }
  return id || '0';
}

/**
 * CONNACK properties of a successful MQTT 5 connect, as emqx_channel.erl (v5.5.1)
 * enrich_connack_caps writes them from emqx_mqtt_caps:get_caps: Retain, Wildcard, Subscription
 * Identifier and Shared Subscription Available, Topic Alias Maximum and Maximum Packet Size always,
 * Maximum QoS only below 2. Aedes' own (assigned id, server keepalive, response information) stay.
 */
function announceCaps(connection: Connection, packet: Packet): void {
  if ((packet.reasonCode ?? 0) !== 0) return;
  const limits = zoneLimits(connection.store);
  const zone = limits.zone as Mqtt5Zone;
  const properties = (packet.properties ??= {});
  properties.retainAvailable = zone.retain_available !== false;
  if (Number.isFinite(limits.maxPacketSize)) properties.maximumPacketSize = limits.maxPacketSize;
  else delete properties.maximumPacketSize;
  properties.topicAliasMaximum = zone.max_topic_alias;
  properties.wildcardSubscriptionAvailable = zone.wildcard_subscription !== false;
  properties.subscriptionIdentifiersAvailable = true;
  properties.sharedSubscriptionAvailable = zone.shared_subscription !== false;
  if (zone.max_qos_allowed < 2) properties.maximumQoS = zone.max_qos_allowed;
  else delete properties.maximumQoS;
  // From 5.6: emqx_channel.erl (v5.8.9) receive_maximum/2, the client's Receive Maximum within
  // max_inflight (the schema keeps it in 1..65535).
  if (WIRE.connackReceiveMaximum(connection.store.profile)) {
    properties.receiveMaximum = Math.min(connection.receiveMaximum || zone.max_inflight, zone.max_inflight);
  } else {
    delete properties.receiveMaximum;
  }
}

/**
 * An outgoing PUBLISH: topic aliases as emqx_channel.erl (v5.5.1) packing_alias gives them (the
 * first message of a topic carries topic and a new alias while the client's maximum allows, later
 * ones only the alias), and the client's Maximum Packet Size as emqx_connection.erl serialises
 * (a larger packet is dropped, counted as delivery.dropped.too_large). An alias is only kept once
 * its packet went out, so a dropped packet never leaves the client an alias it does not know.
 */
function publishOut(connection: Connection, packet: PublishOut, stream: Stream, write: Write, order: UserPropertyPairs | undefined): boolean {
  let out: PublishOut = packet;
  let newAlias = 0;
  let topicBytes = 0;
  if (connection.aliasMaximum > 0 && packet.topic !== '') {
    const aliases = (connection.aliases ??= new Map());
    const known = aliases.get(packet.topic);
    if (known !== undefined) out = withAlias(packet, '', known);
    else if (aliases.size < connection.aliasMaximum && connection.aliasBytes + (topicBytes = Buffer.byteLength(packet.topic)) <= ALIAS_TOPIC_BYTES) {
      newAlias = aliases.size + 1;
      out = withAlias(packet, packet.topic, newAlias);
    }
  }
  let written: boolean;
  if (connection.maxPacketSize > 0 || order !== undefined) {
    const bytes = order !== undefined ? orderedPublish(out, order) : lib.generate(out, V5);
    if (connection.maxPacketSize > 0 && bytes.length > connection.maxPacketSize) {
      const metrics = connection.store.mqtt.metrics;
      metrics['delivery.dropped.too_large']++;
      metrics['delivery.dropped']++;
      return true;
    }
    written = stream.write(bytes);
  } else {
    written = write(out, stream, V5);
  }
  if (newAlias > 0) {
    connection.aliases?.set(packet.topic, newAlias);
    connection.aliasBytes += topicBytes;
  }
  return written;
}

// A copy: the packet and its properties are shared with other subscribers and the session store.
function withAlias(packet: PublishOut, topic: string, alias: number): PublishOut {
  return {
    cmd: 'publish',
    topic,
    payload: packet.payload,
    qos: packet.qos,
    retain: packet.retain,
    dup: packet.dup,
    messageId: packet.messageId,
    properties: { ...packet.properties, topicAlias: alias },
  };
}

/**
 * The most UTF-8 bytes of topic names one connection's topic aliases hold, each way. EMQX has no
 * such limit: its aliases live on the connection process' heap, which `force_shutdown` caps
 * (`max_heap_size`, 32 MB by default) by ending the connection. Here a client whose own aliases
 * would pass it is closed the same way (no DISCONNECT), and the server stops giving new aliases.
 */
export const ALIAS_TOPIC_BYTES = 4 * 1024 * 1024;

/**
 * A PUBLISH whose User Properties are written in wire order [MQTT-3.3.2-18]: mqtt-packet writes
 * them grouped by name, so the packet is made without them and they are put at the end of its
 * property block.
 */
function orderedPublish(packet: PublishOut, pairs: UserPropertyPairs): Buffer {
  const { userProperties: _grouped, ...rest } = packet.properties ?? {};
  const bytes = lib.generate({ ...packet, properties: rest }, V5);
  const users = Buffer.concat(pairs.map(([name, value]) => {
    const n = Buffer.from(name);
    const v = Buffer.from(value);
    const pair = Buffer.alloc(5 + n.length + v.length);
    pair[0] = 0x26;
    pair.writeUInt16BE(n.length, 1);
    n.copy(pair, 3);
    pair.writeUInt16BE(v.length, 3 + n.length);
    v.copy(pair, 5 + n.length);
    return pair;
  }));
  // Fixed header, remaining length, topic, packet id, then the property length and block.
  let pos = 1;
  while (bytes[pos] & 0x80) pos++;
  const start = pos + 1;
  const at = start + 2 + bytes.readUInt16BE(start) + ((packet.qos ?? 0) > 0 ? 2 : 0);
  const [propsLength, propsEnd] = readVarint(bytes, at);
  const block = Buffer.concat([varint(propsLength + users.length), bytes.subarray(propsEnd, propsEnd + propsLength), users]);
  const body = Buffer.concat([bytes.subarray(start, at), block, bytes.subarray(propsEnd + propsLength)]);
  return Buffer.concat([bytes.subarray(0, 1), varint(body.length), body]);
}

/** The pairs in wire order, when the packet's User Properties did not arrive grouped by name. */
function userPropertyOrder(packet: Packet): UserPropertyPairs | undefined {
  return (packet.properties?.userProperties as { [USER_PROPERTY_ORDER]?: UserPropertyPairs } | undefined)?.[USER_PROPERTY_ORDER];
}

/** On a socket: whether it is corked until the next tick. */
const CORKED = Symbol('corked for this tick');

interface CorkedStream extends Stream {
  [CORKED]?: boolean;
}

/** The sockets corked in this tick, uncorked together. */
let corked: CorkedStream[] = [];

function uncorkAll(): void {
  const list = corked;
  corked = [];
  for (const stream of list) {
    stream[CORKED] = false;
    // One socket's failure leaves the others' bytes to flush.
    try {
      stream.uncork!();
    } catch {
      stream.destroy?.();
    }
  }
}

/** Packets up to this size leave as one buffer; larger ones as writeToStream's parts (no copy of a big payload). */
const JOINED_MAX = 16 * 1024;

/** Collects writeToStream's parts of one packet (reused: packets are serialised one at a time). */
const parts = {
  list: [] as (Buffer | string)[],
  bytes: 0,
  error: undefined as Error | undefined,
  write(chunk: Buffer | string): boolean {
    this.list.push(chunk);
    this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    return true;
  },
  destroy(error?: Error): void {
    this.error ??= error;
  },
};

/**
 * writeToStream into a socket corked once per tick, each packet as one write. writeToStream
 * writes a packet in up to five parts (header, length, topic length, topic, payload) and corks the
 * stream it is given with an uncork scheduled per packet (a process.nextTick each); every part
 * would be a write of its own and a chunk of the writev. Here the parts are collected, joined into
 * one buffer (up to JOINED_MAX), and written to a socket this function has corked for the whole
 * tick, so a tick's packets still leave in one writev.
 */
function writeCorked(writeParts: Write, packet: Packet, stream: CorkedStream, opts?: { protocolVersion?: number }): boolean {
  if (typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return writeParts(packet, stream, opts);
  if (stream[CORKED] !== true) {
    stream[CORKED] = true;
    stream.cork();
    corked.push(stream);
    if (corked.length === 1) process.nextTick(uncorkAll);
  }
  const { list } = parts;
  try {
    writeParts(packet, parts, opts);
    // As writeToStream does with an invalid packet: the stream is destroyed with its error.
    if (parts.error !== undefined) {
      stream.destroy?.(parts.error);
      return false;
    }
    if (list.length === 1) return stream.write(list[0]);
    if (parts.bytes > JOINED_MAX) {
      let flushed = true;
      // Taken out first: nothing written here may serialise into the shared list meanwhile.
      for (const chunk of list.splice(0)) flushed = stream.write(chunk);
      return flushed;
    }
    const joined = Buffer.allocUnsafe(parts.bytes);
    let at = 0;
    for (const chunk of list) at += typeof chunk === 'string' ? joined.write(chunk, at) : chunk.copy(joined, at);
    return stream.write(joined);
  } finally {
    list.length = 0;
    parts.bytes = 0;
    parts.error = undefined;
  }
}

/**
 * Wraps mqtt-packet's writeToStream once per process. Only MQTT 5 connections of a broker this
 * module is installed on are looked at (and any CONNACK, and WebSocket framing); every other write
 * passes straight through.
 */
function wrapWriter(): void {
  const mark = Symbol.for('simulator.mqtt5.write');
  if (lib[mark]) return;
  lib[mark] = true;
  const writeParts = lib.writeToStream;
  // Over WebSocket a packet is one frame (emqx_ws_connection.erl, v5.5.1, handle_outgoing with the
  // default mqtt_piggyback = multiple); writeToStream's several writes would each be a frame.
  const write: Write = (packet, stream, opts) => (webSocketStreams.has(stream) ? stream.write(lib.generate(packet, opts)) : writeCorked(writeParts, packet, stream, opts));
  lib.writeToStream = function speaking(packet, stream, opts) {
    // Any version: a resumed session is present though it has no subscriptions (session-queue.ts).
    if (packet.cmd === 'connack' && stream.client !== undefined) {
      if (resumedSession(stream.client) && !packet.sessionPresent) packet = { ...packet, sessionPresent: true };
      // A CONNECT refused with a reason Aedes has no return code for (connect.ts).
      const reasonCode = connackReason(stream.client);
      if (reasonCode !== undefined) packet = opts?.protocolVersion === 5 ? { ...packet, reasonCode } : { ...packet, returnCode: compatConnack(reasonCode) };
    }
    if (opts === undefined || opts.protocolVersion !== 5 || stream.client === undefined) return write(packet, stream, opts);
    // Aedes says 0x87 for every refused authentication; a ban is 0x8A (banned.ts).
    if (packet.cmd === 'connack' && packet.reasonCode === RC_NOT_AUTHORIZED && bannedClients.has(stream.client)) packet = { ...packet, reasonCode: RC_BANNED };
    const connection = connections.get(stream.client);
    if (connection === undefined) return write(packet, stream, opts);
    if (connection.disconnected) return true;
    // emqx_frame.erl (v5.5.1) is_too_large: a packet is dropped when its size is at least the
    // client's Maximum Packet Size, so after asking for 0 a client hears nothing, CONNACK included.
    if (connection.nothingFits) {
      const metrics = connection.store.mqtt.metrics;
      metrics['delivery.dropped.too_large']++;
      metrics['delivery.dropped']++;
      return true;
    }
    switch (packet.cmd) {
      case 'publish': {
        const order = userPropertyOrder(packet);
        if (connection.aliasMaximum > 0 || connection.maxPacketSize > 0 || order !== undefined) return publishOut(connection, packet as PublishOut, stream, write, order);
        break;
      }
      case 'connack':
        announceCaps(connection, packet);
        break;
      case 'suback': {
        // The zone's reason for a refused filter (mqtt-limits.ts), where Aedes says 0x87.
        const asked = connection.subscribes?.get(packet.messageId as number);
        if (asked === undefined) break;
        connection.subscribes?.delete(packet.messageId as number);
        const granted = packet.granted as number[];
        if (granted.some((code, i) => code === RC_NOT_AUTHORIZED && subscribeRefusal(asked.subscriptions[i]) !== undefined)) {
          packet = { ...packet, granted: granted.map((code, i) => (code === RC_NOT_AUTHORIZED ? subscribeRefusal(asked.subscriptions[i]) ?? code : code)) };
        }
        break;
      }
      case 'puback':
      case 'pubrec':
        // EMQX (v5.5.1) puts no Reason String in acknowledgements; Aedes adds its error text.
        if (packet.properties?.reasonString !== undefined) {
          const { reasonString: _dropped, ...rest } = packet.properties;
          packet = { ...packet, properties: Object.keys(rest).length > 0 ? rest : undefined };
        }
        {
          const id = packet.messageId as number;
          const unrouted = connection.unrouted?.delete(id) ?? false;
          if (connection.refused?.delete(id)) packet = { ...packet, reasonCode: RC_NOT_AUTHORIZED };
          else if (packet.cmd === 'pubrec' && identifierInUse(stream.client, id)) packet = { ...packet, reasonCode: RC_PACKET_IDENTIFIER_IN_USE };
          else if (unrouted && !packet.reasonCode) packet = { ...packet, reasonCode: RC_NO_MATCHING_SUBSCRIBERS };
        }
        break;
      case 'disconnect':
        connection.disconnected = true;
        // emqx_channel.erl process_alias: an alias the client never set is a protocol error.
        if (packet.reasonCode === RC_TOPIC_ALIAS_INVALID && connection.unknownAlias) packet = { ...packet, reasonCode: RC_PROTOCOL_ERROR };
        break;
    }
    return write(packet, stream, opts);
  } as Write;
}

/**
 * Sends an MQTT 5 DISCONNECT at once, for a connection Aedes is about to destroy in the same
 * turn (it writes nothing itself then). Serialised to one buffer: writeToStream would cork the
 * socket until the next tick, after the destroy.
 */
function disconnectNow(client: ChannelClient, reasonCode: number): void {
  const connection = connections.get(client);
  if (client.version !== 5 || !client.connected || client.closed || !connection || connection.disconnected) return;
  connection.disconnected = true;
  client.disconnectReasonCode = reasonCode;
  (client.conn as unknown as Stream).write(lib.generate({ cmd: 'disconnect', reasonCode }, V5));
}

// Aedes discards the will on every DISCONNECT but 0x04; EMQX (emqx_channel.erl v5.5.1
// maybe_clean_will_msg) only on 0x00 [MQTT-3.1.2-8]. The flag Aedes sets for that is held false on
// this one closing client.
function keepWill(client: ChannelClient): void {
  Object.defineProperty(client, '_disconnected', { configurable: true, get: () => false, set: () => undefined });
}

/** How long a connection that was sent DISCONNECT may still talk before it is cut. */
const CLOSING_GRACE_MS = 5000;

/**
 * After a DISCONNECT from the server, the close Aedes does next sends a FIN instead of a reset:
 * what the client still sends is read and dropped until it closes too (or the grace ends).
 * Destroying a socket with unread input makes the kernel reset the connection, and a client that
 * was busy writing (Paho's flow control test floods QoS 2) then loses the DISCONNECT unread.
 */
const closing = new WeakSet<Socket>();
function closeGracefully(client: ChannelClient): void {
  const conn = client.conn as unknown;
  if (!(conn instanceof Socket) || closing.has(conn)) return;
  closing.add(conn);
  const destroy = conn.destroy;
  conn.destroy = function (this: Socket, error?: Error) {
    conn.destroy = destroy;
    if (error || this.destroyed) return destroy.call(this, error);
    this.end();
    this.on('data', () => undefined);
    this.resume();
    const cut = setTimeout(() => destroy.call(this), CLOSING_GRACE_MS);
    cut.unref();
    this.once('close', () => clearTimeout(cut));
    return this;
  };
}

/**
 * Aedes writes a DISCONNECT only to a client whose connect has finished, which is some turns
 * after its CONNACK; EMQX's channel is connected from the CONNACK on, so a client answered
 * between the two is told the reason too. Patched once on Aedes' client class.
 */
function patchDisconnect(proto: ClientPrototype): void {
  const mark = Symbol.for('simulator.mqtt5.disconnect');
  if (proto[mark]) return;
  proto[mark] = true;
  const disconnect = proto.disconnect;
  proto.disconnect = function (opts, done) {
    if (typeof opts === 'function') {
      done = opts;
      opts = undefined;
    }
    const connection = this.version === 5 && !this.closed && !this.errored ? connections.get(this) : undefined;
    if (connection) {
      closeGracefully(this);
      if (!this.connected && this.connackSent) {
        const reasonCode = opts?.reasonCode ?? 0;
        const packet: Packet = { cmd: 'disconnect', reasonCode };
        if (opts?.properties) packet.properties = opts.properties;
        this.disconnectReasonCode = reasonCode;
        if (!connection.disconnected) (this.conn as unknown as Stream).write(lib.generate(packet, V5));
        connection.disconnected = true;
        setImmediate(() => this.close(done));
        return;
      }
    }
    disconnect.call(this, opts, done);
  };
}

/**
 * A PUBLISH that sets a topic alias: counted against ALIAS_TOPIC_BYTES before Aedes keeps it; past
 * the bound the connection is closed (true: the packet is not handled).
 */
function holdsAliasBytes(client: ChannelClient, packet: PublishOut): boolean {
  const alias = packet.properties?.topicAlias;
  if (alias === undefined || packet.topic === '' || client.version !== 5) return false;
  const connection = connections.get(client);
  if (connection === undefined) return false;
  const old = client._topicAliases.get(alias as number);
  const grown = connection.inboundAliasBytes + Buffer.byteLength(packet.topic) - (old === undefined ? 0 : Buffer.byteLength(old));
  if (grown <= ALIAS_TOPIC_BYTES) {
    connection.inboundAliasBytes = grown;
    return false;
  }
  client.close();
  return true;
}

/** Installs the CONNACK, alias, packet size, will and DISCONNECT behaviour of EMQX's MQTT 5. */
export function installMqtt5(broker: Aedes, store: Store): void {
  wrapWriter();
  const internals = broker as unknown as AedesInternals;
  const zone = () => zoneLimits(store).zone as Mqtt5Zone;
  internals.topicAliasMaximum = zone().max_topic_alias;

  // Per MQTT 5 CONNECT: what the client asks of the server, the zone's inbound alias maximum
  // (emqx_channel init_alias_maximum) and Server Keep Alive (enrich_server_keepalive), which
  // Aedes then uses as the connection's keepalive and writes into the CONNACK.
  const preConnect = broker.preConnect;
  broker.preConnect = (client, packet, callback) => {
    if (packet.protocolVersion === 5) {
      patchDisconnect(Object.getPrototypeOf(client) as ClientPrototype);
      const asked = packet.properties;
      connections.set(client, new Connection(store, asked?.topicAliasMaximum ?? 0, asked?.maximumPacketSize ?? 0, asked?.maximumPacketSize === 0, asked?.receiveMaximum ?? 0));
      const settings = zone();
      internals.topicAliasMaximum = settings.max_topic_alias;
      if (typeof settings.server_keepalive === 'number' && settings.server_keepalive > 0) {
        (client as ChannelClient)._serverKeepAlive = settings.server_keepalive;
      }
    }
    preConnect.call(broker, client, packet, callback);
  };

  // An empty client id gets an EMQX-like one, before anything else reads the id (authentication
  // is the first step after Aedes made up its own); the CONNACK assigns it.
  const authenticate = broker.authenticate;
  broker.authenticate = (client, username, password, done) => {
    const c = client as ChannelClient;
    if (c._assignedClientId) {
      const id = base62Id();
      (c as { id: string }).id = id;
      c._assignedClientId = id;
    }
    authenticate.call(broker, client, username, password, done);
  };

  // Response Information only when the client asks and the zone has one (enrich_response_information).
  internals.responseInformation = () => zone().response_information || undefined;

  // A will message is published without the Will Delay Interval: emqx_message.erl (v5.5.1)
  // to_packet keeps only the properties a PUBLISH may carry.
  const publishWill = internals.publishWill;
  internals.publishWill = function (client, will) {
    if (will.properties?.willDelayInterval !== undefined) {
      const { willDelayInterval: _delay, ...properties } = will.properties;
      will = { ...will, properties };
    }
    publishWill.call(this, client, will);
  };

  // emqx_channel.erl (v5.5.1) handle_timeout keepalive: DISCONNECT 0x8D before the close.
  broker.on('keepaliveTimeout', (client) => disconnectNow(client as ChannelClient, RC_KEEP_ALIVE_TIMEOUT));

  // Aedes reports an alias error before it disconnects (0x94 for every kind), and a refused
  // publish before it acknowledges it 0x87: with deny_action = disconnect, emqx_channel.erl
  // (v5.5.1) process_publish sends DISCONNECT 0x87 instead.
  broker.on('clientError', (client, error) => {
    const connection = connections.get(client);
    if (!connection) return;
    connection.unknownAlias = error?.message?.startsWith('unknown topic alias') ?? false;
    if (error instanceof NotAuthorized && store.authz.current().deny_action === 'disconnect') {
      client.disconnect({ reasonCode: RC_NOT_AUTHORIZED });
    }
  });

  // A publish authorization refused with deny_action = ignore is acknowledged as accepted by
  // Aedes; EMQX acknowledges MQTT 5 QoS 1/2 with 0x87 (process_publish). One that no subscription
  // matches is acknowledged 0x10: emqx_broker:publish/1 answers [] when no route matches the
  // (rewritten) topic, and emqx_channel.erl puback_reason_code/3 and pubrec_reason_code/1 (v5.5.1
  // to 6.2.2) make that RC_NO_MATCHING_SUBSCRIBERS.
  const hooks = brokerHooks(broker);
  hooks.after.add('mqtt5', (client, packet, verdict) => {
    if (client === null || client.version !== 5 || verdict !== null || !packet.qos || packet.messageId === undefined) return;
    const connection = connections.get(client);
    if (!connection) return;
    if (droppedPackets.has(packet)) (connection.refused ??= new Set()).add(packet.messageId);
    else if (!hooks.subscribed(routedTopic(broker, packet.topic, client))) (connection.unrouted ??= new Set()).add(packet.messageId);
    else connection.unrouted?.delete(packet.messageId);
  });

  // CONNECT and DISCONNECT of a connected MQTT 5 client, seen before Aedes handles them.
  hooks.received.add('mqtt5', (client, packet) => {
    const cmd = packet.cmd;
    if (cmd === 'publish') return holdsAliasBytes(client as ChannelClient, packet as unknown as PublishOut);
    if (cmd === 'subscribe') {
      // Kept by id for its SUBACK (Aedes may replace the list by a deduplicated one on the packet).
      const connection = (client as ChannelClient).version === 5 ? connections.get(client) : undefined;
      if (connection) (connection.subscribes ??= new Map()).set(packet.messageId as number, packet as unknown as { subscriptions: object[] });
      return;
    }
    if (cmd !== 'disconnect' && cmd !== 'connect') return;
    const c = client as ChannelClient;
    // A DISCONNECT that came with its CONNECT, before the CONNACK, waits in Aedes' queue until the
    // connection is set up (its version and id are not known yet); it is handled then.
    if (!c.connected) {
      if (c.connecting && cmd === 'disconnect') c.once('connected', () => c.version === 5 && disconnected(c, packet));
      return;
    }
    if (c.version !== 5) return;
    // A second CONNECT: DISCONNECT 0x82 (emqx_channel handle_in); Aedes closes the connection.
    if (cmd === 'connect') disconnectNow(c, RC_PROTOCOL_ERROR);
    else disconnected(c, packet);
  });

  /** An MQTT 5 DISCONNECT: the will it keeps and the session expiry it sets. */
  function disconnected(c: ChannelClient, packet: ParsedPacket): void {
    const reasonCode = (packet.reasonCode as number | undefined) ?? 0;
    if (reasonCode !== 0 && reasonCode !== RC_DISCONNECT_WITH_WILL && c.will) keepWill(c);
    // [MQTT-3.14.2-2] a session that was to end with the connection cannot be kept by the
    // DISCONNECT: EMQX (process_disconnect) answers DISCONNECT 0x82.
    const expiry = (packet.properties as Properties | undefined)?.sessionExpiryInterval;
    if (typeof expiry === 'number' && expiry > 0 && c._connectSessionExpiryInterval === 0) disconnectNow(c, RC_PROTOCOL_ERROR);
    else if (typeof expiry === 'number') {
      // emqx_channel.erl maybe_update_expiry_interval: the session now lasts as the DISCONNECT says.
      const record = store.mqtt.sessions.get(c.id);
      if (record) record.expiry_interval = expiry;
    }
  }
}
