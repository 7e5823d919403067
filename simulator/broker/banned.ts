// Banned clients on real connections: a CONNECT whose client id, username or peer address is
// banned gets CONNACK 5 (not authorized; MQTT 5: 0x8A Banned, emqx_channel.erl check_banned at
// v5.5.1 and e5.8.9) before any authenticator is asked, and a new ban kicks the matching clients
// that are connected now.
import type { Aedes, Client } from 'aedes';
import type { BanRecord } from '../store/access/banned.ts';
import type { Store } from '../store/index.ts';
import type { Bridge } from './bridge.ts';
import { peerhost, refuse, undoAnonymous } from './authn.ts';

/** Clients refused because they are banned: their MQTT 5 CONNACK says 0x8A (mqtt5.ts). */
export const bannedClients = new WeakSet<Client>();

/** Wraps the authenticate hook: the earlier checks first, then the banned list. */
export function installBanned(broker: Aedes, store: Store): void {
  const previous = broker.authenticate;
  broker.authenticate = (client, username, password, done) => {
    previous.call(broker, client, username, password, (err, ok) => {
      if (err || !ok) {
        done(err, ok);
        return;
      }
      if (store.banned.check({ clientid: client.id, username: username ?? null, peerhost: peerhost(client) })) {
        undoAnonymous(store);
        bannedClients.add(client);
        done(refuse(5, 'banned'), false);
        return;
      }
      done(null, true);
    });
  };
}

/** Disconnects every connected client of this node that `record` bans. */
export async function kickBanned(store: Store, bridge: Bridge, record: BanRecord): Promise<void> {
  const victims = [...store.mqtt.sessions.values()].filter((s) => s.connected && s.client
    && store.banned.matches(record, { clientid: s.clientid, username: s.username ?? null, peerhost: s.ip_address ?? '' }));
  for (const session of victims) await bridge.kick(session.clientid).catch(() => undefined);
}
