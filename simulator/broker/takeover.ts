// Taking over a live session, in EMQX's order. emqx_channel.erl (v5.5.1) opens the session only
// after authentication, and emqx_cm.erl open_session first discards the old channel (Clean Start
// 1) or takes its session over (Clean Start 0), waiting for it up to T_TAKEOVER (15 s,
// emqx_cm.hrl); the CONNACK goes out after that. Aedes registers a new client at once and closes
// the old one afterwards: for MQTT 5 it writes the DISCONNECT 0x8E first, so the new connection
// had its CONNACK, and could subscribe, while the old one was still closing, and the session
// layers (session-queue.ts) then saw the new client before it was registered. Here the old
// connection is closed once every authenticator said yes, and the CONNECT goes on when it is.
import type { Aedes, Client } from 'aedes';
import { RC_SESSION_TAKEN_OVER } from './reason-codes.ts';

/** emqx_cm.hrl T_TAKEOVER: how long a CONNECT waits for the old connection to close. */
export const TAKEOVER_TIMEOUT_MS = 15_000;

interface TakeoverInternals {
  clients: Record<string, Client | undefined>;
  /** Aedes: ids whose old connection closes for a takeover; its close then keeps the session. */
  _takingOver: Set<string>;
}

/** Installs the takeover after authentication; installed last, so that it wraps every authenticator. */
export function installTakeover(broker: Aedes): void {
  const internals = broker as unknown as TakeoverInternals;
  const authenticate = broker.authenticate;
  broker.authenticate = (client, username, password, done) => {
    authenticate.call(broker, client, username, password, (error, ok) => {
      const old = error || !ok ? undefined : internals.clients[client.id];
      if (old === undefined || old === client || old.closed) {
        done(error, ok);
        return;
      }
      let finished = false;
      const proceed = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        internals._takingOver.delete(client.id);
        done(null, true);
      };
      // After the timeout the CONNECT goes on; Aedes then closes the old connection as it would.
      const timer = setTimeout(proceed, TAKEOVER_TIMEOUT_MS);
      timer.unref();
      internals._takingOver.add(client.id);
      old.disconnect({ reasonCode: RC_SESSION_TAKEN_OVER }, proceed);
    });
  };
}
