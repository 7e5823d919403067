// hocon's value syntaxes exactly as hocon_postprocess.erl reads them (hocon 0.40.4 and 0.44+):
// durations (`1h5m`, `1.5s`, `2f` for fortnights), byte sizes (`512KB`; `b`/`B` only from 0.44.0)
// and percents (`80%`). Each returns null where hocon leaves the text unchanged (not that syntax);
// the callers then try a plain integer, as emqx_schema's converters do. Lenient parsing for
// reading stored values stays in lib/units.ts.

const UNIT_MS: Record<string, number> = { f: 14 * 86_400_000, w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

// hocon_postprocess.erl do_duration/2: `^([0-9.]+)(f|F|w|W|d|D|h|H|m|M|s|S|ms|MS)([0-9.]+.+)`
// for a part followed by more, `…$` for the last one; parts add up (`1h30m`, `1ms5s`).
const HEAD = /^([0-9.]+)(f|F|w|W|d|D|h|H|m|M|s|S|ms|MS)([0-9.]+.+)/;
const LAST = /^([0-9.]+)(f|F|w|W|d|D|h|H|m|M|s|S|ms|MS)$/;

/** `get_decimal/1`: a leading `.` reads as `0.`; a number with two dots is not one. */
function decimal(text: string): number | null {
  const t = text.startsWith('.') ? `0${text}` : text;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : null;
}

/** Milliseconds of a hocon duration, rounded (`round/1`), or null when it is not one. */
export function hoconDuration(text: string): number | null {
  let rest = text;
  let sum = 0;
  for (;;) {
    const head = HEAD.exec(rest);
    if (head) {
      const n = decimal(head[1]);
      if (n === null) return null;
      sum += n * UNIT_MS[head[2].toLowerCase()];
      rest = head[3];
      continue;
    }
    const last = LAST.exec(rest);
    if (!last) return null;
    const n = decimal(last[1]);
    if (n === null) return null;
    return Math.round(sum + n * UNIT_MS[last[2].toLowerCase()]);
  }
}

const KB = 1024;
const BYTE_UNITS: Record<string, number> = { b: 1, B: 1, kb: KB, KB, mb: KB ** 2, MB: KB ** 2, gb: KB ** 3, GB: KB ** 3 };

/**
 * Bytes of a hocon byte size, or null: `^\s*([0-9]+)(kb|KB|mb|MB|gb|GB)$` (in Erlang source `\s`
 * is a space), with `b|B` added in hocon 0.44.0. No fractions, no `G`, `TB` or mixed case.
 */
export function hoconBytesize(text: string, withByteUnit: boolean): number | null {
  const m = (withByteUnit ? /^ *([0-9]+)(b|B|kb|KB|mb|MB|gb|GB)$/ : /^ *([0-9]+)(kb|KB|mb|MB|gb|GB)$/).exec(text);
  return m ? Number(m[1]) * BYTE_UNITS[m[2]] : null;
}

/**
 * A hocon percent as a fraction, or null: `([0-9.]+)(%)$`, unanchored at the start as in the
 * source; an integer is divided by 100, a decimal rounded to 4 places.
 */
export function hoconPercent(text: string): number | null {
  const m = /([0-9.]+)(%)$/.exec(text);
  if (!m) return null;
  if (/^\d+$/.test(m[1])) return Number(m[1]) / 100;
  if (!/^\d+\.\d+$/.test(m[1])) return null;
  return Math.round(Number(m[1]) * 100) / 10000;
}

/** `string:to_integer/1` taking the whole text: an optional sign and digits, nothing after. */
export function wholeInteger(text: string): number | null {
  return /^[+-]?\d+$/.test(text) ? Number(text) : null;
}
