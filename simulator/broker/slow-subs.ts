// The slow subscriptions tap: measures each QoS 1/2 delivery from the broker receiving the
// publish, through its hand-over to the subscriber's connection (internal), to the subscriber's
// PUBACK or PUBCOMP (response); whole = both. Aedes assigns packet ids only when it writes the
// packet, so the tap assigns the id itself when the delivery is decided (authorizeForward, the
// same counter Aedes would use) to recognise the acknowledgement. All of it is skipped while the
// statistics are disabled, the default.
import type { Aedes, Client } from 'aedes';
import type { Store } from '../store/index.ts';
import { brokerHooks } from './hooks.ts';
import { deliveringQos } from './metrics.ts';
import { nextPacketId } from './session-queue.ts';

interface Pending {
  topic: string;
  qos: number;
  receivedAt: number;
  handedAt: number;
}

/** Deliveries a client has not acknowledged yet are bounded, for clients that never answer. */
const MAX_PENDING = 10_000;
/** Receive times are kept for this many recent messages (looked up when they are delivered). */
const MAX_RECEIVED = 10_000;

/** Installs the message.publish, delivery and acknowledgement steps. */
export function installSlowSubs(broker: Aedes, store: Store): void {
  const { slowSubs, clock } = store;
  const pending = new WeakMap<Client, Map<number, Pending>>();
  // brokerCounter of a message → when the broker received it, in a ring indexed by the counter
  // (a Map evicting its oldest key on every message was the tap's main cost under load).
  const receivedCounter = new Float64Array(MAX_RECEIVED).fill(-1);
  const receivedTime = new Float64Array(MAX_RECEIVED);
  const receivedAt = (counter: number, fallback: number) =>
    receivedCounter[counter % MAX_RECEIVED] === counter ? receivedTime[counter % MAX_RECEIVED] : fallback;

  const hooks = brokerHooks(broker);
  const target = broker as unknown as { counter: number };
  hooks.message.add('slow-subs', () => {
    if (slowSubs.enabled) {
      // Aedes numbers the message synchronously (aedes-packet: ++broker.counter) as it starts.
      const counter = target.counter + 1;
      receivedCounter[counter % MAX_RECEIVED] = counter;
      receivedTime[counter % MAX_RECEIVED] = clock.now();
    }
    return false;
  });

  hooks.forward.add('slow-subs', (client, _packet, result) => {
    // Only new QoS 1/2 deliveries that stay QoS 1/2 ([MQTT-3.8.4-6] downgrades) are measured.
    if (!result || !slowSubs.enabled || !(result.qos > 0) || result.messageId || deliveringQos() === 0) return result;
    const id = nextPacketId(client);
    const now = clock.now();
    let waiting = pending.get(client);
    if (!waiting) pending.set(client, (waiting = new Map()));
    waiting.set(id, { topic: result.topic, qos: deliveringQos(), receivedAt: receivedAt(result.brokerCounter, now), handedAt: now });
    if (waiting.size > MAX_PENDING) waiting.delete(waiting.keys().next().value as number);
    return { ...result, messageId: id } as typeof result;
  });

  hooks.packet.add('slow-subs', (client, packet) => {
    if (packet.cmd !== 'puback' && packet.cmd !== 'pubcomp') return;
    const waiting = pending.get(client);
    const delivery = waiting?.get(packet.messageId ?? 0);
    // QoS 1 completes with PUBACK [MQTT-4.3.2], QoS 2 with PUBCOMP [MQTT-4.3.3].
    if (!delivery || (delivery.qos === 1) !== (packet.cmd === 'puback')) return;
    waiting!.delete(packet.messageId ?? 0);
    const now = clock.now();
    const internal = delivery.handedAt - delivery.receivedAt;
    const response = now - delivery.handedAt;
    slowSubs.completed(client.id, delivery.topic, { whole: internal + response, internal, response }, now);
  });
}
