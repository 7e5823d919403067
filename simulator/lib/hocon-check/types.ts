// The schema model the checker walks: hocon's types (hoconsc.hrl: ref/struct, map, array, union,
// enum, a singleton atom, typerefl primitives), with the names hocon prints for them
// (hocon_schema:readable_type/1, typerefl's `Module:name()` names). It holds no data of any
// release; the trees come from the config schema dumps (dump.ts) or a route's JSON schema.

/** A typerefl primitive, by the name its converter and type check go by. */
export type Primitive =
  | 'boolean' | 'integer' | 'non_neg_integer' | 'pos_integer' | 'range' | 'float' | 'number'
  | 'binary' | 'string' | 'atom' | 'term'
  | 'duration' | 'duration_ms' | 'duration_s' | 'timeout_duration' | 'timeout_duration_ms' | 'timeout_duration_s'
  | 'bytesize' | 'wordsize' | 'percent'
  | 'rate' | 'burst' | 'secret' | 'comma_separated_list' | 'comma_separated_binary' | 'comma_separated_atoms';

export type HoconType =
  | { kind: 'struct'; name: string; fields: HoconField[] }
  | { kind: 'map'; name: string; value: HoconType }
  | { kind: 'array'; item: HoconType }
  | { kind: 'union'; members: HoconType[]; select?: 'keys' }
  | { kind: 'enum'; symbols: string[] }
  | { kind: 'singleton'; value: string }
  | { kind: 'primitive'; name: Primitive; min?: number; max?: number };

export interface HoconField {
  name: string;
  type: HoconType;
  aliases?: string[];
  /** `required => true`: a missing value is `required_field`. */
  required?: boolean;
  /** `deprecated => {since, …}`: accepted and dropped, never checked (hocon_tconf map_fields/4). */
  deprecated?: boolean;
  /** `sensitive => true` or a secret: the value is shown as `******` in errors. */
  sensitive?: boolean;
  /** A field validator's bounds beyond the type (emqx_schema validate_packet_size/1 …). */
  limits?: Limits;
}

/** What a bounds validator refuses, and the reason term it answers each time. */
export interface Limits {
  min?: number;
  max?: number;
  tooSmall?: unknown;
  tooLarge?: unknown;
}

/** Erlang's `inf` bounds as typerefl prints them (`1..inf`). */
function bound(n: number): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  return String(n);
}

const MODULE_OF: Partial<Record<Primitive, string>> = {
  duration: 'emqx_schema', duration_ms: 'emqx_schema', duration_s: 'emqx_schema',
  timeout_duration: 'emqx_schema', timeout_duration_ms: 'emqx_schema', timeout_duration_s: 'emqx_schema',
  bytesize: 'emqx_schema', wordsize: 'emqx_schema', percent: 'emqx_schema',
  comma_separated_list: 'emqx_schema', comma_separated_binary: 'emqx_schema', comma_separated_atoms: 'emqx_schema',
  rate: 'emqx_limiter_schema', burst: 'emqx_limiter_schema', secret: 'emqx_schema_secret',
};

/**
 * The name hocon gives a type in its errors (hocon_schema:readable_type/1): a struct's name, a
 * singleton's atom, a typerefl primitive's `typerefl:name/1`; other kinds say their kind (`union`,
 * `enum`, `array`, `map`). typerefl (0.9.1 at hocon 0.40.4, 0.9.6 and 0.9.8 later) names a
 * reflected type `Module:name` (typerefl_trans.erl `io_lib:format("~p:~p", …)`, no parentheses),
 * its aliases and builtins with them (`alias/4` writes `Name(Args)`: `non_neg_integer()`, as
 * emqx_schema_tests.erl ssl_opts_cert_depth_test expects at v5.5.1, e5.8.9 and 6.2.2;
 * `pos_integer()`, which emqx_conf_schema_types.erl readable/1 knows), and a range `1..inf`
 * (`name("~p..~p", [Min, Max])`).
 */
export function readableType(type: HoconType): string {
  switch (type.kind) {
    case 'struct':
      return type.name;
    case 'map':
      return type.name;
    case 'singleton':
      return type.value;
    case 'primitive': {
      if (type.name === 'range') return `${bound(type.min ?? -Infinity)}..${bound(type.max ?? Infinity)}`;
      const module = MODULE_OF[type.name];
      if (module) return `${module}:${type.name}`;
      return `${type.name === 'term' ? 'term' : type.name}()`;
    }
    default:
      return type.kind;
  }
}
