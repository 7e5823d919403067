/**
 * One delayed message in the drawer: `GET /mqtt/delayed/messages/{node}/{msgid}` (§16) and its
 * base64 payload in PayloadView; above 2048 bytes the broker sends `PAYLOAD_TOO_LARGE` instead.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { PayloadView } from '../../../ui/PayloadView.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import type { DelayedItem } from './delayed.tsx';
import './messages.ts';

export function DelayedMessage({ node, msgid }: { node: string; msgid: string }) {
  const path = `/mqtt/delayed/messages/${encodeURIComponent(node)}/${encodeURIComponent(msgid)}`;
  const message = useRemote('delayed-message', (signal) => api.get<DelayedItem & { payload: string }>(path, { signal }), path);
  const m = message.data;
  if (!m) return message.error ? <Failed error={message.error} retry={message.reload} /> : <Loading />;
  return (
    <div data-test="delayed-message">
      <Descriptions items={[
        ['delayed.destTopic', m.topic],
        ['delayed.qos', String(m.qos)],
        ['delayed.fromClientid', m.from_clientid],
        ['delayed.fromUsername', m.from_username],
        ['delayed.publishAt', formatDateTime(m.publish_at)],
        ['delayed.expectedAt', formatDateTime(m.expected_at)],
        ['delayed.msgid', m.msgid],
      ]} />
      <h4>{t('delayed.payload')}</h4>
      {m.payload === 'PAYLOAD_TOO_LARGE'
        ? <p class="muted" data-test="payload-too-large">{t('delayed.payloadTooLarge')}</p>
        : <PayloadView base64={m.payload} />}
    </div>
  );
}
