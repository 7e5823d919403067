// Delayed publish on the broker (emqx_delayed's message.publish hook and publish timer): while
// enabled, a message to `$delayed/{seconds}/{topic}` is not routed but held in the store, and
// published to `{topic}` when due — through the broker again, so topic rewrite applies then too,
// and as from its original publisher. When max_delayed_messages is reached new ones are dropped.
// The timer reads the injectable clock and wakes at least every second, so a test that moves
// its clock sees the message go out without waiting for the delay.
import type { Aedes, Client, PublishPacket } from 'aedes';
import type { Store } from '../store/index.ts';
import { parseDelayedTopic, type DelayedMessage } from '../store/messaging/delayed.ts';
import { connectInfo } from './connect.ts';
import { brokerHooks } from './hooks.ts';
import { countReceived } from './metrics.ts';
import { publishedBy } from './sessions.ts';

type Done = (error?: Error) => void;
type Publish = (packet: PublishPacket, client: Client | null, done?: Done) => void;

const LONGEST_SLEEP_MS = 1000;

/** Installs the holding of `$delayed/` messages and the timer that publishes them. */
export function installDelayed(broker: Aedes, store: Store): void {
  const { delayed, mqtt, clock, cluster } = store;
  const metrics = mqtt.metrics;
  mqtt.heldDelayed = () => delayed.size;

  // A held message was still received from its client and counted by EMQX's broker before the
  // hook stopped it; Aedes' publish event, which the metrics tap listens to, never fires for it.
  const countHeld = (packet: PublishPacket, client: Client | null) => {
    metrics['messages.publish']++;
    if (client) countReceived(metrics, packet, client);
  };

  // The settings, read once per settings object (PUT /mqtt/delayed replaces it).
  let seen: unknown = null;
  let enabled = false;
  const isEnabled = () => {
    const source = (store.state as { delayed?: unknown }).delayed;
    if (seen === null || source !== seen) {
      seen = source;
      enabled = delayed.config().enable;
    }
    return enabled;
  };

  brokerHooks(broker).message.add('delayed', (packet, client, done) => {
    if (!packet.topic.startsWith('$delayed/') || !isEnabled()) return false;
    const now = clock.now();
    const target = parseDelayedTopic(packet.topic, now);
    if (!target) return false;
    countHeld(packet, client);
    const from = client
      ? { clientid: client.id, username: connectInfo(client)?.username ?? mqtt.sessions.get(client.id)?.username ?? null }
      : publishedBy.get(packet) ?? { clientid: null, username: null };
    const held = delayed.hold({
      node: cluster.self, publishAt: now, interval: target.interval, expectedAt: target.expectedAt, topic: target.topic,
      qos: packet.qos ?? 0, retain: packet.retain ?? false, payload: Buffer.from(packet.payload ?? ''),
      properties: (packet as { properties?: unknown }).properties,
      from_clientid: from.clientid, from_username: from.username,
    });
    if (held) metrics['messages.delayed']++;
    // The publisher gets its acknowledgement either way (allow_publish = false, not an error).
    process.nextTick(() => done?.());
    return true;
  });

  function release(m: DelayedMessage) {
    const packet = {
      cmd: 'publish' as const, topic: m.topic, payload: m.payload, qos: m.qos as 0 | 1 | 2, retain: m.retain, dup: false,
      // Aedes compares clientId for no-local delivery; EMQX keeps the original `from`.
      ...(m.from_clientid ? { clientId: m.from_clientid } : {}),
      ...(m.properties ? { properties: m.properties } : {}),
    } as PublishPacket;
    publishedBy.set(packet, { clientid: m.from_clientid, username: m.from_username });
    // The outermost publish, so the message.publish hooks (rewrite) run again as in emqx:publish/1.
    (broker.publish as unknown as Publish)(packet, null, () => {});
  }

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  function arm() {
    clearTimeout(timer);
    timer = undefined;
    const due = delayed.nextDue();
    if (closed || due === undefined) return;
    timer = setTimeout(fire, Math.min(Math.max(0, due - clock.now()), LONGEST_SLEEP_MS));
    timer.unref();
  }
  function fire() {
    for (const m of delayed.takeDue(clock.now())) release(m);
    arm();
  }
  delayed.watch(arm);
  broker.once('closed', () => {
    closed = true;
    clearTimeout(timer);
  });
}
