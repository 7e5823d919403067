// EMQX's value syntaxes shared by the store, the broker layers and the routes: durations
// (`15s`, `1h30m`), byte sizes (`1MB`) and limiter rates (`1000/s`). Parsing only; which field
// takes which syntax is the config schema's business.

const DURATION = /^\s*(\d+(\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/i;
const DURATION_PARTS = /^(\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of an EMQX duration (`15s`, `1h30m`, `500ms`), or null if malformed. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (DURATION.test(text)) {
    const m = DURATION.exec(text)!;
    return Number(m[1]) * UNIT_MS[m[3]];
  }
  if (!DURATION_PARTS.test(text)) return null;
  let total = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(part[1]) * UNIT_MS[part[2]];
  return total;
}

const BYTESIZE = /^\s*(\d+(\.\d+)?)\s*(b|kb|mb|gb|tb|k|m|g|t)?\s*$/i;
const UNIT_BYTES: Record<string, number> = { b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, t: 1024 ** 4, tb: 1024 ** 4 };

/** Bytes of an EMQX byte size (`1MB`, `512KB`, `100`), or null if malformed. */
export function parseBytesize(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value !== 'string') return null;
  const m = BYTESIZE.exec(value);
  if (!m) return null;
  return Math.floor(Number(m[1]) * UNIT_BYTES[(m[3] ?? 'b').toLowerCase()]);
}

const RATE = /^\s*(\d+(\.\d+)?)\s*(b|kb|mb|gb)?\s*(\/\s*(\d*)\s*(ms|s|m|h|d))?\s*$|^infinity$/i;

/** True for a limiter rate such as `1000/s`, `10/10s`, `10MB/s`, `infinity`, `100`. */
export function isRate(value: unknown): boolean {
  return typeof value === 'string' && RATE.test(value.trim());
}

