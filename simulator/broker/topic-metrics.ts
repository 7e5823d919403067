// The topic metrics tap: messages published to a registered topic (in, per QoS, and dropped when
// nobody subscribes) and each delivery of them (out, at the delivered QoS). One size check and
// one map lookup per message (the clock is read only for a registered topic); nothing else when
// no topic is registered.
import type { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';
import { brokerHooks } from './hooks.ts';
import { deliveringQos } from './metrics.ts';

/** Installs the publish and delivery steps that feed `store.topicMetrics`. */
export function installTopicMetrics(broker: Aedes, store: Store): void {
  const { topicMetrics, clock } = store;
  const hooks = brokerHooks(broker);

  hooks.published.add('topic-metrics', (packet, _client, subscribed) => {
    if (topicMetrics.size === 0 || packet.topic.startsWith('$SYS/') || !topicMetrics.has(packet.topic)) return;
    topicMetrics.published(packet.topic, packet.qos ?? 0, !subscribed, clock.now());
  });

  hooks.forward.add('topic-metrics', (_client, packet, result) => {
    if (result && topicMetrics.size > 0 && topicMetrics.has(packet.topic)) topicMetrics.delivered(packet.topic, deliveringQos(), clock.now());
    return result;
  });
}
