/**
 * The metrics tab of an action or a source: `GET /{actions|sources}/{id}/metrics` as counters by
 * group, refreshed while visible, with a reset, and the rate trend of what it handles.
 */
import { api } from '../../../lib/api.ts';
import { perform, useRemote } from '../../../lib/resources.ts';
import { countersOf } from '../../../lib/useRates.ts';
import { t } from '../../../lib/i18n.ts';
import { MetricsPanel } from '../../../ui/MetricsPanel.tsx';
import { RateChart, type RateSeries } from '../../../ui/RateChart.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { apiPath } from '../connectors/bridge.ts';
import type { BridgeKind } from './bridgeList.tsx';
import './messages.ts';

const GROUPS = [
  { title: 'bridges.counts', prefixes: ['matched', 'success', 'failed', 'received', 'retried', 'late_reply'] },
  { title: 'bridges.dropped', prefixes: ['dropped'] },
  { title: 'bridges.buffer', prefixes: ['inflight', 'queuing'] },
  { title: 'bridges.rates', prefixes: ['rate'] },
];

/** An action counts what rules hand it and how sending went; a source counts what it receives. */
export const TREND: Record<BridgeKind, RateSeries[]> = {
  actions: [{ key: 'matched', label: 'bridges.matched' }, { key: 'success', label: 'bridges.success' }, { key: 'failed', label: 'bridges.failed' }],
  sources: [{ key: 'received', label: 'bridges.received' }],
};

type Body = { metrics: Record<string, number> };

/** Reads the counters of the trend from one action's or source's metrics. */
export const readBridgeCounters = (kind: BridgeKind, id: string) => async (signal: AbortSignal) =>
  countersOf((await api.get<Body>(apiPath(kind, id, '/metrics'), { signal })).metrics, TREND[kind].map((s) => s.key));

export function BridgeMetrics({ kind, id, name }: { kind: BridgeKind; id: string; name: string }) {
  const metrics = useRemote(`${kind}:metrics`, (signal) => api.get<Body>(apiPath(kind, id, '/metrics'), { signal }), id, 5000);
  const reset = () => perform({
    resource: `${kind}:metrics`, run: () => api.put(apiPath(kind, id, '/metrics/reset')), confirm: 'bridges.confirmReset', params: { key: name }, success: 'bridges.resetDone',
  });
  return (
    <div data-test="bridge-metrics">
      <div class="toolbar">
        <Writable>
          <button type="button" class="secondary outline" data-test="bridge-reset" onClick={reset}>{t('bridges.resetMetrics')}</button>
        </Writable>
      </div>
      <RateChart source={apiPath(kind, id, '/metrics')} load={readBridgeCounters(kind, id)} series={TREND[kind]} test="bridge-rate-chart" />
      {metrics.error && !metrics.data ? <Failed error={metrics.error} retry={metrics.reload} />
        : !metrics.data ? <Loading /> : <MetricsPanel metrics={metrics.data.metrics} groups={GROUPS} />}
    </div>
  );
}
