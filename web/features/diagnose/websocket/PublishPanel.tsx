/**
 * Publishing on one connection: topic (no wildcards), QoS, retain, and the payload typed as
 * plaintext, base64, JSON or hex; the store checks both before anything is sent.
 */
import { useSnapshot } from 'valtio';
import { t } from '../../../lib/i18n.ts';
import { CheckInput, QOS_OPTIONS, SelectInput, TextInput } from './inputs.tsx';
import { publish } from './messaging.ts';
import { ENCODINGS } from './payload.ts';
import { connectionOf } from './store.ts';

export const encodingOptions = () => ENCODINGS.map((e) => ({ value: e, label: t(`payload.${e}`) }));

export function PublishPanel({ id }: { id: string }) {
  const conn = connectionOf(id);
  const form = useSnapshot(conn, { sync: true }).publishForm;
  return (
    <article class="ws-card" data-test="ws-publish">
      <h3>{t('websocket.publish')}</h3>
      <form onSubmit={(e) => (e.preventDefault(), publish(id))}>
        <div class="ws-inline-form">
          <TextInput name="publishTopic" label="websocket.topic" value={form.topic} error={form.errors.topic} onChange={(v) => (conn.publishForm.topic = v)} />
          <SelectInput name="publishQos" label="websocket.qos" value={form.qos} options={QOS_OPTIONS} onChange={(v) => (conn.publishForm.qos = v)} />
          <SelectInput name="publishEncoding" label="websocket.encoding" value={form.encoding} options={encodingOptions()}
            onChange={(v) => (conn.publishForm.encoding = v)} />
          <div class="ws-field ws-switches">
            <CheckInput name="publishRetain" label="websocket.retain" checked={form.retain} onChange={(v) => (conn.publishForm.retain = v)} />
          </div>
        </div>
        <label class="ws-field">
          <span>{t('websocket.payload')}</span>
          <textarea name="payload" rows={3} value={form.payload} aria-invalid={form.errors.payload ? 'true' : undefined} data-test="ws-payload"
            onInput={(e) => (conn.publishForm.payload = (e.target as HTMLTextAreaElement).value)} />
          {form.errors.payload && <small class="field-error" data-test="error-payload">{form.errors.payload}</small>}
        </label>
        <div class="ws-actions">
          <button type="submit" data-test="ws-publish-submit">{t('websocket.publish')}</button>
        </div>
      </form>
    </article>
  );
}
