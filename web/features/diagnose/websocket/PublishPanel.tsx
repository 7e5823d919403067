/**
 * Publishing on one connection: topic (no wildcards), QoS, retain, the payload typed as plaintext,
 * base64, JSON or hex, and on MQTT 5 the message properties (user properties as key and value
 * rows, content type, message expiry, topic alias, response topic, correlation data). The store
 * checks everything before anything is sent.
 */
import { useSnapshot } from 'valtio';
import { t } from '../../../lib/i18n.ts';
import { Icon } from '../../../ui/Icon.tsx';
import { CheckInput, QOS_OPTIONS, SelectInput, TextInput } from './inputs.tsx';
import { publish } from './messaging.ts';
import { ENCODINGS } from './payload.ts';
import { keyMissing, V5_FIELDS, V5_NUMBERS } from './properties.ts';
import { connectionOf } from './store.ts';

export const encodingOptions = () => ENCODINGS.map((e) => ({ value: e, label: t(`payload.${e}`) }));

export function PublishPanel({ id }: { id: string }) {
  const conn = connectionOf(id);
  const snap = useSnapshot(conn, { sync: true });
  const form = snap.publishForm;
  const rows = conn.publishForm.userProperties;
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
        {snap.settings.protocolVersion === 5 && (
          <details class="ws-will" data-test="ws-publish-v5">
            <summary>{t('websocket.v5Properties')}</summary>
            <div class="ws-field" role="group" aria-label={t('websocket.userProperties')} data-test="ws-user-properties">
              <span>{t('websocket.userProperties')}</span>
              {form.userProperties.map((row, i) => (
                <span class="ws-input-row" key={i}>
                  <input value={row.key} placeholder={t('websocket.key')} aria-label={t('websocket.key')} data-test="ws-property-key"
                    aria-invalid={form.errors.userProperties && keyMissing(row) ? 'true' : undefined}
                    onInput={(e) => (rows[i].key = (e.target as HTMLInputElement).value)} />
                  <input value={row.value} placeholder={t('websocket.value')} aria-label={t('websocket.value')} data-test="ws-property-value"
                    onInput={(e) => (rows[i].value = (e.target as HTMLInputElement).value)} />
                  <button type="button" class="secondary outline ws-icon-button" aria-label={t('common.delete')} title={t('common.delete')}
                    data-test="ws-property-remove" onClick={() => rows.splice(i, 1)}><Icon name="close" size={16} /></button>
                </span>
              ))}
              {form.errors.userProperties && <small class="field-error" data-test="error-userProperties">{form.errors.userProperties}</small>}
              <span>
                <button type="button" class="secondary outline ws-icon-button" data-test="ws-property-add" onClick={() => rows.push({ key: '', value: '' })}>
                  <Icon name="plus" size={16} /> {t('websocket.addProperty')}
                </button>
              </span>
            </div>
            <div class="ws-grid-4">
              {V5_FIELDS.map((name) => (
                <TextInput key={name} name={name} label={`websocket.${name}`} value={form[name]} error={form.errors[name]} type={V5_NUMBERS.includes(name) ? 'number' : 'text'}
                  onChange={(v) => Object.assign(conn.publishForm, { [name]: v })} />
              ))}
            </div>
          </details>
        )}
        <div class="ws-actions">
          <button type="submit" data-test="ws-publish-submit">{t('websocket.publish')}</button>
        </div>
      </form>
    </article>
  );
}
