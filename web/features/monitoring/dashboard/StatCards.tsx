/**
 * The overview's figure cards from `GET /monitor_current` (emqx-api-part1 §6): gauges and the
 * message rates per second. Fields later brokers add are ignored; missing ones show a dash.
 */
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

export type Current = Record<string, number | undefined>;

const CARDS: [test: string, title: string, field: string, rate?: boolean][] = [
  ['connections', 'dashboard.connections', 'connections'],
  ['live-connections', 'dashboard.liveConnections', 'live_connections'],
  ['subscriptions', 'dashboard.subscriptions', 'subscriptions'],
  ['topics', 'dashboard.topics', 'topics'],
  ['retained', 'dashboard.retained', 'retained_msg_count'],
  ['received-rate', 'dashboard.receivedRate', 'received_msg_rate', true],
  ['sent-rate', 'dashboard.sentRate', 'sent_msg_rate', true],
  ['dropped-rate', 'dashboard.droppedRate', 'dropped_msg_rate', true],
];

export function StatCards({ current, stale }: { current: Current | undefined; stale?: boolean }) {
  return (
    <div class={stale ? 'cards stale' : 'cards'} data-test="overview-cards">
      {CARDS.map(([test, title, field, rate]) => (
        <article class="card" key={test} data-test={`overview-${test}`}>
          <small class="muted">{t(title)}{rate ? ` (${t('dashboard.perSecond')})` : ''}</small>
          <strong>{current ? formatNumber(current[field]) || '—' : '…'}</strong>
        </article>
      ))}
    </div>
  );
}
