// Builds the Aedes broker with the simulator's hooks and returns the one entry point for new
// connections (TCP sockets and WebSocket streams), which also starts byte and packet counting,
// and the bridge through which REST handlers act on the broker.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';
import { installAuthn } from './authn.ts';
import { installAuthz } from './authz.ts';
import { installAuthzCache } from './authz-cache.ts';
import { installBanned } from './banned.ts';
import { installFlapping } from './flapping.ts';
import { installRuleEngine } from './rule-engine.ts';
import { installAutoSubscribe } from './auto-subscribe.ts';
import { createBridge, type Bridge } from './bridge.ts';
import { installConnect } from './connect.ts';
import { installDelayed } from './delayed.ts';
import { brokerHooks, connectionFault, logFaultsTo } from './hooks.ts';

export { connectionFaults } from './hooks.ts';
import { installMetrics, tapConnection } from './metrics.ts';
import { installRewrite } from './rewrite.ts';
import { installSessions } from './sessions.ts';
import { createSessionPersistence } from './session-persistence.ts';
import { installSessionQueue } from './session-queue.ts';
import { installSlowSubs } from './slow-subs.ts';
import { installTopicMetrics } from './topic-metrics.ts';
import { installTrace } from './trace.ts';
import { installMqttLimits } from './mqtt-limits.ts';
import { installLimiter } from './limiter.ts';
import { installSysTopics } from './sys-topics.ts';
import { installTakeover } from './takeover.ts';
import { installSharedSubs } from './shared-subs.ts';
import { installMqtt5 } from './mqtt5.ts';
import { installSchemaValidation } from './schema-validation.ts';
import { installMessageTransformation } from './message-transformation.ts';
import { installClusterLink } from './cluster-link.ts';

// Each installer adds one concern's hooks and listeners. The per-message work (publish
// authorization, message.publish, deliveries, the publish event, received packets) is done by
// steps in the ordered chains of hooks.ts, whose table fixes their order; the remaining
// wrappers (authenticate, authorizeSubscribe) run the later installed first: auto subscribe is
// outermost so its subscriptions skip authorization, and the takeover of a live session follows
// every authenticator.
const INSTALLERS = [
  installConnect, installSessions, installSessionQueue, installMetrics,
  installBanned, installFlapping, installAuthn, installAuthz,
  // MQTT limits wrap authorization of subscriptions and its cache, and authn's authenticate.
  installAuthzCache, installMqttLimits, installDelayed, installRewrite, installAutoSubscribe,
  installSchemaValidation, installMessageTransformation, installClusterLink,
  installTopicMetrics, installSlowSubs, installRuleEngine, installTrace,
  installSysTopics, installSharedSubs, installMqtt5, installTakeover,
];

export interface MqttBroker {
  aedes: Aedes;
  /** Serves one MQTT connection: a TCP socket, or a WebSocket stream with its upgrade request. */
  accept(stream: Duplex, req?: IncomingMessage): void;
  /** What REST handlers do to MQTT clients: kick, subscribe, publish, delete retained messages. */
  bridge: Bridge;
  /** Closes every client and the broker. */
  close(): Promise<void>;
}

/** Builds the broker; `log` takes the lines about connections closed over a fault. */
export async function createBroker(store: Store, log: (line: string) => void): Promise<MqttBroker> {
  const aedes = await Aedes.createBroker({ id: store.cluster.self, persistence: createSessionPersistence() });
  logFaultsTo(aedes, log);
  // Aedes reports a failed store operation as an `error` event, which would throw unheard.
  (aedes as unknown as NodeJS.EventEmitter).on('error', (err: unknown) => connectionFault(aedes, null, err));
  for (const install of INSTALLERS) install(aedes, store);
  // The connection rate limit decides before a connection is served (limiter.ts).
  const limiter = installLimiter(aedes, store);
  // The publish event's steps share one "does anybody subscribe?" answer per message.
  brokerHooks(aedes).hasSubscriber((topic) => store.mqtt.hasSubscriber(topic));
  return {
    aedes,
    accept(stream, req) {
      const socket = (req ? req.socket : stream) as Socket;
      // Over max_conn_rate: closed with a reset, before any MQTT (esockd fast_close).
      if (!limiter.admit(socket, req !== undefined)) {
        socket.resetAndDestroy();
        return;
      }
      store.mqtt.trackSocket(socket);
      tapConnection(aedes.handle(stream, req), store.mqtt.metrics);
    },
    bridge: createBridge(aedes, store),
    close() {
      return new Promise<void>((resolve) => {
        aedes.close(() => {
          for (const socket of store.mqtt.openSockets()) socket.destroy();
          resolve();
        });
      });
    },
  };
}
