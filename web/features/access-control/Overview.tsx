/**
 * The overview tab of an authenticator or authorization source: the status and counters of
 * `…/status` (api part2 §2.6/§3.5) for the cluster and per node, refreshed every 5 s while the tab
 * is visible so counts follow real decisions, and the rate trend of the counters (spec part2 §9:
 * the last minute).
 */
import { api } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { t } from '../../lib/i18n.ts';
import { useRemote } from '../../lib/resources.ts';
import { countersOf } from '../../lib/useRates.ts';
import { RateChart } from '../../ui/RateChart.tsx';
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

const rate = (n: unknown) => (typeof n === 'number' ? n.toFixed(2) : '—');

/** `keys` are the counters to show, labelled `${prefix}.${key}` (e.g. `authn.success`). */
export function Overview({ path, keys, prefix }: { path: string; keys: string[]; prefix: string }) {
  const status = useRemote(`status:${path}`, (signal) => api.get<StatusBody>(path, { signal }), path, 5000);
  const data = status.data;
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
      <RateChart source={path} test="rate-trend" series={keys.map((key) => ({ key, label: `${prefix}.${key}` }))}
        load={async (signal) => countersOf((await api.get<StatusBody>(path, { signal })).metrics, keys)} />
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
