/**
 * Subscribing, unsubscribing and publishing on a test-client connection, with the checks made
 * before anything is sent (topic filters, topic names, payload encodings) and the spec's
 * messages for refusals ('Subscription failure', 'Publishing failure', 'Client not connected').
 */
import { t } from '../../../lib/i18n.ts';
import { reasonCodeLabel } from '../../../lib/reasonCodes.ts';
import { toast } from '../../../lib/toasts.ts';
import { topicFilter, topicName } from '../../../lib/validators.ts';
import { parsePayload } from './payload.ts';
import type { QoS } from './settings.ts';
import { connectionOf, countFor, flush, runtime, schedule, type Connection, type MqttLike } from './store.ts';

/** The connected client, or undefined after telling the user 'Client not connected'. */
function connectedClient(conn: Connection): MqttLike | undefined {
  const client = runtime(conn.id).client;
  if (conn.status === 'connected' && client) return client;
  toast(t('websocket.notConnected'), 'error');
  return undefined;
}

/** Subscribes to the filter in the subscribe form; a refusal (SUBACK 0x80) is 'Subscription failure'. */
export function subscribe(id: string) {
  const conn = connectionOf(id);
  const { topic, qos } = conn.subscribeForm;
  conn.subscribeForm.error = topicFilter(topic, {}) ?? '';
  if (conn.subscribeForm.error) return;
  const client = connectedClient(conn);
  client?.subscribe(topic, { qos }, (error, granted) => {
    const code = (error as { code?: number } | null | undefined)?.code ?? granted?.[0]?.qos;
    if (error || code === undefined || code >= 0x80) {
      const reason = conn.settings.protocolVersion === 5 && typeof code === 'number' && code > 0x80 ? `: ${reasonCodeLabel(code, 'suback')}` : '';
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

/** Publishes the publish form after checking its topic and payload encoding. */
export function publish(id: string) {
  const conn = connectionOf(id);
  const form = conn.publishForm;
  const parsed = parsePayload(form.payload, form.encoding);
  const errors: Record<string, string> = {};
  const topicError = topicName(form.topic, {});
  if (topicError) errors.topic = topicError;
  if ('error' in parsed) errors.payload = parsed.error;
  form.errors = errors;
  if (Object.keys(errors).length > 0 || 'error' in parsed) return;
  const rt = runtime(id);
  const { topic, qos, retain, encoding } = form;
  const client = connectedClient(conn);
  if (!client) {
    countFor(rt, topic, 'dropped');
    return schedule(conn, rt);
  }
  client.publish(topic, parsed.bytes, { qos, retain }, (error) => {
    if (error) {
      toast(`${t('websocket.publishFailed')}: ${error.message}`, 'error');
      countFor(rt, topic, 'dropped');
    } else {
      rt.published.push({ topic, qos, retain, time: Date.now(), payload: parsed.bytes, encoding });
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

