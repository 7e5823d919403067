// The shape of the persisted configuration state (what survives a restart) and its empty value.
// Live state (connections, counters, tokens) is deliberately not here: it is not persisted.
import type { ChannelRecord } from './integration/actions.ts';
import type { AuthnConfig, AuthnUser } from './access/authn.ts';
import type { ConnectorRecord } from './integration/connectors.ts';
import type { AuthzState, BuiltInRules } from './access/authz.ts';
import type { AutoSubscribeTopic } from './messaging/auto-subscribe.ts';
import type { BanRecord } from './access/banned.ts';
import type { DelayedConfig } from './messaging/delayed.ts';
import type { ExhookServerConfig } from './integration/exhook.ts';
import type { GatewayConfig } from './config/gateways.ts';
import type { PluginRecord } from './config/plugins.ts';
import type { RewriteRule } from './messaging/rewrite.ts';
import type { RuleEngineSettings, RuleRecord } from './integration/rules.ts';
import type { NamespaceState } from './namespaces.ts';
import type { ExternalRegistry, SchemaRecord } from './integration/schema-registry.ts';
import type { SlowSubsSettings } from './messaging/slow-subs.ts';
import type { LinkConfig } from './cluster/cluster-links.ts';
import type { Transformation } from './messaging/message-transformation.ts';
import type { Validation } from './messaging/schema-validation.ts';
import type { TopicMetricRecord } from './messaging/topic-metrics.ts';
import type { TraceRecord } from './messaging/trace.ts';

/** A dashboard user as stored; `password_hash` never leaves the store. */
export interface UserRecord {
  username: string;
  description: string;
  password_hash: string;
  created_at: number;
  /** RBAC role (Enterprise); absent means administrator, as for users made before roles. */
  role?: DashboardRole;
  /**
   * 5.9 on (emqx_dashboard_admin.erl, the `extra` map): the MFA state (absent: never set up;
   * `disabled`: turned off; TOTP with the time of the first code verified once set up), an
   * administrator's decision over the user's own MFA changes, the scopes and when the password
   * was last set (epoch seconds, for `dashboard.password_expired_time`).
   */
  mfa_state?: MfaState;
  admin_override?: 'mfa_required' | 'mfa_exempted';
  scopes?: string[];
  password_ts?: number;
}

/** emqx_dashboard_mfa.erl mfa_state(): `disabled` or a TOTP secret. */
export type MfaState = 'disabled' | { mechanism: 'totp'; secret: string; first_verify_ts?: number };

/** emqx_dashboard_rbac.hrl: the dashboard roles and the API key roles. */
export type DashboardRole = 'administrator' | 'viewer';
export type ApiKeyRole = DashboardRole | 'publisher';

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
  /** RBAC role (Enterprise); absent means administrator. */
  role?: ApiKeyRole;
  /** 5.9 on (emqx_mgmt_auth.erl `extra.scopes`): absent on keys made before scopes existed. */
  scopes?: string[];
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
  /** PUT /configs/{root}, /prometheus, /opentelemetry, /mqtt/retainer; absent until changed. */
  config_roots?: Record<string, Record<string, unknown>>;
  /** Listener configs by id (`tcp:default`) after any listener change; absent until changed. */
  listeners?: Record<string, Record<string, unknown>>;
  /** PUT /gateways/{name} (loaded gateways by name), POST /exhooks (in order), POST /plugins/install (boot order). */
  gateways?: Record<string, GatewayConfig>;
  exhooks?: ExhookServerConfig[];
  plugins?: PluginRecord[];
  /** The authentication chain, built-in database users by authenticator id, authorization
   * sources + settings, built-in authorization rules, banned entries, global zone config. */
  authentication?: AuthnConfig[];
  authn_users?: Record<string, AuthnUser[]>;
  authorization?: AuthzState;
  authz_rules?: BuiltInRules;
  banned?: BanRecord[];
  zone?: Record<string, Record<string, unknown>>;
  /** POST/PUT /rules (in creation order) and PUT /rule_engine; absent until changed. */
  rules?: RuleRecord[];
  rule_engine?: Partial<RuleEngineSettings>;
  /** POST/PUT /schema_registry (in creation order) and /schema_registry_external (by name). */
  schema_registry?: SchemaRecord[];
  schema_registry_external?: Record<string, ExternalRegistry>;
  /** The `schema_validation.validations` and `message_transformation.transformations` lists, in order. */
  schema_validations?: Validation[];
  message_transformations?: Transformation[];
  /** POST/PUT /cluster/links (`cluster.links`), in creation order. */
  cluster_links?: LinkConfig[];
  /** POST/PUT /connectors, /actions, /sources (in creation order); absent until changed. */
  connectors?: ConnectorRecord[];
  actions?: ChannelRecord[];
  sources?: ChannelRecord[];
  /** POST /mt/ns/{ns} (6.x managed namespaces) and the objects created with `?ns=`, by namespace. */
  namespaces?: Record<string, NamespaceState>;
  /** PUT /sso/{backend} (Enterprise): raw backend configs by backend name; absent until changed. */
  sso?: Record<string, Record<string, unknown>>;
  /** PUT /file_transfer (Enterprise); absent until changed. */
  file_transfer?: Record<string, unknown>;
  /** POST /license (Enterprise): the key in use; absent means the simulator's built-in license. */
  license_key?: string;
}

/** A state with nothing configured; loaded files are merged over it so new keys get defaults. */
export function emptyState(): PersistedState {
  return { users: [], api_keys: [] };
}
