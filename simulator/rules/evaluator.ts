// Evaluates a parsed statement against the columns of one message or event, as emqx_rule_runtime
// does: SELECT fields first (aliases become visible to later fields and to WHERE), then WHERE on
// columns plus selection; FOREACH selects a collection, filters each item with INCASE and shapes
// it with DO. Returns the outputs, or null when the statement does not match.
import { topicMatches } from '../lib/topic.ts';
import { callFn, FUNCTIONS, type FnContext } from './functions/index.ts';
import { SqlSyntaxError } from './lexer.ts';
import { parseSql, pathOf, type Expr, type Field, type Statement } from './parser.ts';
import { decodeMaybe, EvalError, isObj, nestedPut, toNum, toStr, type Obj } from './values.ts';

export { EvalError } from './values.ts';

/**
 * Parses and checks a statement: every function called must exist with a fitting arity. Without
 * `withFrom` the statement has no FROM clause (schema validation's SQL checks).
 */
export function compileSql(sql: string, withFrom = true): Statement {
  try {
    return checkedStatement(sql, withFrom);
  } catch (err) {
    // Absurdly deep nesting exhausts the stack: still the statement's problem, not a crash.
    if (err instanceof RangeError) throw new SqlSyntaxError('expression nested too deeply', 1, 1);
    throw err;
  }
}

function checkedStatement(sql: string, withFrom: boolean): Statement {
  const stmt = parseSql(sql, withFrom);
  const visit = (e: Expr | null | undefined): void => {
    if (!e) return;
    switch (e.t) {
      case 'call': {
        const fn = FUNCTIONS[e.name];
        if (!fn) throw new SqlSyntaxError(`undefined function ${e.name}/${e.args.length}`, e.line, e.column);
        if (e.args.length < fn.min || e.args.length > fn.max) {
          throw new SqlSyntaxError(`bad number of arguments for ${e.name}/${e.args.length}`, e.line, e.column);
        }
        const problem = fn.check?.(e.args.map((a) => (a.t === 'lit' ? a.v : undefined)));
        if (problem) throw new SqlSyntaxError(`${e.name}: ${problem}`, e.line, e.column);
        e.args.forEach(visit);
        break;
      }
      case 'get': visit(e.obj); break;
      case 'idx': visit(e.obj); visit(e.index); break;
      case 'bin': visit(e.l); visit(e.r); break;
      case 'not': case 'neg': visit(e.e); break;
      case 'case': visit(e.subject); e.whens.forEach(([a, b]) => { visit(a); visit(b); }); visit(e.else); break;
      case 'array': e.items.forEach(visit); break;
      default: break;
    }
  };
  stmt.fields.forEach((f) => visit(f.expr));
  visit(stmt.where);
  visit(stmt.collection);
  visit(stmt.incase);
  return stmt;
}

/** Variable scope: looked up first in `vars`, then in the parent. */
interface Scope {
  vars: Obj;
  parent: Scope | null;
}

function lookup(scope: Scope | null, name: string): unknown {
  for (let s = scope; s; s = s.parent) if (Object.prototype.hasOwnProperty.call(s.vars, name)) return s.vars[name];
  return undefined;
}

// emqx_rule_runtime:compare/3: undefined only equals undefined; numbers with numbers, strings with
// strings; otherwise the right side is converted to the left side's type (which may fail).
function compare(op: string, l: unknown, r: unknown): boolean {
  if (l === undefined || l === null || r === undefined || r === null) {
    const bothUndef = (l === undefined || l === null) && (r === undefined || r === null);
    return bothUndef ? op === '=' || op === '>=' || op === '<=' : op === '!=';
  }
  let a = l;
  let b = r;
  if (typeof a === 'number' && typeof b !== 'number') b = toNum(b);
  else if (typeof a === 'string' && typeof b !== 'string') b = toStr(b);
  else if (typeof a === 'boolean' && typeof b === 'string') b = b === 'true' ? true : b === 'false' ? false : b;
  else if (typeof a !== typeof b || typeof a === 'object') {
    a = JSON.stringify(a);
    b = JSON.stringify(b);
  }
  switch (op) {
    case '=': return a === b;
    case '!=': return a !== b;
    case '>': return (a as number) > (b as number);
    case '<': return (a as number) < (b as number);
    case '>=': return (a as number) >= (b as number);
    case '<=': return (a as number) <= (b as number);
    default: throw new EvalError(`unknown operator ${op}`);
  }
}

function arith(op: string, l: unknown, r: unknown): unknown {
  if (op === '+' && typeof l === 'string' && typeof r === 'string') return l + r;
  if (typeof l !== 'number' || typeof r !== 'number') throw new EvalError(`bad arithmetic: ${toStr(l)} ${op} ${toStr(r)}`);
  switch (op) {
    case '+': return l + r;
    case '-': return l - r;
    case '*': return l * r;
    default:
      if (r === 0) throw new EvalError('division by zero');
      return l / r;
  }
}

function index(list: unknown, i: unknown): unknown {
  const decoded = decodeMaybe(list);
  if (isObj(decoded) && typeof i === 'string') return decoded[i];
  if (!Array.isArray(decoded)) return undefined;
  const n = toNum(i);
  // 1-based; negative counts from the end.
  const at = n > 0 ? n - 1 : n < 0 ? decoded.length + n : -1;
  return at >= 0 && at < decoded.length ? decoded[at] : undefined;
}

function truthy(v: unknown): boolean {
  return v === true;
}

function evalExpr(e: Expr, scope: Scope, ctx: FnContext): unknown {
  switch (e.t) {
    case 'lit': return e.v;
    case 'var': return lookup(scope, e.name);
    case 'get': {
      const base = decodeMaybe(evalExpr(e.obj, scope, ctx));
      return isObj(base) ? base[e.key] : undefined;
    }
    case 'idx': return index(evalExpr(e.obj, scope, ctx), evalExpr(e.index, scope, ctx));
    case 'call': return callFn(FUNCTIONS, e.name, e.args.map((a) => evalExpr(a, scope, ctx)), ctx);
    case 'not': return !truthy(evalExpr(e.e, scope, ctx));
    case 'neg': return -toNum(evalExpr(e.e, scope, ctx));
    case 'array': return e.items.map((a) => evalExpr(a, scope, ctx));
    case 'star': return undefined;
    case 'case': {
      const subject = e.subject ? evalExpr(e.subject, scope, ctx) : undefined;
      for (const [cond, then] of e.whens) {
        const value = evalExpr(cond, scope, ctx);
        if (e.subject ? compare('=', subject, value) : truthy(value)) return evalExpr(then, scope, ctx);
      }
      return e.else ? evalExpr(e.else, scope, ctx) : undefined;
    }
    case 'bin': {
      if (e.op === 'AND') return truthy(evalExpr(e.l, scope, ctx)) && truthy(evalExpr(e.r, scope, ctx));
      if (e.op === 'OR') return truthy(evalExpr(e.l, scope, ctx)) || truthy(evalExpr(e.r, scope, ctx));
      const l = evalExpr(e.l, scope, ctx);
      const r = evalExpr(e.r, scope, ctx);
      if (e.op === '=~') return typeof l === 'string' && typeof r === 'string' && topicMatches(r, l);
      if (['+', '-', '*', '/'].includes(e.op)) return arith(e.op, l, r);
      return compare(e.op, l, r);
    }
    default: return undefined;
  }
}

/** The text a computed field without alias is keyed by, close to its SQL. */
function unparse(e: Expr): string {
  switch (e.t) {
    case 'lit': return typeof e.v === 'string' ? `'${e.v}'` : String(e.v);
    case 'var': return e.name;
    case 'get': return `${unparse(e.obj)}.${e.key}`;
    case 'idx': return `${unparse(e.obj)}[${unparse(e.index)}]`;
    case 'call': return `${e.name}(${e.args.map(unparse).join(', ')})`;
    case 'bin': return `${unparse(e.l)} ${e.op} ${unparse(e.r)}`;
    case 'not': return `NOT ${unparse(e.e)}`;
    case 'neg': return `-${unparse(e.e)}`;
    case 'array': return `[${e.items.map(unparse).join(', ')}]`;
    default: return e.t;
  }
}

/** SELECT/DO fields into an output map; each result is also put into the scope for later fields. */
function select(fields: Field[], scope: Scope, ctx: FnContext): Obj {
  const out: Obj = {};
  for (const field of fields) {
    if (field.expr.t === 'star') {
      for (let s: Scope | null = scope; s; s = s.parent) for (const [k, v] of Object.entries(s.vars)) if (!(k in out)) out[k] = v;
      continue;
    }
    const value = evalExpr(field.expr, scope, ctx);
    const key = field.alias ?? pathOf(field.expr) ?? [unparse(field.expr)];
    nestedPut(out, key, value);
    if (field.alias) nestedPut(scope.vars, key, value);
  }
  return out;
}

/**
 * Runs the statement on one set of columns: null when WHERE rejects it, otherwise the outputs
 * (one for SELECT, one per element INCASE keeps for FOREACH, possibly none). Evaluation errors
 * throw EvalError.
 */
export function evaluate(stmt: Statement, columns: Obj, ctx: FnContext): Obj[] | null {
  const base: Scope = { vars: columns, parent: null };
  try {
    if (stmt.kind === 'select') {
      const scope: Scope = { vars: {}, parent: base };
      const out = select(stmt.fields, scope, ctx);
      if (stmt.where && !truthy(evalExpr(stmt.where, { vars: { ...scope.vars, ...out }, parent: base }, ctx))) return null;
      return [out];
    }
    const collection = decodeMaybe(evalExpr(stmt.collection as Expr, base, ctx));
    const alias = stmt.itemAlias ?? 'item';
    // As emqx_rule_runtime: the FOREACH field is selected (under its alias, or its own path),
    // shallow-merged over the columns; WHERE, INCASE and DO see that plus the element.
    const selected: Obj = {};
    const key = alias !== 'item' ? [alias] : pathOf(stmt.collection as Expr);
    if (key) nestedPut(selected, key, collection);
    const withSelected: Scope = { vars: selected, parent: base };
    if (stmt.where && !truthy(evalExpr(stmt.where, withSelected, ctx))) return null;
    if (!Array.isArray(collection)) throw new EvalError('FOREACH needs an array');
    const outputs: Obj[] = [];
    for (const item of collection) {
      const scope: Scope = { vars: { [alias]: item }, parent: withSelected };
      if (stmt.incase && !truthy(evalExpr(stmt.incase, scope, ctx))) continue;
      // Without DO an output is the columns with the selection and the element.
      if (stmt.fields.length > 0) outputs.push(select(stmt.fields, scope, ctx));
      else outputs.push({ ...columns, ...selected, [alias]: item });
    }
    // Every element filtered out is still a match, with no output (the rule counts no_result).
    return outputs;
  } catch (err) {
    if (err instanceof EvalError) throw err;
    // Anything unexpected in a function is still the rule's failure, never the simulator's.
    throw new EvalError((err as Error).message);
  }
}

/** True when a FROM list covers a topic: `$events/…` and `$bridges/…` entries exactly, others as filters. */
export function fromMatches(from: readonly string[], topic: string): boolean {
  return from.some((entry) => {
    if (entry.startsWith('$events/') || entry.startsWith('$bridges/') || entry.startsWith('$sources/')) return entry === topic;
    if (topic.startsWith('$events/')) return false;
    return topicMatches(entry, topic);
  });
}
