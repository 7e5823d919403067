// Broker events → the store's sessions, subscriptions and retained topics, so what MQTT clients
// do is visible over the API at once (security.md M4).
import type { Socket } from 'node:net';
import type { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';
import { plainAddress } from '../store/mqtt.ts';
import { connectInfo } from './connect.ts';

/** Installs the client, disconnect, subscribe, unsubscribe and retained-publish listeners. */
export function installSessions(broker: Aedes, store: Store): void {
  const { mqtt, clock } = store;
  const metrics = mqtt.metrics;

  broker.on('client', (client) => {
    // WebSocket clients come with the upgrade request; the raw socket sits under it.
    const socket = (client.req ? client.req.socket : client.conn) as Socket;
    const info = connectInfo(client) ?? { username: null, keepalive: 0, clean: client.clean, protoVer: client.version, protoName: 'MQTT' };
    mqtt.connected(client, info, client.req ? 'ws' : 'tcp', {
      ip: plainAddress(socket.remoteAddress),
      port: socket.remotePort ?? 0,
    }, clock.now());
    metrics['client.connected']++;
  });

  broker.on('clientDisconnect', (client) => {
    metrics['client.disconnected']++;
    if (client.clean) metrics['session.terminated']++;
    mqtt.disconnected(client, clock.now());
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
    metrics['client.subscribe']++;
    metrics['packets.suback.sent']++;
    // [MQTT-3.9.3-2] 0x80 marks a filter the server refused.
    if (subs.some((s) => (s.qos as number) === 128)) metrics['packets.subscribe.auth_error']++;
    mqtt.subscribed(client, subs);
  });

  broker.on('unsubscribe', (topics, client) => {
    // Aedes also emits this while closing a clean session; only a real UNSUBSCRIBE is counted.
    if (!client.closed) {
      metrics['client.unsubscribe']++;
      metrics['packets.unsuback.sent']++;
    }
    mqtt.unsubscribed(client, topics);
  });

  broker.on('publish', (packet) => {
    if (packet.retain) mqtt.retain(packet.topic, packet.payload?.length ?? 0);
  });
}
