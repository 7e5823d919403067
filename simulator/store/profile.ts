// The broker release the simulator is: EMQX 5.5.1 or 5.8.9, each Enterprise (`ee`) or Community
// (`ce`), or EMQX 5.10.4 or 6.2.2, which ship one Enterprise edition. Everything that differs
// between those six lives in this file, so a reader sees at a glance what each release has; routes
// and store modules ask the profile (`store.profile`) and never compare version strings themselves.
//
// What each release serves is data made from the broker's own facts: the endpoint index of each
// tag (fixtures/profiles/<version>/api.json, written by tools/profiles/generate.mjs from
// ../shared/reference). The tables below add what the index cannot say (the edition an application
// belongs to, routes its extractor missed, fields that changed) and cite the source at the tag for
// each row (emqx/emqx tags v5.5.1/e5.5.1, v5.8.9/e5.8.9, e5.10.4, 6.2.2; api/corrections.md).
//
// `since` is the first release known to have a thing, `until` the first that no longer has it.
// Where the source only tells "not in 5.5.1, in 5.8.9" without naming the release in between, it
// says '5.6.0' (the first release after the 5.5 line); for the releases simulated the outcome is
// the same.
import { readFileSync } from 'node:fs';
import type { Dialect } from '../lib/hocon-check/from-string.ts';

export const VERSIONS = ['5.5.1', '5.8.9', '5.10.4', '6.2.2'] as const;
export const EDITIONS = ['ee', 'ce'] as const;
export type EmqxVersion = (typeof VERSIONS)[number];
export type Edition = (typeof EDITIONS)[number];

/**
 * The newest release is the default: it is what new deployments run, and the console must be
 * seen working there first (README "Broker profiles").
 */
export const DEFAULT_VERSION: EmqxVersion = '6.2.2';

/**
 * The editions each release ships. From 5.9.0 EMQX is built as one Enterprise edition:
 * emqx_release.erl at e5.10.4 and 6.2.2 has `edition() -> ee.` and no Community variant.
 */
export const RELEASE_EDITIONS: Record<EmqxVersion, readonly Edition[]> = {
  '5.5.1': ['ee', 'ce'],
  '5.8.9': ['ee', 'ce'],
  '5.10.4': ['ee'],
  '6.2.2': ['ee'],
};

/** Every profile the simulator can be, oldest first. */
export const PROFILES: readonly { version: EmqxVersion; edition: Edition }[] = VERSIONS.flatMap((version) => RELEASE_EDITIONS[version].map((edition) => ({ version, edition })));

/**
 * How each release's input checker speaks (lib/hocon-check): the hocon library of the tag
 * (rebar.config / mix.exs: 0.40.4 at 5.5.1, 0.44.0 at 5.8.9, 0.45.3 at 5.10.4, 0.45.9 at 6.2.2),
 * emqx_schema.erl's converters (`{error, Str}` at e5.5.1, "Not a valid duration" from 5.8) and
 * emqx_limiter_schema.erl's rate syntax (the `{Capacity, Interval}` limiter from 5.10).
 */
export const HOCON: Record<EmqxVersion, Dialect> = {
  '5.5.1': { hocon: '0.40', converters: '5.5', limiter: 'v1' },
  '5.8.9': { hocon: '0.44', converters: '5.8', limiter: 'v1' },
  '5.10.4': { hocon: '0.44', converters: '5.8', limiter: 'v2' },
  '6.2.2': { hocon: '0.44', converters: '5.8', limiter: 'v2' },
};

/** Where a feature exists: from a release on, up to one, only in one edition, or everywhere. */
export interface Availability {
  since?: string;
  /** The first release without it. */
  until?: string;
  /** The broker application it belongs to; Enterprise-only applications are listed below. */
  app?: string;
}

/**
 * Applications built only into the Enterprise edition of the releases that have a Community one
 * (5.5.1: `enterprise_umbrella_apps` in mix.exs; 5.8.9: `is_community_umbrella_app(...) -> false`
 * in rebar.config.erl), limited to the ones whose API the simulator serves or the console calls.
 * 5.10.4 and 6.2.2 have every application (RELEASE_EDITIONS).
 */
const ENTERPRISE_APPS: Partial<Record<EmqxVersion, readonly string[]>> = {
  '5.5.1': ['emqx_license', 'emqx_schema_registry', 'emqx_ft', 'emqx_audit', 'emqx_dashboard_sso', 'emqx_dashboard_rbac', 'emqx_gcp_device', 'emqx_enterprise'],
  '5.8.9': [
    'emqx_license', 'emqx_schema_registry', 'emqx_ft', 'emqx_audit', 'emqx_dashboard_sso', 'emqx_dashboard_rbac', 'emqx_gcp_device', 'emqx_enterprise',
    'emqx_opentelemetry', 'emqx_schema_validation', 'emqx_message_transformation', 'emqx_eviction_agent', 'emqx_node_rebalance', 'emqx_cluster_link',
  ],
};
/**
 * Applications left out of the Enterprise build while there was a Community one (mix.exs at
 * e5.8.9: `edition_type == :enterprise && app == :emqx_telemetry`); e5.10.4's mix.exs has no
 * such exclusion.
 */
const COMMUNITY_ONLY_APPS: Record<string, Availability> = { emqx_telemetry: { until: '5.9.0' } };

/**
 * The application of an API module, by module name prefix (the folder apps/<app>/src it lives in
 * at the tags), for the modules whose application is not in every edition.
 */
const MODULE_APPS: readonly (readonly [prefix: string, app: string])[] = [
  ['emqx_license', 'emqx_license'], ['emqx_schema_registry', 'emqx_schema_registry'], ['emqx_ft', 'emqx_ft'],
  ['emqx_audit', 'emqx_audit'], ['emqx_dashboard_sso', 'emqx_dashboard_sso'], ['emqx_gcp_device', 'emqx_gcp_device'],
  ['emqx_otel', 'emqx_opentelemetry'], ['emqx_telemetry', 'emqx_telemetry'], ['emqx_eviction_agent', 'emqx_eviction_agent'],
  ['emqx_node_rebalance', 'emqx_node_rebalance'], ['emqx_cluster_link', 'emqx_cluster_link'],
  ['emqx_schema_validation', 'emqx_schema_validation'], ['emqx_message_transformation', 'emqx_message_transformation'],
];

/** The broker application of an API module (the module itself where no row names one). */
export function appOf(module: string): string {
  return MODULE_APPS.find(([prefix]) => module.startsWith(prefix))?.[1] ?? module;
}

/** One route of a release's data (fixtures/profiles/<version>/api.json). */
export interface IndexRoute {
  module: string;
  hidden?: boolean;
  /** The declared fields of the 200 answer, where the index lists them in full. */
  fields?: string[];
  /** The declared fields of the items of its `data` list. */
  data?: string[];
}

/** A release's routes, by `METHOD /path` with the index's parameter names (`:clientid`). */
interface ApiData {
  routes: Record<string, IndexRoute>;
  methodless: Record<string, string>;
}

const apiData = new Map<EmqxVersion, ApiData>();

/** The generated route data of a release (read once, lazily). */
export function releaseApi(version: EmqxVersion): ApiData {
  let data = apiData.get(version);
  if (!data) {
    data = JSON.parse(readFileSync(new URL(`../../fixtures/profiles/${version}/api.json`, import.meta.url), 'utf8')) as ApiData;
    apiData.set(version, data);
  }
  return data;
}

let known: Set<string> | undefined;

/** The routes of every release and edition, by routeKey. */
function knownRoutes(): Set<string> {
  if (!known) {
    known = new Set(Object.keys(INDEX_GAPS));
    for (const version of VERSIONS) for (const key of Object.keys(releaseApi(version).routes)) known.add(routeKey(key.split(' ')[0], key.split(' ')[1]));
  }
  return known;
}

/**
 * A route as one key for the index and the simulator alike: parameters as `{}`, and the paths the
 * simulator serves in another shape than the index lists them mapped onto the index's.
 */
export function routeKey(method: string, url: string): string {
  let u = url.replace(/^\/api\/v5/, '').replace(/:[A-Za-z_]+/g, '{}');
  // `{action}` and `{operation}` path parameters are enums in the source (emqx_mgmt_api_plugins.erl
  // `/plugins/:name/:action`); the simulator registers each value as its own path.
  u = u.replace(/^\/plugins\/\{\}\/(start|stop)$/, '/plugins/{}/{}');
  // emqx_mgmt_api_listeners.erl lists start, stop and restart as three paths.
  u = u.replace(/^\/listeners\/\{\}\/(start|stop|restart)$/, '/listeners/{}/{}');
  return `${method === 'HEAD' ? 'GET' : method} ${u}`;
}

/**
 * Config roots served at `/configs/<root>` (emqx_mgmt_api_configs.erl `?ROOT_KEYS`, one path per
 * root from config_list(), which the extracted index does not list); `?ROOT_KEYS_EE` adds
 * file_transfer in the Enterprise build of 5.5.1 and 5.8.9, 6.2.2 lists it (and a2a_registry) in
 * `?ROOT_KEYS` itself.
 */
export const CONFIG_ROOT_KEYS: Record<string, Availability> = {
  dashboard: {}, alarm: {}, sys_topics: {}, sysmon: {}, log: {},
  // Added to ?ROOT_KEYS in 5.8 (present at e5.8.9, absent at e5.5.1).
  broker: { since: '5.6.0' },
  file_transfer: { app: 'emqx_ft' },
};

/**
 * Routes the source serves that the extracted index leaves out or lists without a method, with
 * the methods from the source. Keys as routeKey() makes them.
 */
export const INDEX_GAPS: Record<string, Availability> = {
  // emqx_mgmt_api_clients.erl (5.6.0 on): schema("/clients/:clientid/mqueue_messages") => #{get => …}.
  'GET /clients/{}/mqueue_messages': { since: '5.6.0' },
  'GET /clients/{}/inflight_messages': { since: '5.6.0' },
  // emqx_lwm2m_api.erl: paths under /gateways/lwm2m/clients/:clientid built by a function.
  'GET /gateways/lwm2m/clients/{}/lookup': {},
  'POST /gateways/lwm2m/clients/{}/observe': {},
  'POST /gateways/lwm2m/clients/{}/read': {},
  'POST /gateways/lwm2m/clients/{}/write': {},
  // emqx_prometheus_api.erl at e5.8.9 paths_ee(): the two 5.8 Enterprise collectors.
  'GET /prometheus/schema_validation': { since: '5.8.0', app: 'emqx_schema_validation' },
  'GET /prometheus/message_transformation': { since: '5.8.0', app: 'emqx_message_transformation' },
  ...Object.fromEntries(Object.entries(CONFIG_ROOT_KEYS).flatMap(([root, a]) => [[`GET /configs/${root}`, a], [`PUT /configs/${root}`, a]])),
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
  /** Only for bodies and items of this connector, action or source `type`. */
  type?: string;
}

const ACTION_PATHS = ['/actions', '/actions/:id', '/sources', '/sources/:id'];
const RULE_PATHS = ['/rules', '/rules/:id'];
const AUTHN_PATHS = ['/authentication', '/authentication/:id'];
const AUTHZ_PATHS = ['/authorization/sources', '/authorization/sources/:type'];
const AUTHZ_RULES = '/authorization/sources/built_in_database/rules';
const AUTHZ_RULE_PATHS = [`${AUTHZ_RULES}/users`, `${AUTHZ_RULES}/users/:name`, `${AUTHZ_RULES}/clients`, `${AUTHZ_RULES}/clients/:name`, `${AUTHZ_RULES}/all`];
const RULE_CONDITIONS = ['clientid_re', 'username_re', 'zone', 'zone_re', 'listener', 'listener_re', 'ipaddr'];

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
  // emqx_metrics.erl: the limiter's counters are there at e5.10.4, not at e5.8.9.
  { paths: ['/metrics'], fields: ['packets.publish.quota_exceeded', 'messages.dropped.quota_exceeded', '[]/packets.publish.quota_exceeded', '[]/messages.dropped.quota_exceeded'], since: '5.9.0' },
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
  // emqx_license_checker.erl: `max_sessions(Dump)` appends max_sessions beside max_connections
  // (absent at e5.5.1, present at e5.8.9); emqx_license_parser_v20220101.erl dump/1 adds max_tps
  // (absent at e5.10.4, present at 6.2.2).
  { paths: ['/license'], fields: ['max_sessions'], since: '5.6.0' },
  { paths: ['/license'], fields: ['max_tps'], since: '6.0.0' },
  // emqx_dashboard_api.erl at e5.10.4 (absent at e5.8.9): `mfa_token` in, `password_expire_in_seconds`
  // out of /login; users carry `mfa` (ee_user_fields/0) and `scopes`; emqx_mgmt_api_api_keys.erl
  // fields(app): API keys carry `scopes`.
  { paths: ['/login'], fields: ['mfa_token', 'password_expire_in_seconds'], since: '5.9.0' },
  { paths: ['/users', '/users/:username'], fields: ['mfa', '[]/mfa', 'scopes', '[]/scopes'], since: '5.9.0' },
  { paths: ['/api_key', '/api_key/:name'], fields: ['scopes', '[]/scopes'], since: '5.9.0' },
  // emqx_rule_engine_api.erl format_rule_info_resp/2, emqx_bridge_v2_api.erl format_resource/3 and
  // emqx_connector_api.erl at 6.2.2: every rule, connector, action and source names its namespace.
  { paths: RULE_PATHS, fields: ['data/[]/namespace', 'namespace'], since: '6.0.0' },
  { paths: [...ACTION_PATHS, '/connectors', '/connectors/:id'], fields: ['[]/namespace', 'namespace'], since: '6.0.0' },
  // emqx_authn_api.erl fields(request_user_update) at 6.2.2 (absent at e5.10.4): a user's `namespace`.
  { paths: ['/authentication/:id/users', '/authentication/:id/users/:user_id'], fields: ['namespace'], since: '6.0.0' },
  // emqx_authz_api_mnesia.erl fields(rule_item) at e5.10.4 (absent at e5.8.9): the rule conditions.
  { paths: AUTHZ_RULE_PATHS, fields: RULE_CONDITIONS.flatMap((f) => [`[]/rules/[]/${f}`, `rules/[]/${f}`]), since: '5.9.0' },
  // emqx_bridge_http_schema.erl at 6.2.2: the http action lost `local_topic` and
  // `parameters.request_timeout` (both in its fields("http_action") at e5.10.4).
  { paths: ['/actions', '/actions/:id'], fields: ['local_topic', 'parameters/request_timeout'], until: '6.0.0', type: 'http' },
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

/**
 * Behaviours a release has beyond its routes and fields, by name: handlers ask
 * `profile.feature('dashboardMfa')`. '5.9.0' is the first release after the 5.8 line: the source
 * at e5.8.9 lacks each of these and e5.10.4 has it.
 */
export const FEATURES = {
  // emqx_dashboard_mfa.erl, emqx_dashboard_admin.erl check/3, emqx_dashboard_api.erl change_mfa/2.
  dashboardMfa: { since: '5.9.0' },
  // emqx_dashboard_admin.erl sign_token/3 verify_password_expiration/2 (dashboard.password_expired_time).
  passwordExpiry: { since: '5.9.0' },
  // emqx_mgmt_auth.erl check_scopes/2 and emqx_mgmt_api_key_scopes.erl: API key scopes.
  apiKeyScopes: { since: '5.9.0' },
  // emqx_dashboard_rbac.erl check_login_user_scopes/2 and emqx_dashboard_api.erl
  // validate_login_user_scopes/2, is_default_admin_modification/3: dashboard user scopes.
  userScopes: { since: '5.9.0', app: 'emqx_dashboard_rbac' },
  // emqx_rule_engine_api.erl, emqx_connector_api.erl, emqx_bridge_v2_api.erl, emqx_authn_api.erl,
  // emqx_authz_api_mnesia.erl at 6.2.2: the `ns` query parameter and namespaced objects.
  namespaces: { since: '6.0.0' },
  // emqx_channel.erl check_quota_exceeded/2 and emqx_limiter.erl at e5.10.4: the channel's
  // messages/bytes quota from the listener's flat rates and the zone's mqtt.limiter, and the
  // listener's max_conn limiter (emqx_esockd_limiter.erl).
  channelQuota: { since: '5.9.0' },
  // emqx_session_mem.erl at 6.2.2 try_consume_delivery_rate_limit/1: delivery_messages/bytes.
  deliveryQuota: { since: '6.0.0' },
} satisfies Record<string, Availability>;

export type FeatureName = keyof typeof FEATURES;

/** What the dashboard monitor samples on a release. */
export interface MonitorSamplers {
  gauges: readonly string[];
  deltas: readonly string[];
  clusterRam: boolean;
}

/**
 * The dashboard monitor's samplers (emqx_dashboard.hrl ?GAUGE_SAMPLER_LIST and ?DELTA_SAMPLER_LIST
 * at each tag; a delta's current rate is `<name>_rate`, `received_msg_rate` for received, sent and
 * dropped, ?DELTA_SAMPLER_RATE_MAP). The durable-session gauges and the validation,
 * transformation and persisted deltas are in the header at v5.8.9/e5.8.9 and not at v5.5.1;
 * rules_matched and actions_executed at e5.10.4; actions_messages at 6.2.2. `clusterRam`:
 * emqx_dashboard_monitor.erl adjust_synthetic_cluster_metrics/1 (e5.8.9, 6.2.2) adds the durable
 * subscriptions and disconnected durable sessions into the cluster's subscriptions and connections
 * and keeps the in-memory ones as `subscriptions_ram`.
 */
export const MONITOR_SAMPLERS: readonly (Availability & { gauges?: readonly string[]; deltas?: readonly string[]; clusterRam?: true })[] = [
  { gauges: ['subscriptions', 'topics', 'connections', 'live_connections'], deltas: ['received', 'sent', 'dropped'] },
  { since: '5.8.0', gauges: ['disconnected_durable_sessions', 'subscriptions_durable'],
    deltas: ['validation_succeeded', 'validation_failed', 'transformation_succeeded', 'transformation_failed', 'persisted'], clusterRam: true },
  { since: '5.9.0', deltas: ['rules_matched', 'actions_executed'] },
  { since: '6.0.0', deltas: ['actions_messages'] },
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
  // emqx_limiter_exclusive.erl: at e5.10.4 a burst refills the bucket to capacity + burst; at
  // 6.2.2 it is a count of its own (burst_tokens), taken first, and available from the start.
  separateBurstTokens: (p: Profile): boolean => p.has({ since: '6.0.0' }),
  // emqx_listeners.erl at 6.2.2: ws/wss listeners limit new connections too (emqx_ranch_limiter);
  // at e5.10.4 only the esockd (tcp/ssl) listeners do.
  websocketConnRate: (p: Profile): boolean => p.has({ since: '6.0.0' }),
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
  private routeSet: Map<string, IndexRoute> | undefined;

  constructor(readonly version: EmqxVersion, readonly edition: Edition) {
    this.id = `${version}-${edition}`;
  }

  /** How this release's hocon checks input. */
  get dialect(): Dialect {
    return HOCON[this.version];
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
    const communityOnly = COMMUNITY_ONLY_APPS[app];
    if (communityOnly && this.edition === 'ee' && this.within(communityOnly)) return false;
    return this.edition === 'ee' || !(ENTERPRISE_APPS[this.version] ?? []).includes(app);
  }

  private within(a: Availability): boolean {
    return (a.since === undefined || compareVersions(this.version, a.since) >= 0) && (a.until === undefined || compareVersions(this.version, a.until) < 0);
  }

  /** Whether something with this availability exists in this release. */
  has(a: Availability): boolean {
    return this.within(a) && (a.app === undefined || this.hasApp(a.app));
  }

  /**
   * The routes of this release and edition, by routeKey: the index's routes whose application
   * this edition has, and the INDEX_GAPS rows it has.
   */
  routes(): Map<string, IndexRoute> {
    if (!this.routeSet) {
      const out = new Map<string, IndexRoute>();
      for (const [key, route] of Object.entries(releaseApi(this.version).routes)) {
        const [method, url] = key.split(' ');
        if (this.hasApp(appOf(route.module))) out.set(routeKey(method, url), route);
      }
      for (const [key, availability] of Object.entries(INDEX_GAPS)) {
        if (!out.has(key) && this.has(availability)) out.set(key, { module: 'source' });
      }
      this.routeSet = out;
    }
    return this.routeSet;
  }

  /**
   * Whether this release serves `method url` (url relative to /api/v5, Fastify pattern): a route of
   * some release is served where that release has it; a route no release knows is the
   * simulator's own and stays (tests/api/contract.test.ts lists any such route of the API).
   */
  hasRoute(method: string, url: string): boolean {
    const key = routeKey(method, url);
    return this.routes().has(key) || !knownRoutes().has(key);
  }

  /** Whether this release has one of the FEATURES. */
  /** The monitor's samplers of this release (MONITOR_SAMPLERS). */
  monitorSamplers(): MonitorSamplers {
    const rows = MONITOR_SAMPLERS.filter((row) => this.has(row));
    return {
      gauges: rows.flatMap((row) => row.gauges ?? []),
      deltas: rows.flatMap((row) => row.deltas ?? []),
      clusterRam: rows.some((row) => row.clusterRam),
    };
  }

  feature(name: FeatureName): boolean {
    return this.has(FEATURES[name]);
  }

  /**
   * The fields of `url` that this release lacks (paths as in FIELDS); with `type`, also those of
   * rows for that connector, action or source type.
   */
  missingFields(url: string, type?: string): string[] {
    const out: string[] = [];
    for (const row of FIELDS) if (row.paths.includes(url) && !this.has(row) && (row.type === undefined || row.type === type)) out.push(...row.fields);
    return out;
  }

  /** Removes from `value` (in place) the fields of `url` this release lacks; returns it. */
  strip<T>(url: string, value: T): T {
    if (value === null || typeof value !== 'object') return value;
    for (const path of this.missingFields(url)) walkFields(value, path, (holder, key) => delete holder[key]);
    // Rows for one type apply to the items of that type.
    const typed = FIELDS.filter((row) => row.type !== undefined && row.paths.includes(url) && !this.has(row));
    if (typed.length > 0) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === null || typeof item !== 'object') continue;
        for (const row of typed) {
          if ((item as Record<string, unknown>).type !== row.type) continue;
          for (const path of row.fields) walkFields(item, path, (holder, key) => delete holder[key]);
        }
      }
    }
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

/**
 * The profile for a version and edition (each defaulting: the newest release, Enterprise); throws
 * an Error whose message is a sentence for the operator when the pair does not exist.
 */
export function parseProfile(version: string | undefined, edition: string | undefined): Profile {
  const v = version ?? DEFAULT_VERSION;
  const e = edition ?? 'ee';
  if (!(VERSIONS as readonly string[]).includes(v)) throw new Error(`EMQX ${v} is not a release the simulator can be; choose one of ${VERSIONS.join(', ')}.`);
  if (!(EDITIONS as readonly string[]).includes(e)) throw new Error(`${e} is not an edition; choose ee (Enterprise) or ce (Community).`);
  const editions = RELEASE_EDITIONS[v as EmqxVersion];
  if (!editions.includes(e as Edition)) {
    throw new Error(`EMQX ${v} ships one edition, Enterprise (from 5.9 on there is no Community build); --edition ce goes with 5.5.1 or 5.8.9.`);
  }
  return new Profile(v as EmqxVersion, e as Edition);
}
