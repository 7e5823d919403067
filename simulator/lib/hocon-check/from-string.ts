// Turning a text into a typed value as hocon does before it type-checks one (hocon_schema_builtin
// convert/2 calling typerefl:from_string/2): typerefl's own primitives, and emqx_schema's and
// emqx_limiter_schema's converters for durations, byte sizes, percents and rates, each in the
// wording of the release (`Dialect`). A result is the value or the converter's error term.
import { hoconBytesize, hoconDuration, hoconPercent, wholeInteger } from './postprocess.ts';
import type { Primitive } from './types.ts';

/** How a release's hocon and converters speak; the rows are in simulator/store/profile.ts. */
export interface Dialect {
  /**
   * hocon's line: `0.40` keeps a text it could not convert and reports the type it expected
   * (hocon_schema_builtin.erl at 0.40.4 returns `Str`); from `0.44` the converter's reason is the
   * error (it throws `{hocon_schema_builtin, Reason}`), and byte sizes take `b`/`B`.
   */
  hocon: '0.40' | '0.44';
  /**
   * emqx_schema.erl to_duration/1, to_bytesize/1: `5.5` answers `{error, Str}`, `5.8` answers
   * "Not a valid duration" / "Not a valid bytesize", and a too large timeout is an error rather
   * than a thrown map.
   */
  converters: '5.5' | '5.8';
  /** emqx_limiter_schema.erl: `v1` rates (5.x up to 5.8: `10/s` as a float per 100 ms), `v2` (5.10 on: `{Capacity, IntervalMs}`). */
  limiter: 'v1' | 'v2';
}

/** A converted value, or the converter's error term (a string, a map or a tuple printed with ~p). */
export type Converted = { ok: true; value: unknown } | { ok: false; reason: unknown };

const ok = (value: unknown): Converted => ({ ok: true, value });
const fail = (reason: unknown): Converted => ({ ok: false, reason });

/** An atom that erl_scan reads from a text, kept apart from a string so the type check refuses it. */
export class ErlAtom {
  constructor(readonly name: string) {}
  toJSON(): string {
    return this.name;
  }
}

// emqx_schema.erl ?MAX_INT_TIMEOUT_MS, ?MAX_INT_TIMEOUT_S.
const MAX_TIMEOUT_MS = 4294967295;
const MAX_TIMEOUT_S = 4294967;

/** typerefl's string_to_term/1, the converter of ranges (`pos_integer()`, `1..65535`): a literal term. */
function stringToTerm(text: string): Converted {
  const t = text.trim();
  if (/^[+-]?\d+$/.test(t)) return ok(Number(t));
  if (/^[+-]?\d+\.\d+(e[+-]?\d+)?$/i.test(t)) return ok(Number(t));
  if (/^[a-z][A-Za-z0-9_@]*$/.test(t)) return ok(new ErlAtom(t));
  if (/^"[^"\\]*"$/.test(t)) return ok(t.slice(1, -1));
  return fail(/^[\w\s.,+\-"'@/]*$/.test(t) ? 'Unable to parse Erlang term' : 'Unable to tokenize Erlang term');
}

function duration(text: string, dialect: Dialect, scale: (ms: number) => number): Converted {
  const ms = hoconDuration(text);
  if (ms !== null) return ok(scale(ms));
  const n = wholeInteger(text);
  if (n !== null) return ok(n);
  return fail(dialect.converters === '5.5' ? text : 'Not a valid duration');
}

/** emqx_schema.erl do_to_timeout_duration/4: at most ?MAX_INT_TIMEOUT_MS (or _S). */
function timeout(converted: Converted, dialect: Dialect, max: number, unit: string): Converted {
  if (!converted.ok || (converted.value as number) <= max) return converted;
  const message = `timeout value too large (max: ${max} ${unit})`;
  return fail(dialect.converters === '5.5' ? { kind: 'validation_error', message, schema_module: 'emqx_schema' } : message);
}

function bytesize(text: string, dialect: Dialect): Converted {
  const bytes = hoconBytesize(text, dialect.hocon === '0.44');
  if (bytes !== null) return ok(bytes);
  const n = wholeInteger(text);
  if (n !== null) return ok(n);
  return fail(dialect.converters === '5.5' ? text : 'Not a valid bytesize');
}

const RATE_UNITS: Record<string, number> = { '': 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * emqx_limiter_schema.erl to_rate/3 up to 5.8: `infinity`, or a quota with an optional unit and an
 * optional `/` interval; the rate is tokens per 100 ms (default_period/0). A zero quota is refused
 * for a rate (CanZero false); every problem answers `{error, Str}`.
 */
function rateV1(text: string): Converted {
  const m = /^ *(?:([0-9]+[a-zA-Z]*)(?:\/([0-9]*)([m shdMSHD]{1,2}))? *$)|infinity *$/.exec(text);
  if (!m) return fail(text);
  if (m[1] === undefined) return ok('infinity');
  const quota = /^([0-9]+)([a-zA-Z]*)$/.exec(m[1]);
  const scale = quota ? RATE_UNITS[quota[2].toLowerCase()] : undefined;
  if (!quota || scale === undefined) return fail(text);
  const value = Number(quota[1]) * scale;
  if (value === 0) return fail(text);
  if (m[3] === undefined) return ok((value * 100) / 1000);
  const interval = hoconDuration(`${m[2] || '1'}${m[3]}`) ?? wholeInteger(`${m[2] || '1'}${m[3]}`);
  if (interval === null || interval <= 0) return fail(text);
  return ok((value * 100) / interval);
}

/** emqx_limiter_schema.erl parse_rate/1 from 5.10: `{Capacity, IntervalMs}` or `infinity`; errors are tuples. */
function rateV2(text: string, burst: boolean): Converted {
  const t = text.trim().toLowerCase();
  if (t === 'infinity') return burst ? fail(`{invalid_burst,${JSON.stringify(text)}}`) : ok('infinity');
  const m = /^(\d+)(kb|mb|gb|b|)(?:\/(\d*)([mshd]{1,2}))?$/.exec(t);
  if (!m) return fail(`{invalid_rate,${JSON.stringify(t)}}`);
  const capacity = Number(m[1]) * (m[2] === 'b' ? 1 : RATE_UNITS[m[2]]);
  const ms = hoconDuration(`${m[3] || '1'}${m[4] ?? 's'}`);
  if (ms === null || ms === 0) return fail(`{invalid_interval,${JSON.stringify(m[3] ?? '1')}}`);
  if (!burst && capacity === 0) return fail(`{invalid_rate,${JSON.stringify(text)}}`);
  return ok([capacity, ms]);
}

/** typerefl:from_string/2 for a primitive, through the release's converters. */
export function fromString(type: Primitive, text: string, dialect: Dialect): Converted {
  switch (type) {
    case 'boolean': {
      const t = text.trim();
      return t === 'true' || t === 'false' ? ok(t === 'true') : fail('Unable to parse boolean value');
    }
    case 'integer': {
      const t = text.trim();
      return /^[+-]?\d+$/.test(t) ? ok(Number(t)) : fail('Unable to parse integer value');
    }
    case 'float': {
      const t = text.trim();
      return /^[+-]?\d+\.\d+(e[+-]?\d+)?$/i.test(t) ? ok(Number(t)) : fail('Unable to parse float value');
    }
    case 'number': {
      const t = text.trim();
      return /^[+-]?\d+(\.\d+(e[+-]?\d+)?)?$/i.test(t) ? ok(Number(t)) : fail('Unable to parse number value');
    }
    case 'non_neg_integer':
    case 'pos_integer':
    case 'range':
    case 'term':
      return stringToTerm(text);
    case 'duration':
    case 'duration_ms':
      return duration(text, dialect, (ms) => ms);
    case 'duration_s':
      return duration(text, dialect, (ms) => Math.ceil(ms / 1000));
    case 'timeout_duration':
    case 'timeout_duration_ms':
      return timeout(duration(text, dialect, (ms) => ms), dialect, MAX_TIMEOUT_MS, 'ms');
    case 'timeout_duration_s':
      return timeout(duration(text, dialect, (ms) => Math.ceil(ms / 1000)), dialect, MAX_TIMEOUT_S, 's');
    case 'bytesize':
      return bytesize(text, dialect);
    case 'wordsize': {
      const bytes = bytesize(text, dialect);
      return bytes.ok ? ok(Math.floor((bytes.value as number) / 8)) : bytes;
    }
    case 'percent': {
      // emqx_schema.erl to_percent/1: between 0 and 1, else `{error, Str}` on every release.
      const p = hoconPercent(text);
      return p !== null && p >= 0 && p <= 1 ? ok(p) : fail(text);
    }
    case 'rate':
      return dialect.limiter === 'v1' ? rateV1(text) : rateV2(text, false);
    case 'burst':
      return dialect.limiter === 'v1' ? rateV1(text) : rateV2(text, true);
    case 'comma_separated_list':
    case 'comma_separated_binary':
    case 'comma_separated_atoms':
      return ok(text.split(/[, ]+/).filter(Boolean));
    default:
      // binary(), string(), atom(), secrets: any text is one.
      return ok(text);
  }
}
