// Metrics taps: per-packet counters fed from the MQTT parser of each connection, message
// counters from the publish/ack events and from forwarding. Each tap is one table lookup or an
// increment, because these run for every packet.
import type { Aedes, Client } from 'aedes';
import type { MetricKey, Metrics } from '../store/metrics.ts';
import type { Store } from '../store/index.ts';

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

const QOS_RECEIVED: readonly MetricKey[] = ['messages.qos0.received', 'messages.qos1.received', 'messages.qos2.received'];

interface ParsingClient {
  _parser?: { on(event: 'packet', listener: (packet: { cmd: string }) => void): void };
}

/** Counts every packet a connection's parser produces (Aedes keeps its parser on `_parser`). */
export function tapPackets(client: Client, metrics: Metrics): void {
  (client as unknown as ParsingClient)._parser?.on('packet', (packet) => {
    metrics['packets.received']++;
    const keys = RECEIVED[packet.cmd];
    if (keys) for (const key of keys) metrics[key]++;
  });
}

/** Installs the message counters (publish, ack, forward). */
export function installMetrics(broker: Aedes, store: Store): void {
  const metrics = store.mqtt.metrics;

  broker.on('publish', (packet, client) => {
    // $SYS messages are the broker's own and not counted as published, as in EMQX.
    if (packet.topic.startsWith('$SYS/')) return;
    metrics['messages.publish']++;
    if (!client) return;
    metrics['messages.received']++;
    metrics[QOS_RECEIVED[packet.qos] ?? 'messages.qos0.received']++;
    // [MQTT-3.3.4-1] QoS 1 is answered with PUBACK, QoS 2 with PUBREC.
    if (packet.qos === 1) metrics['packets.puback.sent']++;
    else if (packet.qos === 2) metrics['packets.pubrec.sent']++;
  });

  broker.on('ack', () => {
    metrics['messages.acked']++;
  });

  // Called once per delivery to a subscriber, right before the PUBLISH is written.
  const forward = broker.authorizeForward;
  broker.authorizeForward = (client, packet) => {
    const result = forward.call(broker, client, packet);
    if (result) {
      metrics['messages.sent']++;
      metrics['messages.delivered']++;
      metrics['packets.publish.sent']++;
    }
    return result;
  };
}
