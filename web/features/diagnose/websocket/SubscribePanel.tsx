/**
 * Subscribing on one connection: a topic filter with its QoS (and on MQTT 5 a subscription
 * identifier), and the list of current subscriptions, each with unsubscribe. The broker's
 * refusals are toasted by the store.
 */
import { useSnapshot } from 'valtio';
import { t } from '../../../lib/i18n.ts';
import { NumberInput, QOS_OPTIONS, SelectInput, TextInput } from './inputs.tsx';
import { subscribe, unsubscribe } from './messaging.ts';
import { connectionOf } from './store.ts';

export function SubscribePanel({ id }: { id: string }) {
  const conn = connectionOf(id);
  const snap = useSnapshot(conn, { sync: true });
  const form = snap.subscribeForm;
  return (
    <article class="ws-card" data-test="ws-subscribe">
      <h3>{t('monitoring.subscriptions')}</h3>
      <form class="ws-inline-form" onSubmit={(e) => (e.preventDefault(), subscribe(id))}>
        <TextInput name="subscribeTopic" label="websocket.topic" value={form.topic} error={form.errors.topic} placeholder="t/#"
          onChange={(v) => (conn.subscribeForm.topic = v)} />
        <SelectInput name="subscribeQos" label="websocket.qos" value={form.qos} options={QOS_OPTIONS} onChange={(v) => (conn.subscribeForm.qos = v)} />
        {snap.settings.protocolVersion === 5 && (
          <NumberInput name="subscriptionId" label="websocket.subscriptionIdentifier" value={form.subscriptionId} error={form.errors.subscriptionId}
            onChange={(v) => (conn.subscribeForm.subscriptionId = v)} />
        )}
        <button type="submit" data-test="ws-subscribe-submit">{t('websocket.subscribe')}</button>
      </form>
      {snap.subscriptions.length === 0
        ? <p class="muted" data-test="ws-no-subscriptions">{t('websocket.noSubscriptions')}</p>
        : (
          <ul class="ws-subscriptions">
            {snap.subscriptions.map((sub) => (
              <li key={sub.topic} data-test="ws-subscription" data-topic={sub.topic}>
                <code>{sub.topic}</code>
                <span class="tag tag-off">QoS {sub.qos}</span>
                <button type="button" class="link danger" data-test="ws-unsubscribe" onClick={() => unsubscribe(id, sub.topic)}>
                  {t('websocket.unsubscribe')}
                </button>
              </li>
            ))}
          </ul>
        )}
    </article>
  );
}
