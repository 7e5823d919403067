// Schema validation in the message path (emqx_schema_validation.erl on_message_publish at
// e5.8.9, hook priority 945: after topic rewrite, before message transformation and delayed
// publish): a message whose topic some enabled validation covers is checked; it passes, or is
// dropped (acknowledged, routed nowhere), or costs its client the connection (MQTT 5: DISCONNECT
// 0x83, as emqx_channel.erl do_publish answers `disconnect`). Each outcome is counted in the
// validation's metrics and in messages.validation_succeeded/failed; each failure raises the
// `$events/schema_validation_failed` rule event.
import type { Aedes, Client, PublishPacket } from 'aedes';
import type { Store } from '../store/index.ts';
import { droppedPackets } from './authz.ts';
import { brokerHooks } from './hooks.ts';
import { countReceived } from './metrics.ts';
import { RC_IMPLEMENTATION_SPECIFIC_ERROR } from './reason-codes.ts';
import { messageColumns, publisher } from './rule-engine.ts';

type Done = ((error?: Error | null) => void) | undefined;

/** Ends a message a validation or transformation refused: dropped, or its client disconnected. */
export function refuseMessage(store: Store, packet: PublishPacket, client: Client | null, done: Done, action: 'drop' | 'disconnect'): void {
  // emqx_broker:publish counted it before the hooks stopped it; Aedes' publish event never fires.
  store.mqtt.metrics['messages.publish']++;
  if (client) countReceived(store.mqtt.metrics, packet, client);
  if (action === 'disconnect' && client) {
    client.disconnect({ reasonCode: RC_IMPLEMENTATION_SPECIFIC_ERROR });
    return;
  }
  // allow_publish = false is not an error: the publisher is acknowledged.
  process.nextTick(() => done?.(null));
}

/** The columns of a failure event: the message's, less what with_basic_columns does not add. */
export function failureColumns(store: Store, event: string, packet: PublishPacket, client: Client | null): Record<string, unknown> {
  const { client_attrs: _attrs, ...columns } = messageColumns(event, packet, publisher(packet, client), store.cluster.self, store.clock.now());
  return columns;
}

export function installSchemaValidation(broker: Aedes, store: Store): void {
  const { schemaValidations, rules, mqtt } = store;
  if (!store.profile.hasRoute('GET', '/schema_validations')) return;

  let current: { packet: PublishPacket; client: Client | null } | null = null;
  schemaValidations.failed = (validation) => {
    if (!current) return;
    const { packet, client } = current;
    rules.fireEvent('$events/schema_validation_failed', () => ({ ...failureColumns(store, 'schema.validation_failed', packet, client), validation: validation.name }), packet);
  };

  brokerHooks(broker).message.add('schema-validation', (packet, client, done) => {
    if (!schemaValidations.active || packet.topic.startsWith('$SYS/') || droppedPackets.has(packet)) return false;
    const validations = schemaValidations.matching(packet.topic);
    if (validations.length === 0) return false;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? '');
    current = { packet, client };
    const outcome = schemaValidations.run(validations, () => messageColumns('message.publish', packet, publisher(packet, client), store.cluster.self, store.clock.now()), payload);
    current = null;
    if (outcome.passed) {
      mqtt.metrics['messages.validation_succeeded']++;
      return false;
    }
    mqtt.metrics['messages.validation_failed']++;
    refuseMessage(store, packet, client, done, outcome.action);
    return true;
  });
}
