// Auto subscribe on the broker (emqx_auto_subscribe's client.connected hook): once a client has
// its CONNACK, it is subscribed to the store's topics with their qos, rh, rap and nl, without an
// authorization check and without topic rewrite, as EMQX does with `self() ! {subscribe, …}`.
// No SUBACK is sent (there was no SUBSCRIBE); retained messages follow as for any subscription.
import type { Aedes, Subscription } from 'aedes';
import type { Store } from '../store/index.ts';
import { connectInfo } from './connect.ts';
import { apiMade } from './sessions.ts';

/** Installs the subscribing at connect and the authorization bypass for those subscriptions. */
export function installAutoSubscribe(broker: Aedes, store: Store): void {
  const made = new WeakSet<object>();

  broker.on('connackSent', (packet, client) => {
    if ((packet.returnCode ?? 0) !== 0 || client.closed) return;
    const session = store.mqtt.sessions.get(client.id);
    const topics = store.autoSubscribe.topicsFor({
      clientid: client.id,
      username: connectInfo(client)?.username ?? session?.username ?? null,
      host: session?.ip_address ?? '',
      port: session?.port ?? 0,
    });
    if (topics.length === 0) return;
    const subs = topics.map((t) => ({ topic: t.topic, qos: t.qos, rh: t.rh, rap: t.rap === 1, nl: t.nl === 1 }) as Subscription);
    for (const sub of subs) {
      made.add(sub);
      // Not a SUBSCRIBE packet: the session listener must not count it as one.
      apiMade.add(sub);
    }
    client.subscribe(subs, (err) => {
      if (err) broker.emit('clientError', client, err);
    });
  });

  // Outermost authorizeSubscribe (installed last): skips authorization and rewrite for these.
  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    if (made.has(sub)) return callback(null, sub);
    authorizeSubscribe.call(broker, client, sub, callback);
  };
}
