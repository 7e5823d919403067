// The broker release the simulator is: EMQX 5.5.1 or 5.8.9, Enterprise (`ee`) or Community (`ce`).
// Everything that differs between those four lives in the tables of this file, so a reader sees at
// a glance what each release has; routes and store modules ask the profile (`store.profile`) and
// never compare version strings themselves. The facts come from the broker source at tags v5.5.1
// and v5.8.9 of emqx/emqx (file names cited per row) and from ../shared/api/corrections.md.
//
// `since` is the first release known to have a thing. Where the source only tells "not in 5.5.1,
// in 5.8.9" without naming the release in between, it says '5.6.0' (the first release after the
// 5.5 line); for the two releases simulated the outcome is the same.

export const VERSIONS = ['5.5.1', '5.8.9'] as const;
export const EDITIONS = ['ee', 'ce'] as const;
export type EmqxVersion = (typeof VERSIONS)[number];
export type Edition = (typeof EDITIONS)[number];

/** Where a feature exists: from a release on, only in one edition, or both. */
export interface Availability {
  since?: string;
  /** The first release without it (it was removed). */
  until?: string;
  /** The broker application it belongs to; Enterprise-only applications are listed below. */
  app?: string;
}

/**
 * Applications built only into the Enterprise edition (5.5.1: `enterprise_umbrella_apps` in
 * mix.exs; 5.8.9: `is_community_umbrella_app(...) -> false` in rebar.config.erl), limited to the
 * ones whose API the simulator serves or the console calls.
 */
const ENTERPRISE_APPS: Record<EmqxVersion, readonly string[]> = {
  '5.5.1': ['emqx_license', 'emqx_schema_registry', 'emqx_ft', 'emqx_audit', 'emqx_dashboard_sso', 'emqx_dashboard_rbac', 'emqx_gcp_device', 'emqx_enterprise'],
  '5.8.9': [
    'emqx_license', 'emqx_schema_registry', 'emqx_ft', 'emqx_audit', 'emqx_dashboard_sso', 'emqx_dashboard_rbac', 'emqx_gcp_device', 'emqx_enterprise',
    'emqx_opentelemetry', 'emqx_schema_validation', 'emqx_message_transformation', 'emqx_eviction_agent', 'emqx_node_rebalance', 'emqx_cluster_link',
  ],
};
/** Applications left out of the Enterprise build (mix.exs: `app == :emqx_telemetry` for enterprise). */
const COMMUNITY_ONLY_APPS: readonly string[] = ['emqx_telemetry'];

/**
 * Routes (relative to /api/v5, Fastify patterns) that not every release has. A key without a method
 * covers every method of that path and of the paths below it. Routes not listed exist everywhere.
 */
export const ROUTES: Record<string, Availability> = {
  '/license': { app: 'emqx_license' },
  '/schema_registry': { app: 'emqx_schema_registry' },
  '/schema_registry_external': { app: 'emqx_schema_registry', since: '5.6.0' },
  '/opentelemetry': { app: 'emqx_opentelemetry' },
  '/audit': { app: 'emqx_audit' },
  '/sso': { app: 'emqx_dashboard_sso' },
  '/file_transfer': { app: 'emqx_ft' },
  '/telemetry': { app: 'emqx_telemetry' },
  // emqx_mgmt_api_clients.erl (5.8.9): the cursor-paged client list and the message views.
  'GET /clients_v2': { since: '5.6.0' },
  'GET /clients/:clientid/mqueue_messages': { since: '5.6.0' },
  'GET /clients/:clientid/inflight_messages': { since: '5.6.0' },
  // emqx_bridge_v2_api.erl (5.8.9).
  'GET /actions_summary': { since: '5.6.0' },
  'GET /sources_summary': { since: '5.6.0' },
  'GET /source_types': { since: '5.6.0' },
  // emqx_mgmt_api_plugins.erl (5.8.9).
  'GET /plugins/:id/config': { since: '5.8.0' },
  'PUT /plugins/:id/config': { since: '5.8.0' },
  'GET /plugins/:id/schema': { since: '5.8.0' },
  // emqx_authn_api.erl, emqx_authz_api_sources.erl (5.8.9).
  'PUT /authentication/order': { since: '5.6.0' },
  'PUT /authorization/sources/order': { since: '5.6.0' },
  // emqx_mgmt_api_alarms.erl, emqx_mgmt_api_clients.erl, emqx_dashboard_monitor_api.erl (5.8.9).
  'POST /alarms/force_deactivate': { since: '5.8.0' },
  'GET /sessions_count': { since: '5.6.0' },
  'DELETE /monitor': { since: '5.8.0' },
  // emqx_rule_engine_api.erl: applying a stored rule to a test context (5.7.0).
  'POST /rules/:id/test': { since: '5.7.0' },
  // The 5.8 Enterprise message modules: apps/emqx_schema_validation (from v5.7.0),
  // apps/emqx_message_transformation and apps/emqx_cluster_link (from v5.8.0), with their
  // Prometheus collectors (emqx_prometheus_api.erl paths_ee()).
  '/schema_validations': { app: 'emqx_schema_validation', since: '5.7.0' },
  'GET /prometheus/schema_validation': { app: 'emqx_schema_validation', since: '5.7.0' },
  '/message_transformations': { app: 'emqx_message_transformation', since: '5.8.0' },
  'GET /prometheus/message_transformation': { app: 'emqx_message_transformation', since: '5.8.0' },
  '/cluster/links': { app: 'emqx_cluster_link', since: '5.8.0' },
  // emqx_mgmt_api_relup.erl: hot upgrade, in emqx_management of v5.8.0 to v5.8.x; gone in e5.10.4.
  '/relup': { since: '5.8.0', until: '5.9.0' },
};

/**
 * Fields that not every release has, by path (Fastify pattern, every method of it) and place in the
 * body: `a/b` is a nested key, `[]` every element of an array, `*` a prefix wildcard at the end of
 * a key. A release without the field leaves it out of responses and refuses it in requests with
 * 400, as hocon's unknown-field check does.
 */
export interface FieldRow extends Availability {
  paths: readonly string[];
  fields: readonly string[];
}

const ACTION_PATHS = ['/actions', '/actions/:id', '/sources', '/sources/:id'];
const RULE_PATHS = ['/rules', '/rules/:id'];
const AUTHN_PATHS = ['/authentication', '/authentication/:id'];
const AUTHZ_PATHS = ['/authorization/sources', '/authorization/sources/:type'];

export const FIELDS: readonly FieldRow[] = [
  // emqx_bridge_v2_api.erl: format_bridge_info adds `rules` (5.8.0), created/modified times (5.8.5).
  { paths: ACTION_PATHS, fields: ['[]/rules', 'rules'], since: '5.8.0' },
  { paths: ACTION_PATHS, fields: ['[]/created_at', '[]/last_modified_at', 'created_at', 'last_modified_at'], since: '5.8.5' },
  // emqx_rule_engine_api.erl: format_rule_resp.
  { paths: RULE_PATHS, fields: ['data/[]/last_modified_at', 'last_modified_at'], since: '5.6.0' },
  { paths: ['/rules/:id/metrics'], fields: ['metrics/actions.discarded', 'node_metrics/[]/metrics/actions.discarded'], since: '5.6.0' },
  // emqx_authn_mnesia.erl (bootstrap), emqx_authn_jwt_schema.erl, emqx_authz_mnesia.erl.
  { paths: AUTHN_PATHS, fields: ['[]/bootstrap_file', '[]/bootstrap_type', 'bootstrap_file', 'bootstrap_type'], since: '5.6.0' },
  { paths: AUTHN_PATHS, fields: ['[]/disconnect_after_expire', 'disconnect_after_expire'], since: '5.6.0' },
  { paths: AUTHZ_PATHS, fields: ['sources/[]/max_rules', 'max_rules'], since: '5.6.0' },
  // emqx_mgmt.erl node_info / emqx_stats.erl / emqx_metrics.erl.
  { paths: ['/nodes', '/nodes/:node'], fields: ['[]/cluster_sessions', 'cluster_sessions'], since: '5.6.0' },
  { paths: ['/subscriptions'], fields: ['data/[]/durable'], since: '5.6.0' },
  { paths: ['/clients/:clientid/subscriptions'], fields: ['[]/durable'], since: '5.6.0' },
  { paths: ['/stats'], fields: ['cluster_sessions.*', '[]/cluster_sessions.*'], since: '5.6.0' },
  { paths: ['/metrics'], fields: ['messages.persisted', 'messages.validation_*', 'messages.transformation_*', '[]/messages.persisted', '[]/messages.validation_*', '[]/messages.transformation_*'], since: '5.6.0' },
  // emqx_schema.erl `mqtt` fields added after 5.5 (shared_subscription_strategy is in 5.5.1's
  // mqtt_general already, beside broker.shared_subscription_strategy).
  {
    paths: ['/configs/global_zone'],
    fields: ['mqtt/shared_subscription_initial_sticky_pick', 'mqtt/keepalive_check_interval', 'mqtt/client_attrs_init', 'mqtt/clientid_override', 'mqtt/message_expiry_interval'],
    since: '5.6.0',
  },
  { paths: ['/configs/global_zone'], fields: ['durable_sessions'], since: '5.7.0' },
  // emqx_dashboard_monitor_api.erl: `license_quota` only with a license; shared subscriptions in 5.8.
  { paths: ['/monitor_current', '/monitor_current/nodes/:node'], fields: ['license_quota'], app: 'emqx_license' },
  { paths: ['/monitor_current', '/monitor_current/nodes/:node'], fields: ['shared_subscriptions'], since: '5.6.0' },
  // emqx_dashboard_schema.erl `sso`, emqx_conf_schema.erl `audit` log handler: Enterprise.
  { paths: ['/configs/dashboard'], fields: ['sso'], app: 'emqx_dashboard_sso' },
  { paths: ['/configs/log'], fields: ['audit'], app: 'emqx_audit' },
  // emqx_dashboard_api.erl `filter_result/1` drops role without RBAC; emqx_mgmt_api_api_keys.erl.
  { paths: ['/login', '/users', '/users/:username', '/api_key', '/api_key/:name'], fields: ['role', '[]/role'], app: 'emqx_dashboard_rbac' },
  { paths: ['/users', '/users/:username'], fields: ['backend', '[]/backend'], app: 'emqx_dashboard_sso' },
];

/** Values of an enumerated request field that not every release accepts. */
export interface ValueRow extends Availability {
  path: string;
  field: string;
  values: readonly string[];
}

export const VALUES: readonly ValueRow[] = [
  // emqx_mgmt_api_banned.erl: BANNED_TYPES [clientid, username, peerhost] in 5.5.1.
  { path: '/banned', field: 'as', values: ['clientid_re', 'username_re', 'peerhost_net'], since: '5.6.0' },
  // 5.5.1 `until` is an epoch only; 5.8.9 is union([infinity, epoch_second]).
  { path: '/banned', field: 'until', values: ['infinity'], since: '5.8.1' },
  // emqx_dashboard_sso.erl backends(): ldap and saml; emqx_dashboard_sso_oidc.erl from 5.7.2.
  { path: '/sso/:backend', field: 'backend', values: ['oidc'], since: '5.7.2' },
];

/**
 * Replies that changed between releases: before `until` the route answered `status` (and no
 * body when `empty`); the handlers answer as the newest release does.
 */
export interface ReplyRow {
  route: string;
  until: string;
  status: number;
  empty?: boolean;
}

export const REPLIES: readonly ReplyRow[] = [
  // emqx_mgmt_api_plugins.erl update_boot_order: `{200}` in 5.5.1, `{204}` in 5.8.9.
  { route: 'POST /plugins/:id/move', until: '5.8.0', status: 200, empty: true },
  // emqx_authn_user_import_api.erl: 204 until 5.8.2, then 200 with the counts.
  { route: 'POST /authentication/:id/import_users', until: '5.8.2', status: 204, empty: true },
  // emqx_gateway_api_authn_user_import.erl: `{204}` in 5.5.1, `{200, Result}` in 5.8.9.
  { route: 'POST /gateways/:name/authentication/import_users', until: '5.8.2', status: 204, empty: true },
  { route: 'POST /gateways/:name/listeners/:id/authentication/import_users', until: '5.8.2', status: 204, empty: true },
];

/** Defaults that changed between releases. */
export const DEFAULTS = {
  // emqx_banned.erl ?EXPIRATION_TIME (1 year) in 5.5.1; `default => infinity` from 5.8.1.
  bannedUntil: (p: Profile): 'year' | 'infinity' => (p.has({ since: '5.8.1' }) ? 'infinity' : 'year'),
  // emqx_schema.erl mqtt.retry_interval: `default => <<"30s">>` up to 5.7, `infinity` from 5.8.0.
  retryInterval: (p: Profile): string => (p.has({ since: '5.8.0' }) ? 'infinity' : '30s'),
};

/** How the MQTT channel speaks, where releases differ on the wire. */
export const WIRE = {
  // emqx_channel.erl enrich_connack_caps: 'Receive-Maximum' in the CONNACK from 5.6.0 (commit
  // "return Receive-Maximum in CONNACK when no error"); v5.5.1 sends none.
  connackReceiveMaximum: (p: Profile): boolean => p.has({ since: '5.6.0' }),
  // emqx_retainer_dispatcher.erl: retained messages on `$` topics went to filters starting with a
  // wildcard (`#`, `+/…`) until PR 13742 ("fix: topic matching when deliver retainer msg", v5.8.1).
  retainedDollarToLeadingWildcard: (p: Profile): boolean => !p.has({ since: '5.8.1' }),
};

/**
 * What /nodes reports as `otp_release` (emqx_mgmt.erl otp_rel/0: the OTP version of the build,
 * "/", the ERTS version): OTP from `.tool-versions` at each tag, its ERTS from OTP's
 * otp_versions.table.
 */
export const OTP_RELEASE: Record<string, string> = {
  '5.5.1': '26.2.1-2/14.2.1',
  '5.8.9': '26.2.5.14-1/14.2.5.11',
  '5.10.4': '27.3.4.2-8/15.2.7.1',
  '6.2.2': '28.4.1-3/16.3',
};

/** Codes of GET /error_codes that not every release lists (http_api.hrl ?ERROR_CODES). */
export const ERROR_CODES_SINCE: Record<string, string> = {
  UNSUPPORTED_MEDIA_TYPE: '5.8.0',
};

/** Connector, action and source types a Community build has (emqx_bridge_http, emqx_bridge_mqtt). */
export const COMMUNITY_BRIDGE_TYPES: readonly string[] = ['http', 'mqtt', 'webhook'];

/** Calls `visit(holder, key)` for every place a FIELDS path names in `value`. */
function walk(value: unknown, steps: readonly string[], visit: (holder: Record<string, unknown>, key: string) => void): void {
  if (value === null || typeof value !== 'object') return;
  const [step, ...rest] = steps;
  if (step === '[]') {
    if (Array.isArray(value)) for (const item of value) walk(item, rest, visit);
    return;
  }
  if (Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  if (rest.length > 0) {
    walk(record[step], rest, visit);
    return;
  }
  if (step.endsWith('*')) {
    const prefix = step.slice(0, -1);
    for (const key of Object.keys(record)) if (key.startsWith(prefix)) visit(record, key);
  } else if (Object.hasOwn(record, step)) {
    visit(record, step);
  }
}

/** Calls `visit(holder, key)` for every place the FIELDS path `path` (`a/[]/b*`) names in `value`. */
export function walkFields(value: unknown, path: string, visit: (holder: Record<string, unknown>, key: string) => void): void {
  walk(value, path.split('/'), visit);
}

/** Compares dotted release numbers: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export class Profile {
  readonly id: string;
  constructor(readonly version: EmqxVersion, readonly edition: Edition) {
    this.id = `${version}-${edition}`;
  }

  /** `emqx_release:edition_longstr()`: what /nodes reports as `edition`. */
  get editionName(): 'Enterprise' | 'Opensource' {
    return this.edition === 'ee' ? 'Enterprise' : 'Opensource';
  }

  /** `otp_release` of /nodes. */
  get otpRelease(): string {
    return OTP_RELEASE[this.version];
  }

  /** `emqx_release:version_with_prefix()`: e5.5.1 or v5.5.1 (/status `rel_vsn`). */
  get versionWithPrefix(): string {
    return `${this.edition === 'ee' ? 'e' : 'v'}${this.version}`;
  }

  hasApp(app: string): boolean {
    if (COMMUNITY_ONLY_APPS.includes(app)) return this.edition === 'ce';
    return this.edition === 'ee' || !ENTERPRISE_APPS[this.version].includes(app);
  }

  /** Whether something with this availability exists in this release. */
  has(a: Availability): boolean {
    return (a.since === undefined || compareVersions(this.version, a.since) >= 0)
      && (a.until === undefined || compareVersions(this.version, a.until) < 0)
      && (a.app === undefined || this.hasApp(a.app));
  }

  /** Whether this release serves `method url` (url relative to /api/v5, Fastify pattern). */
  hasRoute(method: string, url: string): boolean {
    const exact = ROUTES[`${method} ${url}`];
    if (exact) return this.has(exact);
    for (const [key, availability] of Object.entries(ROUTES)) {
      if (key.includes(' ')) continue;
      if ((url === key || url.startsWith(`${key}/`)) && !this.has(availability)) return false;
    }
    return true;
  }

  /** The fields of `url` that this release lacks (paths as in FIELDS). */
  missingFields(url: string): string[] {
    const out: string[] = [];
    for (const row of FIELDS) if (row.paths.includes(url) && !this.has(row)) out.push(...row.fields);
    return out;
  }

  /** Removes from `value` (in place) the fields of `url` this release lacks; returns it. */
  strip<T>(url: string, value: T): T {
    if (value === null || typeof value !== 'object') return value;
    for (const path of this.missingFields(url)) walkFields(value, path, (holder, key) => delete holder[key]);
    return value;
  }

  /** The values of `url`'s body fields this release refuses, by field. */
  refusedValues(url: string): ValueRow[] {
    return VALUES.filter((row) => row.path === url && !this.has(row));
  }

  /** How this release answers `method url` when it differs from the newest. */
  reply(method: string, url: string): ReplyRow | undefined {
    return REPLIES.find((row) => row.route === `${method} ${url}` && compareVersions(this.version, row.until) < 0);
  }

  /** Whether a connector/action/source type is built into this edition. */
  hasBridgeType(type: string): boolean {
    return this.edition === 'ee' || COMMUNITY_BRIDGE_TYPES.includes(type);
  }
}

export function parseProfile(version: string | undefined, edition: string | undefined): Profile {
  const v = version ?? '5.5.1';
  const e = edition ?? 'ee';
  if (!(VERSIONS as readonly string[]).includes(v)) throw new Error(`unknown EMQX version ${v} (expected ${VERSIONS.join(' or ')})`);
  if (!(EDITIONS as readonly string[]).includes(e)) throw new Error(`unknown edition ${e} (expected ${EDITIONS.join(' or ')})`);
  return new Profile(v as EmqxVersion, e as Edition);
}
