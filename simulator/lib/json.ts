// JSON that arrives from outside (request bodies, backup archives) checked before anything walks
// it: nesting depth found without parsing or recursion, the prototype-changing keys `__proto__`,
// `constructor` and `prototype` refused, and non-finite numbers (1e309 parses to Infinity, and
// Fastify's coercion turns "Infinity" into one) found by path. It does not check shapes.

/** Deepest nesting of JSON objects and arrays accepted from outside (EMQX bodies need about ten). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** Keys that would reach an object's prototype when copied with assignment. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * True when JSON text nests objects and arrays deeper than `max`, found in one pass without
 * recursion and without parsing; brackets inside strings do not count.
 * Example: `jsonDeeperThan('[[1]]', 1) === true`.
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: up to the next quote not escaped by a backslash.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) {
      depth--;
    }
  }
  return false;
}

/** JSON from outside that cannot be taken; the message says why, for a 400. */
export class JsonInputError extends Error {}

/**
 * Parses JSON text from outside: at most MAX_JSON_DEPTH deep, no forbidden key at any level, no
 * number that overflows to Infinity. Throws JsonInputError with the reason.
 */
export function parseOutsideJson(text: string): unknown {
  if (jsonDeeperThan(text, MAX_JSON_DEPTH)) throw new JsonInputError(`JSON nesting deeper than ${MAX_JSON_DEPTH}`);
  let forbidden: string | null = null;
  let value: unknown;
  try {
    value = JSON.parse(text, function check(key, v) {
      if (FORBIDDEN_KEYS.has(key) && Object.hasOwn(this as object, key)) forbidden ??= key;
      return v;
    });
  } catch (err) {
    throw new JsonInputError(`not valid JSON (${(err as Error).message})`);
  }
  if (forbidden !== null) throw new JsonInputError(`forbidden key ${JSON.stringify(forbidden)}`);
  const infinite = nonFinitePath(value);
  if (infinite !== null) throw new JsonInputError(`${infinite || 'the value'} is not a finite number`);
  return value;
}

/**
 * The path (`a.b[2]`) of the first number in `value` that is Infinity or NaN, '' for the value
 * itself, or null when there is none; walks at most MAX_JSON_DEPTH levels.
 */
export function nonFinitePath(value: unknown, at = '', depth = 0): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : at;
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return null;
  if (Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${at}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const found = nonFinitePath(v, at ? `${at}.${k}` : k, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
