// A value checked against a schema tree as hocon_tconf:check_plain/3 checks it (hocon 0.40.4 and
// 0.44+, hocon_tconf.erl do_map2/3, map_field/4, do_map_union/4, check_unknown_fields/3): a JSON
// null counts as omitted (drop_nulls/2), a struct with a field its schema lacks is refused with
// `unknown_fields` and the `unmatched` names, texts are converted to the field's type first
// (from-string.ts), a union tries each member, and every problem is collected in schema order.
// It answers the converted value and the error maps; wording them is format.ts's job.
import { ErlAtom, fromString, type Converted, type Dialect } from './from-string.ts';
import { readableType, type HoconField, type HoconType, type Primitive } from './types.ts';

/** One hocon error map (`kind`, `path`, `reason`, …), as hocon_tconf:validation_errs/2 makes it. */
export type HoconError = Record<string, unknown>;

export interface CheckOptions {
  dialect: Dialect;
  /**
   * Atoms the broker's VM knows, beside the enum's own symbols: a text naming one converts to the
   * atom (hocon_schema_builtin convert/2 `binary_to_existing_atom`) and is `not_a_enum_symbol`,
   * any other text is `unable_to_convert_to_enum_symbol`.
   */
  atoms?: ReadonlySet<string>;
}

export interface Checked {
  value: unknown;
  errors: HoconError[];
}

const COMMON_ATOMS = new Set(['true', 'false', 'undefined', 'infinity', 'ok', 'error', 'none', 'all', 'disabled', 'enabled', 'null', 'default']);

// hocon_tconf.erl ?MAP_KEY_RE.
const MAP_KEY_RE = '^[A-Za-z0-9]+[A-Za-z0-9-_]*$';
const MAP_KEY = new RegExp(MAP_KEY_RE);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `fmt_field_names/1`: sorted, at most two names, then `,...`; `none` for no name. */
function fieldNames(names: string[]): string {
  const sorted = [...names].sort();
  if (sorted.length === 0) return 'none';
  return sorted.length <= 2 ? sorted.join(',') : `${sorted.slice(0, 2).join(',')},...`;
}

class Walker {
  constructor(private readonly options: CheckOptions) {}

  private error(stack: string[], context: HoconError): HoconError {
    return { ...context, kind: 'validation_error', ...(context.path === undefined ? { path: stack.join('.') } : {}) };
  }

  private withValue(stack: string[], reason: unknown, value: unknown, sensitive: boolean): HoconError {
    return this.error(stack, { reason, value: sensitive ? '******' : value });
  }

  /** map_one_field/4: a field's value (undefined when omitted) against its type. */
  field(field: HoconField, value: unknown, stack: string[]): Checked {
    if (value === undefined) {
      return { value, errors: field.required ? [this.error(stack, { reason: 'required_field' })] : [] };
    }
    return this.type(field.type, value, stack, field);
  }

  type(type: HoconType, value: unknown, stack: string[], field?: HoconField): Checked {
    switch (type.kind) {
      case 'struct':
        return this.struct(type.fields, value, stack);
      case 'map':
        return this.map(type, value, stack, field);
      case 'array':
        return this.array(type.item, value, stack, field);
      case 'union':
        return this.union(selectMembers(type, value), value, stack, field);
      case 'enum':
        return this.enumeration(type.symbols, value, stack, field);
      case 'singleton':
        return this.singleton(type.value, value, stack, field);
      case 'primitive':
        return this.primitive(type, value, stack, field);
    }
  }

  /** do_map/4 and do_map2/3. */
  struct(fields: HoconField[], value: unknown, stack: string[]): Checked {
    if (!isObject(value)) return { value, errors: [this.error(stack, { reason: 'bad_value_for_struct', value })] };
    const data: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== null) data[key] = v;
    // check_unknown_fields/3: the schema's names and aliases a data field did not take stay `unmatched`.
    const expected = fields.flatMap((f) => [f.name, ...(f.aliases ?? [])]);
    const unknown: string[] = [];
    for (const key of Object.keys(data)) {
      const at = expected.indexOf(key);
      if (at < 0) unknown.push(key);
      else expected.splice(at, 1);
    }
    if (unknown.length > 0) {
      return { value: data, errors: [this.error(stack, { reason: 'unknown_fields', path: stack.join('.'), unmatched: fieldNames(expected), unknown: fieldNames(unknown) })] };
    }
    const errors: HoconError[] = [];
    const out: Record<string, unknown> = { ...data };
    for (const field of fields) {
      const names = [field.name, ...(field.aliases ?? [])];
      if (field.deprecated) {
        for (const name of names) delete out[name];
        continue;
      }
      const given = names.find((name) => data[name] !== undefined);
      const checked = this.field(field, given === undefined ? undefined : data[given], [...stack, field.name]);
      errors.push(...checked.errors);
      // The first name given wins; the aliases are dropped (map_fields_cont/4).
      for (const alias of field.aliases ?? []) delete out[alias];
      if (checked.value !== undefined) out[field.name] = checked.value;
    }
    return { value: out, errors };
  }

  /** map_field(?MAP(Name, Type)): every key a valid name, every value of the one type, keys sorted. */
  private map(type: Extract<HoconType, { kind: 'map' }>, value: unknown, stack: string[], field?: HoconField): Checked {
    if (!isObject(value)) return { value, errors: [this.error(stack, { reason: 'bad_value_for_struct', value })] };
    const keys = Object.keys(value).filter((k) => value[k] !== null).sort();
    for (const key of keys) {
      const reason = !MAP_KEY.test(key)
        ? { expected_data_type: MAP_KEY_RE, got: key }
        : key.length > 255 ? { hint: 'map keys must have less than 255 bytes', got: key } : null;
      if (reason) return { value, errors: [this.error(stack, { ...(this.options.dialect.hocon === '0.40' ? { ...reason, got: [key] } : reason), reason: 'invalid_map_key' })] };
    }
    const errors: HoconError[] = [];
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const checked = this.type(type.value, value[key], [...stack, key], field);
      errors.push(...checked.errors);
      out[key] = checked.value;
    }
    return { value: out, errors };
  }

  /** map_field(?ARRAY(Type)): elements numbered from 1; the first element with problems ends it. */
  private array(item: HoconType, value: unknown, stack: string[], field?: HoconField): Checked {
    if (!Array.isArray(value)) {
      if (isObject(value)) return { value, errors: [] };
      return { value, errors: [this.error(stack, { expected_data_type: 'array', got: typeof value === 'string' ? 'string' : value })] };
    }
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const checked = this.type(item, value[i], [...stack, String(i + 1)], field);
      if (checked.errors.length) return { value, errors: checked.errors };
      out.push(checked.value);
    }
    return { value: out, errors: [] };
  }

  /** do_map_union/4: the first member that takes the value wins; otherwise every member's problem. */
  private union(members: HoconType[], value: unknown, stack: string[], field?: HoconField): Checked {
    const mismatches: Record<string, unknown> = {};
    for (const member of members) {
      const checked = this.type(member, value, stack, field);
      if (checked.errors.length === 0) return checked;
      mismatches[readableType(member)] = checked.errors.length === 1 ? checked.errors[0] : checked.errors;
    }
    const names = Object.keys(mismatches);
    if (names.length === 1) {
      // ensure_type_path/2: one member names itself as `matched_type`.
      const only = mismatches[names[0]];
      if (isObject(only)) {
        const nested = typeof only.matched_type === 'string' ? `${names[0]}/${only.matched_type}` : names[0];
        return { value, errors: [this.error(stack, { ...only, matched_type: nested })] };
      }
      return { value, errors: [this.error(stack, { matched_type: names[0], errors: only })] };
    }
    return { value, errors: [this.error(stack, { reason: 'matched_no_union_member', mismatches })] };
  }

  /** hocon_schema_builtin convert/2 for an enum, then check_enum_symbol/2. */
  private enumeration(symbols: string[], value: unknown, stack: string[], field?: HoconField): Checked {
    let v: unknown = value;
    let isSymbol = typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value));
    if (typeof value === 'string') {
      if (/^[+-]?\d+$/.test(value)) {
        v = Number(value);
        isSymbol = true;
      } else if (symbols.includes(value) || COMMON_ATOMS.has(value) || this.options.atoms?.has(value)) {
        isSymbol = true;
      }
    }
    if (!isSymbol) return { value, errors: [this.withValue(stack, 'unable_to_convert_to_enum_symbol', v, !!field?.sensitive)] };
    if (!symbols.includes(String(v))) return { value, errors: [this.withValue(stack, 'not_a_enum_symbol', v, !!field?.sensitive)] };
    return { value: v, errors: [] };
  }

  /** A singleton atom member (`infinity`): typerefl:from_string(Atom, Str) takes only its own name. */
  private singleton(atom: string, value: unknown, stack: string[], field?: HoconField): Checked {
    const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value : null;
    if (text === atom) return { value: atom, errors: [] };
    if (text !== null && this.options.dialect.hocon === '0.44') {
      return { value, errors: [this.withValue(stack, `Expected: ${atom}, got:${text}`, value, !!field?.sensitive)] };
    }
    return { value, errors: [this.withValue(stack, { expected: atom }, text ?? value, !!field?.sensitive)] };
  }

  /** map_field/4 for a primitive: convert a text (or an integer's digits), then type-check. */
  private primitive(type: Extract<HoconType, { kind: 'primitive' }>, value: unknown, stack: string[], field?: HoconField): Checked {
    const sensitive = !!field?.sensitive || type.name === 'secret';
    const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value : null;
    let v: unknown = value;
    if (text !== null) {
      const converted: Converted = fromString(type.name, text, this.options.dialect);
      if (converted.ok) v = converted.value;
      else if (this.options.dialect.hocon === '0.44') return { value, errors: [this.withValue(stack, converted.reason, value, sensitive)] };
      else v = text;
    }
    // The field's validator runs before the type check (get_validators/3), on the converted value.
    const limits = field?.limits;
    if (limits && typeof v === 'number') {
      if (limits.min !== undefined && v < limits.min) return { value, errors: [this.withValue(stack, limits.tooSmall, v, sensitive)] };
      if (limits.max !== undefined && v > limits.max) return { value, errors: [this.withValue(stack, limits.tooLarge, v, sensitive)] };
    }
    if (!typeCheck(type, v, this.options.dialect)) {
      return { value, errors: [this.withValue(stack, { expected: readableType(type) }, v instanceof ErlAtom ? v.name : v, sensitive)] };
    }
    // Texts of the value syntaxes stay as given (the raw config keeps them so); plain numbers,
    // booleans and strings take their converted form.
    return { value: AS_GIVEN.has(type.name) ? value : v instanceof ErlAtom ? v.name : v, errors: [] };
  }
}

/**
 * select_union_members/3: a union with a selector offers only the member it picks for the value;
 * `keys` picks the first struct that has every key of an object value, else the last member.
 */
function selectMembers(type: Extract<HoconType, { kind: 'union' }>, value: unknown): HoconType[] {
  if (type.select !== 'keys' || !isObject(value)) return type.members;
  const keys = Object.keys(value);
  const fits = type.members.find((m) => m.kind === 'struct' && keys.every((k) => m.fields.some((f) => f.name === k || f.aliases?.includes(k))));
  return [fits ?? type.members[type.members.length - 1]];
}

const AS_GIVEN = new Set<Primitive>([
  'duration', 'duration_ms', 'duration_s', 'timeout_duration', 'timeout_duration_ms', 'timeout_duration_s',
  'bytesize', 'wordsize', 'percent', 'rate', 'burst', 'comma_separated_list', 'comma_separated_binary', 'comma_separated_atoms', 'term',
]);

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** typerefl:typecheck/2 of a converted value. */
function typeCheck(type: { name: Primitive; min?: number; max?: number }, v: unknown, dialect: Dialect): boolean {
  switch (type.name) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
    case 'duration':
    case 'duration_ms':
    case 'duration_s':
    case 'bytesize':
    case 'wordsize':
      return isInt(v);
    case 'timeout_duration':
    case 'timeout_duration_ms':
      return isInt(v) && v >= 0 && v <= 4294967295;
    case 'timeout_duration_s':
      return isInt(v) && v >= 0 && v <= 4294967;
    case 'non_neg_integer':
      return isInt(v) && v >= 0;
    case 'pos_integer':
      return isInt(v) && v >= 1;
    case 'range':
      return isInt(v) && v >= (type.min ?? -Infinity) && v <= (type.max ?? Infinity);
    case 'float':
    case 'number':
    case 'percent':
      return typeof v === 'number' && Number.isFinite(v);
    case 'rate':
      return v === 'infinity' || (dialect.limiter === 'v1' ? typeof v === 'number' : Array.isArray(v));
    case 'burst':
      return dialect.limiter === 'v1' ? typeof v === 'number' : Array.isArray(v);
    case 'comma_separated_list':
    case 'comma_separated_binary':
    case 'comma_separated_atoms':
      return Array.isArray(v);
    case 'atom':
      return typeof v === 'string' || v instanceof ErlAtom;
    case 'term':
      return true;
    default:
      return typeof v === 'string';
  }
}

/**
 * Checks `value` as the body of a request whose schema is `type`, as emqx_dashboard_swagger.erl
 * check_request_body/5 does: under a root field named `root`, so paths read `root.field`.
 */
export function checkBody(type: HoconType, value: unknown, options: CheckOptions, root = 'root'): Checked {
  return new Walker(options).type(type, value, [root]);
}

/** Checks `value` against `type` with the path starting at `path` (a config root's own name, say). */
export function checkValue(type: HoconType, value: unknown, options: CheckOptions, path: string[]): Checked {
  return new Walker(options).type(type, value, path);
}
