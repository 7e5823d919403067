// Timestamp formats of the EMQX API: RFC 3339 with the server's local offset, in second or
// millisecond precision (emqx-api-part1 §0), and the parsers for inputs that accept either an
// RFC 3339 string or epoch seconds (or milliseconds).

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Formats epoch milliseconds as RFC 3339 in local time, e.g. `2024-01-01T12:34:56+08:00`. */
export function rfc3339(ms: number, precision: 's' | 'ms' = 's'): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const shifted = new Date(ms + offset * 60_000).toISOString();
  const base = shifted.slice(0, precision === 'ms' ? 23 : 19);
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${base}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an `epoch_second` input (integer seconds or RFC 3339 string) to epoch ms, or null. */
export function parseEpochSecond(value: string | number): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value * 1000 : null;
  if (/^\d{1,12}$/.test(value)) return Number(value) * 1000;
  if (!RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Parses an `epoch_millisecond` input (integer ms or RFC 3339 string) to epoch ms, or null. */
export function parseEpochMillisecond(value: string | number): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (!RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
