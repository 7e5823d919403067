// Erlang's external term format (version 131), the part `term_to_binary/1` writes for the terms
// EMQX's cluster link puts on the wire (emqx_cluster_link_mqtt.erl encode_payload/decode_payload):
// atoms, integers (small, 32-bit and big up to 2^53), floats, binaries, tuples, lists, strings and
// maps. Decoding takes untrusted bytes from MQTT: it refuses compressed terms, references, pids,
// funs and every other tag, bounds nesting, and checks each length against what is left, so a
// malformed payload is an EtfError and never a crash or an outsized allocation.

/** An Erlang atom (`undefined`, `true` and `false` stay atoms, as on the wire). */
export class Atom {
  constructor(readonly name: string) {}
}

/** An Erlang tuple (a record is a tuple whose first element is its name). */
export class Tuple {
  constructor(readonly items: Term[]) {}
}

export type Term = Atom | Tuple | Buffer | number | Term[] | Map<Term, Term>;

export class EtfError extends Error {}

export const atom = (name: string) => new Atom(name);
export const tuple = (...items: Term[]) => new Tuple(items);

const VERSION = 131;
const MAX_DEPTH = 64;

const T = {
  NEW_FLOAT: 70, SMALL_INTEGER: 97, INTEGER: 98, ATOM: 100, SMALL_TUPLE: 104, LARGE_TUPLE: 105, NIL: 106,
  STRING: 107, LIST: 108, BINARY: 109, SMALL_BIG: 110, SMALL_ATOM: 115, MAP: 116, ATOM_UTF8: 118, SMALL_ATOM_UTF8: 119,
} as const;

function encodeInto(out: number[][], term: Term, depth: number): void {
  if (depth > MAX_DEPTH) throw new EtfError('term nested too deeply');
  const push = (...bytes: number[]) => out.push(bytes);
  const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  if (term instanceof Atom) {
    const name = Buffer.from(term.name, 'utf8');
    if (name.length > 255) throw new EtfError('atom too long');
    push(T.SMALL_ATOM_UTF8, name.length, ...name);
  } else if (Buffer.isBuffer(term)) {
    push(T.BINARY, ...u32(term.length));
    out.push([...term]);
  } else if (typeof term === 'number') {
    if (!Number.isInteger(term)) {
      const b = Buffer.alloc(9);
      b[0] = T.NEW_FLOAT;
      b.writeDoubleBE(term, 1);
      out.push([...b]);
    } else if (term >= 0 && term < 256) {
      push(T.SMALL_INTEGER, term);
    } else if (term >= -(2 ** 31) && term < 2 ** 31) {
      push(T.INTEGER, ...u32(term >>> 0));
    } else {
      let n = BigInt(Math.abs(term));
      const digits: number[] = [];
      while (n > 0n) {
        digits.push(Number(n & 255n));
        n >>= 8n;
      }
      push(T.SMALL_BIG, digits.length, term < 0 ? 1 : 0, ...digits);
    }
  } else if (term instanceof Tuple) {
    if (term.items.length < 256) push(T.SMALL_TUPLE, term.items.length);
    else push(T.LARGE_TUPLE, ...u32(term.items.length));
    for (const item of term.items) encodeInto(out, item, depth + 1);
  } else if (Array.isArray(term)) {
    if (term.length === 0) {
      push(T.NIL);
      return;
    }
    push(T.LIST, ...u32(term.length));
    for (const item of term) encodeInto(out, item, depth + 1);
    push(T.NIL);
  } else if (term instanceof Map) {
    push(T.MAP, ...u32(term.size));
    for (const [k, v] of term) {
      encodeInto(out, k, depth + 1);
      encodeInto(out, v, depth + 1);
    }
  } else {
    throw new EtfError(`cannot encode ${typeof term}`);
  }
}

/** `term_to_binary/1`. */
export function encodeTerm(term: Term): Buffer {
  const out: number[][] = [[VERSION]];
  encodeInto(out, term, 0);
  return Buffer.concat(out.map((part) => Buffer.from(part)));
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  private need(n: number): void {
    if (n < 0 || this.at + n > this.buf.length) throw new EtfError('truncated term');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.at++];
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }

  bytes(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return Buffer.from(v);
  }

  get done(): boolean {
    return this.at === this.buf.length;
  }

  get left(): number {
    return this.buf.length - this.at;
  }

  term(depth: number): Term {
    if (depth > MAX_DEPTH) throw new EtfError('term nested too deeply');
    const tag = this.u8();
    switch (tag) {
      case T.SMALL_INTEGER: return this.u8();
      case T.INTEGER: return this.u32() | 0;
      case T.NEW_FLOAT: {
        this.need(8);
        const v = this.buf.readDoubleBE(this.at);
        this.at += 8;
        return v;
      }
      case T.SMALL_BIG: {
        const n = this.u8();
        const sign = this.u8();
        const digits = this.bytes(n);
        let v = 0n;
        for (let i = digits.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(digits[i]);
        if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new EtfError('integer too large');
        return sign ? -Number(v) : Number(v);
      }
      case T.ATOM: case T.ATOM_UTF8: return new Atom(this.bytes(this.u16()).toString(tag === T.ATOM ? 'latin1' : 'utf8'));
      case T.SMALL_ATOM: case T.SMALL_ATOM_UTF8: return new Atom(this.bytes(this.u8()).toString(tag === T.SMALL_ATOM ? 'latin1' : 'utf8'));
      case T.BINARY: return this.bytes(this.u32());
      case T.NIL: return [];
      case T.STRING: return [...this.bytes(this.u16())];
      case T.SMALL_TUPLE: case T.LARGE_TUPLE: {
        const n = tag === T.SMALL_TUPLE ? this.u8() : this.u32();
        if (n > this.left) throw new EtfError('truncated term');
        return new Tuple(Array.from({ length: n }, () => this.term(depth + 1)));
      }
      case T.LIST: {
        const n = this.u32();
        if (n > this.left) throw new EtfError('truncated term');
        const items = Array.from({ length: n }, () => this.term(depth + 1));
        const tail = this.term(depth + 1);
        if (!Array.isArray(tail) || tail.length !== 0) throw new EtfError('improper list');
        return items;
      }
      case T.MAP: {
        const n = this.u32();
        if (n * 2 > this.left) throw new EtfError('truncated term');
        const map = new Map<Term, Term>();
        for (let i = 0; i < n; i++) map.set(this.term(depth + 1), this.term(depth + 1));
        return map;
      }
      default:
        throw new EtfError(`unsupported term tag ${tag}`);
    }
  }
}

/** `binary_to_term/2` for the tags above; throws EtfError for anything else. */
export function decodeTerm(buf: Buffer): Term {
  const r = new Reader(buf);
  if (r.u8() !== VERSION) throw new EtfError('not an external term');
  const term = r.term(0);
  if (!r.done) throw new EtfError('bytes after the term');
  return term;
}

/** The value of a map key that is an atom or a number (map lookups compare by value). */
export function mapGet(map: Term, key: string | number): Term | undefined {
  if (!(map instanceof Map)) return undefined;
  for (const [k, v] of map) {
    if (typeof key === 'number' ? k === key : k instanceof Atom && k.name === key) return v;
  }
  return undefined;
}

/** The text of a binary term, or undefined. */
export function text(term: Term | undefined): string | undefined {
  return Buffer.isBuffer(term) ? term.toString('utf8') : undefined;
}
