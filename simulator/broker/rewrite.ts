// Topic rewrite on the broker (emqx_rewrite's client.subscribe, client.unsubscribe and
// message.publish hooks): topics of SUBSCRIBE and UNSUBSCRIBE packets and of every published
// message go through the store's rules. Authorization sees the topic the client sent, as in EMQX;
// subscriptions made by the REST API or by auto subscribe are not rewritten (EMQX subscribes
// those without running the hooks), and neither are Aedes' own `$SYS/` messages.
import type { Aedes, Client, PublishPacket, Subscription } from 'aedes';
import type { Store } from '../store/index.ts';
import { parseShare } from '../store/topic.ts';
import { connectInfo } from './connect.ts';
import { publishedBy } from './sessions.ts';

type Done = (error?: Error) => void;
type Publish = (packet: PublishPacket, client: Client | null, done?: Done) => void;

interface Parsed {
  cmd: string;
  subscriptions?: Subscription[];
  unsubscriptions?: string[];
}

interface ParsingClient {
  _parser?: { prependListener(event: 'packet', listener: (packet: Parsed) => void): void };
}

/** Installs the rewriting of subscribe, unsubscribe and publish topics. */
export function installRewrite(broker: Aedes, store: Store): void {
  const { rewrite, mqtt } = store;
  // Subscriptions that came in a SUBSCRIBE packet: only those are rewritten.
  const fromPacket = new WeakSet<object>();

  const binds = (client: Client | null, packet?: object) => {
    if (!client) return packet ? publishedBy.get(packet) ?? {} : {};
    return { clientid: client.id, username: connectInfo(client)?.username ?? mqtt.sessions.get(client.id)?.username ?? null };
  };

  // $share/<group>/ and $queue/ prefixes stay; the filter behind them is rewritten.
  const rewriteFilter = (client: Client, filter: string) => {
    const share = parseShare(filter);
    if (!share) return rewrite.rewrite(filter, 'subscribe', binds(client));
    const prefix = filter.slice(0, filter.length - share.topic.length);
    return prefix + rewrite.rewrite(share.topic, 'subscribe', binds(client));
  };

  // Sees every packet before Aedes does (its own listener was added first, so prepend).
  const handle = broker.handle;
  broker.handle = (stream, req) => {
    const client = handle(stream, req);
    (client as unknown as ParsingClient)._parser?.prependListener('packet', (packet) => {
      if (packet.cmd === 'subscribe') for (const sub of packet.subscriptions ?? []) fromPacket.add(sub);
      if (packet.cmd === 'unsubscribe' && packet.unsubscriptions && rewrite.has('subscribe')) {
        packet.unsubscriptions = packet.unsubscriptions.map((topic) => rewriteFilter(client, topic));
      }
    });
    return client;
  };

  // After authorization, so it decides on the topic the client asked for. The subscription
  // object is changed in place: Aedes stores and reports that same object.
  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    authorizeSubscribe.call(broker, client, sub, (err, granted) => {
      if (!err && granted && fromPacket.has(sub) && rewrite.has('subscribe')) granted.topic = rewriteFilter(client, granted.topic);
      callback(err, granted);
    });
  };

  // message.publish: every message, from clients, wills, the publish API and delayed publish.
  const publish = broker.publish as unknown as Publish;
  (broker as unknown as { publish: Publish }).publish = (packet, client, done) => {
    // Aedes also calls publish(packet, done).
    if (typeof client === 'function') [client, done] = [null, client as Done];
    if (rewrite.has('publish') && !packet.topic.startsWith('$SYS/')) {
      // In place, so the metrics and retained listeners keep recognising the packet.
      packet.topic = rewrite.rewrite(packet.topic, 'publish', binds(client ?? null, packet));
    }
    publish.call(broker, packet, client ?? null, done);
  };
}
