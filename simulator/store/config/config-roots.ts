// Config roots the simulator keeps (sys_topics, log, dashboard, alarm, sysmon, limiter, prometheus,
// opentelemetry, retainer, broker): each answers the fields of its release's tree
// (release-tree.ts, made from the broker's schema dumps) with their defaults, hidden fields left
// out as the broker's fill_defaults leaves them; a PUT is checked as hocon checks it
// (schema-check.ts: every problem, 400 BAD_REQUEST, the release's wording) and merged and persisted.
import { checkValue } from '../../lib/hocon-check/check.ts';
import { parseHocon } from '../../lib/hocon.ts';
import { defaultValue } from '../../lib/hocon-check/dump.ts';
import type { HoconType } from '../../lib/hocon-check/types.ts';
import { HOCON, type EmqxVersion } from '../profile.ts';
import type { StoreContext } from '../context.ts';
import { releaseBase, treeRoot, treeStruct, type TreeField } from './release-tree.ts';
import { refuseInvalid, rootType, structType } from './schema-check.ts';

type Json = unknown;
type Obj = Record<string, Json>;

/** A config value that failed validation, with the dotted path of the offending field. */
export class ConfigError extends Error {
  constructor(readonly path: string, readonly reason: string, readonly value?: Json) {
    super(`${path}: ${reason}`);
  }
}

/** A struct field's own default text (`{local {}}`) as an object, or null without one. */
function structDefault(field: TreeField): Obj | null {
  const text = field.default?.trim();
  if (!text || !text.startsWith('{')) return null;
  try {
    return parseHocon(text.slice(1, -1)) as Obj;
  } catch {
    return null;
  }
}

/**
 * The defaults of a struct's fields as the broker fills them (hocon_tconf with
 * make_serializable): hidden and deprecated fields left out, a struct field with a default of its
 * own taken from it (only the members it names are filled), one without filled from its fields.
 */
function defaultsOf(fields: TreeField[], given: Obj = {}): Obj {
  const out: Obj = {};
  for (const field of fields) {
    const name = field.text;
    const sub = field.type.startsWith('Struct(') ? field.refs?.[0]?.fields : undefined;
    if (Object.hasOwn(given, name)) {
      out[name] = sub && isObj(given[name]) ? defaultsOf(sub, given[name] as Obj) : given[name];
      continue;
    }
    if (field.hidden || field.deprecated || field.optional) continue;
    if (sub) {
      out[name] = defaultsOf(sub, structDefault(field) ?? {});
    } else if (field.default !== undefined) {
      const value = defaultValue(field.type, field.default);
      out[name] = typeof value === 'string' && value.startsWith('{') ? {} : value;
    }
  }
  return out;
}

/** The schema fields of a root struct (the first alternative of a OneOf root). */
export function rootFields(root: string, version: EmqxVersion = '5.5.1'): TreeField[] {
  return treeRoot(version, root)?.refs?.[0]?.fields ?? [];
}

/** Fields of a named struct anywhere below a root, e.g. `mqtt_tcp_listener` under `listeners`. */
export function structFields(root: string, struct: string, version: EmqxVersion = '5.5.1'): TreeField[] {
  return treeStruct(version, root, struct);
}

/**
 * The defaults a fresh broker of the release answers for a root (its tree over its config files),
 * or a root as configured (`given`, raw) with the defaults of what it leaves out filled in.
 */
export function rootDefaults(root: string, version: EmqxVersion, given: Obj = releaseBase(version, root) as Obj): Obj {
  return defaultsOf(rootFields(root, version), given);
}

/** Defaults of a named struct (see structFields). */
export function structDefaults(root: string, struct: string, version: EmqxVersion = '5.5.1'): Obj {
  return defaultsOf(structFields(root, struct, version));
}

/**
 * Validates an object against a named struct of a release; throws ConfigError naming the first
 * problem's path (for callers that answer in their own words; schema-check.ts refuses with all).
 */
export function validateStruct(root: string, struct: string, value: Obj, path: string, version: EmqxVersion = '5.5.1'): void {
  const checked = checkValue(structType(version, root, struct), value, { dialect: HOCON[version] }, path ? path.split('.') : []);
  const first = checked.errors[0];
  if (first) throw new ConfigError(String(first.path), typeof first.reason === 'string' ? first.reason : JSON.stringify(first.reason ?? first), first.value);
}

function isObj(v: Json): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Deep merge: objects merge key by key, everything else replaces. */
export function deepMerge(base: Json, patch: Json): Json {
  if (!isObj(base) || !isObj(patch)) return patch === undefined ? base : patch;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(patch)) if (!UNSAFE_KEYS.has(k)) out[k] = deepMerge(base[k], v);
  return out;
}

/** `******` in a new value keeps the old secret at that place (emqx_utils:deobfuscate). */
export function restoreSecrets(next: Json, old: Json): Json {
  if (next === '******') return old;
  if (!isObj(next)) return next;
  const out: Obj = {};
  for (const [k, v] of Object.entries(next)) out[k] = restoreSecrets(v, isObj(old) ? old[k] : undefined);
  return out;
}

const SECRET_KEYS = new Set(['password', 'default_password', 'secret', 'bind_password']);

/** Secrets replaced by `******` for GET responses. */
export function obfuscate(value: Json): Json {
  if (Array.isArray(value)) return value.map(obfuscate);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.has(k) && typeof v === 'string' && v !== '' ? '******' : obfuscate(v);
  return out;
}

/** The roots served by /configs/{root} and the dedicated config endpoints. */
export const CONFIG_ROOTS = ['sys_topics', 'log', 'dashboard', 'alarm', 'sysmon', 'limiter', 'prometheus', 'opentelemetry', 'retainer', 'broker'] as const;
export type ConfigRoot = (typeof CONFIG_ROOTS)[number];

// Defaults the tree does not spell out the way the API returns them.
const OVERRIDES: Partial<Record<ConfigRoot, Obj>> = {
  // `file` is the single-handler form; this process does not log to a file (see GET /nodes log_path).
  // emqx_enterprise_schema.erl audit_log_conf/0: the audit handler is off unless turned on.
  log: { file: { enable: false }, audit: { enable: false } },
  dashboard: { default_password: 'public' },
};

const rate = (): HoconType => ({ kind: 'primitive', name: 'rate' });

/**
 * The `limiter` root of 5.5 and 5.8 (emqx_limiter_schema.erl fields(limiter), in no dump): the
 * three short paths, the hidden per-type node settings, the deprecated client settings.
 * GET answers only the short paths that are set (emqx_mgmt_api_configs.erl format_limiter_config/1).
 */
const LIMITER: HoconType = {
  kind: 'struct',
  name: 'limiter',
  fields: [
    ...['max_conn_rate', 'messages_rate', 'bytes_rate'].map((name) => ({ name, type: rate() })),
    ...['bytes', 'messages', 'connection', 'message_routing', 'internal'].map((name) => ({
      name,
      type: { kind: 'struct', name: 'node_opts', fields: [{ name: 'rate', type: rate() }, { name: 'burst', type: { kind: 'primitive', name: 'burst' } }] } as HoconType,
    })),
    { name: 'client', type: { kind: 'primitive', name: 'term' }, deprecated: true },
  ],
};

export class ConfigRoots {
  private readonly defaults = new Map<ConfigRoot, Obj>();
  /** Called after a root changed (the broker's timers, log level …). */
  private readonly watchers: ((root: ConfigRoot, value: Obj) => void)[] = [];

  constructor(private readonly ctx: StoreContext) {}

  private get version(): EmqxVersion {
    return this.ctx.profile.version;
  }

  /** The schema of a root in this release. */
  typeOf(root: ConfigRoot): HoconType | undefined {
    return root === 'limiter' ? LIMITER : rootType(this.version, root);
  }

  defaultOf(root: ConfigRoot): Obj {
    let d = this.defaults.get(root);
    if (!d) {
      const base = root === 'limiter' ? {} : rootDefaults(root, this.version);
      if (root === 'log') base.file = structDefaults('log', 'log_file_handler', this.version);
      d = deepMerge(base, OVERRIDES[root] ?? {}) as Obj;
      this.defaults.set(root, d);
    }
    return structuredClone(d);
  }

  private saved(): Record<string, Obj> {
    const state = this.ctx.state as { config_roots?: Record<string, Obj> };
    state.config_roots ??= {};
    return state.config_roots;
  }

  /** The raw config of a root with defaults filled (secrets not yet obfuscated). */
  get(root: ConfigRoot): Obj {
    return deepMerge(this.defaultOf(root), this.saved()[root] ?? {}) as Obj;
  }

  /**
   * Checks the body as the broker's request filter does (400 BAD_REQUEST listing every problem),
   * merges it over the current value (secrets kept), persists and returns the new value. With
   * `replace` the body is merged over the defaults instead, so keys it leaves out reset.
   */
  async put(root: ConfigRoot, body: Obj, options: { replace?: boolean } = {}): Promise<Obj> {
    const current = this.get(root);
    const restored = restoreSecrets(body, current) as Obj;
    const type = this.typeOf(root);
    if (type) refuseInvalid(this.ctx.profile, type, restored);
    if (root === 'dashboard' && 'default_password' in body && body.default_password !== '******' && body.default_password !== current.default_password) {
      throw new ConfigError('default_password', 'read only', undefined);
    }
    const given = dropNulls(restored);
    const next = root === 'limiter' ? given : (deepMerge(options.replace ? this.defaultOf(root) : current, given) as Obj);
    this.saved()[root] = next;
    await this.ctx.persist();
    for (const watch of this.watchers) watch(root, next);
    return next;
  }

  /**
   * Puts a root, or the key at `path` under it, back to the reference default (POST
   * /configs_reset/{root}); a key without a default raises ConfigError 'no default value'.
   */
  async reset(root: ConfigRoot, path: string[] = []): Promise<Obj> {
    let next: Obj;
    if (path.length === 0) {
      next = this.defaultOf(root);
    } else {
      let fallback: Json = this.defaultOf(root);
      for (const key of path) fallback = isObj(fallback) && Object.hasOwn(fallback, key) ? fallback[key] : undefined;
      if (fallback === undefined) throw new ConfigError(path.join('.'), 'no default value');
      next = this.get(root);
      let at = next;
      for (const key of path.slice(0, -1)) {
        if (!isObj(at[key])) at[key] = {};
        at = at[key] as Obj;
      }
      at[path[path.length - 1]] = fallback;
    }
    this.saved()[root] = next;
    await this.ctx.persist();
    for (const watch of this.watchers) watch(root, next);
    return next;
  }

  /** Registers a function called with every accepted change. */
  onChange(watch: (root: ConfigRoot, value: Obj) => void): void {
    this.watchers.push(watch);
  }
}

/** A copy without the `null` members of objects, at every depth (hocon's drop_nulls). */
function dropNulls(value: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    out[k] = isObj(v) ? dropNulls(v) : v;
  }
  return out;
}
