// CONNECT handling on top of Aedes: remembers what each CONNECT packet said (username, keepalive,
// clean session, protocol level) for the client list, and refuses client identifiers MQTT does
// not allow. Aedes itself refuses protocol levels other than 3 and 4 with CONNACK 1.
import type { Aedes, AuthenticateError, Client, ConnectPacket } from 'aedes';
import type { Store } from '../store/index.ts';
import type { ConnectInfo } from '../store/mqtt.ts';

interface PendingConnect extends ConnectInfo {
  emptyId: boolean;
}

const pending = new WeakMap<Client, PendingConnect>();

/** What the client's CONNECT packet said; available from `preConnect` on. */
export function connectInfo(client: Client): ConnectInfo | undefined {
  return pending.get(client);
}

function refuse(returnCode: 2 | 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** Installs the preConnect and authenticate hooks. */
export function installConnect(broker: Aedes, store: Store): void {
  const metrics = store.mqtt.metrics;

  broker.preConnect = (client, packet: ConnectPacket, callback) => {
    metrics['client.connect']++;
    pending.set(client, {
      username: packet.username ?? null,
      keepalive: packet.keepalive ?? 0,
      clean: packet.clean !== false,
      protoVer: packet.protocolVersion ?? 4,
      protoName: packet.protocolId ?? 'MQTT',
      emptyId: !packet.clientId,
    });
    callback(null, true);
  };

  broker.authenticate = (client, _username, _password, done) => {
    metrics['client.authenticate']++;
    const info = pending.get(client);
    // [MQTT-3.1.3-8] a zero-byte client id with CleanSession 0 gets CONNACK 2 (identifier
    // rejected); MQTT 3.1 requires 1–23 characters in every case.
    if (info?.emptyId && (!info.clean || info.protoVer === 3)) {
      done(refuse(2, 'identifier rejected'), false);
      return;
    }
    // No authenticator is configured yet: EMQX counts such logins as anonymous successes.
    metrics['authentication.success']++;
    metrics['authentication.success.anonymous']++;
    metrics['client.auth.anonymous']++;
    done(null, true);
  };
}
