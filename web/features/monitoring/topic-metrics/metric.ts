/** A topic's counters as `GET /mqtt/topic_metrics` returns them, and how cells show them. */
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

export interface TopicMetric {
  topic: string;
  create_time: string;
  reset_time?: string;
  metrics: Record<string, number>;
}

export const metricPath = (topic: string) => `/mqtt/topic_metrics/${encodeURIComponent(topic)}`;
export const count = (m: TopicMetric, key: string) => formatNumber(m.metrics?.[`messages.${key}.count`] ?? 0);
export const rate = (m: TopicMetric, key: string) => t('topicMetrics.rate', { n: formatNumber(m.metrics?.[`messages.${key}.rate`] ?? 0) });
