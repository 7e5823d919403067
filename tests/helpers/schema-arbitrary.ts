// fast-check arbitraries generated from a route's JSON schema: a value that fits the schema, and
// corruptions of it. Each corruption says whether the schema alone must reject it (`invalid`):
// Fastify's validator coerces scalars (5 → "5", "x" → ["x"]), so only corruptions no coercion can repair count
// as invalid (an object where a scalar is expected, a missing required key, an enum miss, a
// number out of range, a string over maxLength). The others (huge strings, unicode, NUL, deep
// nesting) may be accepted, but must never cause a 5xx.
import fc from 'fast-check';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
};

export interface Corrupted {
  value: unknown;
  /** The schema alone rejects this value, so the answer must be 400. */
  invalid: boolean;
  what: string;
}

const firstType = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type[0] : s.type);

/** A value fitting `schema` (a plausible request); patterns are not honoured, so it may still be refused. */
export function validOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validOf(s, depth)));
  switch (firstType(schema)) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validOf(schema.items ?? {}, depth + 1), {
        minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(props);
      if (entries.length === 0) return fc.constant({});
      return fc.record(
        Object.fromEntries(entries.map(([k, s]) => [k, validOf(s, depth + 1)])),
        { requiredKeys: entries.map(([k]) => k).filter((k) => required.has(k)) },
      );
    }
    case 'string':
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 24) });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const HUGE = 'x'.repeat(100_000);
const NASTY_STRINGS = ['', '\u0000', 'a\u0000b', '💥🚀', '中文主题/#', '../../etc/passwd', '${clientid}', "'; DROP TABLE x; --", HUGE];

function deepNest(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Paths (property chains) to every property of an object schema, with that property's schema. */
function propertyPaths(schema: JsonSchema, prefix: string[] = [], out: { path: string[]; schema: JsonSchema; parent: JsonSchema }[] = []) {
  for (const [key, inner] of Object.entries(schema.properties ?? {})) {
    out.push({ path: [...prefix, key], schema: inner, parent: schema });
    if (firstType(inner) === 'object' && prefix.length < 3) propertyPaths(inner, [...prefix, key], out);
  }
  return out;
}

function setPath(target: unknown, path: string[], value: unknown, remove = false): unknown {
  const root = structuredClone(target ?? {}) as Record<string, unknown>;
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  if (remove) delete node[path[path.length - 1]];
  else node[path[path.length - 1]] = value;
  return root;
}

/** Stands for the JSON number 1e309 (which JSON.stringify cannot write); see `jsonWithOverflow`. */
export const OVERFLOWING_NUMBER = '__overflowing_number_1e309__';

/** JSON text of `value` with every OVERFLOWING_NUMBER written as the number 1e309. */
export function jsonWithOverflow(value: unknown): string {
  return JSON.stringify(value).replaceAll(`"${OVERFLOWING_NUMBER}"`, '1e309');
}

/** A corruption the schema must reject, for one property of an object schema; undefined when none applies. */
function invalidFor(schema: JsonSchema): { value: unknown; what: string }[] {
  const out: { value: unknown; what: string }[] = [];
  const type = firstType(schema);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives || Array.isArray(schema.type)) return out;
  if (schema.enum) out.push({ value: '\u0000not-in-enum', what: 'enum miss' });
  if (type === 'integer' || type === 'number') {
    out.push({ value: { n: 1 }, what: 'object for a number' }, { value: 'not a number', what: 'text for a number' });
    // Issue #33: "Infinity" (coerced to Infinity by the validator) and 1e309 (JSON that overflows).
    out.push({ value: 'Infinity', what: '"Infinity" for a number' }, { value: OVERFLOWING_NUMBER, what: '1e309 for a number' });
    if (schema.maximum !== undefined) out.push({ value: schema.maximum + 1, what: 'over maximum' });
    if (schema.minimum !== undefined) out.push({ value: schema.minimum - 1, what: 'under minimum' });
  }
  if (type === 'string' && !schema.enum) {
    out.push({ value: { s: 'x' }, what: 'object for a string' });
    if (schema.maxLength !== undefined && schema.maxLength < 200_000) out.push({ value: 'y'.repeat(schema.maxLength + 1), what: 'over maxLength' });
  }
  if (type === 'boolean') out.push({ value: { b: true }, what: 'object for a boolean' });
  if (type === 'array') out.push({ value: { not: 'an array' }, what: 'object for an array' });
  if (type === 'object') out.push({ value: 'not an object', what: 'text for an object' });
  return out;
}

/** Corruptions of a valid value of an object schema: each tagged with whether the schema must reject it. */
export function corruptedOf(schema: JsonSchema): fc.Arbitrary<Corrupted> {
  const type = firstType(schema);
  const paths = propertyPaths(schema);
  const options: fc.Arbitrary<Corrupted>[] = [
    fc.constantFrom(...NASTY_STRINGS).map((s) => ({ value: s, invalid: type === 'object', what: `a string instead of the ${type}` })),
    fc.constant({ value: deepNest(600), invalid: false, what: 'deep nesting' }),
  ];
  if (type === 'array' && firstType(schema.items ?? {}) === 'object') {
    options.push(corruptedOf(schema.items!).map((c) => ({ ...c, what: `item: ${c.what}` })));
  }
  for (const { path, schema: inner, parent } of paths) {
    const isRequired = (parent.required ?? []).includes(path[path.length - 1]);
    const wrong = invalidFor(inner);
    if (wrong.length) {
      options.push(fc.tuple(validOf(schema), fc.constantFrom(...wrong)).map(([base, w]) => ({
        value: setPath(base, path, w.value), invalid: path.length === 1, what: `${path.join('.')}: ${w.what}`,
      })));
    }
    if (isRequired && path.length === 1 && inner.default === undefined) {
      options.push(validOf(schema).map((base) => ({ value: setPath(base, path, undefined, true), invalid: true, what: `${path.join('.')} missing` })));
    }
    if (firstType(inner) === 'string' && !inner.enum) {
      options.push(fc.tuple(validOf(schema), fc.constantFrom(...NASTY_STRINGS)).map(([base, s]) => ({
        value: setPath(base, path, s), invalid: false, what: `${path.join('.')}: nasty string`,
      })));
    }
  }
  return fc.oneof(...options);
}
