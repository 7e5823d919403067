/**
 * The overview tab of an authenticator or authorization source: the status and counters of
 * `…/status` (api part2 §2.6/§3.5) for the cluster and per node, refreshed every 5 s while the tab
 * is visible so counts follow real decisions.
 */
import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { t } from '../../lib/i18n.ts';
import { useRemote } from '../../lib/resources.ts';
import { Chart } from '../../ui/Chart.tsx';
import { Failed, Loading } from '../../ui/States.tsx';
import { StatusTag } from '../../ui/StatusTag.tsx';
import './messages.ts';

type Metrics = Record<string, number>;
interface StatusBody {
  status: string;
  status_reason?: string;
  metrics?: Metrics;
  node_metrics?: { node: string; metrics: Metrics }[];
  node_status?: { node: string; status: string }[];
}

/** The trend covers the last minute (spec part2 §9), sampled at each 5 s refresh. */
const TREND_MS = 60_000;
type Sample = { at: number; rates: Record<string, number> };

/** Keeps the per-node `rate` of each answer for the last minute. */
function useTrend(data: StatusBody | undefined): Sample[] {
  const samples = useRef<Sample[]>([]);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!data?.node_metrics) return;
    const now = Date.now();
    const rates = Object.fromEntries(data.node_metrics.map((n) => [n.node, Number(n.metrics?.rate ?? 0)]));
    samples.current = [...samples.current.filter((s) => now - s.at <= TREND_MS), { at: now, rates }];
    setTick((n) => n + 1);
  }, [data]);
  return samples.current;
}

const rate = (n: unknown) => (typeof n === 'number' ? n.toFixed(2) : '—');

/** `keys` are the counters to show, labelled `${prefix}.${key}` (e.g. `authn.success`). */
export function Overview({ path, keys, prefix }: { path: string; keys: string[]; prefix: string }) {
  const status = useRemote(`status:${path}`, (signal) => api.get<StatusBody>(path, { signal }), path, 5000);
  const data = status.data;
  const trend = useTrend(data);
  if (!data) return status.error ? <Failed error={status.error} retry={status.reload} /> : <Loading />;
  const nodeStatus = (node: string) => data.node_status?.find((n) => n.node === node)?.status;
  return (
    <div class="access-overview" data-test="access-overview">
      <p class="node-title">{t('access.status')}: <StatusTag status={data.status} test="access-status" />
        {data.status_reason && <span class="muted">{t('access.statusReason')}: {data.status_reason}</span>}</p>
      <div class="cards">
        {keys.map((key) => (
          <article class="card" key={key} data-test={`metric-${key}`}>
            <span class="muted">{t(`${prefix}.${key}`)}</span>
            <strong>{formatNumber(data.metrics?.[key] ?? 0)}</strong>
          </article>
        ))}
        <article class="card" data-test="metric-rate">
          <span class="muted">{t('access.rate')}</span>
          <strong>{rate(data.metrics?.rate)}</strong>
          <small class="muted">{t('access.rateMax')} {rate(data.metrics?.rate_max)} · {t('access.rateLast5m')} {rate(data.metrics?.rate_last5m)}</small>
        </article>
      </div>
      {trend.length > 1 && (
        <div class="chart-grid access-trend">
          <Chart title={t('access.rateTrend')} height={160} test="rate-trend" labels={trend.map((s) => new Date(s.at).toLocaleTimeString())}
            series={(data.node_metrics ?? []).map((n) => ({ name: n.node, values: trend.map((s) => s.rates[n.node] ?? 0) }))} />
        </div>
      )}
      <h3 class="section-title">{t('access.nodeMetrics')}</h3>
      <table class="compact striped" data-test="node-metrics">
        <thead><tr><th>{t('access.node')}</th><th>{t('access.status')}</th>{keys.map((k) => <th key={k}>{t(`${prefix}.${k}`)}</th>)}<th>{t('access.rate')}</th></tr></thead>
        <tbody>
          {(data.node_metrics ?? []).map((n) => (
            <tr key={n.node}>
              <td>{n.node}</td><td><StatusTag status={nodeStatus(n.node)} /></td>
              {keys.map((k) => <td key={k} class="num">{formatNumber(n.metrics?.[k] ?? 0)}</td>)}
              <td class="num">{rate(n.metrics?.rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
