/**
 * What a webhook has sent: the counters of its http action (`GET /actions/http:<name>_WH_D/metrics`,
 * refreshed while visible) and their rate trend. The rule's own counters stay on the rule page.
 */
import { api } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { RateChart } from '../../../ui/RateChart.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { readBridgeCounters, TREND } from '../actions/BridgeMetrics.tsx';
import { apiPath, bridgeId, type Bridge } from '../connectors/bridge.ts';
import './messages.ts';

const COUNTS = ['matched', 'success', 'failed', 'dropped', 'inflight', 'queuing'];

export function WebhookMetrics({ action }: { action: Bridge }) {
  const id = bridgeId(action);
  const remote = useRemote('webhook:metrics', (signal) => api.get<{ metrics: Record<string, number> }>(apiPath('actions', id, '/metrics'), { signal }), id, 5000);
  const m = remote.data?.metrics;
  return (
    <section data-test="webhook-metrics">
      <h3 class="section-title">{t('webhook.metrics')}</h3>
      <RateChart source={apiPath('actions', id, '/metrics')} load={readBridgeCounters('actions', id)} series={TREND.actions} test="webhook-rate-chart" />
      {!m ? (remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />) : (
        <Descriptions test="webhook-counts" items={[
          ...COUNTS.map((key): [string, string] => [`webhook.metric.${key}`, formatNumber(m[key] ?? 0)]),
          ['webhook.metric.rate', t('webhook.perSecond', { n: formatNumber(m.rate ?? 0) })],
        ]} />
      )}
    </section>
  );
}
