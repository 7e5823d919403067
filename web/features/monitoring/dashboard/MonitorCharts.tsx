/**
 * Trend charts of `GET /monitor?latest=<seconds>` (or `/monitor/nodes/{node}`): gauges for
 * connections, subscriptions and topics, and received/sent/dropped as messages per second.
 * The range lives in the URL query (`?range=7d`) so a reload keeps it; refreshes every 10 s
 * while the tab is visible.
 */
import { useMemo } from 'react';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Chart, prepareCharts } from '../../../ui/Chart.tsx';
import { Freshness, useStale } from '../../../ui/Freshness.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { RANGES, rangeOf, toChartData, type Sample } from './monitor.ts';
import './messages.ts';

const REFRESH_MS = 10_000;

// The chart library comes with this chunk, not after the first answer, and has drawn once.
prepareCharts();

const CHARTS: { key: string; title: string; fields: [string, string][]; color: string[]; rate?: boolean }[] = [
  { key: 'connections', title: 'dashboard.connections', fields: [['connections', 'dashboard.connections'], ['live_connections', 'dashboard.live']], color: ['#6a5ae0', '#1fa971'] },
  { key: 'subscriptions', title: 'dashboard.subscriptions', fields: [['subscriptions', 'dashboard.subscriptions']], color: ['#2f8fd8'] },
  { key: 'topics', title: 'dashboard.topics', fields: [['topics', 'dashboard.topics']], color: ['#d98a00'] },
  { key: 'received', title: 'dashboard.received', fields: [['received', 'dashboard.receivedRate']], color: ['#1fa971'], rate: true },
  { key: 'sent', title: 'dashboard.sent', fields: [['sent', 'dashboard.sentRate']], color: ['#6a5ae0'], rate: true },
  { key: 'dropped', title: 'dashboard.dropped', fields: [['dropped', 'dashboard.droppedRate']], color: ['#e0443a'], rate: true },
];

export function MonitorCharts({ path }: { path: string }) {
  const [query, setQuery] = useQuery();
  const range = rangeOf(query.range);
  const monitor = useRemote('monitor', (signal) => api.get<Sample[]>(path, { params: { latest: range.seconds }, signal }), `${path} ${range.seconds}`, REFRESH_MS);
  const chart = useMemo(() => {
    if (!Array.isArray(monitor.data)) return undefined;
    const data = toChartData(monitor.data, range.seconds);
    // Built once per answer so the charts update only when new samples arrive.
    const series = CHARTS.map((c) => c.fields.map(([field, name]) => ({ name: t(name), values: data.values[field] })));
    return { labels: data.labels, series };
  }, [monitor.data]);
  const stale = useStale(monitor.updatedAt, REFRESH_MS);
  return (
    <section class="trends" data-test="monitor-charts">
      <header class="panel-head">
        <h3>{t('dashboard.trends')}</h3>
        <Freshness at={monitor.updatedAt} every={REFRESH_MS} test="monitor-updated-at" />
        <div class="range-picker" role="group" aria-label={t('dashboard.range')}>
          {RANGES.map((r) => (
            <button type="button" key={r.key} class={r.key === range.key ? '' : 'secondary outline'} aria-pressed={r.key === range.key}
              data-test={`range-${r.key}`} onClick={() => setQuery({ range: r.key === RANGES[0].key ? undefined : r.key })}>
              {t(`dashboard.range${r.key}`)}
            </button>
          ))}
        </div>
      </header>
      {!chart ? (monitor.error ? <Failed error={monitor.error} retry={monitor.reload} /> : <Loading />)
        : chart.labels.length === 0 ? <Empty text={t('dashboard.noSamples')} /> : (
          <>
            {monitor.error ? <Failed error={monitor.error} retry={monitor.reload} /> : null}
            {/* The charts grey out, not the range picker or a retry above them. */}
            <div class={stale ? 'chart-grid stale' : 'chart-grid'}>
              {CHARTS.map((c, i) => (
                <Chart key={c.key} test={`chart-${c.key}`} height={180} colors={c.color} labels={chart.labels}
                  title={c.rate ? `${t(c.title)} (${t('dashboard.perSecond')})` : t(c.title)}
                  series={chart.series[i]} />
              ))}
            </div>
            <p class="muted note">{t('dashboard.rateNote')}</p>
          </>
        )}
    </section>
  );
}
