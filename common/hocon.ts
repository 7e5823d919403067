// A reader and writer for the part of HOCON that EMQX configuration files use (emqx.conf and the
// text of GET/PUT /configs, emqx-api-part1 §22.2): objects with `key = v`, `key: v` and
// `key { … }`, dotted keys that expand into nested objects (repeated object keys merge), arrays,
// double-quoted strings with JSON escapes, triple-quoted strings, unquoted strings (`15s`, `1MB`,
// `infinity`), numbers, booleans, null, `#` and `//` comments, commas or newlines between entries.
// Includes and substitutions are not part of that subset: `${X}` stays literal text. Nesting is
// capped at MAX_HOCON_DEPTH (dotted keys count their levels) and the keys `__proto__`,
// `constructor` and `prototype` are refused, so no document can exhaust the stack of the code that
// walks it or reach an object's prototype (security.md S25).

export type HoconValue = string | number | boolean | null | HoconValue[] | { [key: string]: HoconValue };
export type HoconObject = { [key: string]: HoconValue };

/** A syntax error with the 1-based line and column where it was found. */
export class HoconError extends Error {
  constructor(readonly line: number, readonly column: number, readonly reason: string) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** Deepest nesting of objects and arrays a document may have, the document itself included. */
export const MAX_HOCON_DEPTH = 64;

// Keys that name prototype machinery in JavaScript objects; no EMQX config key uses them.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
// Characters that end an unquoted key.
const KEY_STOP = new Set([' ', '\t', '\r', '\n', '.', ':', '=', '{', '}', '[', ']', ',', '#', '"', '+', '\f', '\v']);
// Characters that end an unquoted value (spaces inside a value are kept, then trimmed).
const VALUE_STOP = new Set(['\n', ',', '}', ']', '#', '{', '[', '"', '\r']);

function isObject(v: HoconValue | undefined): v is HoconObject {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Sets an own property, also for names such as `__proto__`. */
function define(obj: HoconObject, key: string, value: HoconValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Merges `value` into `obj[key]`: two objects merge key by key, anything else replaces. */
function assign(obj: HoconObject, key: string, value: HoconValue): void {
  const old = Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
  if (isObject(old) && isObject(value)) {
    for (const k of Object.keys(value)) assign(old, k, value[k]);
    return;
  }
  define(obj, key, value);
}

class Reader {
  private pos = 0;
  // Objects and arrays open around the current position, the document included.
  private depth = 0;

  constructor(private readonly text: string) {}

  fail(reason: string, at = this.pos): never {
    let line = 1;
    let column = 1;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text[i] === '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    throw new HoconError(line, column, reason);
  }

  private peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  private atComment(): boolean {
    return this.peek() === '#' || (this.peek() === '/' && this.peek(1) === '/');
  }

  private skipComment(): void {
    while (this.pos < this.text.length && this.peek() !== '\n') this.pos++;
  }

  /** Skips spaces and comments on the current line. */
  private skipInline(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF' || c === '\u00A0') this.pos++;
      else if (this.atComment()) this.skipComment();
      else return;
    }
  }

  /** Skips whitespace, newlines, comments and (when allowed) commas. */
  private skipSpace(commas: boolean): void {
    for (;;) {
      this.skipInline();
      const c = this.peek();
      if (c === '\n' || (commas && c === ',')) this.pos++;
      else return;
    }
  }

  /** Counts `levels` more open objects or arrays; fails past MAX_HOCON_DEPTH. */
  private deeper(levels: number): void {
    this.depth += levels;
    if (this.depth > MAX_HOCON_DEPTH) this.fail(`nesting deeper than ${MAX_HOCON_DEPTH} levels`);
  }

  document(): HoconObject {
    this.skipSpace(false);
    this.deeper(1);
    let result: HoconObject;
    if (this.peek() === '{') {
      this.pos++;
      result = this.fields(true);
    } else {
      result = this.fields(false);
    }
    this.skipSpace(false);
    if (this.pos < this.text.length) this.fail(`unexpected ${JSON.stringify(this.peek())}`);
    return result;
  }

  /** The entries of an object, after its `{` when braced, up to and including its `}`. */
  private fields(braced: boolean): HoconObject {
    const obj: HoconObject = {};
    for (;;) {
      this.skipSpace(true);
      if (this.pos >= this.text.length) {
        if (braced) this.fail('missing "}"');
        return obj;
      }
      if (this.peek() === '}') {
        if (!braced) this.fail('unexpected "}"');
        this.pos++;
        return obj;
      }
      const keyAt = this.pos;
      const path = this.keyPath();
      // `a.b.c = 1` opens the objects a and b.
      this.deeper(path.length - 1);
      this.skipInline();
      let value: HoconValue;
      const c = this.peek();
      if (c === '{') {
        this.pos++;
        this.deeper(1);
        value = this.fields(true);
        this.depth--;
      } else if (c === '=' || c === ':') {
        this.pos++;
        this.skipSpace(false);
        value = this.value();
      } else {
        this.fail(`expected "=", ":" or "{" after ${JSON.stringify(path.join('.'))}`, keyAt === this.pos ? this.pos : this.pos);
      }
      this.depth -= path.length - 1;
      let nested: HoconValue = value;
      for (let i = path.length - 1; i > 0; i--) {
        const wrap: HoconObject = {};
        define(wrap, path[i], nested);
        nested = wrap;
      }
      assign(obj, path[0], nested);
      // An entry ends at a newline, a comma or the closing brace.
      this.skipInline();
      const end = this.peek();
      if (end !== '' && end !== '\n' && end !== ',' && end !== '}') this.fail(`unexpected ${JSON.stringify(end)}`);
    }
  }

  /** `a.b."c.d"` → ['a', 'b', 'c.d']. */
  private keyPath(): string[] {
    const parts: string[] = [];
    for (;;) {
      const start = this.pos;
      let part: string;
      if (this.peek() === '"') {
        part = this.quoted();
      } else {
        while (this.pos < this.text.length && !KEY_STOP.has(this.peek()) && !(this.peek() === '/' && this.peek(1) === '/')) this.pos++;
        part = this.text.slice(start, this.pos);
        if (part === '') this.fail(this.pos >= this.text.length ? 'unexpected end of input, expected a key' : `expected a key, found ${JSON.stringify(this.peek())}`);
      }
      if (FORBIDDEN_KEYS.has(part)) this.fail(`forbidden key ${JSON.stringify(part)}`, start);
      parts.push(part);
      if (this.peek() !== '.') return parts;
      this.pos++;
    }
  }

  private value(): HoconValue {
    const c = this.peek();
    if (c === '{' || c === '[') {
      this.pos++;
      this.deeper(1);
      const nested = c === '{' ? this.fields(true) : this.array();
      this.depth--;
      return nested;
    }
    if (c === '"') return this.quoted();
    return this.unquoted();
  }

  private array(): HoconValue[] {
    const items: HoconValue[] = [];
    for (;;) {
      this.skipSpace(false);
      if (this.peek() === ']') {
        this.pos++;
        return items;
      }
      if (this.pos >= this.text.length) this.fail('missing "]"');
      items.push(this.value());
      this.skipInline();
      const c = this.peek();
      if (c === ',') this.pos++;
      else if (c !== '\n' && c !== ']') this.fail(this.pos >= this.text.length ? 'missing "]"' : `unexpected ${JSON.stringify(c)} in an array`);
    }
  }

  private quoted(): string {
    const start = this.pos;
    if (this.text.startsWith('"""', this.pos)) {
      const end = this.text.indexOf('"""', this.pos + 3);
      if (end < 0) this.fail('unterminated """ string', start);
      // Quotes right before the closing """ belong to the string (as HOCON says).
      let close = end;
      while (this.text[close + 3] === '"') close++;
      this.pos = close + 3;
      return this.text.slice(start + 3, close);
    }
    this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated string', start);
      const c = this.text[this.pos++];
      if (c === '"') return out;
      if (c === '\n') this.fail('newline in a quoted string', this.pos - 1);
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.text[this.pos++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = this.text.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape', this.pos - 2);
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.fail(`bad escape \\${e ?? ''}`, this.pos - 2);
      }
    }
  }

  private unquoted(): HoconValue {
    const start = this.pos;
    while (this.pos < this.text.length && !VALUE_STOP.has(this.peek()) && !(this.peek() === '/' && this.peek(1) === '/')) this.pos++;
    const raw = this.text.slice(start, this.pos).trim();
    if (raw === '') this.fail(this.pos >= this.text.length ? 'unexpected end of input, expected a value' : `expected a value, found ${JSON.stringify(this.peek())}`, start);
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    if (raw === 'null') return null;
    if (NUMBER.test(raw)) return Number(raw);
    return raw;
  }
}

/** Parses HOCON text into a plain object; throws HoconError with line and column. */
export function parseHocon(text: string): HoconObject {
  return new Reader(text).document();
}

const BARE_KEY = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
const BARE_VALUE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function key(k: string): string {
  return BARE_KEY.test(k) ? k : JSON.stringify(k);
}

function scalar(v: string | number | boolean | null): string {
  if (typeof v === 'string') {
    const bare = BARE_VALUE.test(v) && !NUMBER.test(v) && v !== 'true' && v !== 'false' && v !== 'null';
    return bare ? v : JSON.stringify(v);
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`cannot write ${v}`);
    return String(v);
  }
  return String(v);
}

function isScalar(v: HoconValue): v is string | number | boolean | null {
  return v === null || typeof v !== 'object';
}

function valueText(v: HoconValue, indent: string): string {
  if (isScalar(v)) return scalar(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const inline = v.every((item) => isScalar(item) || (Array.isArray(item) && item.every(isScalar)));
    if (inline) {
      const text = `[${v.map((item) => valueText(item, indent)).join(', ')}]`;
      if (text.length <= 100) return text;
    }
    const inner = `${indent}  `;
    return `[\n${v.map((item) => `${inner}${valueText(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{\n${body(v, `${indent}  `)}${indent}}`;
}

function body(obj: HoconObject, indent: string): string {
  let out = '';
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === undefined) continue;
    out += isObject(v) ? `${indent}${key(k)} ${valueText(v, indent)}\n` : `${indent}${key(k)} = ${valueText(v, indent)}\n`;
  }
  return out;
}

/**
 * Writes an object as HOCON: the top-level entries without braces, nested objects as
 * `key { … }` with two-space indents, strings quoted unless they read back as the same text.
 */
export function writeHocon(obj: HoconObject): string {
  return body(obj, '');
}
