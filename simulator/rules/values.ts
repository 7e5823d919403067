// Value helpers shared by the evaluator and the function library: the evaluation error that makes
// a rule fail (failed.exception), payload decoding, and EMQX's conversions (emqx_utils_conv).

/** Raised while evaluating; the rule counts as failed with an exception and produces no output. */
export class EvalError extends Error {}

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/** A string that holds a JSON object or array, decoded; anything else as it is. */
export function decodeMaybe(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const s = value.trim();
  if (!s.startsWith('{') && !s.startsWith('[')) return value;
  try {
    return JSON.parse(s);
  } catch {
    return value;
  }
}

/** Float text as EMQX prints it: up to 10 decimals, trailing zeros dropped, at least one. */
export function floatText(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const fixed = n.toFixed(10).replace(/0+$/, '');
  return fixed.endsWith('.') ? `${fixed}0` : fixed;
}

/** str/1: text of any value; maps and arrays as JSON. */
export function toStr(v: unknown): string {
  if (v === undefined || v === null) return 'undefined';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return floatText(v);
  if (typeof v === 'boolean') return String(v);
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return JSON.stringify(v);
}

export function toNum(v: unknown, what = 'number'): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    if (Number.isFinite(n)) return n;
  }
  throw new EvalError(`cannot convert ${JSON.stringify(v)} to ${what}`);
}

export function toInt(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = toNum(v, 'integer');
  return Number.isInteger(n) ? n : Math.round(n);
}

export function toFloat(v: unknown): number {
  return toNum(v, 'float');
}

export function toBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 'true') return true;
  if (v === 0 || v === 'false') return false;
  throw new EvalError(`cannot convert ${JSON.stringify(v)} to boolean`);
}

export function toMap(v: unknown): Obj {
  if (isObj(v)) return v;
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      if (isObj(parsed)) return parsed;
    } catch {
      // fall through to the error
    }
  }
  throw new EvalError(`cannot convert ${JSON.stringify(v)} to map`);
}

export function toArray(v: unknown): unknown[] {
  const decoded = decodeMaybe(v);
  if (Array.isArray(decoded)) return decoded;
  throw new EvalError(`${JSON.stringify(v)} is not an array`);
}

export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  throw new EvalError(`${JSON.stringify(v)} is not a string`);
}

/** Reads a nested key (`a.b.c` or a list of keys) out of a map, decoding JSON strings on the way. */
export function nestedGet(value: unknown, keys: string[]): unknown {
  let cur = value;
  for (const key of keys) {
    cur = decodeMaybe(cur);
    if (!isObj(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Puts a value at a nested key path, creating maps on the way; undefined values are skipped. */
export function nestedPut(target: Obj, keys: string[], value: unknown): Obj {
  if (value === undefined) return target;
  let cur = target;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      cur[key] = value;
      return;
    }
    const existing = decodeMaybe(cur[key]);
    const next = isObj(existing) ? { ...existing } : {};
    cur[key] = next;
    cur = next;
  });
  return target;
}
