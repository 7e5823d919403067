// What a backup may put into the state (security.md S19, S22): one check per state key, each
// reusing the owning store module's own rule (name patterns, regex and topic checks, limits,
// rule and schema compilers) so that an import can hold nothing the API would refuse. Keys of
// modules whose API checks live in their request schemas get the stored shape checked. A check
// answers the first problem as `<key>[<index>]: <reason>`, or null; it never changes anything.
import { cidrMatcher } from '../access/acl-file.ts';
import { MAX_API_KEYS } from '../dashboard/api-keys.ts';
import { MAX_AUTO_SUBSCRIBE } from '../messaging/auto-subscribe.ts';
import { normalizeRule } from '../access/authz.ts';
import { BAN_KINDS } from '../access/banned.ts';
import { CONFIG_ROOTS } from '../config/config-roots.ts';
import { checkName } from '../integration/connectors.ts';
import { GATEWAY_NAMES } from '../config/gateways.ts';
import { parseLicenseKey, parsePercent } from '../dashboard/license.ts';
import { LISTENER_TYPES } from '../config/listeners.ts';
import { pluginRecordProblem } from '../config/plugins.ts';
import { regexProblem } from '../../lib/regex.ts';
import { MAX_REWRITE_RULES } from '../messaging/rewrite.ts';
import { parseSql } from '../../rules/parser.ts';
import { SCHEMA_TYPES, compileSchema, type SchemaType } from '../integration/schema-registry.ts';
import { SSO_BACKENDS } from '../dashboard/sso.ts';
import type { PersistedState } from '../state.ts';
import { MAX_TOPIC_METRICS } from '../messaging/topic-metrics.ts';
import { topicFilterProblem, topicNameProblem } from '../../lib/topic.ts';
import { MAX_TRACES, traceRecordProblem } from '../messaging/trace.ts';

type Obj = Record<string, unknown>;
type Check = (value: unknown) => string | null;

/** The keys only a logged-in dashboard user may export or import (they hold hashes). */
export const CREDENTIAL_KEYS: readonly (keyof PersistedState)[] = ['users', 'api_keys'];

// The API's name rules for these two live in their route schemas (routes/users.ts,
// routes/api-keys.ts); the stored hash formats are those of passwords.ts.
const USERNAME = /^[_a-zA-Z0-9]{1,100}$/;
const API_KEY_NAME = /^[A-Za-z]+[A-Za-z0-9-_]*$/;
const PASSWORD_HASH = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;
const SECRET_HASH = /^sha256\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;
// state.ts DashboardRole and ApiKeyRole (Enterprise RBAC).
const DASHBOARD_ROLES: readonly string[] = ['administrator', 'viewer'];
const API_KEY_ROLES: readonly string[] = [...DASHBOARD_ROLES, 'publisher'];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isTime = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isQos = (v: unknown) => v === 0 || v === 1 || v === 2;

/** The message of whatever `fn` throws, or null: adapts the store's throwing validators. */
function thrown(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** A list of at most `max` items, each passing `item`, `key(item)` unique when given. */
function listOf(item: Check, max = Infinity, key?: (v: Obj) => unknown): Check {
  return (value) => {
    if (!Array.isArray(value)) return 'must be a list';
    if (value.length > max) return `holds more than ${max} items`;
    const seen = new Set<unknown>();
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i]);
      if (problem) return `[${i}]: ${problem}`;
      if (key) {
        const k = key(value[i] as Obj);
        if (seen.has(k)) return `[${i}]: duplicate ${String(k)}`;
        seen.add(k);
      }
    }
    return null;
  };
}

/** An object whose keys pass `name` and whose values pass `item`. */
function mapOf(item: Check, name: (k: string) => boolean = () => true): Check {
  return (value) => {
    if (!isObj(value)) return 'must be an object';
    for (const [k, v] of Object.entries(value)) {
      if (!name(k)) return `[${JSON.stringify(k)}]: unknown name`;
      const problem = item(v);
      if (problem) return `[${JSON.stringify(k)}]: ${problem}`;
    }
    return null;
  };
}

const object: Check = (v) => (isObj(v) ? null : 'must be an object');
const named: Check = (v) => (isObj(v) && isStr(v.name) && v.name !== '' ? null : 'must be an object with a name');

// Scope names of emqx_api_key_scopes.hrl (lower case and underscores; `$denied` is internal).
const isScopes = (v: unknown) => Array.isArray(v) && v.length <= 64 && v.every((s) => isStr(s) && /^[a-z_$]{1,64}$/.test(s));

const user: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  if (!isStr(v.username) || !USERNAME.test(v.username)) return `username must match ${USERNAME.source}`;
  if (!isStr(v.description) || v.description.length > 1000) return 'description must be a string of at most 1000 characters';
  if (!isStr(v.password_hash) || !PASSWORD_HASH.test(v.password_hash)) return 'password_hash is not a password hash';
  if (v.role !== undefined && !DASHBOARD_ROLES.includes(v.role as string)) return `role must be one of ${DASHBOARD_ROLES.join(', ')}`;
  if (v.mfa_state !== undefined && v.mfa_state !== 'disabled' && !(isObj(v.mfa_state) && v.mfa_state.mechanism === 'totp' && isStr(v.mfa_state.secret) && /^[A-Z2-7]{16,128}$/.test(v.mfa_state.secret))) {
    return 'mfa_state must be disabled or a TOTP secret';
  }
  if (v.admin_override !== undefined && v.admin_override !== 'mfa_required' && v.admin_override !== 'mfa_exempted') return 'admin_override must be mfa_required or mfa_exempted';
  if (v.scopes !== undefined && !isScopes(v.scopes)) return 'scopes must be a list of scope names';
  return isTime(v.created_at) ? null : 'created_at must be a time';
};


const apiKey: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  if (!isStr(v.name) || v.name.length > 256 || !API_KEY_NAME.test(v.name)) return `name must match ${API_KEY_NAME.source}`;
  if (!isStr(v.api_key) || !/^[0-9a-f]{1,64}$/.test(v.api_key)) return 'api_key must be hexadecimal';
  if (!isStr(v.secret_hash) || !SECRET_HASH.test(v.secret_hash)) return 'secret_hash is not a secret hash';
  if (!isStr(v.desc) || typeof v.enable !== 'boolean') return 'desc and enable are required';
  if (v.expired_at !== null && !isTime(v.expired_at)) return 'expired_at must be a time or null';
  if (v.role !== undefined && !API_KEY_ROLES.includes(v.role as string)) return `role must be one of ${API_KEY_ROLES.join(', ')}`;
  if (v.scopes !== undefined && !isScopes(v.scopes)) return 'scopes must be a list of scope names';
  return isTime(v.created_at) ? null : 'created_at must be a time';
};

const rewriteRule: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  if (!['publish', 'subscribe', 'all'].includes(v.action as string)) return 'action must be publish, subscribe or all';
  if (!isStr(v.source_topic) || topicFilterProblem(v.source_topic)) return 'source_topic is not a topic filter';
  if (!isStr(v.dest_topic) || (v.action !== 'subscribe' && topicNameProblem(v.dest_topic))) return 'dest_topic is not a topic name';
  if (!isStr(v.re)) return 're must be a string';
  const problem = regexProblem(v.re);
  return problem ? `re: ${problem}` : null;
};

const autoSubscribe: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  if (!isStr(v.topic) || v.topic === '' || topicFilterProblem(v.topic.replace(/\$\{[^}]*\}/g, 'x'))) return 'topic is not a topic filter';
  if (!isQos(v.qos) || !isQos(v.rh) || (v.rap !== 0 && v.rap !== 1) || (v.nl !== 0 && v.nl !== 1)) return 'qos and rh must be 0–2, rap and nl 0 or 1';
  return null;
};

const ban: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  if (!BAN_KINDS.includes(v.as as (typeof BAN_KINDS)[number])) return `as must be one of ${BAN_KINDS.join(', ')}`;
  if (!isStr(v.who) || v.who === '') return 'who is required';
  if (!isStr(v.by) || !isStr(v.reason) || !isTime(v.at)) return 'by, reason and at are required';
  if (v.until !== null && !isTime(v.until)) return 'until must be a time or null';
  if (v.as === 'clientid_re' || v.as === 'username_re') return regexProblem(v.who);
  if (v.as === 'peerhost_net') {
    const problem = thrown(() => cidrMatcher(v.who as string));
    return problem && `who: ${problem}`;
  }
  return null;
};

const topicMetric: Check = (v) =>
  isObj(v) && isStr(v.topic) && !topicNameProblem(v.topic) && isTime(v.create_time) ? null : 'topic must be a topic name with a create_time';

const rules = (where: string): Check => (v) => {
  if (!Array.isArray(v)) return 'rules must be a list';
  return v.map((r, i) => thrown(() => normalizeRule(r, `${where}.rules[${i}]`))).find((p) => p !== null) ?? null;
};

const builtInRules: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  const users = listOf((u) => (isObj(u) && isStr(u.username) ? rules('users')(u.rules) : 'username is required'))(v.users ?? []);
  const clients = listOf((c) => (isObj(c) && isStr(c.clientid) ? rules('clients')(c.rules) : 'clientid is required'))(v.clients ?? []);
  return (users && `users${users}`) ?? (clients && `clients${clients}`) ?? rules('all')(v.all ?? []);
};

const ruleRecord: Check = (v) => {
  if (!isObj(v) || !isStr(v.id) || v.id === '' || !isStr(v.sql)) return 'id and sql are required';
  if (!Array.isArray(v.actions) || typeof v.enable !== 'boolean') return 'actions and enable are required';
  const problem = thrown(() => parseSql(v.sql as string));
  return problem && `sql: ${problem}`;
};

const schema: Check = (v) => {
  if (!isObj(v) || !isStr(v.name) || v.name === '' || !isStr(v.source)) return 'name and source are required';
  if (!SCHEMA_TYPES.includes(v.type as SchemaType)) return `type must be one of ${SCHEMA_TYPES.join(', ')}`;
  const problem = thrown(() => compileSchema(v.type as SchemaType, v.source as string));
  return problem && `source: ${problem}`;
};

const resource: Check = (v) => {
  if (!isObj(v) || !isStr(v.type) || !/^[a-z0-9_]+$/.test(v.type)) return 'type is required';
  const problem = thrown(() => checkName(v.name));
  return problem ?? (isObj(v.config) ? null : 'config must be an object');
};

// A validation or transformation: the fields the message path reads (message-chain.ts).
const chainEntry: Check = (v) => {
  if (!isObj(v)) return 'must be an object';
  const problem = thrown(() => checkName(v.name));
  if (problem) return problem;
  if (!Array.isArray(v.topics) || v.topics.length === 0 || !v.topics.every(isStr)) return 'topics must be a list of topic filters';
  return typeof v.enable === 'boolean' ? null : 'enable must be a boolean';
};

const listenerId = (id: string) => {
  const [type, name] = id.split(':');
  return (LISTENER_TYPES as readonly string[]).includes(type) && /^[A-Za-z0-9_-]+$/.test(name ?? '');
};

/** One check per persisted key; a key missing here is refused, so new keys must add theirs. */
const CHECKS: Record<keyof PersistedState, Check> = {
  users: listOf(user, 1000, (u) => u.username),
  api_keys: listOf(apiKey, MAX_API_KEYS, (k) => k.name),
  license_setting: (v) => (isObj(v) && isStr(v.connection_low_watermark) && isStr(v.connection_high_watermark)
    && parsePercent(v.connection_low_watermark) !== null && parsePercent(v.connection_high_watermark) !== null
    ? null : 'watermarks must be percentages'),
  // PUT /mqtt/topic_rewrite refuses lists of MAX_REWRITE_RULES or more.
  rewrite: listOf(rewriteRule, MAX_REWRITE_RULES - 1),
  auto_subscribe: listOf(autoSubscribe, MAX_AUTO_SUBSCRIBE),
  delayed: (v) => (isObj(v) && typeof v.enable === 'boolean' && Number.isInteger(v.max_delayed_messages) && (v.max_delayed_messages as number) >= 0
    ? null : 'enable and max_delayed_messages are required'),
  traces: listOf(traceRecordProblem, MAX_TRACES, (t) => t.name),
  topic_metrics: listOf(topicMetric, MAX_TOPIC_METRICS, (t) => t.topic),
  slow_subs: object,
  config_roots: mapOf(object, (k) => (CONFIG_ROOTS as readonly string[]).includes(k)),
  listeners: mapOf(object, listenerId),
  gateways: mapOf(object, (k) => (GATEWAY_NAMES as readonly string[]).includes(k)),
  exhooks: listOf(named, Infinity, (e) => e.name),
  plugins: listOf(pluginRecordProblem, Infinity, (p) => p.id),
  authentication: listOf(object),
  authn_users: mapOf(listOf((u) => (isObj(u) && isStr(u.user_id) && u.user_id !== '' ? null : 'user_id is required'), Infinity, (u) => u.user_id)),
  authorization: (v) => (isObj(v) && Array.isArray(v.sources) && v.sources.every(isObj) && isObj(v.settings) ? null : 'sources and settings are required'),
  authz_rules: builtInRules,
  banned: listOf(ban, Infinity, (b) => `${b.as}:${b.who}`),
  zone: mapOf(object),
  rules: listOf(ruleRecord, Infinity, (r) => r.id),
  rule_engine: object,
  schema_registry: listOf(schema, Infinity, (s) => s.name),
  schema_registry_external: mapOf(object),
  schema_validations: listOf(chainEntry, Infinity, (v) => v.name),
  message_transformations: listOf(chainEntry, Infinity, (v) => v.name),
  cluster_links: listOf((v) => (isObj(v) && isStr(v.server) && Array.isArray(v.topics) ? thrown(() => checkName(v.name)) : 'name, server and topics are required'), Infinity, (v) => v.name),
  connectors: listOf(resource, Infinity, (c) => `${c.type}:${c.name}`),
  actions: listOf(resource, Infinity, (c) => `${c.type}:${c.name}`),
  sources: listOf(resource, Infinity, (c) => `${c.type}:${c.name}`),
  // Each namespace's objects are checked as the global ones are.
  namespaces: mapOf((v) => {
    if (!isObj(v) || typeof v.created_at !== 'number') return 'created_at is required';
    for (const key of ['rules', 'rule_engine', 'connectors', 'actions', 'sources', 'authn_users'] as const) {
      const problem = v[key] === undefined ? null : CHECKS[key](v[key]);
      if (problem) return `${key}: ${problem}`;
    }
    return null;
  }),
  sso: mapOf(object, (k) => (SSO_BACKENDS as readonly string[]).includes(k)),
  file_transfer: object,
  license_key: (v) => (isStr(v) && parseLicenseKey(v) ? null : 'not a license key signed by EMQ'),
};

/**
 * The first problem of an imported or loaded state, named by key and item, or null when all is
 * well. Unknown keys are refused unless `unknownKeys` is 'keep' (a state file may hold keys of a
 * later version). Dashboard users, when present, must include an administrator: without one
 * nobody could manage the broker, and the simulator never re-creates a default user over a
 * state (security.md D4).
 */
export function checkState(state: unknown, unknownKeys: 'refuse' | 'keep' = 'refuse'): string | null {
  if (!isObj(state)) return 'the configuration must be an object';
  for (const [key, value] of Object.entries(state)) {
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key as keyof PersistedState] : undefined;
    if (!check) {
      if (unknownKeys === 'keep') continue;
      return `unknown configuration key ${key}`;
    }
    const problem = check(value);
    if (problem) return problem.startsWith('[') ? `${key}${problem}` : `${key}: ${problem}`;
  }
  const users = state.users as Obj[] | undefined;
  if (users !== undefined && users.length === 0) return 'users: at least one dashboard user is required';
  // A user without a role predates RBAC and is an administrator (emqx_dashboard_admin.erl ensure_role/1).
  if (users !== undefined && !users.some((u) => (u.role ?? 'administrator') === 'administrator')) return 'users: at least one administrator is required';
  return null;
}
