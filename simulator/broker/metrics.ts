// Metrics taps: per-packet counters fed from the MQTT parser of each connection, message
// counters from the publish event and from each delivery, both for the node (GET /metrics) and
// for the connection (the client object's recv_*/send_* fields). Each tap is a table lookup or
// an increment, because these run for every packet.
import type { Aedes, Client, PublishPacket } from 'aedes';
import { zeroCounters, type ClientCounters } from '../store/messaging/client-record.ts';
import type { Store } from '../store/index.ts';
import type { MetricKey, Metrics } from '../store/cluster/metrics.ts';
import { brokerHooks } from './hooks.ts';

// Received packet type → counters. The broker's answer is counted with the request when MQTT
// makes it unconditional: PUBREC → PUBREL [MQTT-4.3.3-1], PUBREL → PUBCOMP [MQTT-4.3.3-2],
// PINGREQ → PINGRESP [MQTT-3.12.4-1].
const RECEIVED: Record<string, readonly MetricKey[]> = {
  connect: ['packets.connect.received'],
  publish: ['packets.publish.received'],
  puback: ['packets.puback.received'],
  pubrec: ['packets.pubrec.received', 'packets.pubrel.sent'],
  pubrel: ['packets.pubrel.received', 'packets.pubcomp.sent'],
  pubcomp: ['packets.pubcomp.received'],
  subscribe: ['packets.subscribe.received'],
  unsubscribe: ['packets.unsubscribe.received'],
  pingreq: ['packets.pingreq.received', 'packets.pingresp.sent'],
  disconnect: ['packets.disconnect.received'],
  auth: ['packets.auth.received'],
};

// Packets the broker always answers with one packet of its own: SUBACK [MQTT-3.8.4-1],
// UNSUBACK [MQTT-3.10.4-4], PINGRESP, PUBREL, PUBCOMP; a PUBLISH only at QoS 1 and 2.
const ANSWERED: Record<string, number> = { pubrec: 1, pubrel: 1, subscribe: 1, unsubscribe: 1, pingreq: 1 };

const QOS_RECEIVED: readonly MetricKey[] = ['messages.qos0.received', 'messages.qos1.received', 'messages.qos2.received'];
const QOS_SENT: readonly MetricKey[] = ['messages.qos0.sent', 'messages.qos1.sent', 'messages.qos2.sent'];
const CLIENT_QOS_RECEIVED = ['recv_msg.qos0', 'recv_msg.qos1', 'recv_msg.qos2'] as const;
const CLIENT_QOS_SENT = ['send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2'] as const;

type Deliver = (packet: { qos: number; topic: string }, done: () => void) => void;

interface DeliveringClient {
  deliver0: Deliver;
  deliverQoS: Deliver;
  subscriptions: Record<string, { qos: number } | undefined>;
}

const countersByClient = new WeakMap<Client, ClientCounters>();

/** The counters of one connection (created when the connection is accepted). */
export function countersOf(client: Client): ClientCounters | undefined {
  return countersByClient.get(client);
}

// The QoS of the delivery being decided: set by the delivery wrappers right before Aedes
// synchronously asks authorizeForward, and read there.
let deliveryQos = 0;

/** The QoS of the delivery being decided, for other taps that wrap authorizeForward. */
export function deliveringQos(): number {
  return deliveryQos;
}

/** Sets it where the QoS is decided later than the wrappers below (the session layer). */
export function setDeliveringQos(qos: number): void {
  deliveryQos = qos;
}

/**
 * Starts counting a new connection: every packet its parser produces (the packet step of
 * installMetrics counts connections that have counters), and the QoS of each delivery to it
 * (Aedes keeps its delivery functions on the client).
 */
export function tapConnection(client: Client, _metrics: Metrics): ClientCounters {
  const counters = zeroCounters();
  countersByClient.set(client, counters);
  const delivering = client as unknown as DeliveringClient;
  const deliver0 = delivering.deliver0;
  const deliverQoS = delivering.deliverQoS;
  delivering.deliver0 = (packet, done) => {
    deliveryQos = 0;
    deliver0(packet, done);
  };
  delivering.deliverQoS = (packet, done) => {
    // Aedes downgrades to the QoS of a subscription to exactly this topic [MQTT-3.8.4-6].
    const granted = delivering.subscriptions[packet.topic]?.qos;
    deliveryQos = granted !== undefined && granted < packet.qos ? granted : packet.qos;
    deliverQoS(packet, done);
  };
  return counters;
}

/**
 * Counts a PUBLISH received from a client: the cluster's received counters by QoS, the PUBACK or
 * PUBREC the broker answers with, and the client's own counters. Shared by the metrics tap and by
 * hooks that take a message before Aedes' publish event (delayed publish).
 */
export function countReceived(metrics: Metrics, packet: PublishPacket, client: Client): void {
  const qos = packet.qos ?? 0;
  metrics['messages.received']++;
  metrics[QOS_RECEIVED[qos] ?? 'messages.qos0.received']++;
  // [MQTT-3.3.4-1] QoS 1 is answered with PUBACK, QoS 2 with PUBREC.
  if (qos === 1) metrics['packets.puback.sent']++;
  else if (qos === 2) metrics['packets.pubrec.sent']++;
  const counters = countersByClient.get(client);
  if (counters) {
    counters.recv_msg++;
    counters[CLIENT_QOS_RECEIVED[qos] ?? 'recv_msg.qos0']++;
  }
}

/** Installs the message counters (publish, delivery, ack, dropped). */
export function installMetrics(broker: Aedes, store: Store): void {
  const { mqtt } = store;
  const metrics = mqtt.metrics;

  const hooks = brokerHooks(broker);
  hooks.published.add('metrics', (packet, client, subscribed) => {
    // $SYS messages are the broker's own and not counted as published, as in EMQX.
    if (packet.topic.startsWith('$SYS/')) return;
    metrics['messages.publish']++;
    // EMQX drops a message nobody subscribes to and counts it (messages.dropped.no_subscribers).
    if (!subscribed) {
      metrics['messages.dropped']++;
      metrics['messages.dropped.no_subscribers']++;
    }
    if (client) countReceived(metrics, packet, client);
  });

  // Every packet a tapped connection receives.
  hooks.packet.add('metrics', (client, packet) => {
    const counters = countersByClient.get(client);
    if (!counters) return;
    metrics['packets.received']++;
    counters.recv_pkt++;
    const keys = RECEIVED[packet.cmd];
    if (keys) for (let i = 0; i < keys.length; i++) metrics[keys[i]]++;
    counters.send_pkt += packet.cmd === 'publish' ? (packet.qos ? 1 : 0) : (ANSWERED[packet.cmd] ?? 0);
  });

  broker.on('ack', () => {
    metrics['messages.acked']++;
  });

  broker.on('connackSent', (_packet, client) => {
    const counters = countersByClient.get(client);
    if (counters) counters.send_pkt++;
  });

  // Called once per delivery to a subscriber, right before the PUBLISH is written.
  hooks.forward.add('metrics', (client, _packet, result) => {
    if (result) {
      metrics['messages.sent']++;
      metrics['messages.delivered']++;
      metrics['packets.publish.sent']++;
      metrics[QOS_SENT[deliveryQos] ?? 'messages.qos0.sent']++;
      const counters = countersByClient.get(client);
      if (counters) {
        counters.send_msg++;
        counters.send_pkt++;
        counters[CLIENT_QOS_SENT[deliveryQos] ?? 'send_msg.qos0']++;
      }
    }
    return result;
  });
}
