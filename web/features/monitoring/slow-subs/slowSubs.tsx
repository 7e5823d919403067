/**
 * Monitoring > Slow subscriptions as one declaration over `GET /slow_subscriptions` (envelope F:
 * the slowest first, at most 1000, no paging on the server, so the table pages in the browser),
 * with clearing (which restarts the statistics) and a link to the settings.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { DEFAULT_LIMIT, type ResourceDecl } from '../../../ui/resource.ts';
import './messages.ts';

export interface SlowSub {
  clientid: string;
  node: string;
  topic: string;
  timespan: number;
  last_update_time: number;
  rank: number;
}

async function list(query: Record<string, string>, signal: AbortSignal) {
  const page = Math.max(1, Number(query.page) || 1);
  const limit = Math.max(1, Number(query.limit) || DEFAULT_LIMIT);
  const { data } = await api.get<{ data: Omit<SlowSub, 'rank'>[] }>('/slow_subscriptions', { signal });
  const rows = data.map((row, i) => ({ ...row, rank: i + 1 }));
  return { rows: rows.slice((page - 1) * limit, page * limit), meta: { page, limit, count: rows.length } };
}

export const slowSubs: ResourceDecl<SlowSub> = {
  name: 'slow-subscriptions',
  title: 'monitoring.slowSubscriptions',
  rowKey: (s) => `${s.clientid}\n${s.topic}`,
  list,
  refreshMs: 5000,
  empty: 'slowSubs.empty',
  columns: [
    { key: 'rank', title: 'slowSubs.rank' },
    { key: 'clientid', title: 'slowSubs.clientid', link: (s) => `/clients/detail/${encodeURIComponent(s.clientid)}` },
    { key: 'topic', title: 'slowSubs.topic' },
    { key: 'timespan', title: 'slowSubs.timespan', text: (s) => <span class="num nowrap">{t('slowSubs.ms', { n: formatNumber(s.timespan) })}</span> },
    { key: 'node', title: 'slowSubs.node' },
    { key: 'last_update_time', title: 'slowSubs.lastUpdate', text: (s) => <span class="nowrap">{formatDateTime(s.last_update_time)}</span> },
  ],
  tools: [
    { key: 'settings', label: 'common.settings', href: '/slow-sub/config', run: async () => undefined },
    { key: 'clear', label: 'slowSubs.clear', danger: true, confirm: 'slowSubs.confirmClear', success: 'slowSubs.cleared', run: () => api.del('/slow_subscriptions') },
  ],
};
