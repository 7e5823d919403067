// The broker's backup layout (emqx_mgmt_data_backup.erl at v5.5.1, e5.8.9, e5.10.4 and 6.2.2, the
// same at every tag): `<base>/META.hocon` (`edition` and `version` of the release), `<base>/cluster.hocon`
// (the cluster's configuration as HOCON, each root under its EMQX name: `listeners`, `authorization`,
// `rule_engine` …, only the roots that were changed, as `read_override_conf` gives them) and one
// file per built-in database table in `<base>/mnesia/<table>` (`emqx_admin`, `emqx_acl` …, the
// tables each release backs up). Here the simulator's persisted state is mapped onto that layout
// and back. The table files hold the simulator's records as JSON, not mnesia's disk_log of Erlang
// terms: a real broker reads cluster.hocon and META.hocon of these archives, not their tables.
// Log traces are no part of a backup, as in EMQX (emqx_trace is not an emqx_db_backup module).
import type { HoconObject, HoconValue } from '../../lib/hocon.ts';
import { CONFIG_ROOTS } from '../config/config-roots.ts';
import type { Availability, Profile } from '../profile.ts';
import type { PersistedState } from '../state.ts';

type Obj = Record<string, unknown>;
type State = Partial<PersistedState>;
type Key = keyof PersistedState;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
/** The object without the given keys, or undefined when nothing is left. */
function rest(v: Obj, ...keys: string[]): Obj | undefined {
  const out = Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k)));
  return Object.keys(out).length ? out : undefined;
}

/** The global zone's roots (zone.ts), top-level roots in EMQX's configuration. */
const ZONE_ROOTS = ['mqtt', 'flapping_detect', 'force_shutdown', 'force_gc', 'durable_sessions'];

/** `{type: {name: config}}` from records with type, name and config (connectors, actions, sources). */
function byTypeAndName(records: { type: string; name: string; config: unknown }[], extra: (r: Obj) => Obj = () => ({})): Obj {
  const out: Obj = {};
  for (const r of records) ((out[r.type] ??= {}) as Obj)[r.name] = { ...(r.config as Obj), ...extra(r as unknown as Obj) };
  return out;
}

function fromTypeAndName(v: unknown, split: (config: Obj) => Obj = (config) => ({ config })): Obj[] | undefined {
  if (!isObj(v)) return undefined;
  return Object.entries(v).flatMap(([type, names]) => Object.entries(obj(names) ?? {}).map(([name, config]) => ({ type, name, ...split(obj(config) ?? {}) })));
}

/**
 * How each persisted key sits in cluster.hocon: `write` adds it to the document, `read` takes it
 * back from a document (undefined when the document does not hold it). One entry per key.
 */
const CONFIG: Partial<Record<Key, { write: (v: never, out: Obj) => void; read: (conf: Obj) => unknown }>> = {
  authentication: { write: (v, out) => (out.authentication = v), read: (c) => c.authentication },
  authorization: {
    write: (v: PersistedState['authorization'] & object, out) => (out.authorization = { ...v.settings, sources: v.sources }),
    read: (c) => (isObj(c.authorization) ? { sources: c.authorization.sources ?? [], settings: rest(c.authorization, 'sources') ?? {} } : undefined),
  },
  listeners: {
    write: (v: Record<string, Obj>, out) => {
      const tree: Obj = {};
      for (const [id, config] of Object.entries(v)) {
        const [type, name] = id.split(':');
        ((tree[type] ??= {}) as Obj)[name] = config;
      }
      out.listeners = tree;
    },
    read: (c) => (isObj(c.listeners)
      ? Object.fromEntries(Object.entries(c.listeners).flatMap(([type, names]) => Object.entries(obj(names) ?? {}).map(([name, config]) => [`${type}:${name}`, config])))
      : undefined),
  },
  config_roots: {
    write: (v: Record<string, Obj>, out) => Object.assign(out, v),
    read: (c) => {
      const roots = Object.fromEntries(CONFIG_ROOTS.filter((r) => isObj(c[r])).map((r) => [r, r === 'dashboard' ? rest(c[r] as Obj, 'sso') : c[r]]).filter(([, v]) => v));
      return Object.keys(roots).length ? roots : undefined;
    },
  },
  zone: {
    write: (v: Record<string, Obj>, out) => Object.assign(out, v),
    read: (c) => {
      const zone = Object.fromEntries(ZONE_ROOTS.filter((r) => isObj(c[r])).map((r) => [r, c[r]]));
      return Object.keys(zone).length ? zone : undefined;
    },
  },
  sso: {
    write: (v, out) => (out.dashboard = { ...obj(out.dashboard), sso: v }),
    read: (c) => obj(c.dashboard)?.sso,
  },
  rewrite: { write: (v, out) => (out.rewrite = v), read: (c) => c.rewrite },
  auto_subscribe: { write: (v, out) => (out.auto_subscribe = { topics: v }), read: (c) => obj(c.auto_subscribe)?.topics },
  delayed: { write: (v, out) => (out.delayed = v), read: (c) => c.delayed },
  slow_subs: { write: (v, out) => (out.slow_subs = v), read: (c) => c.slow_subs },
  topic_metrics: { write: (v, out) => (out.topic_metrics = v), read: (c) => c.topic_metrics },
  gateways: { write: (v, out) => (out.gateway = v), read: (c) => c.gateway },
  exhooks: { write: (v, out) => (out.exhook = { servers: v }), read: (c) => obj(c.exhook)?.servers },
  plugins: { write: (v, out) => (out.plugins = { states: v }), read: (c) => obj(c.plugins)?.states },
  file_transfer: { write: (v, out) => (out.file_transfer = v), read: (c) => c.file_transfer },
  rule_engine: {
    write: (v: Obj, out) => (out.rule_engine = { ...obj(out.rule_engine), ...v }),
    read: (c) => (isObj(c.rule_engine) ? rest(c.rule_engine, 'rules') : undefined),
  },
  // emqx_rule_engine keeps rules by id under rule_engine.rules, their times in `metadata`.
  rules: {
    write: (v: Obj[], out) => {
      const rules: Obj = {};
      for (const { id, created_at, last_modified_at, metadata, ...rule } of v) rules[id as string] = { ...rule, metadata: { ...obj(metadata), created_at, last_modified_at } };
      out.rule_engine = { ...obj(out.rule_engine), rules };
    },
    read: (c) => {
      const rules = obj(obj(c.rule_engine)?.rules);
      if (!rules) return undefined;
      return Object.entries(rules).map(([id, r]) => {
        const { metadata, ...rule } = obj(r) ?? {};
        const { created_at, last_modified_at, ...meta } = obj(metadata) ?? {};
        return { id, ...rule, ...(Object.keys(meta).length ? { metadata: meta } : {}), created_at, last_modified_at };
      });
    },
  },
  connectors: { write: (v: never[], out) => (out.connectors = byTypeAndName(v)), read: (c) => fromTypeAndName(c.connectors) },
  // Actions and sources carry created_at / last_modified_at in their raw config (5.8.5+).
  actions: {
    write: (v: never[], out) => (out.actions = byTypeAndName(v, (r) => ({ created_at: r.created_at, last_modified_at: r.last_modified_at }))),
    read: (c) => fromTypeAndName(c.actions, ({ created_at, last_modified_at, ...config }) => ({ config, created_at, last_modified_at })),
  },
  sources: {
    write: (v: never[], out) => (out.sources = byTypeAndName(v, (r) => ({ created_at: r.created_at, last_modified_at: r.last_modified_at }))),
    read: (c) => fromTypeAndName(c.sources, ({ created_at, last_modified_at, ...config }) => ({ config, created_at, last_modified_at })),
  },
  schema_registry: {
    write: (v: Obj[], out) => (out.schema_registry = { ...obj(out.schema_registry), schemas: Object.fromEntries(v.map(({ name, ...s }) => [name, s])) }),
    read: (c) => {
      const schemas = obj(obj(c.schema_registry)?.schemas);
      return schemas && Object.entries(schemas).map(([name, s]) => ({ name, ...obj(s) }));
    },
  },
  schema_registry_external: {
    write: (v, out) => (out.schema_registry = { ...obj(out.schema_registry), external: v }),
    read: (c) => obj(c.schema_registry)?.external,
  },
  license_setting: { write: (v: Obj, out) => (out.license = { ...obj(out.license), ...v }), read: (c) => (isObj(c.license) ? rest(c.license, 'key') : undefined) },
  license_key: { write: (v, out) => (out.license = { ...obj(out.license), key: v }), read: (c) => obj(c.license)?.key },
};

/** A built-in database table of a backup: its mnesia name, table set (5.8+) and what it holds. */
interface Table extends Availability {
  table: string;
  set: string;
  /** The persisted key the rows come from. */
  key: Key;
  /** The release that no longer has this form of the table. */
  until?: string;
  rows: (s: State) => unknown[];
  /** Puts the rows back into `into` (only what the table holds). */
  restore: (rows: Obj[], into: State) => void;
}

const banRule = (b: { as: string }) => ['clientid_re', 'username_re', 'peerhost_net'].includes(b.as);
const scram = (id: string) => id.startsWith('scram:');
const usersOf = (s: State, pick: (id: string) => boolean) =>
  Object.entries(s.authn_users ?? {}).filter(([id]) => pick(id)).flatMap(([authenticator, users]) => users.map((u) => ({ authenticator, ...u })));
function restoreUsers(rows: Obj[], into: State, pick: (id: string) => boolean): void {
  const kept = Object.entries(into.authn_users ?? {}).filter(([id]) => !pick(id));
  const grouped: Record<string, unknown[]> = Object.fromEntries(kept);
  for (const { authenticator, ...user } of rows) (grouped[authenticator as string] ??= []).push(user);
  into.authn_users = grouped as PersistedState['authn_users'];
}

/**
 * The tables each release backs up (`backup_tables/0` of its emqx_db_backup modules): banned
 * clients split into individual entries and rules from 5.8, namespaced tables from 6.x.
 */
export const TABLES: readonly Table[] = [
  { table: 'emqx_admin', set: 'dashboard_users', key: 'users', rows: (s) => s.users ?? [], restore: (rows, into) => (into.users = rows as never) },
  { table: 'emqx_app', set: 'api_keys', key: 'api_keys', rows: (s) => s.api_keys ?? [], restore: (rows, into) => (into.api_keys = rows as never) },
  {
    table: 'emqx_acl', set: 'builtin_authz', key: 'authz_rules',
    rows: (s) => s.authz_rules ? [
      ...s.authz_rules.users.map((u) => ({ who: { username: u.username }, rules: u.rules })),
      ...s.authz_rules.clients.map((c) => ({ who: { clientid: c.clientid }, rules: c.rules })),
      ...(s.authz_rules.all.length ? [{ who: 'all', rules: s.authz_rules.all }] : []),
    ] : [],
    restore: (rows, into) => {
      const users = rows.filter((r) => obj(r.who)?.username !== undefined).map((r) => ({ username: (r.who as Obj).username, rules: r.rules }));
      const clients = rows.filter((r) => obj(r.who)?.clientid !== undefined).map((r) => ({ clientid: (r.who as Obj).clientid, rules: r.rules }));
      into.authz_rules = { users, clients, all: (rows.find((r) => r.who === 'all')?.rules ?? []) } as never;
    },
  },
  { table: 'emqx_authn_mnesia', set: 'builtin_authn', key: 'authn_users', rows: (s) => usersOf(s, (id) => !scram(id)), restore: (rows, into) => restoreUsers(rows, into, (id) => !scram(id)) },
  { table: 'emqx_authn_scram_mnesia', set: 'builtin_authn', key: 'authn_users', rows: (s) => usersOf(s, scram), restore: (rows, into) => restoreUsers(rows, into, scram) },
  { table: 'emqx_banned', set: 'banned', key: 'banned', rows: (s) => s.banned ?? [], until: '5.8.0', restore: (rows, into) => (into.banned = rows as never) },
  { table: 'emqx_banned', set: 'banned', key: 'banned', since: '5.8.0', rows: (s) => (s.banned ?? []).filter((b) => !banRule(b)), restore: (rows, into) => (into.banned = [...rows, ...(into.banned ?? []).filter(banRule)] as never) },
  { table: 'emqx_banned_rules', set: 'banned', key: 'banned', since: '5.8.0', rows: (s) => (s.banned ?? []).filter(banRule), restore: (rows, into) => (into.banned = [...(into.banned ?? []).filter((b) => !banRule(b)), ...rows] as never) },
  { table: 'emqx_psk', set: 'psk', key: 'users', rows: () => [], restore: () => undefined },
  { table: 'emqx_authn_mnesia_ns', set: 'builtin_authn', key: 'authn_users', since: '6.0.0', rows: () => [], restore: () => undefined },
  { table: 'emqx_authn_scram_mnesia_ns', set: 'builtin_authn', key: 'authn_users', since: '6.0.0', rows: () => [], restore: () => undefined },
  { table: 'emqx_acl_ns', set: 'builtin_authz', key: 'authz_rules', since: '6.0.0', rows: () => [], restore: () => undefined },
];

/** The table sets that hold credentials; only a logged-in dashboard user may export or import them (S19). */
export const CREDENTIAL_SETS = ['dashboard_users', 'api_keys'];

/** The tables of this release. */
export function tablesOf(profile: Profile): Table[] {
  return TABLES.filter((t) => profile.has(t) && (t.until === undefined || !profile.has({ since: t.until })));
}

/** The table sets this release knows (`table_sets` of POST /data/export, 5.8+). */
export function tableSets(profile: Profile): string[] {
  return [...new Set(tablesOf(profile).map((t) => t.set))];
}

export interface BackupContents {
  cluster: HoconObject;
  /** Rows by table name. */
  tables: Record<string, unknown[]>;
}

/** What an export of `state` holds: every configured root (or `rootKeys`) and every table (or those of `sets`). */
export function encode(state: State, profile: Profile, select: { rootKeys?: string[]; sets?: string[] } = {}): BackupContents {
  const cluster: Obj = {};
  for (const [key, part] of Object.entries(CONFIG)) {
    const value = state[key as Key];
    if (value !== undefined) part!.write(value as never, cluster);
  }
  if (select.rootKeys) for (const root of Object.keys(cluster)) if (!select.rootKeys.includes(root)) delete cluster[root];
  const tables: Record<string, unknown[]> = {};
  for (const t of tablesOf(profile)) if (!select.sets || select.sets.includes(t.set)) tables[t.table] = t.rows(state);
  // JSON round trip: no undefined values reach the HOCON writer.
  return JSON.parse(JSON.stringify({ cluster, tables })) as BackupContents;
}

/** Every root name an export can write. */
const ROOTS = new Set(['authentication', 'authorization', 'listeners', ...CONFIG_ROOTS, ...ZONE_ROOTS, 'rewrite', 'auto_subscribe', 'delayed',
  'slow_subs', 'topic_metrics', 'gateway', 'exhook', 'plugins', 'file_transfer', 'rule_engine', 'connectors', 'actions', 'sources',
  'schema_registry', 'license']);

/** The roots of a cluster.hocon that the simulator has no place for (it refuses them rather than drop them). */
export function unknownRoots(cluster: HoconObject): string[] {
  return Object.keys(cluster).filter((root) => !ROOTS.has(root));
}

/**
 * The state a backup's contents put back: the keys of the roots its cluster.hocon holds and of
 * the tables it has; anything else stays as it is (import_cluster_hocon and the table restore
 * touch only what the archive carries). Tables of another release are read by name too.
 */
export function decode(contents: { cluster: HoconObject; tables: Record<string, unknown> }): State {
  const out: State = {};
  const byName = new Map<string, Table>();
  // The 5.8+ split of banned entries reads both files; a 5.5 archive has the one table.
  for (const t of TABLES) if (!byName.has(t.table) || t.since) byName.set(t.table, t);
  const present = Object.keys(contents.tables);
  for (const name of present) {
    const table = name === 'emqx_banned' && !present.includes('emqx_banned_rules') ? TABLES.find((t) => t.until)! : byName.get(name);
    const rows = contents.tables[name];
    if (!table) continue;
    // Anything but a list of records goes to the checks as it is, which name the key.
    if (Array.isArray(rows) && rows.every(isObj)) table.restore(rows, out);
    else (out as Obj)[table.key] = rows;
  }
  for (const [key, part] of Object.entries(CONFIG)) {
    const value = part!.read(contents.cluster as Obj);
    if (value !== undefined) (out as Obj)[key] = value as HoconValue;
  }
  return out;
}
