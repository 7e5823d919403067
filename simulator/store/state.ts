// The shape of the persisted configuration state (what survives a restart) and its empty value.
// Live state (connections, counters, tokens) is deliberately not here: it is not persisted.
import type { AutoSubscribeTopic } from './auto-subscribe.ts';
import type { DelayedConfig } from './delayed.ts';
import type { RewriteRule } from './rewrite.ts';
import type { SlowSubsSettings } from './slow-subs.ts';
import type { TopicMetricRecord } from './topic-metrics.ts';
import type { TraceRecord } from './trace.ts';

/** A dashboard user as stored; `password_hash` never leaves the store. */
export interface UserRecord {
  username: string;
  description: string;
  password_hash: string;
  created_at: number;
}

/** An API key as stored; only the hash of its secret is kept (security.md S6). */
export interface ApiKeyRecord {
  name: string;
  api_key: string;
  secret_hash: string;
  desc: string;
  enable: boolean;
  /** Epoch ms, or null for "infinity". */
  expired_at: number | null;
  created_at: number;
}

export interface PersistedState {
  users: UserRecord[];
  api_keys: ApiKeyRecord[];
  /** PUT /license/setting; absent until changed. */
  license_setting?: { connection_low_watermark: string; connection_high_watermark: string };
  /** PUT /mqtt/topic_rewrite, PUT /mqtt/auto_subscribe, PUT /mqtt/delayed; absent until changed. */
  rewrite?: RewriteRule[];
  auto_subscribe?: AutoSubscribeTopic[];
  delayed?: DelayedConfig;
  /** POST /trace, POST /mqtt/topic_metrics, PUT /slow_subscriptions/settings; absent until changed. */
  traces?: TraceRecord[];
  topic_metrics?: TopicMetricRecord[];
  slow_subs?: SlowSubsSettings;
}

/** A state with nothing configured; loaded files are merged over it so new keys get defaults. */
export function emptyState(): PersistedState {
  return { users: [], api_keys: [] };
}
