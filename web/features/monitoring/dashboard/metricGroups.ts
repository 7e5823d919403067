/** How EMQX's metric keys (emqx-api-part1 §5.3) are grouped on the metrics and node screens. */
import type { MetricGroup } from '../../../ui/MetricsPanel.tsx';
import './messages.ts';

export const METRIC_GROUPS: MetricGroup[] = [
  { title: 'dashboard.groupPackets', prefixes: ['packets.'] },
  { title: 'dashboard.groupMessages', prefixes: ['messages.'] },
  { title: 'dashboard.groupBytes', prefixes: ['bytes.'] },
  { title: 'dashboard.groupDelivery', prefixes: ['delivery.'] },
  { title: 'dashboard.groupClient', prefixes: ['client.'] },
  { title: 'dashboard.groupSession', prefixes: ['session.'] },
  { title: 'dashboard.groupAuthorization', prefixes: ['authorization.'] },
  { title: 'dashboard.groupAuthentication', prefixes: ['authentication.'] },
  { title: 'dashboard.groupOverload', prefixes: ['overload_protection.'] },
];

/** Stats gauges (`connections.count`, `topics.max` …, emqx-api-part1 §5.2) by subject. */
export const STATS_GROUPS: MetricGroup[] = [
  { title: 'dashboard.statsConnections', prefixes: ['connections.', 'live_connections.', 'channels.', 'sessions.', 'cluster_sessions.'] },
  { title: 'dashboard.statsSubscriptions', prefixes: ['subscriptions.', 'suboptions.', 'subscribers.', 'durable_subscriptions.'] },
  { title: 'dashboard.statsTopics', prefixes: ['topics.', 'retained.', 'delayed.'] },
];
