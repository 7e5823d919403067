/**
 * Metrics: EMQX's counters grouped by prefix, for the whole cluster (`GET /metrics?aggregate=true`)
 * or one node (`GET /metrics?node=<name>`, which answers `[{node, …}]`). The choice is in the URL;
 * the counters refresh every 10 s while the tab is visible, as the overview does, unless paused;
 * Refresh reads them at once, and the time of the last reading says how old they are.
 */
import { useState } from 'react';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Freshness, useStale } from '../../../ui/Freshness.tsx';
import { Icon } from '../../../ui/Icon.tsx';
import { MetricsPanel } from '../../../ui/MetricsPanel.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { DashboardTabs } from './DashboardTabs.tsx';
import { METRIC_GROUPS } from './metricGroups.ts';
import type { NodeInfo } from './nodeInfo.ts';
import './messages.ts';

type Metrics = Record<string, unknown>;
const REFRESH_MS = 10_000;

function load(node: string, signal: AbortSignal): Promise<Metrics | undefined> {
  if (!node) return api.get<Metrics>('/metrics', { params: { aggregate: true }, signal });
  return api.get<Metrics[]>('/metrics', { params: { node }, signal }).then((list) => list.find((m) => m.node === node) ?? list[0]);
}

export default function MetricsPage() {
  const [query, setQuery] = useQuery();
  const node = query.node ?? '';
  const nodes = useRemote('nodes', (signal) => api.get<NodeInfo[]>('/nodes', { signal }));
  const [paused, setPaused] = useState(false);
  const metrics = useRemote('metrics', (signal) => load(node, signal), node, paused ? 0 : REFRESH_MS);
  const stale = useStale(paused ? undefined : metrics.updatedAt, REFRESH_MS);
  const names = nodes.data?.map((n) => n.node) ?? [];
  return (
    <section class="dashboard" data-test="metrics-page">
      <DashboardTabs />
      <header class="page-head">
        <h2 class="visually-hidden">{t('monitoring.metrics')}</h2>
        <label class="inline-field">
          <span>{t('dashboard.scope')}</span>
          <select value={node} data-test="metrics-node" onChange={(e) => setQuery({ node: (e.target as HTMLSelectElement).value || undefined })}>
            <option value="">{t('dashboard.cluster')}</option>
            {[...new Set(node ? [...names, node] : names)].map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
        <div class="toolbar">
          <Freshness at={metrics.updatedAt} every={paused ? Infinity : REFRESH_MS} />
          <button type="button" class="secondary outline" aria-pressed={paused} data-test="metrics-pause" onClick={() => setPaused(!paused)}>
            {t(paused ? 'dashboard.resume' : 'dashboard.pause')}
          </button>
          <button type="button" class="secondary outline icon-button" aria-label={t('common.refresh')} data-test="metrics-refresh" onClick={metrics.reload}>
            <Icon name="refresh" />
          </button>
        </div>
      </header>
      {metrics.error && metrics.data ? <Failed error={metrics.error} retry={metrics.reload} /> : null}
      {metrics.loading && !metrics.data && !metrics.error ? <Loading />
        : metrics.error && !metrics.data ? <Failed error={metrics.error} retry={metrics.reload} />
        : !metrics.data ? <Empty text={t('dashboard.noMetrics')} />
        : <div class={stale ? 'stale' : undefined}><MetricsPanel metrics={metrics.data} groups={METRIC_GROUPS} /></div>}
    </section>
  );
}
