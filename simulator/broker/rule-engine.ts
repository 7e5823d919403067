// The rule engine tap: every real message and client event becomes the columns of its rule event
// (emqx_rule_events) and is evaluated by the enabled rules whose FROM covers it; the outputs that
// act here are `console` (simulator log + matching log traces) and `republish` (through the
// broker, templates rendered) and `<type>:<name>` actions (store/integration/actions.ts: a real HTTP request,
// a publish on a remote MQTT broker; unknown or stopped ones count as out of service). Messages of
// MQTT sources come back in as `$bridges/mqtt:<name>`. Every hook starts with one check, so no
// rules cost nothing.
import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import type { Aedes, Client, PublishPacket } from 'aedes';
import { renderValue, render } from '../rules/template.ts';
import { isObj, type Obj } from '../rules/values.ts';
import type { Store } from '../store/index.ts';
import { messageId, plainAddress } from '../store/messaging/mqtt.ts';
import type { RepublishArgs, RuleAction, RuleRecord } from '../store/integration/rules.ts';
import { rfc3339 } from '../lib/time.ts';
import { topicMatches, topicNameProblem } from '../lib/topic.ts';
import { connectInfo } from './connect.ts';
import { brokerHooks, connectionFault } from './hooks.ts';
import { deliveringQos } from './metrics.ts';
import { nextPacketId } from './session-queue.ts';
import { publishedBy } from './sessions.ts';

/** Packets a rule republished, by rule id: that rule does not see its own output again. */
const republishedBy = new WeakMap<object, string>();

/**
 * Republish chains longer than this are cut (counted as actions.discarded), so rules that feed each
 * other (or a rule on message_delivered republishing to a subscribed topic) cannot spin forever.
 */
export const MAX_REPUBLISH_HOPS = 16;

// emqx_reason_codes:name/2 for the MQTT 3.1.1 CONNACK return codes.
const CONNACK_REASONS = ['success', 'unacceptable_protocol_version', 'client_identifier_not_valid', 'server_unavaliable', 'malformed_username_or_password', 'unauthorized_client'];

// MQTT 5 properties as mqtt-packet names them → EMQX's names in pub_props.
const PROPERTY_NAMES: Record<string, string> = {
  payloadFormatIndicator: 'Payload-Format-Indicator',
  messageExpiryInterval: 'Message-Expiry-Interval',
  contentType: 'Content-Type',
  responseTopic: 'Response-Topic',
  correlationData: 'Correlation-Data',
  userProperties: 'User-Property',
};

function props(properties: Record<string, unknown> | undefined): Obj {
  const out: Obj = { 'User-Property': {} };
  if (!properties) return out;
  for (const [key, value] of Object.entries(properties)) {
    const name = PROPERTY_NAMES[key];
    if (name) out[name] = Buffer.isBuffer(value) ? value.toString('utf8') : value;
  }
  return out;
}

interface Peer {
  clientid: string;
  username: string | null;
  peerhost: string;
  peername: string;
  sockname: string;
}

// A connection's addresses and identity do not change: worked out once per client.
const peers = new WeakMap<Client, Peer>();

function peerOf(client: Client): Peer {
  let peer = peers.get(client);
  if (peer) return peer;
  peer = describePeer(client);
  // Before CONNECT is handled (connack of a refused client) the username is not known yet.
  if (connectInfo(client)) peers.set(client, peer);
  return peer;
}

function describePeer(client: Client): Peer {
  const socket = (client.req ? client.req.socket : client.conn) as Socket | undefined;
  const ip = plainAddress(socket?.remoteAddress);
  return {
    clientid: client.id,
    username: connectInfo(client)?.username ?? null,
    peerhost: ip,
    peername: `${ip}:${socket?.remotePort ?? 0}`,
    sockname: `${plainAddress(socket?.localAddress)}:${socket?.localPort ?? 0}`,
  };
}

/** Who published a packet: its client, or what the publish API, a rule or delayed publish recorded. */
export function publisher(packet: object, client: Client | null): { clientid: string | null; username: string | null; peer?: Peer } {
  if (client) {
    const peer = peerOf(client);
    return { clientid: peer.clientid, username: peer.username, peer };
  }
  return publishedBy.get(packet) ?? { clientid: null, username: null };
}

/**
 * The columns of a message event (emqx_rule_events:eventmsg_publish and its kin): `event` is the
 * event column (`message.publish`, `schema.validation_failed` …), `now` the receive time.
 */
export function messageColumns(event: string, packet: PublishPacket, from: ReturnType<typeof publisher>, node: string, now: number): Obj {
  return {
    event,
    id: messageId(now),
    clientid: from.clientid,
    username: from.username,
    // Text payloads as strings; binary ones (Avro, Protobuf) stay bytes for schema_decode.
    payload: Buffer.isBuffer(packet.payload) ? (isUtf8(packet.payload) ? packet.payload.toString('utf8') : packet.payload) : String(packet.payload ?? ''),
    peerhost: from.peer?.peerhost ?? null,
    peername: from.peer?.peername ?? null,
    topic: packet.topic,
    qos: packet.qos ?? 0,
    flags: { retain: Boolean(packet.retain), dup: Boolean(packet.dup) },
    pub_props: props(packet.properties as Record<string, unknown> | undefined),
    publish_received_at: now,
    timestamp: now,
    node,
    client_attrs: {},
  };
}

export function installRuleEngine(broker: Aedes, store: Store): void {
  const { rules, clock, mqtt, traces } = store;
  const node = store.cluster.self;
  const active = () => (store.state.rules?.length ?? 0) > 0;

  const common = () => ({ timestamp: clock.now(), node });
  const messageColumnsNow = (event: string, packet: PublishPacket, from: ReturnType<typeof publisher>) => messageColumns(event, packet, from, node, clock.now());

  // How many republish steps led to a message: by the packet handed to Aedes (publish event) and
  // by Aedes' message number (the copies delivered to subscribers carry it).
  const hopsOfPacket = new WeakMap<object, number>();
  const hopsOfCounter = new Map<number, number>();
  const hopsOf = (packet: object | null): number => {
    if (!packet) return 0;
    return hopsOfPacket.get(packet) ?? hopsOfCounter.get((packet as { brokerCounter?: number }).brokerCounter ?? -1) ?? 0;
  };

  function fire(topic: string, columns: () => Obj, source: object | null = null): void {
    const matched = rules.matching(topic);
    if (matched.length === 0) return;
    const data = columns();
    const skip = source ? republishedBy.get(source) : undefined;
    const hops = hopsOf(source);
    for (const rule of matched) {
      if (rule.id === skip) continue;
      const outputs = rules.apply(rule, data);
      if (!outputs) continue;
      for (const output of outputs) for (const action of rule.actions) runAction(rule, action, output, data, hops);
    }
  }

  function runAction(rule: RuleRecord, action: RuleAction, output: Obj, columns: Obj, hops: number): void {
    try {
      if (typeof action === 'string') {
        void store.actions.run(action, output)
          .then((outcome) => rules.countAction(rule.id, outcome), () => rules.countAction(rule.id, 'failed'))
          .catch((err: unknown) => connectionFault(broker, null, err));
        return;
      }
      if (action.function !== 'console' && action.function !== 'republish') {
        rules.countAction(rule.id, 'out_of_service');
        return;
      }
      if (action.function === 'republish' && hops >= MAX_REPUBLISH_HOPS) {
        rules.countAction(rule.id, 'discarded');
        return;
      }
      if (action.function === 'console') consoleOutput(rule, output, columns);
      else republish(rule, (action.args ?? {}) as RepublishArgs, output, hops + 1);
      rules.countAction(rule.id, 'success');
    } catch {
      rules.countAction(rule.id, 'failed');
    }
  }

  // The broker prints "[rule action] <rule id>" with the output and the environment.
  function consoleOutput(rule: RuleRecord, output: Obj, columns: Obj): void {
    const text = JSON.stringify(output);
    rules.log(`[rule action] ${rule.id}\n\tAction Data: ${text}\n\tEnvs: ${JSON.stringify(columns)}`);
    const now = clock.now();
    const running = traces.running(now);
    if (running.length === 0) return;
    const clientid = typeof columns.clientid === 'string' ? columns.clientid : '';
    const topic = typeof columns.topic === 'string' ? columns.topic : null;
    const ip = typeof columns.peerhost === 'string' ? columns.peerhost : String(columns.peername ?? '').replace(/:\d+$/, '');
    for (const record of running) {
      const follows = record.type === 'clientid' ? record.filter === clientid
        : record.type === 'ip_address' ? record.filter === ip
          : topic !== null && !topic.startsWith('$events/') && topicMatches(record.filter, topic);
      if (!follows) continue;
      const stamp = rfc3339(now, 'ms').replace(/(\.\d{3})/, '$1000');
      traces.append(record, `${stamp} [RULE] ${clientid} msg: action_success, rule_id: ${rule.id}, action: console, output: ${text}\n`, now);
    }
  }

  function republish(rule: RuleRecord, args: RepublishArgs, output: Obj, hops: number): void {
    const topic = render(args.topic, output);
    if (topicNameProblem(topic)) throw new Error(`invalid republish topic ${topic}`);
    const qosValue = Number(renderValue(args.qos, output));
    const qos = (qosValue === 1 || qosValue === 2 ? qosValue : 0) as 0 | 1 | 2;
    const retainValue = renderValue(args.retain, output);
    const retain = retainValue === true || retainValue === 'true';
    // An empty payload template sends the whole output as JSON.
    const payload = args.payload === '' || args.payload === undefined ? JSON.stringify(output) : render(args.payload, output);
    const properties: Record<string, unknown> = {};
    const userProps = renderValue(args.user_properties, output);
    if (isObj(userProps) && Object.keys(userProps).length > 0) properties.userProperties = userProps;
    for (const [key, name] of Object.entries(PROPERTY_NAMES)) {
      const template = args.mqtt_properties?.[name];
      if (template === undefined || key === 'userProperties') continue;
      const value = render(template, output);
      properties[key] = key === 'payloadFormatIndicator' || key === 'messageExpiryInterval' ? Number(value) : key === 'correlationData' ? Buffer.from(value) : value;
    }
    const packet = {
      cmd: 'publish' as const, topic, payload: Buffer.from(payload), qos, retain, dup: false,
      ...(Object.keys(properties).length ? { properties } : {}),
    };
    publishedBy.set(packet, { clientid: rule.id, username: null });
    republishedBy.set(packet, rule.id);
    hopsOfPacket.set(packet, hops);
    // Aedes numbers the message synchronously as it starts (aedes-packet: ++broker.counter).
    hopsOfCounter.set((broker as unknown as { counter: number }).counter + 1, hops);
    if (hopsOfCounter.size > 10_000) hopsOfCounter.delete(hopsOfCounter.keys().next().value as number);
    broker.publish(packet as PublishPacket, () => {});
  }

  // Source messages (MQTT ingress) enter as their `$bridges/<type>:<name>` event.
  rules.runAction = (rule, action, output, columns) => runAction(rule, action, output, columns, 0);
  store.sources.ingress = (from, columns) => fire(from, () => ({ id: messageId(clock.now()), ...columns, ...common() }));
  // Events other modules raise (schema validation and message transformation failures).
  rules.fireEvent = (topic, columns, source) => fire(topic, columns, source);
  void store.connectors.startAll();

  // message_publish (the topic itself) and message_dropped (nobody subscribes).
  const hooks = brokerHooks(broker);
  hooks.published.add('rule-engine', (packet, client, subscribed) => {
    if (!active()) return;
    const from = publisher(packet, client);
    fire(packet.topic, () => messageColumnsNow('message.publish', packet, from), packet);
    if (!subscribed) {
      fire('$events/message_dropped', () => ({ ...messageColumnsNow('message.dropped', packet, from), reason: 'no_subscribers' }), packet);
    }
  });

  // Delivered (or refused) per subscriber: the delivered packet carries the publisher's id.
  function deliveryColumns(event: string, client: Client, packet: PublishPacket): Obj {
    const fromId = (packet as { clientId?: string }).clientId ?? null;
    const peer = peerOf(client);
    return {
      ...messageColumnsNow(event, packet, { clientid: peer.clientid, username: peer.username, peer }),
      from_clientid: fromId,
      from_username: fromId ? mqtt.sessions.get(fromId)?.username ?? null : null,
    };
  }

  // QoS 1/2 deliveries waiting for PUBACK/PUBREC, by packet id, while a message_acked rule exists.
  // Aedes numbers a delivery only when writing it, so the id is taken here from the same counter
  // (as the slow subscriptions tap does; when that tap already numbered it, its id is kept).
  const unacked = new WeakMap<Client, Map<number, PublishPacket>>();

  hooks.forward.add('rule-engine', (client, packet, result) => {
    if (!active()) return result;
    if (!result) {
      const expiry = (packet as { messageExpiry?: number }).messageExpiry;
      const reason = expiry !== undefined && expiry <= clock.now() ? 'expired' : 'other';
      fire('$events/delivery_dropped', () => ({ ...deliveryColumns('delivery.dropped', client, packet), reason }), packet);
      return result;
    }
    fire('$events/message_delivered', () => deliveryColumns('message.delivered', client, result), result);
    if (deliveringQos() === 0 || !(result.qos > 0) || rules.matching('$events/message_acked').length === 0) return result;
    let out = result;
    let id: number | undefined = result.messageId;
    if (!id) {
      id = nextPacketId(client);
      out = { ...result, messageId: id } as typeof result;
    }
    let waiting = unacked.get(client);
    if (!waiting) unacked.set(client, (waiting = new Map()));
    waiting.set(id, result);
    if (waiting.size > 10_000) waiting.delete(waiting.keys().next().value as number);
    return out;
  });

  // EMQX raises message.acked on PUBACK (QoS 1) and PUBREC (QoS 2).
  hooks.packet.add('rule-engine', (client, ack) => {
    if (ack.cmd !== 'puback' && ack.cmd !== 'pubrec') return;
    const waiting = unacked.get(client);
    const delivered = waiting?.get(ack.messageId ?? 0);
    if (!delivered) return;
    waiting!.delete(ack.messageId ?? 0);
    fire('$events/message_acked', () => ({ ...deliveryColumns('message.acked', client, delivered), puback_props: { 'User-Property': {} } }), delivered);
  });

  function connColumns(client: Client): Obj {
    const peer = peerOf(client);
    const info = connectInfo(client);
    return {
      clientid: peer.clientid,
      username: peer.username,
      mountpoint: 'undefined',
      peername: peer.peername,
      sockname: peer.sockname,
      proto_name: info?.protoName ?? 'MQTT',
      proto_ver: info?.protoVer ?? client.version,
      keepalive: info?.keepalive ?? 0,
      clean_start: info?.clean ?? client.clean,
      expiry_interval: 0,
      is_bridge: false,
      conn_props: { 'User-Property': {} },
    };
  }

  broker.on('client', (client) => {
    if (!active()) return;
    fire('$events/client_connected', () => ({ event: 'client.connected', ...connColumns(client), connected_at: clock.now(), ...common(), client_attrs: {} }));
  });

  broker.on('connackSent', (packet, client) => {
    if (!active()) return;
    const code = packet.returnCode ?? 0;
    fire('$events/client_connack', () => ({
      event: 'client.connack', reason_code: CONNACK_REASONS[code] ?? String(code), ...connColumns(client), connected_at: clock.now(), ...common(),
    }));
  });

  broker.on('clientDisconnect', (client) => {
    if (!active()) return;
    const reason = (client as unknown as { _disconnected?: boolean })._disconnected ? 'normal' : 'sock_closed';
    const peer = peerOf(client);
    const info = connectInfo(client);
    fire('$events/client_disconnected', () => ({
      event: 'client.disconnected', reason, clientid: peer.clientid, username: peer.username, peername: peer.peername, sockname: peer.sockname,
      disconnected_at: clock.now(), disconn_props: { 'User-Property': {} }, proto_name: info?.protoName ?? 'MQTT', proto_ver: info?.protoVer ?? client.version,
      ...common(), client_attrs: {},
    }));
  });

  broker.on('subscribe', (subs, client) => {
    if (!active()) return;
    const peer = peerOf(client);
    for (const sub of subs) {
      if ((sub.qos as number) === 128) continue;
      fire('$events/session_subscribed', () => ({
        event: 'session.subscribed', clientid: peer.clientid, username: peer.username, peerhost: peer.peerhost, topic: sub.topic, qos: sub.qos,
        sub_props: { 'User-Property': {} }, ...common(), client_attrs: {},
      }));
    }
  });

  broker.on('unsubscribe', (topics, client) => {
    // Aedes also emits this while closing a clean session; only a real UNSUBSCRIBE counts.
    if (!active() || client.closed) return;
    const peer = peerOf(client);
    for (const topic of topics) {
      fire('$events/session_unsubscribed', () => ({
        event: 'session.unsubscribed', clientid: peer.clientid, username: peer.username, peerhost: peer.peerhost, topic, qos: 0,
        unsub_props: { 'User-Property': {} }, ...common(), client_attrs: {},
      }));
    }
  });

  // Authorization results: the step runs after the decision, so it sees the final answer.
  function authzEvent(client: Client | null, topic: string, action: 'publish' | 'subscribe', allowed: boolean): void {
    if (!client || !active()) return;
    fire('$events/client_check_authz_complete', () => {
      const peer = peerOf(client);
      return {
        event: 'client.check_authz_complete', clientid: peer.clientid, username: peer.username, peerhost: peer.peerhost, topic, action,
        authz_source: 'default', result: allowed ? 'allow' : 'deny', ...common(), client_attrs: {},
      };
    });
  }

  hooks.after.add('rule-engine', (client, packet, verdict) => authzEvent(client, packet.topic, 'publish', !verdict));

  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    authorizeSubscribe.call(broker, client, sub, (err, granted) => {
      authzEvent(client, sub.topic, 'subscribe', !err && !!granted && (granted.qos as number) !== 128);
      callback(err, granted);
    });
  };
}
