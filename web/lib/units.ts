/**
 * EMQX's duration ("15s", "1h30m") and byte-size ("1MB") strings: parsing into a number and a
 * unit for the config widgets, and the syntax checks the forms use. Values stay EMQX strings on
 * the wire; this module only reads and writes them.
 */

/** Duration units the console offers (spec part2 §5: ms, s, minute, hour, day). */
export const DURATION_UNITS = ['ms', 's', 'm', 'h', 'd'] as const;
export const BYTESIZE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

const MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

const DURATION_RE = /^(\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/i;
const BYTESIZE_RE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?$/i;

export function isDuration(text: string): boolean {
  return DURATION_RE.test(text.trim());
}

export function isBytesize(text: string): boolean {
  return BYTESIZE_RE.test(text.trim());
}

/** Milliseconds of a duration string ("1h30m" → 5400000), or undefined when malformed. */
export function durationMs(text: string): number | undefined {
  if (!isDuration(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.trim().toLowerCase().matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(n) * MS[unit];
  return total;
}

/**
 * A duration as number + unit for the widget: "15s" stays {15, 's'}; a compound like "1h30m"
 * becomes the largest offered unit it divides into evenly ({90, 'm'}).
 */
export function splitDuration(text: string, units: readonly string[] = DURATION_UNITS): { amount: string; unit: string } | undefined {
  const simple = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/i.exec(text.trim());
  if (simple && units.includes(simple[2].toLowerCase())) return { amount: simple[1], unit: simple[2].toLowerCase() };
  const ms = durationMs(text);
  if (ms === undefined) return undefined;
  const unit = [...units].reverse().find((u) => MS[u] && ms % MS[u] === 0) ?? units[0];
  return { amount: String(ms / MS[unit]), unit };
}

/** A byte size as number + unit: "1MB" → {1, 'MB'}; a bare number is bytes. */
export function splitBytesize(text: string): { amount: string; unit: string } | undefined {
  const match = BYTESIZE_RE.exec(text.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'B').toUpperCase();
  if (unit === 'TB') return { amount: String(Number(match[1]) * 1024), unit: 'GB' };
  return { amount: match[1], unit };
}

/** Bytes of a byte-size string, or undefined when malformed. */
export function bytesizeBytes(text: string): number | undefined {
  const parts = splitBytesize(text);
  return parts ? Number(parts.amount) * BYTES[parts.unit] : undefined;
}

/**
 * A limiter rate (emqx_limiter_schema.erl to_rate/1, v5.5.1 to 6.2.2): a count with an optional
 * byte unit and an optional window, "1000/s", "10MB/10s", "100" (per second), or "infinity"; a
 * count or window of 0 is refused. A burst (`burst`) may be 0 and is never infinity.
 */
export function isRate(text: string, burst = false): boolean {
  const value = text.trim();
  if (value === 'infinity') return !burst;
  const match = /^(\d+)(kb|mb|gb|b)?(?:\/(\d*)(ms|s|m|h|d))?$/i.exec(value);
  return Boolean(match && match[3] !== '0' && (burst || Number(match[1]) > 0));
}
