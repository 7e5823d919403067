/**
 * Connecting, cancelling and disconnecting a test-client connection, and following its mqtt.js
 * events into the states connecting, connected, disconnecting, disconnected and reconnecting.
 * Refusals are told in words: MQTT 3 return codes and MQTT 5 reason codes.
 */
import { t } from '../../../lib/i18n.ts';
import { connackLabel, reasonCodeLabel } from '../../../lib/reasonCodes.ts';
import { toast } from '../../../lib/toasts.ts';
import { propertyPairs, type MessageProperties } from './properties.ts';
import { brokerUrl, clientOptions, validateSettings, type QoS } from './settings.ts';
import { connectionOf, countFor, makeClient, runtime, schedule, stopClient, RECONNECT_MS, type Connection, type MqttLike, type Runtime } from './store.ts';

/** An MQTT 5 reason code in words with its number, and the server's reason string when it sent one. */
export function reasonText(code: number, packet?: 'suback' | 'disconnect', reasonString?: string): string {
  const hex = `0x${code.toString(16).toUpperCase().padStart(2, '0')}`;
  return `${reasonCodeLabel(code, packet)} (${hex})${reasonString ? `: ${reasonString}` : ''}`;
}

/** Labels a refused CONNACK: MQTT 3 return codes are below 0x80, MQTT 5 failures from 0x80. */
export function refusalLabel(code: number): string {
  return code < 0x80 ? connackLabel(code) : t('websocket.refused', { reason: reasonText(code) });
}

/** Validates the settings and connects; the status then follows the client's events. */
export async function connect(id: string): Promise<void> {
  const conn = connectionOf(id);
  if (conn.status !== 'disconnected') return;
  conn.errors = validateSettings(conn.settings);
  if (Object.keys(conn.errors).length > 0) return;
  const rt = runtime(id);
  const attempt = ++rt.attempt;
  conn.status = 'connecting';
  conn.error = '';
  let client: MqttLike;
  try {
    client = await makeClient(brokerUrl(conn.settings), clientOptions({ ...conn.settings }, RECONNECT_MS));
  } catch (error) {
    if (attempt !== rt.attempt) return;
    conn.status = 'disconnected';
    conn.error = `${t('websocket.errorOccurred')}: ${(error as Error).message}`;
    toast(conn.error, 'error');
    return;
  }
  // Cancelled while mqtt.js was loading.
  if (attempt !== rt.attempt) return void client.end(true);
  rt.client = client;
  wire(conn, rt, client);
}

function wire(conn: Connection, rt: Runtime, client: MqttLike) {
  const current = () => rt.client === client;
  // Why the server disconnected (MQTT 5 DISCONNECT), told when the socket closes.
  let reason = '';
  client.on('connect', (connack?: { properties?: { topicAliasMaximum?: number } }) => {
    if (!current()) return;
    rt.aliasMax = connack?.properties?.topicAliasMaximum ?? 0;
    conn.status = 'connected';
    conn.error = '';
  });
  client.on('reconnect', () => current() && conn.status !== 'disconnecting' && (conn.status = 'reconnecting'));
  client.on('close', () => {
    if (!current() || conn.status === 'disconnecting') return;
    if (conn.status === 'connected') {
      conn.error = t('websocket.connectionLost') + reason;
      toast(conn.error, 'error');
    } else {
      // The socket did not open (browsers do not say why): name the address; toast only once.
      conn.error = `${t('websocket.errorOccurred')}: ${t('websocket.unreachable', { url: brokerUrl(conn.settings) })}`;
      if (conn.status === 'connecting') toast(conn.error, 'error');
    }
    // mqtt.js tries again after RECONNECT_MS.
    conn.status = 'reconnecting';
    reason = '';
  });
  client.on('error', (error: Error & { code?: unknown }) => {
    if (!current()) return;
    if (typeof error.code === 'number' && conn.status !== 'connected') {
      // A refused CONNACK: say why, and stop instead of retrying a refusal.
      conn.error = refusalLabel(error.code);
      toast(conn.error, 'error');
      stopClient(conn.id);
      conn.status = 'disconnected';
      return;
    }
    toast(`${t('websocket.errorOccurred')}: ${error.message}`, 'error');
  });
  client.on('disconnect', (packet: { reasonCode?: number; properties?: { reasonString?: string } }) => {
    reason = `: ${reasonText(packet.reasonCode ?? 0, 'disconnect', packet.properties?.reasonString)}`;
  });
  client.on('message', (topic: string, payload: Uint8Array, packet: { qos: QoS; retain: boolean; properties?: MessageProperties }) => {
    if (!current()) return;
    // No proxy writes here: at thousands of messages a second they are folded into flush().
    rt.received.push({ topic, qos: packet.qos, retain: packet.retain, time: Date.now(), payload, props: propertyPairs(packet.properties) });
    rt.totals.received += 1;
    countFor(rt, topic, 'incoming');
    schedule(conn, rt);
  });
  client.on('end', () => current() && ended(conn, rt));
}

/** The client is gone, and its subscriptions with it. */
function ended(conn: Connection, rt?: Runtime) {
  if (rt) rt.client = undefined;
  conn.status = 'disconnected';
  conn.subscriptions = [];
}

/** Stops a connection attempt or a reconnecting loop. */
export function cancelConnect(id: string) {
  const conn = connectionOf(id);
  if (conn.status !== 'connecting' && conn.status !== 'reconnecting') return;
  stopClient(id);
  ended(conn);
}

/** Disconnects cleanly (DISCONNECT, then the socket closes). */
export function disconnect(id: string) {
  const conn = connectionOf(id);
  const rt = runtime(id);
  const client = rt.client;
  if (conn.status !== 'connected' || !client) return;
  conn.status = 'disconnecting';
  client.end(false, {}, () => {
    if (rt.client !== client) return;
    ended(conn, rt);
    toast(t('websocket.disconnectSuccess'));
  });
}

