// Authentication on every CONNECT: the enabled authenticators are asked in chain order; one that
// does not know the client (nomatch / ignore) passes it to the next, a definitive answer stops
// the chain. No authenticator → allowed anonymously (EMQX default); all ignored → CONNACK 5;
// wrong password → CONNACK 4. The superuser flag and a JWT `acl` claim stay on the client for
// authorization. Each decision is counted on its authenticator.
import type { Socket } from 'node:net';
import type { Aedes, AuthenticateError, Client } from 'aedes';
import type { Store } from '../store/index.ts';
import type { AuthnConfig } from '../store/access/authn.ts';
import { callHttp } from '../store/access/auth-http.ts';
import { checkJwt } from '../store/access/jwt.ts';
import { plainAddress } from '../store/messaging/mqtt.ts';
import { connectionFault } from './hooks.ts';

export interface ClientAuth {
  superuser: boolean;
  /** The JWT `acl` claim, when the client logged in with a token carrying one. */
  acl?: unknown;
  /** When that token expires (epoch ms). */
  aclExpiresAt?: number | null;
}

const authOf = new WeakMap<Client, ClientAuth>();

/** What authentication recorded about a connected client. */
export function clientAuth(client: Client): ClientAuth {
  return authOf.get(client) ?? { superuser: false };
}

/** The peer address of a client (the socket under a WebSocket). */
export function peerhost(client: Client): string {
  const socket = (client.req ? client.req.socket : client.conn) as Socket | undefined;
  return plainAddress(socket?.remoteAddress);
}

export function refuse(returnCode: 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The CONNECT hook before this one (client id checks) counts every accepted login as anonymous;
 * a later check that decides otherwise takes those counts back.
 */
export function undoAnonymous(store: Store): void {
  const m = store.mqtt.metrics;
  m['authentication.success']--;
  m['authentication.success.anonymous']--;
  m['client.auth.anonymous']--;
}

type Outcome = { result: 'ignore' } | { result: 'deny' } | { result: 'allow'; superuser: boolean; acl?: unknown; exp?: number | null };

async function ask(store: Store, config: AuthnConfig, vars: { clientid: string; username: string | null; password: string | null; peerhost: string }): Promise<Outcome> {
  switch (config.id) {
    case 'password_based:built_in_database': {
      const userId = config.user_id_type === 'clientid' ? vars.clientid : vars.username;
      if (!userId) return { result: 'ignore' };
      const found = await store.authn.checkUser(config, userId, vars.password ?? '');
      if (!found) return { result: 'ignore' };
      return found.ok ? { result: 'allow', superuser: found.superuser } : { result: 'deny' };
    }
    case 'password_based:http': {
      const answer = await callHttp(config, vars);
      if (answer.result === 'allow') return { result: 'allow', superuser: answer.is_superuser };
      return { result: answer.result };
    }
    case 'jwt':
      return checkJwt(config, vars, store.clock.now());
    default:
      // Database/LDAP backends are not queried by the simulator, and SCRAM needs MQTT 5
      // enhanced authentication: they pass the client on, as EMQX does when a backend is down.
      return { result: 'ignore' };
  }
}

/** Wraps the authenticate hook: the earlier checks first, then the chain. */
export function installAuthn(broker: Aedes, store: Store): void {
  const metrics = store.mqtt.metrics;
  const previous = broker.authenticate;
  broker.authenticate = (client, username, password, done) => {
    previous.call(broker, client, username, password, (err, ok) => {
      if (err || !ok) {
        done(err, ok);
        return;
      }
      const chain = store.authn.enabledChain();
      if (chain.length === 0) {
        authOf.set(client, { superuser: false });
        done(null, true);
        return;
      }
      undoAnonymous(store);
      const vars = { clientid: client.id, username: username ?? null, password: password ? password.toString('utf8') : null, peerhost: peerhost(client) };
      (async () => {
        for (const config of chain) {
          const counter = store.authn.counter(config.id);
          const outcome = await ask(store, config, vars);
          if (outcome.result === 'ignore') {
            counter.count('nomatch');
            continue;
          }
          if (outcome.result === 'deny') {
            counter.count('failed');
            metrics['authentication.failure']++;
            return refuse(4, 'bad username or password');
          }
          counter.count('success');
          metrics['authentication.success']++;
          authOf.set(client, { superuser: outcome.superuser, acl: outcome.acl, aclExpiresAt: outcome.exp ?? null });
          // disconnect_after_expire: a JWT login ends when its token expires.
          if (config.id === 'jwt' && config.disconnect_after_expire !== false && outcome.exp) {
            const timer = setTimeout(() => {
              if (!client.closed) client.close();
            }, Math.max(0, outcome.exp - store.clock.now()));
            timer.unref();
            client.conn?.once?.('close', () => clearTimeout(timer));
          }
          return null;
        }
        metrics['authentication.failure']++;
        return refuse(5, 'not authorized');
      })().then(
        (refusal) => (refusal ? done(refusal, false) : done(null, true)),
        () => done(refuse(5, 'not authorized'), false),
      ).catch((err: unknown) => connectionFault(broker, client, err));
    });
  };
}
