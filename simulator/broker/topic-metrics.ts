// The topic metrics tap: messages published to a registered topic (in, per QoS, and dropped when
// nobody subscribes) and each delivery of them (out, at the delivered QoS). One size check and
// one map lookup per message; nothing else when no topic is registered.
import type { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';
import { deliveringQos } from './metrics.ts';

/** Installs the publish listener and the authorizeForward wrapper that feed `store.topicMetrics`. */
export function installTopicMetrics(broker: Aedes, store: Store): void {
  const { topicMetrics, mqtt, clock } = store;

  broker.on('publish', (packet) => {
    if (topicMetrics.size === 0 || packet.topic.startsWith('$SYS/')) return;
    topicMetrics.published(packet.topic, packet.qos ?? 0, !mqtt.hasSubscriber(packet.topic), clock.now());
  });

  const forward = broker.authorizeForward;
  broker.authorizeForward = (client, packet) => {
    const result = forward.call(broker, client, packet);
    if (result && topicMetrics.size > 0) topicMetrics.delivered(packet.topic, deliveringQos(), clock.now());
    return result;
  };
}
