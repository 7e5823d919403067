// The log trace tap: while a trace runs, the MQTT packets of the clients it follows (by client
// id, peer IP, or topic filter) are written to its log as EMQX's trace formatter writes them:
// `<time> [MQTT] <clientid>@<ip>:<port> msg: mqtt_packet_received, packet: PUBLISH(Q1, …)`.
// Received packets come from each connection's parser, CONNACK from `connackSent`, deliveries
// from authorizeForward. Every hook starts with one length check, so no trace costs nothing.
import type { Socket } from 'node:net';
import type { Aedes, Client } from 'aedes';
import type { Store } from '../store/index.ts';
import { plainAddress } from '../store/messaging/mqtt.ts';
import { rfc3339 } from '../lib/time.ts';
import { topicMatches } from '../lib/topic.ts';
import type { PayloadEncode, TraceRecord } from '../store/messaging/trace.ts';
import { brokerHooks } from './hooks.ts';
import { deliveringQos } from './metrics.ts';
import { nextPacketId } from './session-queue.ts';

/** Who a log line is about: the connection's client id and peer. */
interface Peer {
  clientid: string;
  ip: string;
  port: number;
}

/** A packet as mqtt-packet parses it; only the fields the formatter reads. */
interface ParsedPacket {
  cmd: string;
  qos?: number;
  retain?: boolean;
  dup?: boolean;
  messageId?: number;
  topic?: string;
  payload?: Buffer | string;
  clientId?: string;
  protocolId?: string;
  protocolVersion?: number;
  clean?: boolean;
  keepalive?: number;
  username?: string;
  password?: Buffer;
  subscriptions?: { topic: string; qos: number; nl?: boolean; rap?: boolean; rh?: number }[];
  unsubscriptions?: string[];
  reasonCode?: number;
  returnCode?: number;
  sessionPresent?: boolean;
}

interface ParsingClient {
  _disconnected?: boolean;
}

const peers = new WeakMap<Client, Peer>();

/** emqx_packet:format_payload/2. */
export function formatPayload(payload: Buffer | string | undefined, encode: PayloadEncode): string {
  if (encode === 'hidden') return 'Payload=******';
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload ?? Buffer.alloc(0);
  return encode === 'hex' ? `Payload(hex)=${data.toString('hex').toUpperCase()}` : `Payload=${data.toString('utf8')}`;
}

const flag = (value: boolean | undefined) => (value ? 1 : 0);
const head = (name: string, p: ParsedPacket, qos = p.qos ?? 0) => `${name}(Q${qos}, R${flag(p.retain)}, D${flag(p.dup)}`;

/** emqx_packet:format/2 for the packets a trace shows. */
export function formatPacket(p: ParsedPacket, encode: PayloadEncode): string {
  switch (p.cmd) {
    case 'connect':
      return `${head('CONNECT', p)}, ClientId=${p.clientId ?? ''}, ProtoName=${p.protocolId ?? 'MQTT'}, ProtoVsn=${p.protocolVersion ?? 4}, `
        + `CleanStart=${p.clean !== false}, KeepAlive=${p.keepalive ?? 0}, Username=${p.username ?? 'undefined'}, Password=${p.password?.length ? '******' : ''})`;
    case 'connack':
      return `${head('CONNACK', p, 0)}, AckFlags=${flag(p.sessionPresent)}, ReasonCode=${p.returnCode ?? 0})`;
    case 'publish':
      return `${head('PUBLISH', p)}, Topic=${p.topic}, PacketId=${p.messageId ?? 'undefined'}, ${formatPayload(p.payload, encode)})`;
    case 'puback':
    case 'pubrec':
    case 'pubcomp':
      return `${head(p.cmd.toUpperCase(), p, 0)}, PacketId=${p.messageId}, ReasonCode=0)`;
    case 'pubrel':
      return `${head('PUBREL', p, 1)}, PacketId=${p.messageId}, ReasonCode=0)`;
    case 'subscribe': {
      const filters = (p.subscriptions ?? []).map((s) => `${s.topic}(#{nl => ${flag(s.nl)},qos => ${s.qos},rap => ${flag(s.rap)},rh => ${s.rh ?? 0}})`);
      return `${head('SUBSCRIBE', p, 1)}, PacketId=${p.messageId} TopicFilters=[${filters.join(',')}])`;
    }
    case 'unsubscribe':
      return `${head('UNSUBSCRIBE', p, 1)}, PacketId=${p.messageId}, TopicFilters=[${(p.unsubscriptions ?? []).join(',')}])`;
    case 'disconnect':
      return `${head('DISCONNECT', p, 0)}, ReasonCode=${p.reasonCode ?? 0})`;
    default:
      return `${p.cmd.toUpperCase()}(Q0, R0, D0)`;
  }
}

/** The topics a packet is about, for topic traces; null when it is about none. */
function topicsOf(p: ParsedPacket): string[] | null {
  if (p.cmd === 'publish' && p.topic !== undefined) return [p.topic];
  if (p.cmd === 'subscribe') return (p.subscriptions ?? []).map((s) => s.topic);
  if (p.cmd === 'unsubscribe') return p.unsubscriptions ?? [];
  return null;
}

function follows(record: TraceRecord, peer: Peer, topics: string[] | null): boolean {
  if (record.type === 'clientid') return record.filter === peer.clientid;
  if (record.type === 'ip_address') return record.filter === peer.ip;
  return topics !== null && topics.some((topic) => topicMatches(record.filter, topic));
}

/** EMQX writes microsecond timestamps with the node's offset. */
const stamp = (now: number) => rfc3339(now, 'ms').replace(/(\.\d{3})/, '$1000');

/** Installs the trace tap: per-connection parser listener, CONNACK, deliveries, disconnects. */
export function installTrace(broker: Aedes, store: Store): void {
  const { traces, clock } = store;

  function write(peer: Peer, msg: string, packet: ParsedPacket | null, tail = ''): void {
    if (!store.state.traces?.length) return;
    const now = clock.now();
    const topics = packet ? topicsOf(packet) : null;
    for (const record of traces.running(now)) {
      if (!follows(record, peer, topics)) continue;
      const body = packet ? `, packet: ${formatPacket(packet, record.payload_encode)}` : '';
      traces.append(record, `${stamp(now)} [MQTT] ${peer.clientid}@${peer.ip}:${peer.port} msg: ${msg}${body}${tail}\n`, now);
    }
  }

  // Every new connection: remember its peer; the packet step logs what its parser produces.
  const handle = broker.handle;
  broker.handle = (conn, req) => {
    const client = handle(conn, req);
    const socket = (req ? req.socket : conn) as Socket;
    peers.set(client, { clientid: '', ip: plainAddress(socket.remoteAddress), port: socket.remotePort ?? 0 });
    return client;
  };

  const hooks = brokerHooks(broker);
  hooks.packet.add('trace', (client, packet) => {
    if (!store.state.traces?.length || packet.cmd === 'pingreq') return;
    const peer = peers.get(client);
    if (!peer) return;
    if (packet.cmd === 'connect') peer.clientid = (packet as ParsedPacket).clientId ?? '';
    write(peer, 'mqtt_packet_received', packet as ParsedPacket);
  });

  broker.on('connackSent', (packet, client) => {
    const peer = peers.get(client);
    if (!peer) return;
    // Aedes names a client that sent an empty id only now.
    if (client.id) peer.clientid = client.id;
    write(peer, 'mqtt_packet_sent', { cmd: 'connack', returnCode: packet.returnCode, sessionPresent: packet.sessionPresent });
  });

  hooks.forward.add('trace', (client, _packet, result) => {
    if (!result || !store.state.traces?.length) return result;
    const peer = peers.get(client);
    if (!peer) return result;
    // EMQX traces a delivery as it is sent (emqx_connection.erl serialize_and_inc_stats_fun),
    // QoS 1/2 with its packet id: the id is taken now, and the session sends it with this one.
    const qos = deliveringQos();
    const out = qos > 0 && !result.messageId ? ({ ...result, messageId: nextPacketId(client) } as typeof result) : result;
    // The delivered packet seen through a prototype (no copy) with the QoS it is delivered at.
    write(peer, 'mqtt_packet_sent', Object.assign(Object.create(out) as ParsedPacket, { cmd: 'publish', qos }));
    return out;
  });

  broker.on('clientDisconnect', (client) => {
    const peer = peers.get(client);
    if (peer) write(peer, 'terminate', null, `, reason: ${(client as unknown as ParsingClient)._disconnected ? 'normal' : 'sock_closed'}`);
  });
}
