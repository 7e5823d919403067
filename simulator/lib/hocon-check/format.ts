// hocon's errors as the broker words them in an API answer: emqx_hocon:format_error/2 (the map of a
// single problem, a list for several, without stack traces) encoded by best_effort_json/2, whose
// maps come out with their keys in Erlang term order, i.e. sorted (emqx_utils_json over a small
// map). The message of a 400 BAD_REQUEST is this text.
import type { HoconError } from './check.ts';

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof (record as { toJSON?: unknown }).toJSON === 'function') return value;
    return Object.fromEntries(Object.keys(record).sort().map((k) => [k, sorted(record[k])]));
  }
  return value;
}

/** The message text of `errors` (one map, or a list of several), as EMQX sends it. */
export function formatErrors(errors: readonly HoconError[]): string {
  return JSON.stringify(sorted(errors.length === 1 ? errors[0] : errors));
}
