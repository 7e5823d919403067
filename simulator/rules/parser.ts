// Recursive-descent parser for the rule SQL subset: SELECT … FROM … [WHERE …] and
// FOREACH … [DO …] [INCASE …] FROM … [WHERE …], with CASE, function calls, nested paths,
// 1-based array indexing and the operators of emqx-api-part2 §5.5. Errors carry positions.
import { SqlSyntaxError, tokenize, type Token } from './lexer.ts';

export type Expr =
  | { t: 'lit'; v: unknown }
  | { t: 'var'; name: string }
  | { t: 'get'; obj: Expr; key: string }
  | { t: 'idx'; obj: Expr; index: Expr }
  | { t: 'call'; name: string; args: Expr[]; line: number; column: number }
  | { t: 'bin'; op: string; l: Expr; r: Expr }
  | { t: 'not'; e: Expr }
  | { t: 'neg'; e: Expr }
  | { t: 'case'; subject: Expr | null; whens: [Expr, Expr][]; else: Expr | null }
  | { t: 'array'; items: Expr[] }
  | { t: 'star' };

export interface Field {
  expr: Expr;
  /** The output key path: the alias split on dots, or the field's own path. */
  alias: string[] | null;
}

export interface Statement {
  kind: 'select' | 'foreach';
  fields: Field[];
  from: string[];
  where: Expr | null;
  /** FOREACH only. */
  collection?: Expr;
  itemAlias?: string;
  incase?: Expr | null;
}

const COMPARE = new Set(['=', '!=', '<>', '>', '<', '>=', '<=', '=~']);

class Parser {
  private pos = 0;

  constructor(private readonly tokens: Token[], private readonly withFrom = true) {}

  private peek(): Token {
    return this.tokens[this.pos];
  }

  private next(): Token {
    return this.tokens[this.pos++];
  }

  private is(kind: Token['kind'], value?: string): boolean {
    const tok = this.peek();
    return tok.kind === kind && (value === undefined || tok.value === value);
  }

  private accept(kind: Token['kind'], value?: string): boolean {
    if (!this.is(kind, value)) return false;
    this.pos++;
    return true;
  }

  private fail(expected?: string): never {
    const tok = this.peek();
    const shown = tok.kind === 'eof' ? 'end of input' : tok.kind === 'string' ? `${tok.quote}${tok.value}${tok.quote}` : `'${tok.value}'`;
    throw new SqlSyntaxError(`syntax error before: ${shown}${expected ? ` (expected ${expected})` : ''}`, tok.line, tok.column);
  }

  private expect(kind: Token['kind'], value?: string): Token {
    if (!this.is(kind, value)) this.fail(value ?? kind);
    return this.next();
  }

  statement(): Statement {
    let stmt: Statement;
    if (this.accept('keyword', 'SELECT')) {
      stmt = { kind: 'select', fields: this.fields(), from: [], where: null };
    } else if (this.accept('keyword', 'FOREACH')) {
      const collection = this.expr();
      let itemAlias = 'item';
      if (this.accept('keyword', 'AS')) itemAlias = this.expect('ident').value;
      const fields = this.accept('keyword', 'DO') ? this.fields() : [];
      const incase = this.accept('keyword', 'INCASE') ? this.expr() : null;
      stmt = { kind: 'foreach', fields, from: [], where: null, collection, itemAlias, incase };
    } else {
      this.fail('SELECT or FOREACH');
    }
    if (this.withFrom) {
      this.expect('keyword', 'FROM');
      do {
        const tok = this.peek();
        if (tok.kind !== 'string' || tok.quote !== '"') this.fail('a double-quoted topic');
        stmt.from.push(this.next().value);
      } while (this.accept('punct', ','));
    }
    if (this.accept('keyword', 'WHERE')) stmt.where = this.expr();
    if (!this.is('eof')) this.fail();
    return stmt;
  }

  private fields(): Field[] {
    const fields: Field[] = [];
    do {
      if (this.accept('op', '*')) {
        fields.push({ expr: { t: 'star' }, alias: null });
        continue;
      }
      const expr = this.expr();
      let alias: string[] | null = null;
      if (this.accept('keyword', 'AS')) {
        alias = [this.expect('ident').value];
        while (this.accept('punct', '.')) alias.push(this.expect('ident').value);
      }
      fields.push({ expr, alias });
    } while (this.accept('punct', ','));
    return fields;
  }

  expr(): Expr {
    let left = this.and();
    while (this.accept('keyword', 'OR')) left = { t: 'bin', op: 'OR', l: left, r: this.and() };
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.accept('keyword', 'AND')) left = { t: 'bin', op: 'AND', l: left, r: this.not() };
    return left;
  }

  private not(): Expr {
    if (this.accept('keyword', 'NOT')) return { t: 'not', e: this.not() };
    return this.compare();
  }

  private compare(): Expr {
    const left = this.additive();
    const tok = this.peek();
    if (tok.kind === 'op' && COMPARE.has(tok.value)) {
      this.next();
      return { t: 'bin', op: tok.value === '<>' ? '!=' : tok.value, l: left, r: this.additive() };
    }
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    while (this.is('op', '+') || this.is('op', '-')) {
      const op = this.next().value;
      left = { t: 'bin', op, l: left, r: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.is('op', '*') || this.is('op', '/')) {
      const op = this.next().value;
      left = { t: 'bin', op, l: left, r: this.unary() };
    }
    return left;
  }

  private unary(): Expr {
    if (this.accept('op', '-')) return { t: 'neg', e: this.unary() };
    return this.postfix(this.primary());
  }

  private postfix(base: Expr): Expr {
    let expr = base;
    for (;;) {
      if (this.accept('punct', '.')) {
        const tok = this.peek();
        // Any word may follow a dot, keywords included (`payload.end`).
        if (tok.kind !== 'ident' && tok.kind !== 'keyword' && tok.kind !== 'number') this.fail('a field name');
        expr = { t: 'get', obj: expr, key: this.next().value };
      } else if (this.accept('punct', '[')) {
        const index = this.expr();
        this.expect('punct', ']');
        expr = { t: 'idx', obj: expr, index };
      } else {
        return expr;
      }
    }
  }

  private primary(): Expr {
    const tok = this.peek();
    switch (tok.kind) {
      case 'number': {
        this.next();
        return { t: 'lit', v: Number(tok.value) };
      }
      case 'string':
        this.next();
        return { t: 'lit', v: tok.value };
      case 'ident': {
        this.next();
        if (this.accept('punct', '(')) {
          const args: Expr[] = [];
          if (!this.accept('punct', ')')) {
            do args.push(this.expr());
            while (this.accept('punct', ','));
            this.expect('punct', ')');
          }
          return { t: 'call', name: tok.value.toLowerCase(), args, line: tok.line, column: tok.column };
        }
        return { t: 'var', name: tok.value };
      }
      case 'keyword':
        if (tok.value === 'TRUE' || tok.value === 'FALSE') {
          this.next();
          return { t: 'lit', v: tok.value === 'TRUE' };
        }
        if (tok.value === 'NULL') {
          this.next();
          return { t: 'lit', v: undefined };
        }
        if (tok.value === 'CASE') return this.caseExpr();
        return this.fail();
      case 'punct':
        if (tok.value === '(') {
          this.next();
          const inner = this.expr();
          this.expect('punct', ')');
          return inner;
        }
        if (tok.value === '[') {
          this.next();
          const items: Expr[] = [];
          if (!this.accept('punct', ']')) {
            do items.push(this.expr());
            while (this.accept('punct', ','));
            this.expect('punct', ']');
          }
          return { t: 'array', items };
        }
        return this.fail();
      default:
        return this.fail();
    }
  }

  private caseExpr(): Expr {
    this.expect('keyword', 'CASE');
    const subject = this.is('keyword', 'WHEN') ? null : this.expr();
    const whens: [Expr, Expr][] = [];
    while (this.accept('keyword', 'WHEN')) {
      const cond = this.expr();
      this.expect('keyword', 'THEN');
      whens.push([cond, this.expr()]);
    }
    if (whens.length === 0) this.fail('WHEN');
    const otherwise = this.accept('keyword', 'ELSE') ? this.expr() : null;
    this.expect('keyword', 'END');
    return { t: 'case', subject, whens, else: otherwise };
  }
}

/**
 * Parses one statement; throws SqlSyntaxError with the position of the offending token. Without
 * `withFrom` the statement has no FROM clause (`emqx_rule_sqlparser:parse(SQL, #{with_from =>
 * false})`, as schema validation's SQL checks are written).
 */
export function parseSql(sql: string, withFrom = true): Statement {
  return new Parser(tokenize(sql), withFrom).statement();
}

/** The dotted path of a field without alias (`payload.a.b`), or null for computed fields. */
export function pathOf(expr: Expr): string[] | null {
  if (expr.t === 'var') return [expr.name];
  if (expr.t === 'get') {
    const base = pathOf(expr.obj);
    return base ? [...base, expr.key] : null;
  }
  return null;
}
