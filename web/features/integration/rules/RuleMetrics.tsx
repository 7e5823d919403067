/**
 * A rule's counters (`GET /rules/{id}/metrics`, refreshed while the tab is visible) with a reset,
 * and the trend of its matched, passed and failed rates.
 */
import { api } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { countersOf } from '../../../lib/useRates.ts';
import { t } from '../../../lib/i18n.ts';
import { perform, useRemote } from '../../../lib/resources.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { RateChart } from '../../../ui/RateChart.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { rulePath } from './rules.tsx';
import './messages.ts';

// The broker's metric keys are literal dotted names (emqx-api-part2 §5.4).
const COUNTS: [string, string][] = [
  ['matched', 'rules.matched'], ['passed', 'rules.passed'], ['failed', 'rules.failed'],
  ['failed.exception', 'rules.failedException'], ['failed.no_result', 'rules.failedNoResult'],
  ['actions.total', 'rules.actionsTotal'], ['actions.success', 'rules.actionsSuccess'], ['actions.failed', 'rules.actionsFailed'],
];
const RATES: [string, string][] = [['matched.rate', 'rules.rate'], ['matched.rate.max', 'rules.rateMax'], ['matched.rate.last5m', 'rules.rateLast5m']];
const TREND = [{ key: 'matched', label: 'rules.matched' }, { key: 'passed', label: 'rules.passed' }, { key: 'failed', label: 'rules.failed' }];

const readCounters = (id: string) => async (signal: AbortSignal) =>
  countersOf((await api.get<{ metrics: Record<string, number> }>(rulePath(id, '/metrics'), { signal })).metrics, TREND.map((s) => s.key));

export function RuleMetrics({ id }: { id: string }) {
  const remote = useRemote('rules', (signal) => api.get<{ metrics: Record<string, number> }>(rulePath(id, '/metrics'), { signal }), `${id}/metrics`, 5000);
  if (!remote.data) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  const m = remote.data.metrics ?? {};
  const reset = () => perform({
    resource: 'rules', run: () => api.put(rulePath(id, '/metrics/reset')), confirm: 'rules.confirmReset', params: { key: id }, success: 'rules.resetDone',
  });
  return (
    <section data-test="rule-metrics">
      <div class="sql-toolbar">
        <h3 class="section-title">{t('rules.metrics')}</h3>
        <Writable><button type="button" class="secondary outline" data-test="rule-metrics-reset" onClick={reset}>{t('rules.resetMetrics')}</button></Writable>
      </div>
      <RateChart source={rulePath(id, '/metrics')} load={readCounters(id)} series={TREND} test="rule-rate-chart" />
      <Descriptions items={[
        ...COUNTS.map(([key, label]): [string, string] => [label, formatNumber(m[key] ?? 0)]),
        ...RATES.map(([key, label]): [string, string] => [label, t('rules.perSecond', { n: formatNumber(m[key] ?? 0) })]),
      ]} />
    </section>
  );
}
