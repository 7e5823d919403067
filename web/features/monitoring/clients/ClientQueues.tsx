/**
 * The messages waiting in a client's queue and those in its inflight window, where the broker lists
 * them (`GET /clients/{id}/mqueue_messages` and `/inflight_messages`, v5.6.0 on, `has('clientQueues')`):
 * the oldest first, 20 at a time with "More" following the broker's `position`, each payload shown
 * by its first 256 bytes (`max_payload_bytes`), as text when it is UTF-8, else in hex.
 */
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { handleError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { ResourceTable } from '../../../ui/ResourceTable.tsx';
import type { Column } from '../../../ui/resource.ts';
import { clientPath } from './clients.ts';

export interface QueuedMessage {
  msgid: string;
  topic: string;
  qos: number;
  publish_at?: number;
  from_clientid?: string;
  payload?: string;
  inserted_at?: string;
  mqueue_priority?: number | 'infinity';
}
interface Page { data: QueuedMessage[]; meta: { position?: string; start?: string } }

const LIMIT = 20;
const PREVIEW_BYTES = 256;
/** The broker's position after the last message: nothing more to read. */
const END = 'end_of_data';

/** A payload's head as text, or in hex when it is not UTF-8. */
export function payloadPreview(base64 = ''): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  }
}

const columns = (queue: boolean): Column<QueuedMessage>[] => [
  { key: 'topic', title: 'clients.topic' },
  { key: 'qos', title: 'clients.qos' },
  ...(queue ? [{ key: 'mqueue_priority', title: 'clients.priority' }] : []),
  { key: 'publish_at', title: 'clients.publishedAt', text: (m: QueuedMessage) => formatDateTime(m.publish_at) },
  { key: 'from_clientid', title: 'clients.fromClient' },
  { key: 'payload', title: 'clients.payload', text: (m: QueuedMessage) => <code class="queue-payload">{payloadPreview(m.payload)}</code> },
];

function Queue({ clientid, kind }: { clientid: string; kind: 'mqueue' | 'inflight' }) {
  const path = `${clientPath(clientid)}/${kind}_messages`;
  const params = (position?: string) => ({ position, limit: LIMIT, payload: 'base64', max_payload_bytes: PREVIEW_BYTES });
  const first = useRemote('client', (signal) => api.get<Page>(path, { params: params(), signal }), path);
  const [more, setMore] = useState<{ rows: QueuedMessage[]; position?: string }>({ rows: [] });
  // A new first page starts the list again.
  useEffect(() => setMore({ rows: [], position: first.data?.meta.position }), [first.data]);
  const loadMore = () => api.get<Page>(path, { params: params(more.position) }).then(
    (page) => setMore({ rows: [...more.rows, ...page.data], position: page.meta.position }), handleError);
  const rows = first.data && [...first.data.data, ...more.rows];
  const test = `client-${kind}`;
  return (
    <article class="panel" data-test={test}>
      <header class="panel-head"><h3>{t(`clients.${kind}List`)}</h3></header>
      <ResourceTable<QueuedMessage> name={test} columns={columns(kind === 'mqueue')} rows={rows} rowKey={(m) => m.msgid}
        loading={first.loading} error={first.error} retry={first.reload} empty={`clients.${kind}Empty`} />
      {rows && rows.length >= LIMIT && more.position && more.position !== END && more.position !== 'none' && (
        <button type="button" class="secondary outline" data-test={`${test}-more`} onClick={() => void loadMore()}>{t('clients.more')}</button>
      )}
    </article>
  );
}

export function ClientQueues({ clientid }: { clientid: string }) {
  return (
    <div class="overview-row client-queues">
      <Queue clientid={clientid} kind="mqueue" />
      <Queue clientid={clientid} kind="inflight" />
    </div>
  );
}
