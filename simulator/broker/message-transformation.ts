// Message transformation in the message path (emqx_message_transformation.erl on_message_publish
// at e5.8.9, hook priority 943: right after schema validation): the enabled transformations whose
// topics cover a message rewrite its payload, topic, QoS, retain flag and user properties in
// place, one after another; a failure drops the message or disconnects its client as the failing
// transformation says (`ignore` goes on with the message as it was). Outcomes are counted per
// transformation and in messages.transformation_succeeded/failed; each failure raises the
// `$events/message_transformation_failed` rule event.
import type { Aedes, PublishPacket } from 'aedes';
import type { Store } from '../store/index.ts';
import type { TransformMessage } from '../store/messaging/message-transformation.ts';
import { droppedPackets } from './authz.ts';
import { brokerHooks } from './hooks.ts';
import { messageColumns, publisher } from './rule-engine.ts';
import { failureColumns, refuseMessage } from './schema-validation.ts';

type UserProperties = Record<string, string | string[]>;

/** User properties as one value per key, the last one winning (maps:from_list/1). */
function userProperties(packet: PublishPacket): Record<string, string> {
  const given = ((packet as { properties?: { userProperties?: UserProperties } }).properties?.userProperties ?? {}) as UserProperties;
  return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, Array.isArray(v) ? String(v[v.length - 1]) : String(v)]));
}

export function installMessageTransformation(broker: Aedes, store: Store): void {
  const { messageTransformations, rules, mqtt } = store;
  if (!store.profile.hasRoute('GET', '/message_transformations')) return;

  let current: { packet: PublishPacket; client: Parameters<typeof publisher>[1] } | null = null;
  messageTransformations.failed = (transformation) => {
    if (!current) return;
    const { packet, client } = current;
    rules.fireEvent('$events/message_transformation_failed', () => {
      const { peerhost: _host, ...columns } = failureColumns(store, 'message.transformation_failed', packet, client);
      return { ...columns, transformation: transformation.name };
    }, packet);
  };

  brokerHooks(broker).message.add('message-transformation', (packet, client, done) => {
    if (!messageTransformations.active || packet.topic.startsWith('$SYS/') || droppedPackets.has(packet)) return false;
    const transformations = messageTransformations.matching(packet.topic);
    if (transformations.length === 0) return false;
    const columns = messageColumns('message.publish', packet, publisher(packet, client), store.cluster.self, store.clock.now());
    const message: TransformMessage = {
      topic: packet.topic, qos: (packet.qos ?? 0) as 0 | 1 | 2, retain: Boolean(packet.retain),
      payload: Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? ''),
      user_property: userProperties(packet),
      context: { ...columns, flags: { dup: Boolean(packet.dup), retain: Boolean(packet.retain) } },
    };
    current = { packet, client };
    const outcome = messageTransformations.run(transformations, message);
    current = null;
    if (!outcome.ok) {
      mqtt.metrics['messages.transformation_failed']++;
      refuseMessage(store, packet, client, done, outcome.action);
      return true;
    }
    mqtt.metrics['messages.transformation_succeeded']++;
    // In place, as topic rewrite does: later steps and listeners keep recognising the packet.
    const out = outcome.message;
    packet.topic = out.topic;
    packet.qos = out.qos;
    packet.retain = out.retain;
    packet.payload = out.payload;
    const before = userProperties(packet);
    if (JSON.stringify(before) !== JSON.stringify(out.user_property)) {
      const target = packet as { properties?: Record<string, unknown> };
      target.properties = { ...target.properties, userProperties: Object.fromEntries(Object.entries(out.user_property).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
    }
    return false;
  });
}
