/**
 * A component of a broker form schema (emqx-api-part2 §4.10) turned into `FieldDecl`s with flat
 * dotted names, plus the overrides a page gives as data (include, hidden, order, groups, labels,
 * units, per-field changes). The schema object is only read, never changed.
 */
import { getPath } from '../lib/paths.ts';
import { defineMessages, hasMessage, t } from '../lib/i18n.ts';
import { resolveRef, type SchemaDocument, type SchemaProp } from '../lib/schemas.ts';
import { isBytesize, isDuration } from '../lib/units.ts';
import { isEmpty, type Rule } from '../lib/validators.ts';
import type { FieldDecl } from './resource.ts';
import { has, type CapabilityName } from '../lib/broker.ts';

defineMessages({
  'schemaForm.badDuration': { zh: '请输入正确的时长，例如 15s', en: 'Please enter a valid duration, e.g. 15s' },
  'schemaForm.badBytesize': { zh: '请输入正确的大小，例如 1MB', en: 'Please enter a valid size, e.g. 1MB' },
  'schemaForm.badEnum': { zh: '请选择列表中的值', en: 'Please choose one of the listed values' },
});

/** The largest 32-bit unsigned value, the bound of EMQX's unbounded integers (spec part2 §9). */
export const MAX_UINT32 = 4294967295;

export interface SchemaOverrides {
  /** Only these names (a name also includes what lies under it: `console` → `console.level`). */
  include?: string[];
  hidden?: string[];
  /** Names shown only when the broker has the capability (a name includes what lies under it). */
  requires?: Record<string, CapabilityName>;
  /** Names placed first, in this order; the rest follow in schema order. */
  order?: string[];
  /** Sections: i18n title and the names under it, in order; fields of no group follow. */
  groups?: { title: string; fields: string[] }[];
  /** i18n keys of labels by name; default `<labelPrefix>.<camelName>` when defined, else the name in words. */
  labels?: Record<string, string>;
  labelPrefix?: string;
  /** Units offered by a duration or bytesize field, by name. */
  units?: Record<string, string[]>;
  /** Anything else to change in a field (kind, help, rules, visible …), by name. */
  fields?: Record<string, Partial<FieldDecl>>;
}

/**
 * A field plus how its value travels: `json` fields are edited as JSON text (maps, nested arrays);
 * `default` is the broker's default from the schema, as the API returns it.
 */
export interface SchemaField extends FieldDecl {
  codec?: 'json';
  default?: unknown;
}

const under = (names: string[] | undefined, name: string) => (names ?? []).some((n) => name === n || name.startsWith(`${n}.`));
const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const words = (s: string) => s.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const isMap = (p: SchemaProp) => Object.keys(p.properties ?? {}).some((k) => k.startsWith('$'));

function rangeRule(min?: number, max?: number, keywords: string[] = []): Rule {
  return (value) => {
    if (isEmpty(value) || keywords.includes(String(value))) return undefined;
    const n = Number(value);
    if (Number.isNaN(n)) return t('validation.number');
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) return t('validation.numberRange', { min: min ?? '-∞', max: max ?? '∞' });
    return undefined;
  };
}

const syntaxRule = (check: (s: string) => boolean, key: string, keywords: string[]): Rule => (value) =>
  isEmpty(value) || keywords.includes(String(value)) || check(String(value)) ? undefined : t(key);

/** The widget and rules of one leaf property; `keywords` are the string members of a oneOf. */
function leaf(name: string, p: SchemaProp, keywords: string[]): Omit<SchemaField, 'label'> | undefined {
  const base = { name, keywords: keywords.length ? keywords : undefined };
  switch (p.type) {
    case 'boolean': return { ...base, kind: 'switch' };
    case 'integer':
    case 'number': {
      // Unbounded non-negative integers are 32-bit unsigned on the broker.
      const max = p.maximum ?? (p.type === 'integer' && (p.minimum ?? 0) >= 0 ? MAX_UINT32 : undefined);
      return { ...base, kind: 'number', rules: [rangeRule(p.minimum, max, keywords)] };
    }
    case 'duration': return { ...base, kind: 'duration', rules: [syntaxRule(isDuration, 'schemaForm.badDuration', keywords)] };
    case 'byteSize': return { ...base, kind: 'bytesize', rules: [syntaxRule(isBytesize, 'schemaForm.badBytesize', keywords)] };
    case 'enum': {
      const symbols = [...(p.symbols ?? []), ...keywords];
      return { ...base, keywords: undefined, kind: 'select', options: symbols.map((s) => ({ value: s, label: s })),
        rules: [(v) => (isEmpty(v) || symbols.includes(String(v)) ? undefined : t('schemaForm.badEnum'))] };
    }
    case 'array': {
      const item = p.items ?? {};
      return item.type === 'string' || item.type === 'enum' ? { ...base, kind: 'list' } : { ...base, kind: 'code', codec: 'json', rules: [jsonRule] };
    }
    case 'object': return { ...base, kind: 'code', codec: 'json', rules: [jsonRule] };
    default:
      if (p.format === 'password') return { ...base, kind: 'secret' };
      if (/(^|_)(cacert|cert|key)file$/.test(name.split('.').pop() ?? '')) return { ...base, kind: 'cert' };
      return { ...base, kind: 'text' };
  }
}

function walk(doc: SchemaDocument, raw: SchemaProp, name: string, out: Omit<SchemaField, 'label'>[]) {
  const p = resolveRef(doc, raw);
  if (p.oneOf) {
    // A struct among the members (e.g. log.file: struct or map of structs) is edited as that struct.
    const struct = p.oneOf.find((m) => resolveRef(doc, m).properties && !isMap(resolveRef(doc, m)));
    if (struct) return walk(doc, struct, name, out);
    const keywords = p.oneOf.filter((m) => m.type === 'enum').flatMap((m) => m.symbols ?? []);
    const value = p.oneOf.find((m) => m.type !== 'enum');
    const field = value ? leaf(name, resolveRef(doc, value), keywords) : leaf(name, { type: 'enum', symbols: keywords }, []);
    if (field) out.push(withDefault(field, p));
    return;
  }
  if (p.type === 'object' && p.properties && !isMap(p)) {
    for (const [key, inner] of Object.entries(p.properties)) walk(doc, inner, name ? `${name}.${key}` : key, out);
    return;
  }
  // A one-symbol enum is a discriminator (`type`): not editable, its value travels unchanged.
  if (p.type === 'enum' && p.symbols?.length === 1) return;
  if (p.deprecated) return;
  const field = leaf(name, p, []);
  if (field) out.push(withDefault(field, p));
}

const withDefault = <F extends object>(field: F, p: SchemaProp): F => (p.default === undefined ? field : { ...field, default: p.default });

/** The fields of `component` (a `components.schemas` key) with the page's overrides applied. */
export function schemaFields(doc: SchemaDocument, component: string, overrides: SchemaOverrides = {}): SchemaField[] {
  const found: Omit<SchemaField, 'label'>[] = [];
  walk(doc, { $ref: `#/components/schemas/${component}` }, '', found);
  const prefix = overrides.labelPrefix ?? 'config';
  let fields: SchemaField[] = found
    .filter((f) => (!overrides.include || under(overrides.include, f.name)) && !under(overrides.hidden, f.name))
    .filter((f) => !Object.entries(overrides.requires ?? {}).some(([name, cap]) => under([name], f.name) && !has(cap)))
    .map((f) => {
      const last = f.name.split('.').pop()!;
      const key = `${prefix}.${camel(f.name.replace(/\./g, '_'))}`;
      const short = `${prefix}.${camel(last)}`;
      const label = overrides.labels?.[f.name] ?? (hasMessage(key) ? key : hasMessage(short) ? short : words(last));
      const units = overrides.units?.[f.name];
      return { ...f, label, ...(units ? { units } : {}), ...overrides.fields?.[f.name] };
    });
  const rank = (list: string[] | undefined, name: string) => {
    const i = (list ?? []).findIndex((n) => name === n || name.startsWith(`${n}.`));
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  fields = fields.map((f, i) => ({ f, i })).sort((a, b) => rank(overrides.order, a.f.name) - rank(overrides.order, b.f.name) || a.i - b.i).map((x) => x.f);
  if (overrides.groups) {
    const grouped = overrides.groups.flatMap((g) => g.fields.flatMap((n) => fields.filter((f) => f.name === n || f.name.startsWith(`${n}.`)).map((f) => ({ ...f, section: g.title }))));
    const taken = new Set(grouped.map((f) => f.name));
    fields = [...grouped, ...fields.filter((f) => !taken.has(f.name))];
  }
  return fields;
}

/** The form value of one API value of field `f`: JSON fields become text, absent values empty. */
export function formValue(f: SchemaField, v: unknown): unknown {
  return f.codec === 'json' ? (v === undefined ? '' : JSON.stringify(v, null, 2)) : v ?? (f.kind === 'switch' ? false : '');
}

/** Form values of `value` (the API's object) for these fields; JSON fields become text. */
export function formValues(fields: SchemaField[], value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f.name] = formValue(f, getPath(value, f.name));
  return out;
}

/**
 * The body to send: a copy of the loaded object with each field's value written at its path, so
 * fields the form does not show (hidden, discriminators, unknown keys) go back unchanged.
 */
export function formBody(fields: SchemaField[], original: unknown, values: Record<string, unknown>): Record<string, unknown> {
  const body = structuredClone((original ?? {}) as Record<string, unknown>);
  const initial = formValues(fields, original);
  for (const f of fields) {
    // A key the API did not return stays absent unless the user changed it.
    if (getPath(original, f.name) === undefined && values[f.name] === initial[f.name]) continue;
    let v = values[f.name];
    if (f.codec === 'json') v = v === '' ? undefined : JSON.parse(String(v));
    const parts = f.name.split('.');
    let target = body;
    for (const part of parts.slice(0, -1)) {
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    if (v === undefined) delete target[parts[parts.length - 1]];
    else target[parts[parts.length - 1]] = v;
  }
  return body;
}

/** A rule for JSON-text fields: 'Please enter the correct JSON'. */
export function jsonRule(value: unknown): string | undefined {
  if (isEmpty(value)) return undefined;
  try {
    JSON.parse(String(value));
    return undefined;
  } catch {
    return t('validation.json');
  }
}
