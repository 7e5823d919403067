// Broker events → the store's sessions, subscriptions and retained messages, so what MQTT clients
// do is visible over the API at once (security.md M4). Subscriptions and publishes the REST API
// makes on a client's behalf are marked by the bridge, so they are not counted as packets.
import type { Socket } from 'node:net';
import type { Aedes, Client } from 'aedes';
import { zeroCounters } from '../store/messaging/client-record.ts';
import type { Store } from '../store/index.ts';
import { plainAddress } from '../store/messaging/mqtt.ts';
import { connectInfo } from './connect.ts';
import { brokerHooks } from './hooks.ts';
import { countersOf } from './metrics.ts';

/** Subscription objects and unsubscribe lists the bridge handed to Aedes for the REST API. */
export const apiMade = new WeakSet<object>();

/** Who published a message that has no client (the REST API's `http_api`). */
export const publishedBy = new WeakMap<object, { clientid: string | null; username: string | null }>();

/** Installs the client, disconnect, subscribe, unsubscribe and retained-publish listeners. */
export function installSessions(broker: Aedes, store: Store): void {
  const { mqtt, clock, cluster, conditions } = store;
  const metrics = mqtt.metrics;

  broker.on('client', (client) => {
    // WebSocket clients come with the upgrade request; the raw socket sits under it.
    const socket = (client.req ? client.req.socket : client.conn) as Socket;
    const info = connectInfo(client) ?? { username: null, keepalive: 0, clean: client.clean, protoVer: client.version, protoName: 'MQTT' };
    // Client ids are unique in the cluster: a session of this id on another node is taken over.
    for (const fixture of cluster.fixtureNodes) {
      if (fixture.remove(client.id)) metrics['session.takenover']++;
    }
    mqtt.connected(client, info, {
      transport: client.req ? 'ws' : 'tcp',
      ip: plainAddress(socket.remoteAddress),
      port: socket.remotePort ?? 0,
      socket,
      counters: countersOf(client) ?? zeroCounters(),
    }, clock.now());
    metrics['client.connected']++;
    conditions.checkLicense();
  });

  broker.on('clientDisconnect', (client) => {
    metrics['client.disconnected']++;
    if (client.clean) metrics['session.terminated']++;
    mqtt.disconnected(client, clock.now());
    conditions.checkLicense();
  });

  broker.on('connackSent', (packet, client) => {
    metrics['client.connack']++;
    metrics['packets.connack.sent']++;
    const code = packet.returnCode ?? 0;
    if (code !== 0) {
      metrics['packets.connack.error']++;
      if (code === 4 || code === 5) metrics['packets.connack.auth_error']++;
      return;
    }
    // [MQTT-3.2.2-2] session present means a stored session was resumed.
    if (packet.sessionPresent) metrics['session.resumed']++;
    else metrics['session.created']++;
  });

  broker.on('subscribe', (subs, client) => {
    if (!apiMade.has(subs[0])) {
      metrics['client.subscribe']++;
      metrics['packets.suback.sent']++;
    }
    // [MQTT-3.9.3-2] 0x80 marks a filter the server refused.
    if (subs.some((s) => (s.qos as number) === 128)) metrics['packets.subscribe.auth_error']++;
    mqtt.subscribed(client, subs);
  });

  broker.on('unsubscribe', (topics, client) => {
    // Aedes also emits this while closing a clean session; only a real UNSUBSCRIBE is counted.
    if (!client.closed && !apiMade.has(topics)) {
      metrics['client.unsubscribe']++;
      metrics['packets.unsuback.sent']++;
    }
    mqtt.unsubscribed(client, topics);
  });

  brokerHooks(broker).published.add('sessions', (packet, client) => {
    if (!packet.retain || packet.topic.startsWith('$SYS/')) return;
    const from = client
      ? { clientid: client.id, username: mqtt.sessions.get(client.id)?.username ?? null }
      : publishedBy.get(packet) ?? { clientid: null, username: null };
    mqtt.retain(packet.topic, packet.qos ?? 0, packet.payload as Buffer, from, clock.now());
  });
}
