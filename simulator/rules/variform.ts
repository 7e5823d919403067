// Variform, EMQX's one-line expression language (emqx_variform.erl with its scanner .xrl and
// parser .yrl at e5.8.9): a variable (`payload.a.b`), a boolean, or a call `fun(arg, …)` whose
// arguments are expressions, `[arrays]`, numbers or quoted strings (no escapes). The functions are
// emqx_variform_bif's, most shared with the rule SQL's table, plus the lazy `iif`, `coalesce` and
// `is_empty`, the number and string comparisons, and the ones a caller adds (message
// transformation's `json_encode`/`json_decode`). There are no operators and no control flow.
import { FUNCTIONS, type FnContext } from './functions/index.ts';
import { def, type FnGroup } from './functions/registry.ts';
import { isObj, toStr, type Obj } from './values.ts';

export type VarExpr =
  | { t: 'var'; name: string }
  | { t: 'call'; name: string; args: VarExpr[] }
  | { t: 'array'; items: VarExpr[] }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'bool'; v: boolean };

/** A compile or render failure; `reason` is what the broker reports. */
export class VariformError extends Error {
  constructor(readonly reason: Obj | string) {
    super(typeof reason === 'string' ? reason : JSON.stringify(reason));
  }
}

type Token = { kind: 'id' | 'str' | 'int' | 'float' | 'bool' | '(' | ')' | '[' | ']' | ','; text: string };

// The scanner's definitions; leex takes the longest match, the first rule on a tie.
const RULES: [Token['kind'] | 'ws', RegExp][] = [
  ['ws', /^[\s\t\n]+/],
  ['bool', /^(true|false)/],
  ['id', /^[a-zA-Z][-a-zA-Z0-9_.]*/],
  ['str', /^'[^']*'/],
  ['str', /^"[^"]*"/],
  ['int', /^[+-]?[0-9]+/],
  ['float', /^[+-]?\d+\.\d+/],
  ['(', /^\(/], [')', /^\)/], ['[', /^\[/], [']', /^\]/], [',', /^,/],
];

function scan(text: string): Token[] {
  const out: Token[] = [];
  let rest = text;
  while (rest.length > 0) {
    let best: [Token['kind'] | 'ws', string] | null = null;
    for (const [kind, re] of RULES) {
      const m = re.exec(rest);
      if (m && (!best || m[0].length > best[1].length)) best = [kind, m[0]];
    }
    if (!best) throw new VariformError(`illegal characters "${rest[0]}"`);
    if (best[0] !== 'ws') out.push({ kind: best[0], text: best[1] });
    rest = rest.slice(best[1].length);
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private fail(): never {
    const tok = this.tokens[this.i];
    throw new VariformError(tok ? `syntax error before: ${tok.text}` : 'syntax error before: ');
  }

  private accept(kind: Token['kind']): Token | null {
    const tok = this.tokens[this.i];
    if (tok?.kind !== kind) return null;
    this.i++;
    return tok;
  }

  /** expr -> call_or_var | boolean */
  expr(): VarExpr {
    const bool = this.accept('bool');
    if (bool) return { t: 'bool', v: bool.text === 'true' };
    const id = this.accept('id');
    if (!id) this.fail();
    if (!this.accept('(')) return { t: 'var', name: id.text };
    if (this.accept(')')) return { t: 'call', name: id.text, args: [] };
    const args = this.args();
    if (!this.accept(')')) this.fail();
    return { t: 'call', name: id.text, args };
  }

  private args(): VarExpr[] {
    const args = [this.arg()];
    while (this.accept(',')) args.push(this.arg());
    return args;
  }

  /** arg -> expr | array | integer | float | string */
  private arg(): VarExpr {
    if (this.accept('[')) {
      const items = this.args();
      if (!this.accept(']')) this.fail();
      return { t: 'array', items };
    }
    const num = this.accept('int') ?? this.accept('float');
    if (num) return { t: 'num', v: Number(num.text) };
    const str = this.accept('str');
    if (str) return { t: 'str', v: str.text.slice(1, -1) };
    return this.expr();
  }

  done(): void {
    if (this.i < this.tokens.length) this.fail();
  }
}

/** Compiles an expression; throws VariformError for a syntax error. */
export function compileVariform(text: string): VarExpr {
  const parser = new Parser(scan(text));
  const expr = parser.expr();
  parser.done();
  return expr;
}

const isEmpty = (v: unknown) => v === '' || v === undefined || v === null;

/** emqx_utils_conv:bin, as concat and the string comparisons turn values into text. */
function bin(v: unknown): string {
  if (typeof v === 'boolean') return String(v);
  if (isObj(v) || Array.isArray(v)) return JSON.stringify(v);
  return toStr(v);
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function numbers(a: unknown, b: unknown): number {
  if (typeof a !== 'number' || typeof b !== 'number') throw new VariformError({ reason: 'function_clause', function: 'num_comp' });
  return compare(a, b);
}

const comparisons = (prefix: 'str' | 'num', cmp: (a: unknown, b: unknown) => number): FnGroup => ({
  [`${prefix}_comp`]: def(2, 2, ([a, b]) => ['lt', 'eq', 'gt'][cmp(a, b) + 1]),
  [`${prefix}_eq`]: def(2, 2, ([a, b]) => cmp(a, b) === 0),
  [`${prefix}_neq`]: def(2, 2, ([a, b]) => cmp(a, b) !== 0),
  [`${prefix}_lt`]: def(2, 2, ([a, b]) => cmp(a, b) < 0),
  [`${prefix}_lte`]: def(2, 2, ([a, b]) => cmp(a, b) <= 0),
  [`${prefix}_gt`]: def(2, 2, ([a, b]) => cmp(a, b) > 0),
  [`${prefix}_gte`]: def(2, 2, ([a, b]) => cmp(a, b) >= 0),
});

// emqx_variform_bif's exports that behave as the rule SQL function of the same name.
const SHARED = [
  'lower', 'ltrim', 'reverse', 'rtrim', 'rm_prefix', 'strlen', 'substr', 'trim', 'upper', 'split', 'tokens', 'sprintf_s',
  'pad', 'replace', 'regex_match', 'regex_replace', 'regex_extract', 'ascii', 'find', 'join_to_string', 'unescape', 'nth',
  'bin2hexstr', 'hexstr2bin', 'int2hexstr', 'base64_encode', 'base64_decode',
];

/** The functions of every variform expression. */
export const VARIFORM_FUNCTIONS: FnGroup = {
  ...Object.fromEntries(SHARED.filter((name) => FUNCTIONS[name]).map((name) => [name, FUNCTIONS[name]])),
  // concat/1 takes a list, concat/2 two values; non-strings become text.
  concat: def(1, 2, (args) => (args.length === 2 ? args : (args[0] as unknown[])).map(bin).join('')),
  any_to_str: def(1, 1, ([v]) => bin(v)),
  is_empty_val: def(1, 1, ([v]) => isEmpty(v)),
  not: def(1, 1, ([v]) => (v === true || v === 'true' ? false : v === false || v === 'false' ? true : (() => { throw new VariformError({ reason: 'badarg', function: 'not' }); })())),
  ...comparisons('str', (a, b) => compare(bin(a), bin(b))),
  ...comparisons('num', numbers),
};

/** Variables and the calling context of one rendering. */
export interface VariformContext extends FnContext {
  bindings: Obj;
  /** Functions beyond the common ones (message transformation's JSON codec). */
  functions?: FnGroup;
}

function lookupVar(name: string, bindings: Obj): unknown {
  let value: unknown = bindings;
  for (const key of name.split('.').filter(Boolean)) {
    if (!isObj(value) || !Object.hasOwn(value, key)) throw new VariformError({ reason: 'var_unbound', var_name: name });
    value = value[key];
  }
  return isEmpty(value) ? '' : value;
}

function tryEval(e: VarExpr, ctx: VariformContext): unknown {
  try {
    return evalExpr(e, ctx);
  } catch (err) {
    if (err instanceof VariformError && isObj(err.reason) && err.reason.reason === 'var_unbound') return '';
    throw err;
  }
}

function coalesce(args: VarExpr[], ctx: VariformContext): unknown {
  const items = args.length === 1 && args[0].t === 'array' ? args[0].items : args;
  if (args.length === 1 && args[0].t !== 'array') {
    const value = tryEval(args[0], ctx);
    if (value === '') return '';
    if (!Array.isArray(value)) throw new VariformError({ reason: 'coalesce_badarg', explain: 'the arg expression did not yield an array' });
    return value.find((v) => !isEmpty(v)) ?? '';
  }
  for (const item of items) {
    const value = tryEval(item, ctx);
    if (!isEmpty(value)) return value;
  }
  return '';
}

function evalExpr(e: VarExpr, ctx: VariformContext): unknown {
  switch (e.t) {
    case 'bool': return String(e.v);
    case 'str': return e.v;
    case 'num': return e.v;
    case 'array': return e.items.map((i) => evalExpr(i, ctx));
    case 'var': return lookupVar(e.name, ctx.bindings);
    case 'call': {
      if (e.name === 'iif') {
        if (e.args.length !== 3) break;
        const cond = tryEval(e.args[0], ctx);
        const met = cond === true || cond === 'true' ? true : cond === false || cond === 'false' ? false : !isEmpty(cond);
        return evalExpr(e.args[met ? 1 : 2], ctx);
      }
      if (e.name === 'coalesce') return coalesce(e.args, ctx);
      if (e.name === 'is_empty' && e.args.length === 1) return isEmpty(coalesce([e.args[0]], ctx));
      const fn = ctx.functions?.[e.name] ?? VARIFORM_FUNCTIONS[e.name];
      if (!fn || e.args.length < fn.min || e.args.length > fn.max) break;
      return fn.fn(e.args.map((a) => evalExpr(a, ctx)), ctx);
    }
  }
  throw new VariformError({ reason: 'unknown_variform_function', function: (e as { name: string }).name, arity: (e as { args: unknown[] }).args.length });
}

/**
 * Renders an expression. As text (`asString`, the default) the result is a string as
 * return_str/1 makes it; otherwise the value itself (message transformation's payload keys).
 * Throws VariformError.
 */
export function renderVariform(e: VarExpr, ctx: VariformContext, asString = true): unknown {
  let value: unknown;
  try {
    value = evalExpr(e, ctx);
  } catch (err) {
    if (err instanceof VariformError) throw err;
    throw new VariformError({ reason: (err as Error).message });
  }
  if (!asString) return value;
  if (isEmpty(value)) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return bin(value);
  throw new VariformError({ reason: 'bad_return', expected: 'string', got: value });
}
