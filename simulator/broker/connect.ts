// CONNECT handling on top of Aedes: remembers what each CONNECT packet said (username, keepalive,
// clean session, protocol level) for the client list, and refuses what emqx_packet.erl (v5.5.1)
// check/2 refuses: client identifiers MQTT does not allow, a password without a user name, a will
// topic that is no valid topic name, Request Problem / Response Information other than 0 or 1.
// Aedes itself refuses protocol levels other than 3, 4 and 5 with CONNACK 1.
import type { Aedes, AuthenticateError, Client, ConnectPacket } from 'aedes';
import type { Store } from '../store/index.ts';
import type { ConnectInfo } from '../store/messaging/mqtt.ts';
import { topicNameError } from '../lib/topic.ts';
import { RAW_FLAGS } from './frame.ts';
import { RC_PROTOCOL_ERROR, RC_TOPIC_NAME_INVALID } from './reason-codes.ts';

interface PendingConnect extends ConnectInfo {
  emptyId: boolean;
  passwordWithoutUsername: boolean;
  willTopic: string | null;
  /** Request Problem / Response Information given as a byte other than 0 or 1. */
  badFlag: boolean;
}

const pending = new WeakMap<Client, PendingConnect>();

/** What the client's CONNECT packet said; available from `preConnect` on. */
export function connectInfo(client: Client): ConnectInfo | undefined {
  return pending.get(client);
}

function refuse(returnCode: number, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** The MQTT 5 CONNACK reason of a CONNECT refused with one Aedes has no return code for. */
const connackReasons = new WeakMap<Client, number>();

/** The reason code the CONNACK of a refused CONNECT carries in MQTT 5 (mqtt5.ts writes it). */
export function connackReason(client: Client): number | undefined {
  return connackReasons.get(client);
}

/** emqx_reason_codes.erl (v5.5.1) compat(connack, Code): the MQTT 3.1.1 return code of a reason. */
export function compatConnack(reasonCode: number): number {
  if (reasonCode <= 0x84) return 1;
  if (reasonCode === 0x85) return 2;
  if (reasonCode === 0x86) return 4;
  if (reasonCode === 0x87 || reasonCode === 0x8a || reasonCode === 0x8c) return 5;
  return 3;
}

/** Refuses a CONNECT with an MQTT 5 reason code (and its 3.1.1 compat return code). */
function refuseWith(client: Client, reasonCode: number, message: string): AuthenticateError {
  connackReasons.set(client, reasonCode);
  return refuse(compatConnack(reasonCode), message);
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
      willTopic: packet.will ? packet.will.topic : null,
      badFlag: (packet.properties as { [RAW_FLAGS]?: object } | undefined)?.[RAW_FLAGS] !== undefined,
    });
    callback(null, true);
  };

  broker.authenticate = (client, _username, _password, done) => {
    metrics['client.authenticate']++;
    const info = pending.get(client);
    // [MQTT-3.1.3-8] a zero-byte client id with CleanSession 0 gets CONNACK 2 (identifier
    // rejected); MQTT 3.1 never takes an empty one (emqx_packet check_client_id, whose only upper
    // bound is max_clientid_len, mqtt-limits.ts).
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
    // check_conn_props: RC_PROTOCOL_ERROR.
    if (info?.badFlag) {
      done(refuseWith(client, RC_PROTOCOL_ERROR, 'request information flag not 0 or 1'), false);
      return;
    }
    // check_will_msg: emqx_topic:validate(name, WillTopic), RC_TOPIC_NAME_INVALID (3.1.1: 3).
    if (info && info.willTopic !== null && (info.willTopic === '' || topicNameError(info.willTopic) !== null)) {
      done(refuseWith(client, RC_TOPIC_NAME_INVALID, 'will topic is not a valid topic name'), false);
      return;
    }
    // No authenticator is configured yet: EMQX counts such logins as anonymous successes.
    metrics['authentication.success']++;
    metrics['authentication.success.anonymous']++;
    metrics['client.auth.anonymous']++;
    done(null, true);
  };
}
