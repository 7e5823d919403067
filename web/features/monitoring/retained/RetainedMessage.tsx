/**
 * One retained message in the drawer: `GET /mqtt/retainer/message/{topic}` (topic URL-encoded,
 * emqx-api-part1 §11) and its base64 payload in PayloadView. The broker leaves `payload` out
 * above 1 MB; that is said instead of shown.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { PayloadView } from '../../../ui/PayloadView.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import type { Retained } from './retained.tsx';
import './messages.ts';

/** Bytes of a base64 text without decoding it. */
export const base64Size = (b64: string) => Math.max(0, Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0));

export function RetainedMessage({ topic }: { topic: string }) {
  const message = useRemote('retained-message', (signal) => api.get<Retained>(`/mqtt/retainer/message/${encodeURIComponent(topic)}`, { signal }), topic);
  const m = message.data;
  if (!m) return message.error ? <Failed error={message.error} retry={message.reload} /> : <Loading />;
  const hasPayload = typeof m.payload === 'string';
  return (
    <div data-test="retained-message">
      <Descriptions items={[
        ['retained.topic', m.topic],
        ['retained.qos', String(m.qos)],
        ['retained.fromClientid', m.from_clientid],
        ['retained.fromUsername', m.from_username],
        ['retained.publishAt', formatDateTime(m.publish_at)],
        ['retained.msgid', m.msgid],
        // PayloadView shows the size of a payload it has; the broker omits those over 1 MB.
        ...(hasPayload ? [] : [['retained.payloadSize', '> 1 MB'] as [string, string]]),
      ]} />
      <h4>{t('retained.payload')}</h4>
      {hasPayload
        ? <PayloadView base64={m.payload!} size={base64Size(m.payload!)} />
        : <p class="muted" data-test="payload-too-large">{t('retained.payloadOmitted')}</p>}
    </div>
  );
}
