/**
 * Subscribing, unsubscribing and publishing on a test-client connection, with the checks made
 * before anything is sent (topic filters, topic names, payload encodings, MQTT 5 properties) and
 * the spec's messages for refusals ('Subscription failure', 'Publishing failure', 'Client not connected').
 */
import { t } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.ts';
import { numberRange, topicFilter, topicName } from '../../../lib/validators.ts';
import { reasonText } from './lifecycle.ts';
import { parsePayload } from './payload.ts';
import { propertyPairs, publishProperties, publishRules } from './properties.ts';
import { check, optionalNumber, type QoS } from './settings.ts';
import { connectionOf, countFor, flush, runtime, schedule, type Connection, type MqttLike } from './store.ts';

/** The connected client, or undefined after telling the user 'Client not connected'. */
function connectedClient(conn: Connection): MqttLike | undefined {
  const client = runtime(conn.id).client;
  if (conn.status === 'connected' && client) return client;
  toast(t('websocket.notConnected'), 'error');
  return undefined;
}

/** MQTT 5 subscription identifiers are 1 to 268,435,455 (MQTT 5 §3.8.2.1.2). */
const SUBSCRIBE_RULES = { topic: [topicFilter], subscriptionId: [numberRange(1, 268435455)] };

/**
 * Subscribes to the filter in the subscribe form (with its subscription identifier on MQTT 5);
 * a refusal is 'Subscription failure', on MQTT 5 with the SUBACK reason code in words.
 */
export function subscribe(id: string) {
  const conn = connectionOf(id);
  const form = conn.subscribeForm;
  const v5 = conn.settings.protocolVersion === 5;
  const { topic, qos } = form;
  form.errors = check(v5 ? SUBSCRIBE_RULES : { topic: SUBSCRIBE_RULES.topic }, form);
  if (form.errors.topic || form.errors.subscriptionId) return;
  const subscriptionId = v5 ? optionalNumber(form.subscriptionId) : undefined;
  const client = connectedClient(conn);
  client?.subscribe(topic, subscriptionId ? { qos, properties: { subscriptionIdentifier: subscriptionId } } : { qos }, (error, granted, packet) => {
    // mqtt.js (client.js subscribe) sends no SUBSCRIBE for a filter it already holds at this QoS or
    // higher and answers (null, []) with no SUBACK: the subscription stands, so this is no failure.
    if (!error && !packet && granted?.length === 0) return void toast(t('websocket.alreadySubscribed', { topic }), 'info');
    // mqtt.js gives the SUBACK codes in the packet; a refusal's error carries no code of its own.
    const code = packet?.granted?.[0] ?? (error as { code?: number } | null | undefined)?.code ?? granted?.[0]?.qos;
    if (error || code === undefined || code >= 0x80) {
      const reason = v5 && code !== undefined && code >= 0x80 ? `: ${reasonText(code, 'suback', packet?.properties?.reasonString)}` : '';
      return void toast(`${t('websocket.subscribeFailed')}${reason}`, 'error');
    }
    const granted0 = Math.min(code, 2) as QoS;
    conn.subscriptions = [...conn.subscriptions.filter((s) => s.topic !== topic), { topic, qos: granted0 }];
  });
}

export function unsubscribe(id: string, topic: string) {
  const conn = connectionOf(id);
  const client = connectedClient(conn);
  client?.unsubscribe(topic, (error) => {
    if (error) return void toast(`${t('websocket.errorOccurred')}: ${error.message}`, 'error');
    conn.subscriptions = conn.subscriptions.filter((s) => s.topic !== topic);
  });
}

/**
 * Publishes the publish form after checking its topic, payload encoding and, on MQTT 5, its
 * properties; a refusal (PUBACK or PUBREC from 0x80) is 'Publishing failure' with the reason in words.
 */
export function publish(id: string) {
  const conn = connectionOf(id);
  const form = conn.publishForm;
  const rt = runtime(id);
  const v5 = conn.settings.protocolVersion === 5;
  const parsed = parsePayload(form.payload, form.encoding);
  const errors = check(v5 ? { topic: [topicName], ...publishRules(rt.aliasMax) } : { topic: [topicName] }, form);
  if ('error' in parsed) errors.payload = parsed.error;
  form.errors = errors;
  if (Object.keys(errors).length > 0 || 'error' in parsed) return;
  const { topic, qos, retain } = form;
  const properties = v5 ? publishProperties(form) : undefined;
  const client = connectedClient(conn);
  if (!client) {
    countFor(rt, topic, 'dropped');
    return schedule(conn, rt);
  }
  client.publish(topic, parsed.bytes, properties ? { qos, retain, properties } : { qos, retain }, (error, packet) => {
    if (error) {
      const code = (error as { code?: number }).code;
      const reason = typeof code === 'number' ? reasonText(code, undefined, packet?.properties?.reasonString) : error.message;
      toast(`${t('websocket.publishFailed')}: ${reason}`, 'error');
      countFor(rt, topic, 'dropped');
    } else {
      rt.published.push({ topic, qos, retain, time: Date.now(), payload: parsed.bytes, props: propertyPairs(properties) });
      rt.totals.published += 1;
      countFor(rt, topic, 'outgoing');
    }
    schedule(conn, rt);
  });
}

/** Empties the received or the published list. */
export function clearMessages(id: string, list: 'received' | 'published') {
  const rt = runtime(id);
  rt[list].clear();
  rt.totals[list] = 0;
  flush(connectionOf(id));
}

