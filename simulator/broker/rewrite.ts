// Topic rewrite on the broker (emqx_rewrite's client.subscribe, client.unsubscribe and
// message.publish hooks): topics of SUBSCRIBE and UNSUBSCRIBE packets and of every published
// message go through the store's rules. Authorization sees the topic the client sent, as in EMQX;
// subscriptions made by the REST API or by auto subscribe are not rewritten (EMQX subscribes
// those without running the hooks), and neither are Aedes' own `$SYS/` messages.
import type { Aedes, Client, Subscription } from 'aedes';
import type { Store } from '../store/index.ts';
import type { RewriteBinds } from '../store/messaging/rewrite.ts';
import { parseShare } from '../lib/topic.ts';
import { connectInfo } from './connect.ts';
import { brokerHooks } from './hooks.ts';
import { publishedBy } from './sessions.ts';

interface Parsed {
  cmd: string;
  subscriptions?: Subscription[];
  unsubscriptions?: string[];
}

const publishRewrites = new WeakMap<Aedes, (topic: string, client: Client | null, packet?: object) => string>();

/** The topic a message published on `topic` is routed on: after the publish rules, if any. */
export function routedTopic(broker: Aedes, topic: string, client: Client | null): string {
  return publishRewrites.get(broker)?.(topic, client) ?? topic;
}

/** Installs the rewriting of subscribe, unsubscribe and publish topics. */
export function installRewrite(broker: Aedes, store: Store): void {
  const { rewrite, mqtt } = store;
  // Subscriptions that came in a SUBSCRIBE packet: only those are rewritten.
  const fromPacket = new WeakSet<object>();

  // A connection's placeholders do not change while it lasts: made once per client.
  const clientBinds = new WeakMap<Client, RewriteBinds>();
  const binds = (client: Client | null, packet?: object): RewriteBinds => {
    if (!client) return packet ? publishedBy.get(packet) ?? {} : {};
    let known = clientBinds.get(client);
    if (!known || known.clientid !== client.id) {
      known = { clientid: client.id, username: connectInfo(client)?.username ?? mqtt.sessions.get(client.id)?.username ?? null };
      clientBinds.set(client, known);
    }
    return known;
  };

  // $share/<group>/ and $queue/ prefixes stay; the filter behind them is rewritten.
  const rewriteFilter = (client: Client, filter: string) => {
    const share = parseShare(filter);
    if (!share) return rewrite.rewrite(filter, 'subscribe', binds(client));
    const prefix = filter.slice(0, filter.length - share.topic.length);
    return prefix + rewrite.rewrite(share.topic, 'subscribe', binds(client));
  };

  // Sees every packet before Aedes does (a `received` step).
  const hooks = brokerHooks(broker);
  hooks.received.add('rewrite', (client, parsed) => {
    const packet = parsed as unknown as Parsed;
    if (packet.cmd === 'subscribe') for (const sub of packet.subscriptions ?? []) fromPacket.add(sub);
    if (packet.cmd === 'unsubscribe' && packet.unsubscriptions && rewrite.has('subscribe')) {
      packet.unsubscriptions = packet.unsubscriptions.map((topic) => rewriteFilter(client, topic));
    }
  });

  // After authorization, so it decides on the topic the client asked for. The subscription
  // object is changed in place: Aedes stores and reports that same object.
  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    authorizeSubscribe.call(broker, client, sub, (err, granted) => {
      if (!err && granted && fromPacket.has(sub) && rewrite.has('subscribe')) granted.topic = rewriteFilter(client, granted.topic);
      callback(err, granted);
    });
  };

  const publishTopic = (topic: string, client: Client | null, packet?: object) =>
    rewrite.has('publish') && !topic.startsWith('$SYS/') ? rewrite.rewrite(topic, 'publish', binds(client, packet)) : topic;
  publishRewrites.set(broker, publishTopic);

  // message.publish: every message, from clients, wills, the publish API and delayed publish.
  hooks.message.add('rewrite', (packet, client) => {
    // In place, so the metrics and retained listeners keep recognising the packet.
    packet.topic = publishTopic(packet.topic, client, packet);
    return false;
  });
}
