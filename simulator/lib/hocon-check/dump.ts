// The broker's config schema dump notation (hocon_schema_json: `OneOf(String("infinity"),Duration)`,
// `Integer(1..+inf)`, `Map($name->Struct(mqtt_tcp_listener))` with the structs in `refs`) read into
// the checker's types, and its HOCON default texts read into JSON. Where the dump prints one name
// for several typerefl types (a percent or a rate is `String`), a field's `kind` names the real one
// (fixtures/profiles data, from the source at the tag).
import type { HoconField, HoconType, Limits, Primitive } from './types.ts';

/** One field of a dump tree (the shape of ../shared/reference/emqx-*-config-schema.json). */
export interface DumpField {
  text: string;
  type: string;
  default?: string;
  aliases?: string[];
  /** The typerefl type behind a dump name, by that name: `{ "String": "percent" }`. */
  kind?: Record<string, string>;
  /** Hidden from the documentation (`importance => hidden`): accepted, not shown by default. */
  hidden?: boolean;
  deprecated?: boolean;
  /** A union whose member a selector picks: `keys`, the first struct having every key of the value. */
  select?: 'keys';
  /** A field validator's bounds (emqx_schema validate_max_packet_size/1 …), from the source. */
  limits?: Limits;
  /** The names hocon gives structs in its errors (`prometheus:recommend_setting`), by struct. */
  names?: Record<string, string>;
  refs?: { text: string; fields: DumpField[] }[];
}

interface Node {
  name: string;
  args: Node[];
}

/** Parses `Name(arg,arg)` (quoted texts kept whole, `->` inside Map kept in the argument). */
function parse(text: string): Node {
  const open = text.indexOf('(');
  if (open < 0 || text.startsWith('"')) return { name: text, args: [] };
  const name = text.slice(0, open);
  const inner = text.slice(open + 1, -1);
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"' && inner[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      args.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  args.push(inner.slice(start));
  if (name === 'Enum' || name === 'String' || name === 'Integer' || name === 'Duration' || name === 'Map') return { name, args: args.map((a) => ({ name: a, args: [] })) };
  return { name, args: args.map(parse) };
}

function bound(text: string): number {
  if (/^\+?inf$/.test(text)) return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

const PRIMITIVES: Record<string, Primitive> = { Boolean: 'boolean', String: 'binary', Secret: 'secret', Number: 'number', Float: 'float', Bytesize: 'bytesize' };

/** The structs of a dump tree turned into types, shared by every field that refers to them. */
export class DumpTypes {
  private readonly cache = new Map<DumpField[], HoconField[]>();

  /** The checker's type of one dump field. */
  typeOf(field: DumpField): HoconType {
    return this.node(parse(field.type), field);
  }

  /** The fields of a struct (a dump `refs` entry). */
  fieldsOf(fields: DumpField[]): HoconField[] {
    let out = this.cache.get(fields);
    if (!out) {
      out = [];
      this.cache.set(fields, out);
      for (const f of fields) {
        const field: HoconField = { name: f.text, type: this.typeOf(f) };
        if (f.aliases?.length) field.aliases = f.aliases;
        if (f.deprecated) field.deprecated = true;
        if (f.type === 'Secret') field.sensitive = true;
        if (f.limits) field.limits = f.limits;
        out.push(field);
      }
    }
    return out;
  }

  private node(node: Node, field: DumpField): HoconType {
    const { name, args } = node;
    const kind = field.kind?.[name] as Primitive | undefined;
    switch (name) {
      case 'Struct': {
        const ref = field.refs?.find((r) => r.text === args[0].name) ?? field.refs?.[0];
        return { kind: 'struct', name: field.names?.[args[0].name] ?? args[0].name, fields: this.fieldsOf(ref?.fields ?? []) };
      }
      case 'Map': {
        if (args.length === 0) return { kind: 'primitive', name: 'term' };
        const arrow = args[0].name.indexOf('->');
        const key = arrow < 0 ? 'name' : args[0].name.slice(0, arrow).replace(/^\$/, '');
        return { kind: 'map', name: key, value: this.node(parse(arrow < 0 ? args[0].name : args[0].name.slice(arrow + 2)), field) };
      }
      case 'Array':
        return { kind: 'array', item: this.node(args[0], field) };
      case 'OneOf':
        return { kind: 'union', members: args.map((a) => this.node(a, field)), ...(field.select ? { select: field.select } : {}) };
      case 'Enum':
        return { kind: 'enum', symbols: args.map((a) => a.name) };
      case 'String':
        if (args.length === 1) return { kind: 'singleton', value: JSON.parse(args[0].name) as string };
        return { kind: 'primitive', name: kind ?? 'binary' };
      case 'Integer': {
        if (args.length === 0) return { kind: 'primitive', name: kind ?? 'integer' };
        const [lo, hi] = args[0].name.split('..').map(bound);
        if (lo === 0 && hi === Infinity) return { kind: 'primitive', name: 'non_neg_integer' };
        if (lo === 1 && hi === Infinity) return { kind: 'primitive', name: 'pos_integer' };
        return { kind: 'primitive', name: 'range', min: lo, max: hi };
      }
      case 'Duration':
        // `Duration(s)` is emqx_schema:duration_s(); a kind names the timeout and _ms variants.
        return { kind: 'primitive', name: kind ?? (args[0]?.name === 's' ? 'duration_s' : 'duration') };
      default:
        return { kind: 'primitive', name: kind ?? PRIMITIVES[name] ?? 'term' };
    }
  }
}

/** A HOCON default text of the dump as JSON (`"15s"` → "15s", `16` → 16, `[]`, `{}`). */
export function defaultValue(type: string, text: string): unknown {
  const t = text.trim();
  if (t === 'true' || t === 'false') return type.startsWith('String') || type.startsWith('Enum') && !/Enum\((true|false)/.test(type) ? t : t === 'true';
  if (t.startsWith('"')) return JSON.parse(t);
  // An unquoted number is one (HOCON), except where the type reads text (`0` for a duration).
  if (/^-?\d+(\.\d+)?$/.test(t) && !/^(OneOf\()?(Duration|Bytesize)/.test(type)) return Number(t);
  if (t === '{}') return {};
  if (t.startsWith('[')) {
    try {
      return JSON.parse(t);
    } catch {
      const inner = t.slice(1, -1).trim();
      return inner ? inner.split(',').map((s) => s.trim().replace(/^"|"$/g, '')) : [];
    }
  }
  return t;
}
