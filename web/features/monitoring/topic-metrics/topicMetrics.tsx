/**
 * Monitoring > Topic metrics as one declaration over `/mqtt/topic_metrics` (emqx-api-part1 §12):
 * counted topics with in/out/dropped counts and rates (live), add (no wildcards), the per-QoS
 * breakdown in a drawer, reset one or all, and delete.
 */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { isEmpty, topicName, type Rule } from '../../../lib/validators.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { count, metricPath, rate, type TopicMetric } from './metric.ts';
import { TopicMetricDetail } from './TopicMetricDetail.tsx';
import './messages.ts';

/** EMQX counts exact topics only; its own message for a wildcard is kept word for word. */
const noWildcard: Rule = (value, values) => (!isEmpty(value) && /[+#]/.test(String(value)) ? t('topicMetrics.wildcard') : topicName(value, values));

const num = (text: string) => <span class="num nowrap">{text}</span>;

export const topicMetrics: ResourceDecl<TopicMetric> = {
  name: 'topic-metrics',
  title: 'monitoring.topicMetrics',
  rowKey: (m) => m.topic,
  list: arrayList<TopicMetric>('/mqtt/topic_metrics'),
  refreshMs: 5000,
  empty: 'topicMetrics.empty',
  filters: [{ name: 'topic', label: 'topicMetrics.filter' }],
  columns: [
    { key: 'topic', title: 'topicMetrics.topic' },
    { key: 'in', title: 'topicMetrics.in', text: (m) => num(count(m, 'in')) },
    { key: 'out', title: 'topicMetrics.out', text: (m) => num(count(m, 'out')) },
    { key: 'dropped', title: 'topicMetrics.dropped', text: (m) => num(count(m, 'dropped')) },
    { key: 'in_rate', title: 'topicMetrics.inRate', text: (m) => num(rate(m, 'in')) },
    { key: 'out_rate', title: 'topicMetrics.outRate', text: (m) => num(rate(m, 'out')) },
  ],
  create: {
    title: 'topicMetrics.add',
    success: 'topicMetrics.added',
    fields: [{ name: 'topic', label: 'topicMetrics.topic', required: true, rules: [noWildcard], help: 'topicMetrics.topicHelp' }],
    submit: ({ topic }) => api.post('/mqtt/topic_metrics', { topic }),
  },
  createLabel: 'topicMetrics.add',
  actions: [
    { key: 'view', label: 'topicMetrics.view', view: { title: 'topicMetrics.viewTitle', render: (m) => <TopicMetricDetail topic={m.topic} /> } },
    {
      key: 'reset', label: 'topicMetrics.reset', confirm: 'topicMetrics.confirmReset', success: 'topicMetrics.resetDone',
      run: (m) => api.put('/mqtt/topic_metrics', { action: 'reset', topic: m.topic }),
    },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'topicMetrics.confirmDelete', success: 'topicMetrics.deleted', run: (m) => api.del(metricPath(m.topic)) },
  ],
  tools: [{
    key: 'reset-all', label: 'topicMetrics.resetAll', confirm: 'topicMetrics.confirmResetAll', success: 'topicMetrics.resetDone',
    run: () => api.put('/mqtt/topic_metrics', { action: 'reset' }),
  }],
};
