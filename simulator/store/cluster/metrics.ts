// The counter and gauge names of GET /metrics and GET /stats (emqx_metrics.hrl,
// emqx_mgmt_api_stats; emqx-api-part1 §5.2–5.3), and zeroed records of them.

export const METRIC_KEYS = [
  'bytes.received', 'bytes.sent', 'packets.received', 'packets.sent',
  'packets.connect.received', 'packets.connack.sent', 'packets.connack.error', 'packets.connack.auth_error',
  'packets.publish.received', 'packets.publish.sent', 'packets.publish.inuse', 'packets.publish.error',
  'packets.publish.auth_error', 'packets.publish.dropped', 'packets.publish.quota_exceeded',
  'packets.puback.received', 'packets.puback.sent', 'packets.puback.inuse', 'packets.puback.missed',
  'packets.pubrec.received', 'packets.pubrec.sent', 'packets.pubrec.inuse', 'packets.pubrec.missed',
  'packets.pubrel.received', 'packets.pubrel.sent', 'packets.pubrel.missed',
  'packets.pubcomp.received', 'packets.pubcomp.sent', 'packets.pubcomp.inuse', 'packets.pubcomp.missed',
  'packets.subscribe.received', 'packets.subscribe.error', 'packets.subscribe.auth_error', 'packets.suback.sent',
  'packets.unsubscribe.received', 'packets.unsubscribe.error', 'packets.unsuback.sent',
  'packets.pingreq.received', 'packets.pingresp.sent',
  'packets.disconnect.received', 'packets.disconnect.sent', 'packets.auth.received', 'packets.auth.sent',
  'messages.received', 'messages.sent',
  'messages.qos0.received', 'messages.qos0.sent', 'messages.qos1.received', 'messages.qos1.sent',
  'messages.qos2.received', 'messages.qos2.sent',
  'messages.publish', 'messages.dropped',
  'messages.validation_failed', 'messages.validation_succeeded',
  'messages.transformation_failed', 'messages.transformation_succeeded',
  'messages.dropped.await_pubrel_timeout', 'messages.dropped.no_subscribers', 'messages.dropped.quota_exceeded',
  'messages.forward', 'messages.delayed', 'messages.delivered', 'messages.acked', 'messages.persisted',
  'delivery.dropped', 'delivery.dropped.no_local', 'delivery.dropped.too_large', 'delivery.dropped.qos0_msg',
  'delivery.dropped.queue_full', 'delivery.dropped.expired',
  'client.connect', 'client.connack', 'client.connected', 'client.authenticate', 'client.auth.anonymous',
  'client.authorize', 'client.subscribe', 'client.unsubscribe', 'client.disconnected',
  'session.created', 'session.resumed', 'session.takenover', 'session.discarded', 'session.terminated',
  'authorization.allow', 'authorization.deny', 'authorization.cache_hit', 'authorization.cache_miss',
  'authentication.success', 'authentication.success.anonymous', 'authentication.failure',
  'overload_protection.delay.ok', 'overload_protection.delay.timeout', 'overload_protection.hibernation',
  'overload_protection.gc', 'overload_protection.new_conn',
] as const;

export type MetricKey = (typeof METRIC_KEYS)[number];
export type Metrics = Record<MetricKey, number>;

/** Stats gauges; each `.count` has a `.max` high-water mark. */
export const STATS_NAMES = [
  'channels', 'connections', 'delayed', 'live_connections', 'cluster_sessions', 'retained', 'sessions',
  'suboptions', 'subscribers', 'subscriptions', 'subscriptions.shared', 'topics',
] as const;

export type StatsName = (typeof STATS_NAMES)[number];
export type Stats = Record<string, number>;

/** Stats that are cluster-wide, taken once rather than summed when aggregating (§5.2). */
export const CLUSTER_WIDE_STATS: ReadonlySet<StatsName> = new Set(['retained', 'topics', 'subscriptions.shared', 'cluster_sessions']);

export function zeroMetrics(): Metrics {
  const metrics = {} as Metrics;
  for (const key of METRIC_KEYS) metrics[key] = 0;
  return metrics;
}

export function zeroStats(): Stats {
  const stats: Stats = {};
  for (const name of STATS_NAMES) {
    stats[`${name}.count`] = 0;
    stats[`${name}.max`] = 0;
  }
  return stats;
}
