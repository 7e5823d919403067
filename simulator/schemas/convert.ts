// Turns the config-schema reference (fixtures/emqx-5.5-config-schema.json: fields with HOCON type
// text such as `OneOf(String("infinity"),Duration)`) into the dashboard flavour of JSON schema
// that EMQX's /schemas/{name} serves (emqx_dashboard_swagger, emqx_conf_schema_types). It does
// not invent facts the reference lacks: no descriptions, no `required` beyond discriminators.

/** One field of the reference: name, HOCON type text, default as HOCON text, nested structs. */
export interface RefField {
  text: string;
  type: string;
  default?: string;
  refs?: { text: string; hash: string; fields: RefField[] }[];
}

export type Prop = Record<string, unknown>;
export interface ObjectSchema {
  type: 'object';
  properties: Record<string, Prop>;
  required?: string[];
}

/** A parsed type: a name and its arguments (`OneOf(A,B)` → {name: 'OneOf', args: [A, B]}). */
interface TypeNode {
  name: string;
  args: TypeNode[];
  raw: string;
}

/** Splits `a,b(c,d),"e,f"` at top-level commas. */
function splitTop(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

export function parseType(raw: string): TypeNode {
  const open = raw.indexOf('(');
  if (open < 0 || !raw.endsWith(')')) return { name: raw, args: [], raw };
  const name = raw.slice(0, open);
  const inner = raw.slice(open + 1, -1);
  // Leaf arguments (`Integer(1..+inf)`, `String("x")`, `Enum(a,b)`, `Struct(x)`) stay raw.
  if (!['OneOf', 'Array', 'Map'].includes(name)) return { name, args: [], raw: inner };
  if (name === 'Map') {
    const [key, value] = splitTop(inner, '->');
    return { name, args: [parseType(value)], raw: key };
  }
  return { name, args: splitTop(inner).map(parseType), raw: inner };
}

const unquote = (s: string) => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

/** An integer range `lo..hi` → minimum/maximum (infinite ends left out). */
function range(text: string): Prop {
  const [lo, hi] = text.split('..');
  const out: Prop = {};
  if (lo !== undefined && /^-?\d+$/.test(lo)) out.minimum = Number(lo);
  if (hi !== undefined && /^-?\d+$/.test(hi)) out.maximum = Number(hi);
  return out;
}

/** A HOCON default as the JSON value the API returns (EMQX fills defaults in its raw config). */
export function parseDefault(text: string | undefined, node: TypeNode): unknown {
  if (text === undefined) return undefined;
  const value = text.trim();
  if (node.name === 'Boolean') return value === 'true';
  if (/^-?\d+(\.\d+)?$/.test(value) && ['Integer', 'Number', 'OneOf'].includes(node.name)) return Number(value);
  if (node.name === 'Array') {
    try {
      return JSON.parse(value);
    } catch {
      const inner = value.replace(/^\[|\]$/g, '').trim();
      return inner ? splitTop(inner).map(unquote) : [];
    }
  }
  if (node.name === 'Map') return value.startsWith('{') ? hoconMap(value) : undefined;
  if (node.name === 'Struct' || value.startsWith('{')) return value === '{}' ? {} : undefined;
  return unquote(value);
}

/** A flat HOCON map default (`{\n  accept = "application/json"\n  …}`, e.g. HTTP headers) as an object. */
function hoconMap(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of text.slice(1, text.lastIndexOf('}')).split('\n')) {
    if (!line.trim()) continue;
    const m = /^\s*("?)([^"=\s]+)\1\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) return undefined;
    out[m[2]] = unquote(m[3]);
  }
  return out;
}

/**
 * The converter of one reference tree into `components.schemas`: `component(ns, struct, fields)`
 * registers `<ns>.<struct>` and returns its key. A struct name met twice in a namespace with
 * other fields (the reference repeats `config` per type) gets a numbered key.
 */
export class SchemaBuilder {
  readonly schemas: Record<string, ObjectSchema> = {};

  ref(key: string): Prop {
    return { $ref: `#/components/schemas/${key}` };
  }

  component(ns: string, struct: string, fields: RefField[], extra: Record<string, Prop> = {}, required?: string[]): string {
    const schema: ObjectSchema = { type: 'object', properties: { ...extra } };
    for (const field of fields) schema.properties[field.text] = this.property(ns, field);
    if (required?.length) schema.required = required;
    let key = `${ns}.${struct}`;
    const same = (k: string) => JSON.stringify(this.schemas[k]) === JSON.stringify(schema);
    for (let n = 2; this.schemas[key] && !same(key); n++) key = `${ns}.${struct}_${n}`;
    this.schemas[key] = schema;
    return key;
  }

  property(ns: string, field: RefField): Prop {
    const node = parseType(field.type);
    const prop = this.convert(ns, node, field);
    const value = parseDefault(field.default, node);
    if (value !== undefined && !('$ref' in prop)) prop.default = value;
    return prop;
  }

  convert(ns: string, node: TypeNode, field: RefField): Prop {
    switch (node.name) {
      case 'Boolean': return { type: 'boolean' };
      case 'Number': return { type: 'number' };
      case 'Integer': return { type: 'integer', ...range(node.raw === 'Integer' ? '' : node.raw) };
      case 'Duration': return { type: 'duration' };
      case 'Bytesize': return { type: 'byteSize' };
      // EMQX's secret type: a string the API obfuscates as "******".
      case 'Secret': return { type: 'string', format: 'password' };
      case 'String': return node.raw === 'String' ? { type: 'string' } : { type: 'enum', symbols: [unquote(node.raw)] };
      case 'Enum': return { type: 'enum', symbols: splitTop(node.raw) };
      case 'Array': return { type: 'array', items: this.convert(ns, node.args[0], field) };
      case 'OneOf': return { oneOf: node.args.map((arg) => this.convert(ns, arg, field)) };
      case 'Map': return node.args.length
        ? { type: 'object', properties: { [node.raw]: this.convert(ns, node.args[0], field) } }
        : { type: 'object' };
      case 'Struct': {
        const struct = field.refs?.find((r) => r.text === node.raw);
        return struct ? this.ref(this.component(ns, struct.text, struct.fields)) : { type: 'object' };
      }
      default: return { type: 'string' };
    }
  }
}
