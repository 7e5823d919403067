/**
 * The one place that knows the broker the console talks to: its version, edition and the
 * user's role, read at login (session.ts), turned into named capabilities. Screens ask
 * `has('pluginSchema')`, never compare versions; request bodies lose the fields the broker
 * would refuse in one place (`pruneBody`, called by api.ts for every write).
 * It does not probe the broker: what a version serves comes from the tables below, checked
 * against the broker's source (tags v5.5.1, v5.8.9, e5.10.4 and 6.2.2, api/corrections.md).
 */
import { setBodyFilter } from './api.ts';
import { isEnterprise, session } from './session.ts';

/**
 * The oldest broker the console supports. An unknown version (a session stored before the
 * version was kept, or a login answer without it) is read as this one: every 5.8 addition is
 * then left out of requests and optional in answers, which every supported broker accepts.
 */
export const OLDEST_VERSION = '5.5.1';

/** Compares dotted versions numerically (`5.10.0` > `5.8.9`); a suffix such as `-rc.1` is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v|[-+].*$/g, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

interface Capability {
  /** First broker version that has it. */
  since?: string;
  /** Only the Enterprise edition has it (`is_community_umbrella_app` in the tag's rebar.config.erl). */
  enterprise?: boolean;
  /** From this version on only the Enterprise edition has it (it left the Community build). */
  enterpriseSince?: string;
  /** First broker version that no longer has it. */
  until?: string;
}

/** What differs between the supported brokers, by name. */
export const CAPABILITIES = {
  /** Actions and sources list the ids of the rules using them (`rules`). */
  actionsCarryRules: { since: '5.8.0' },
  /** `created_at` / `last_modified_at` on actions and sources. */
  bridgeTimestamps: { since: '5.8.5' },
  /** Built-in database authorization `max_rules`. */
  authzMaxRules: { since: '5.8.0' },
  /** JWT authenticator `disconnect_after_expire`. */
  jwtDisconnectAfterExpire: { since: '5.8.0' },
  /** Built-in database authenticator `bootstrap_file` / `bootstrap_type`. */
  authnBootstrap: { since: '5.8.0' },
  /** `GET /plugins/{id}/schema`, `GET|PUT /plugins/{id}/config`. */
  pluginSchema: { since: '5.8.0' },
  /** `POST /authentication/{id}/import_users` answers 200 with counts (204 and no body before). */
  importUsersCounts: { since: '5.8.2' },
  /** `POST /data/export` takes `table_sets` / `root_keys` (before: no body, everything exported). */
  backupSelection: { since: '5.8.0' },
  /** `GET /clients/{id}/mqueue_messages` and `/inflight_messages` (emqx_mgmt_api_clients.erl, from v5.6.0). */
  clientQueues: { since: '5.6.0' },
  /** `GET /clients_v2` (cursor paging); `/clients` otherwise. */
  clientsV2: { since: '5.8.0' },
  /** `GET /actions_summary`, `/sources_summary`, `/source_types`. */
  summaries: { since: '5.8.0' },
  /** `PUT /authentication/order`, `PUT /authorization/sources/order`; one move at a time otherwise. */
  orderEndpoints: { since: '5.8.0' },
  /** `/schema_registry_external*`. */
  externalSchemaRegistry: { since: '5.8.0', enterprise: true },
  license: { enterprise: true },
  schemaRegistry: { enterprise: true },
  audit: { enterprise: true },
  sso: { enterprise: true },
  fileTransfer: { enterprise: true },
  /** Dashboard user and API key `role`. */
  rbac: { enterprise: true },
  /** Connector and action types beyond `http` and `mqtt`. */
  enterpriseBridges: { enterprise: true },
  /** `/opentelemetry`: emqx_opentelemetry is an Enterprise application in 5.8 (rebar.config.erl). */
  openTelemetry: { enterpriseSince: '5.8.0' },
  /** One edition from 5.9 on: every Enterprise feature is there whatever the login's `edition`. */
  singleEdition: { since: '5.9.0' },
  /** Dashboard MFA (TOTP): `mfa_token` in `/login`, `/users/{u}/mfa`, `mfa` on users (emqx_dashboard_mfa.erl). */
  dashboardMfa: { since: '5.9.0' },
  /** `password_expire_in_seconds` in the login answer (`dashboard.password_expired_time`). */
  passwordExpiry: { since: '5.9.0' },
  /** API key and user `scopes`, `/api_key_scopes`, `/user_scopes`. */
  scopes: { since: '5.9.0' },
  /** The rate limits live on listeners and in the zone's MQTT limiter; `/configs/limiter` is gone. */
  listenerLimits: { since: '5.9.0' },
  /** The http action's `local_topic` and `parameters.request_timeout` (emqx_bridge_http_schema.erl: gone at 6.2.2). */
  httpActionLocalTopic: { until: '6.0.0' },
  /** `/configs/limiter`, the node-wide limiter of 5.5 to 5.8 (absent from the e5.10.4 endpoint index). */
  globalLimiter: { until: '5.9.0' },
  /** The `ns` (namespace) query parameter on rules, connectors, actions, sources, authn users, authz rules, traces. */
  namespaces: { since: '6.0.0' },
} satisfies Record<string, Capability>;

export type CapabilityName = keyof typeof CAPABILITIES;

/** Connector and action types a Community broker has. */
export const COMMUNITY_BRIDGE_TYPES = ['http', 'mqtt'];

export interface BrokerProfile {
  version: string;
  edition: string;
  role?: string;
}

/**
 * Enterprise only when the login said so (`ee`): an unknown edition (an older stored session) is
 * read as Community, so the console sends nothing a Community broker refuses (such as `role`)
 * and offers no screen it lacks; logging in again brings the Enterprise screens back.
 */
const enterprise = (profile: BrokerProfile) =>
  isEnterprise(profile.edition) || compareVersions(profile.version || OLDEST_VERSION, CAPABILITIES.singleEdition.since) >= 0;

/** Whether the broker of `profile` (the logged-in one by default) has `name`. */
export function has(name: CapabilityName, profile: BrokerProfile = session): boolean {
  const cap: Capability = CAPABILITIES[name];
  const version = profile.version || OLDEST_VERSION;
  if (cap.enterprise && !enterprise(profile)) return false;
  if (cap.enterpriseSince && !enterprise(profile) && compareVersions(version, cap.enterpriseSince) >= 0) return false;
  if (cap.until && compareVersions(version, cap.until) >= 0) return false;
  return !cap.since || compareVersions(version, cap.since) >= 0;
}

/** Whether the user may change things: a `viewer` (Enterprise RBAC) sees the console read-only. */
export function canWrite(profile: BrokerProfile = session): boolean {
  return !(has('rbac', profile) && profile.role === 'viewer');
}

/**
 * Body fields a broker refuses (hocon `unknown_fields`) unless it has the capability, by the
 * paths that take them; a dotted field is nested (`parameters.request_timeout`), and a rule with
 * `type` applies to a connector, action or source of that type (named in the body or the id).
 * `authentication` also matches gateway and listener authenticators.
 */
export const BODY_FIELDS: { path: RegExp; fields: string[]; requires: CapabilityName; type?: string }[] = [
  { path: /^\/authorization\/sources(\/built_in_database)?$/, fields: ['max_rules'], requires: 'authzMaxRules' },
  { path: /\/authentication(\/[^/]+)?$/, fields: ['disconnect_after_expire'], requires: 'jwtDisconnectAfterExpire' },
  { path: /\/authentication(\/[^/]+)?$/, fields: ['bootstrap_file', 'bootstrap_type'], requires: 'authnBootstrap' },
  { path: /^\/data\/export$/, fields: ['table_sets', 'root_keys'], requires: 'backupSelection' },
  { path: /^\/(users|api_key)(\/[^/]+)?$/, fields: ['role'], requires: 'rbac' },
  { path: /^\/(users|api_key)(\/[^/]+)?$/, fields: ['scopes'], requires: 'scopes' },
  { path: /^\/actions(\/[^/]+)?$/, fields: ['local_topic', 'parameters.request_timeout'], requires: 'httpActionLocalTopic', type: 'http' },
];

type Body = Record<string, unknown>;
const isBody = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether `body` holds the dotted `field`. */
function holds(body: Body, field: string): boolean {
  const [head, ...rest] = field.split('.');
  if (!Object.hasOwn(body, head)) return false;
  return rest.length === 0 || (isBody(body[head]) && holds(body[head], rest.join('.')));
}

/** A copy of `body` without the dotted `field` (the objects on its way copied, nothing else). */
function without(body: Body, field: string): Body {
  const [head, ...rest] = field.split('.');
  const { [head]: inner, ...others } = body;
  if (rest.length === 0) return others;
  return { ...others, [head]: without(inner as Body, rest.join('.')) };
}

/** The body of `method path` without the fields this broker would refuse (a copy when any is dropped). */
export function pruneBody(method: string, path: string, body: unknown, profile: BrokerProfile = session): unknown {
  if (method === 'GET' || method === 'DELETE' || !isBody(body)) return body;
  const bare = '/' + path.replace(/^\//, '').split('?')[0];
  // A connector, action or source names its type in the body (create) or in its id (`type:name`).
  const id = decodeURIComponent(bare.split('/')[2] ?? '');
  const type = typeof body.type === 'string' ? body.type : id.split(':')[0];
  const drop = BODY_FIELDS.filter((rule) => rule.path.test(bare) && (!rule.type || rule.type === type) && !has(rule.requires, profile))
    .flatMap((rule) => rule.fields);
  return drop.filter((field) => holds(body, field)).reduce(without, body);
}

setBodyFilter(pruneBody);
