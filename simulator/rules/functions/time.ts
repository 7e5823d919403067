// Time and date functions: now_timestamp, now_rfc3339, unix_ts_to_rfc3339, rfc3339_to_unix_ts,
// format_date, date_to_unix_ts and timezone_to_offset_seconds. Units are second (default),
// millisecond, microsecond and nanosecond; offsets are `Z`, `local`, `+08:00`, `+0800` or seconds.
import { compileRegex } from '../../lib/regex.ts';
import { rfc3339 } from '../../lib/time.ts';
import { EvalError, str, toInt } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

const PER_SECOND: Record<string, number> = { second: 1, millisecond: 1e3, microsecond: 1e6, nanosecond: 1e9 };

function unitOf(v: unknown): number {
  const unit = v === undefined ? 'second' : str(v);
  const per = PER_SECOND[unit];
  if (!per) throw new EvalError(`invalid time unit ${unit}`);
  return per;
}

const toMs = (ts: unknown, per: number) => (toInt(ts) * 1000) / per;
const fromMs = (ms: number, per: number) => Math.floor((ms * per) / 1000);

/** Offset in seconds east of UTC. */
export function offsetSeconds(v: unknown, at = Date.now()): number {
  if (typeof v === 'number') return Math.trunc(v);
  const text = str(v);
  if (text === 'Z' || text === 'z') return 0;
  if (text === 'local') return -new Date(at).getTimezoneOffset() * 60;
  const m = /^([+-])(\d{2}):?(\d{2})(?::?(\d{2}))?$/.exec(text);
  if (!m) throw new EvalError(`invalid time offset ${text}`);
  const secs = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -secs : secs;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

function offsetText(secs: number, colons: number): string {
  const sign = secs < 0 ? '-' : '+';
  const a = Math.abs(secs);
  const parts = [pad(Math.floor(a / 3600)), pad(Math.floor((a % 3600) / 60)), pad(a % 60)];
  if (colons === 0) return `${sign}${parts[0]}${parts[1]}`;
  return `${sign}${parts.slice(0, colons === 1 ? 2 : 3).join(':')}`;
}

function formatDate(per: number, offset: number, format: string, ts: number): string {
  const fraction = ((ts % per) + per) % per;
  const d = new Date(Math.floor(ts / per) * 1000 + offset * 1000);
  const nanos = Math.round((fraction / per) * 1e9);
  return format.replace(/%(::z|:z|z|[369]N|[YmdHMSN%])/g, (_m, k: string) => {
    switch (k) {
      case 'Y': return String(d.getUTCFullYear());
      case 'm': return pad(d.getUTCMonth() + 1);
      case 'd': return pad(d.getUTCDate());
      case 'H': return pad(d.getUTCHours());
      case 'M': return pad(d.getUTCMinutes());
      case 'S': return pad(d.getUTCSeconds());
      case 'N': case '9N': return pad(nanos, 9);
      case '3N': return pad(Math.floor(nanos / 1e6), 3);
      case '6N': return pad(Math.floor(nanos / 1e3), 6);
      case 'z': return offsetText(offset, 0);
      case ':z': return offsetText(offset, 1);
      case '::z': return offsetText(offset, 2);
      default: return '%';
    }
  });
}

function parseDate(per: number, offset: number, format: string, input: string): number {
  const fields: string[] = [];
  const pattern = format.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%(::z|:z|z|[369]N|[YmdHMSN])/g, (_m, k: string) => {
    fields.push(k);
    if (k === 'Y') return '(\\d{4})';
    if (k.endsWith('N')) return `(\\d{${k === 'N' ? 9 : k[0]}})`;
    if (k.endsWith('z')) return '([+-]\\d{2}:?\\d{2}(?::?\\d{2})?|Z)';
    return '(\\d{2})';
  });
  // The format comes from the SQL or a message: its text is escaped above, and the pattern runs on
  // the linear-time engine like every other pattern built from operator input.
  let m: (string | undefined)[] | null;
  try {
    m = compileRegex(`^${pattern}$`).exec(input);
  } catch (err) {
    throw new EvalError(`invalid date format ${JSON.stringify(format)}: ${(err as Error).message}`);
  }
  if (!m) throw new EvalError(`date ${JSON.stringify(input)} does not match ${JSON.stringify(format)}`);
  const v: Record<string, number> = { Y: 1970, m: 1, d: 1, H: 0, M: 0, S: 0 };
  let nanos = 0;
  let off = offset;
  fields.forEach((k, i) => {
    const text = m[i + 1] ?? '';
    if (k.endsWith('z')) off = offsetSeconds(text);
    else if (k.endsWith('N')) nanos = Number(text.padEnd(9, '0'));
    else v[k] = Number(text);
  });
  const secs = Date.UTC(v.Y, v.m - 1, v.d, v.H, v.M, v.S) / 1000 - off;
  return secs * per + Math.floor((nanos * per) / 1e9);
}

export const timeFunctions: FnGroup = {
  now_timestamp: def(0, 1, ([unit], ctx) => fromMs(ctx.now(), unitOf(unit))),
  now_rfc3339: def(0, 1, ([unit], ctx) => rfc3339(ctx.now(), unitOf(unit) > 1 ? 'ms' : 's')),
  unix_ts_to_rfc3339: def(1, 2, ([ts, unit]) => {
    const per = unitOf(unit);
    return rfc3339(toMs(ts, per), per > 1 ? 'ms' : 's');
  }),
  rfc3339_to_unix_ts: def(1, 2, ([text, unit]) => {
    const ms = Date.parse(str(text));
    if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T/i.test(str(text))) throw new EvalError(`invalid RFC 3339 date ${JSON.stringify(text)}`);
    return fromMs(ms, unitOf(unit));
  }),
  format_date: def(3, 4, ([unit, offset, format, ts], ctx) => {
    const per = unitOf(unit);
    const at = ts === undefined ? fromMs(ctx.now(), per) : toInt(ts);
    return formatDate(per, offsetSeconds(offset, ctx.now()), str(format), at);
  }),
  date_to_unix_ts: def(3, 4, (args, ctx) => {
    const [unit, offset, format, input] = args.length === 3 ? [args[0], 'Z', args[1], args[2]] : args;
    return parseDate(unitOf(unit), offsetSeconds(offset, ctx.now()), str(format), str(input));
  }),
  timezone_to_offset_seconds: def(1, 1, ([tz], ctx) => offsetSeconds(tz, ctx.now())),
  timezone_to_second: def(1, 1, ([tz], ctx) => offsetSeconds(tz, ctx.now())),
};
