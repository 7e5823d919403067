// CONNECT handling on top of Aedes: remembers what each CONNECT packet said (username, keepalive,
// clean session, protocol level) for the client list, and refuses client identifiers MQTT does
// not allow and a password without a user name. Aedes itself refuses protocol levels other than
// 3 and 4 with CONNACK 1.
import type { Aedes, AuthenticateError, Client, ConnectPacket } from 'aedes';
import type { Store } from '../store/index.ts';
import type { ConnectInfo } from '../store/messaging/mqtt.ts';

interface PendingConnect extends ConnectInfo {
  emptyId: boolean;
  passwordWithoutUsername: boolean;
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
      passwordWithoutUsername: packet.password !== undefined && packet.username === undefined,
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
    // [MQTT-3.1.2-22] (MQTT 3.1 and 3.1.1): no password without a user name. CONNACK 4, "the
    // data in the user name or password is malformed", then the connection closes.
    if (info?.passwordWithoutUsername && info.protoVer < 5) {
      done(refuse(4, 'password without user name'), false);
      return;
    }
    // No authenticator is configured yet: EMQX counts such logins as anonymous successes.
    metrics['authentication.success']++;
    metrics['authentication.success.anonymous']++;
    metrics['client.auth.anonymous']++;
    done(null, true);
  };
}
