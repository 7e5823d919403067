/**
 * Display formatting for dates, sizes, durations and counts, with `Intl` and plain arithmetic
 * (no moment or dayjs). It formats only: parsing user input belongs to the validators.
 */
import { defineMessages, getLocale, t } from './i18n';

defineMessages({
  'format.day': { zh: '{{n}} 天', en: '{{n}}d' },
  'format.hour': { zh: '{{n}} 小时', en: '{{n}}h' },
  'format.minute': { zh: '{{n}} 分', en: '{{n}}m' },
  'format.second': { zh: '{{n}} 秒', en: '{{n}}s' },
  'format.millisecond': { zh: '{{n}} 毫秒', en: '{{n}}ms' },
});

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Turns epoch milliseconds, an RFC 3339 string or a Date into a Date (invalid when unparsable). */
function toDate(value: number | string | Date): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const s = value.trim();
  // Some endpoints send epoch milliseconds as a string.
  if (/^-?\d+$/.test(s)) return new Date(Number(s));
  // RFC 3339 allows a space (or lower-case t) between date and time, which Date.parse may reject.
  return new Date(s.replace(/^(\d{4}-\d{2}-\d{2})[ t]/, '$1T'));
}

/**
 * Formats a moment as `YYYY-MM-DD HH:mm:ss` in local time (spec §9), returning `empty` for a
 * missing value and the input itself when it cannot be parsed.
 */
export function formatDateTime(value: number | string | Date | undefined | null, empty = ''): string {
  if (value === undefined || value === null || value === '') return empty;
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The time of day of a moment, `HH:mm:ss` in local time (the part after the date above). */
export function formatTime(value: number | Date): string {
  return formatDateTime(value).slice(11);
}

/** Size units of spec §9, 1024 apart. */
const BYTE_UNITS = ['Byte', 'KB', 'MB', 'GB'] as const;

/** Formats a byte count with the largest fitting unit up to GB and at most two decimals, e.g. `1.5 KB`. */
export function formatBytes(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '';
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 100) / 100} ${BYTE_UNITS[unit]}`;
}

const DURATION_UNITS = [
  ['format.day', 86_400_000],
  ['format.hour', 3_600_000],
  ['format.minute', 60_000],
  ['format.second', 1000],
] as const;

/**
 * Formats milliseconds as the `maxUnits` largest non-zero units, truncated (e.g. `3d 4h`), in the
 * current language; under a second it shows milliseconds.
 */
export function formatDuration(ms: number | undefined | null, maxUnits = 2): string {
  if (ms === undefined || ms === null || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return t('format.millisecond', { n: Math.floor(ms) });
  const parts: string[] = [];
  let rest = Math.floor(ms);
  for (const [key, size] of DURATION_UNITS) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    // Skip leading zero units, then keep counting so `1d 0h 5m` stops at `1d` rather than jumping to minutes.
    if (amount > 0 || parts.length > 0) parts.push(amount > 0 ? t(key, { n: amount }) : '');
    if (parts.length === maxUnits) break;
  }
  return parts.filter(Boolean).join(' ');
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Formats a number with the current language's grouping (`12,345`), or '' when missing. */
export function formatNumber(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '';
  const tag = getLocale() === 'zh' ? 'zh-CN' : 'en-US';
  let format = numberFormats.get(tag);
  if (!format) {
    format = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
    numberFormats.set(tag, format);
  }
  return format.format(n);
}
