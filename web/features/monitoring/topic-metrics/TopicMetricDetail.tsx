/**
 * One topic's counters in the drawer, refreshed while open and visible: `GET
 * /mqtt/topic_metrics/{topic}` as a table of in and out per QoS with their rates, and dropped,
 * above the trend of the in, out and dropped rates.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { countersOf } from '../../../lib/useRates.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { RateChart } from '../../../ui/RateChart.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { count, metricPath, rate, type TopicMetric } from './metric.ts';
import './messages.ts';

const ROWS = [
  ['QoS 0', 'qos0'],
  ['QoS 1', 'qos1'],
  ['QoS 2', 'qos2'],
] as const;

const TREND = [
  { key: 'messages.in.count', label: 'topicMetrics.in' },
  { key: 'messages.out.count', label: 'topicMetrics.out' },
  { key: 'messages.dropped.count', label: 'topicMetrics.dropped' },
];

const readCounters = (topic: string) => async (signal: AbortSignal) =>
  countersOf((await api.get<TopicMetric>(metricPath(topic), { signal })).metrics, TREND.map((s) => s.key));

export function TopicMetricDetail({ topic }: { topic: string }) {
  const remote = useRemote('topic-metrics', (signal) => api.get<TopicMetric>(metricPath(topic), { signal }), topic, 5000);
  const m = remote.data;
  if (!m) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  const row = (label: string, prefix: string) => (
    <tr key={label} data-test="topic-metric-row">
      <th scope="row">{label}</th>
      <td class="num">{count(m, `${prefix}in`)}</td>
      <td class="num">{rate(m, `${prefix}in`)}</td>
      <td class="num">{count(m, `${prefix}out`)}</td>
      <td class="num">{rate(m, `${prefix}out`)}</td>
    </tr>
  );
  return (
    <div data-test="topic-metric-detail">
      <Descriptions items={[
        ['topicMetrics.topic', m.topic],
        ['topicMetrics.createTime', formatDateTime(m.create_time)],
        ['topicMetrics.resetTime', formatDateTime(m.reset_time)],
        ['topicMetrics.dropped', `${count(m, 'dropped')} (${rate(m, 'dropped')})`],
      ]} />
      {remote.error ? <Failed error={remote.error} retry={remote.reload} /> : null}
      <table class="compact">
        <thead>
          <tr>
            <th scope="col">{t('topicMetrics.qos')}</th>
            <th scope="col" class="num">{t('topicMetrics.in')}</th>
            <th scope="col" class="num">{t('topicMetrics.inRate')}</th>
            <th scope="col" class="num">{t('topicMetrics.out')}</th>
            <th scope="col" class="num">{t('topicMetrics.outRate')}</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map(([label, key]) => row(label, `${key}.`))}
          {row(t('topicMetrics.total'), '')}
        </tbody>
      </table>
      <RateChart source={metricPath(topic)} load={readCounters(topic)} series={TREND} test="topic-rate-chart" />
    </div>
  );
}
