// Config roots the simulator keeps (sys_topics, log, dashboard, alarm, sysmon, limiter, prometheus,
// opentelemetry, retainer, listeners): defaults and validation are derived from the EMQX 5.5
// config-schema reference in fixtures/, so a PUT is checked for type, range, enum and duration or
// byte-size syntax and rejected with the offending path; accepted values are merged and persisted.
import { readFileSync } from 'node:fs';
import type { StoreContext } from '../context.ts';
import { isRate, parseBytesize, parseDuration } from '../../lib/units.ts';
import { refuseUnknown } from './strict.ts';

type Json = unknown;
type Obj = Record<string, Json>;

interface SchemaField {
  text: string;
  type: string;
  default?: string;
  refs?: { text: string; fields?: SchemaField[] }[];
}

const SCHEMA_FILE = new URL('../../../fixtures/emqx-5.5-config-schema.json', import.meta.url);
let schemaRoots: SchemaField[] | null = null;

/** The top-level fields of the reference (read once, lazily). */
function roots(): SchemaField[] {
  schemaRoots ??= (JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { fields: SchemaField[] }).fields;
  return schemaRoots;
}

/** A config value that failed validation, with the dotted path of the offending field. */
export class ConfigError extends Error {
  constructor(readonly path: string, readonly reason: string, readonly value?: Json) {
    super(`${path}: ${reason}`);
  }
}

/** Splits `A(x),B(y)` at top-level commas. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p !== '');
}

function bound(text: string): number {
  if (text.endsWith('inf')) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

/** Checks one value against a type string of the reference; returns a reason or null. */
function typeProblem(type: string, value: Json, field: SchemaField | undefined, path: string): string | null {
  const open = type.indexOf('(');
  const head = open < 0 ? type : type.slice(0, open);
  const inner = open < 0 ? '' : type.slice(open + 1, -1);
  switch (head) {
    case 'Boolean':
      return typeof value === 'boolean' ? null : 'expected a boolean';
    case 'String':
      if (inner.startsWith('"')) return value === JSON.parse(inner) ? null : `expected ${inner}`;
      return typeof value === 'string' ? null : 'expected a string';
    case 'Secret':
      return typeof value === 'string' ? null : 'expected a string';
    case 'Integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'expected an integer';
      if (inner) {
        const [lo, hi] = inner.split('..').map(bound);
        if (value < lo || value > hi) return `out of range ${inner}`;
      }
      return null;
    }
    case 'Number':
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'expected a number';
    case 'Duration':
    case 'Timeout':
      return parseDuration(value) === null ? `invalid duration: ${JSON.stringify(value)}` : null;
    case 'Bytesize':
      return parseBytesize(value) === null ? `invalid byte size: ${JSON.stringify(value)}` : null;
    case 'Enum': {
      const allowed = splitTop(inner);
      const text = typeof value === 'boolean' ? String(value) : value;
      return typeof text === 'string' && allowed.includes(text) ? null : `expected one of ${allowed.join(', ')}`;
    }
    case 'Array': {
      if (!Array.isArray(value)) return 'expected an array';
      for (let i = 0; i < value.length; i++) {
        // The reference flattens list-of-lists types (retainer index_specs is [[1, 2, 3], [3]]).
        if (Array.isArray(value[i]) && !inner.startsWith('Array')) {
          typeProblem(type, value[i], undefined, `${path}.${i}`);
          continue;
        }
        const problem = typeProblem(inner, value[i], undefined, `${path}.${i}`);
        if (problem) throw new ConfigError(`${path}.${i}`, problem, value[i]);
      }
      return null;
    }
    case 'OneOf': {
      const options = splitTop(inner);
      for (const option of options) {
        try {
          if (!typeProblem(option, value, field, path)) return null;
        } catch {
          // try the next alternative
        }
      }
      return `expected ${options.join(' or ')}`;
    }
    case 'Struct': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return 'expected an object';
      const ref = field?.refs?.find((r) => r.text === inner) ?? field?.refs?.[0];
      if (ref?.fields) checkFields(ref.fields, value as Obj, path);
      return null;
    }
    case 'Map':
      return value && typeof value === 'object' && !Array.isArray(value) ? null : 'expected an object';
    default:
      return null;
  }
}

function checkFields(fields: SchemaField[], value: Obj, path: string): void {
  for (const [key, v] of Object.entries(value)) {
    const field = fields.find((f) => f.text === key);
    if (!field) continue; // unknown keys are kept, as EMQX keeps them in the raw config
    const at = path ? `${path}.${key}` : key;
    const problem = typeProblem(field.type, v, field, at);
    if (problem) throw new ConfigError(at, problem, v);
  }
}

/** Parses a HOCON default text of the reference into JSON. */
function parseDefault(type: string, text: string): Json {
  const t = text.trim();
  if (t === 'true' || t === 'false') return type.startsWith('String') ? t : t === 'true';
  if (t.startsWith('"')) return JSON.parse(t);
  if (/^-?\d+(\.\d+)?$/.test(t) && (type.startsWith('Integer') || type.startsWith('Number') || type.startsWith('Float') || /Integer/.test(type) && !/Duration|Bytesize/.test(type))) return Number(t);
  if (t === '{}') return {};
  if (t.startsWith('[')) {
    try {
      return JSON.parse(t);
    } catch {
      const inner = t.slice(1, -1).trim();
      return inner ? inner.split(',').map((s) => s.trim().replace(/^"|"$/g, '')) : [];
    }
  }
  return t;
}

function defaultsOf(fields: SchemaField[]): Obj {
  const out: Obj = {};
  for (const field of fields) {
    if (field.type.startsWith('Struct(') && field.refs?.[0]?.fields) {
      out[field.text] = defaultsOf(field.refs[0].fields);
    } else if (field.default !== undefined) {
      const value = parseDefault(field.type, field.default);
      out[field.text] = typeof value === 'string' && value.startsWith('{') ? {} : value;
    }
  }
  return out;
}

/** The field of a top-level root, or undefined. */
function rootField(root: string): SchemaField | undefined {
  return roots().find((f) => f.text === root);
}

/** The schema fields of a root struct (the first alternative of a OneOf root). */
export function rootFields(root: string): SchemaField[] {
  return rootField(root)?.refs?.[0]?.fields ?? [];
}

/** Fields of a named struct anywhere below a root, e.g. `mqtt_tcp_listener` under `listeners`. */
export function structFields(root: string, struct: string): SchemaField[] {
  const search = (fields: SchemaField[]): SchemaField[] | null => {
    for (const f of fields) {
      for (const ref of f.refs ?? []) {
        if (ref.text === struct && ref.fields) return ref.fields;
        const found = search(ref.fields ?? []);
        if (found) return found;
      }
    }
    return null;
  };
  return search(rootField(root) ? [rootField(root)!] : []) ?? [];
}

/** Defaults of a named struct (see structFields). */
export function structDefaults(root: string, struct: string): Obj {
  return defaultsOf(structFields(root, struct));
}

/** Validates an object against a named struct; throws ConfigError naming the path. */
export function validateStruct(root: string, struct: string, value: Obj, path: string): void {
  checkFields(structFields(root, struct), value, path);
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
export const CONFIG_ROOTS = ['sys_topics', 'log', 'dashboard', 'alarm', 'sysmon', 'limiter', 'prometheus', 'opentelemetry', 'retainer'] as const;
export type ConfigRoot = (typeof CONFIG_ROOTS)[number];

// Defaults the reference does not spell out the way the API returns them.
const OVERRIDES: Partial<Record<ConfigRoot, Obj>> = {
  // 5.5 has no limiter root in the reference; GET /configs/limiter returns the short-path form.
  limiter: {},
  // `file` is the single-handler form; this process does not log to a file (see GET /nodes log_path).
  // emqx_enterprise_schema.erl audit_log_conf/0: the audit handler is off unless turned on.
  log: { file: { enable: false }, audit: { enable: false } },
  dashboard: { default_password: 'public' },
};

function validateLimiter(value: Obj): void {
  for (const [k, v] of Object.entries(value)) {
    if (!/^[A-Za-z0-9_]+$/.test(k)) throw new ConfigError(k, 'name must contain only letters and numbers', k);
    if (!isRate(v)) throw new ConfigError(k, `invalid rate: ${JSON.stringify(v)}`, v);
  }
}

export class ConfigRoots {
  private readonly defaults = new Map<ConfigRoot, Obj>();
  /** Called after a root changed (the broker's timers, log level …). */
  private readonly watchers: ((root: ConfigRoot, value: Obj) => void)[] = [];

  constructor(private readonly ctx: StoreContext) {}

  defaultOf(root: ConfigRoot): Obj {
    let d = this.defaults.get(root);
    if (!d) {
      const base = defaultsOf(rootFields(root));
      if (root === 'log') base.file = structDefaults('log', 'log_file_handler');
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
   * Validates, merges over the current value (secrets kept), persists and returns the new value.
   * With `replace` the body is merged over the defaults instead, so keys it leaves out reset.
   */
  async put(root: ConfigRoot, body: Obj, options: { replace?: boolean } = {}): Promise<Obj> {
    const current = this.get(root);
    // Every key GET shows may come back; anything else is refused (limiter keys are free names).
    if (root !== 'limiter') refuseUnknown(current, body, root);
    const restored = restoreSecrets(body, current) as Obj;
    if (root === 'limiter') validateLimiter(restored);
    else checkFields(rootFields(root), restored, '');
    if (root === 'dashboard' && 'default_password' in body && body.default_password !== '******' && body.default_password !== current.default_password) {
      throw new ConfigError('default_password', 'read only', undefined);
    }
    const next = root === 'limiter' ? restored : (deepMerge(options.replace ? this.defaultOf(root) : current, restored) as Obj);
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
