// Tokenizer for the rule SQL subset (emqx-api-part2 §5.5): keywords, identifiers, numbers,
// single- and double-quoted strings, operators and punctuation, each with its line and column so
// parse errors can say where they are.

export type TokenKind = 'ident' | 'keyword' | 'number' | 'string' | 'op' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Keywords are upper-cased; strings hold their unescaped text. */
  value: string;
  /** A double-quoted string (FROM entries) rather than a single-quoted one. */
  quote?: '"' | "'";
  line: number;
  column: number;
}

const KEYWORDS = new Set([
  'SELECT', 'FROM', 'WHERE', 'AS', 'AND', 'OR', 'NOT', 'FOREACH', 'DO', 'INCASE',
  'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'TRUE', 'FALSE', 'NULL',
]);

// Longest first, so `>=` wins over `>`.
const OPERATORS = ['=~', '!=', '<>', '>=', '<=', '=', '>', '<', '+', '-', '*', '/'];
const PUNCT = new Set(['(', ')', ',', '.', '[', ']']);

/** A syntax error with its 1-based position. */
export class SqlSyntaxError extends Error {
  constructor(readonly reason: string, readonly line: number, readonly column: number) {
    super(`${reason} at line ${line}, column ${column}`);
  }
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const col = () => i - lineStart + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // `--` comments run to the end of the line.
    if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      continue;
    }
    const start = { line, column: col() };
    if (c === "'" || c === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= sql.length) throw new SqlSyntaxError('unterminated string', start.line, start.column);
        const ch = sql[i];
        if (ch === '\\' && i + 1 < sql.length) {
          const next = sql[i + 1];
          text += next === 'n' ? '\n' : next === 't' ? '\t' : next;
          i += 2;
          continue;
        }
        if (ch === c) {
          i++;
          break;
        }
        if (ch === '\n') {
          line++;
          lineStart = i + 1;
        }
        text += ch;
        i++;
      }
      tokens.push({ kind: 'string', value: text, quote: c, ...start });
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)/.exec(sql.slice(i)) as RegExpExecArray;
      tokens.push({ kind: 'number', value: m[0], ...start });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(sql.slice(i)) as RegExpExecArray;
      const upper = m[0].toUpperCase();
      tokens.push(KEYWORDS.has(upper) ? { kind: 'keyword', value: upper, ...start } : { kind: 'ident', value: m[0], ...start });
      i += m[0].length;
      continue;
    }
    if (c === '`') {
      const end = sql.indexOf('`', i + 1);
      if (end < 0) throw new SqlSyntaxError('unterminated quoted identifier', start.line, start.column);
      tokens.push({ kind: 'ident', value: sql.slice(i + 1, end), ...start });
      i = end + 1;
      continue;
    }
    const op = OPERATORS.find((o) => sql.startsWith(o, i));
    if (op) {
      tokens.push({ kind: 'op', value: op, ...start });
      i += op.length;
      continue;
    }
    if (PUNCT.has(c)) {
      tokens.push({ kind: 'punct', value: c, ...start });
      i++;
      continue;
    }
    throw new SqlSyntaxError(`illegal character '${c}'`, start.line, start.column);
  }
  tokens.push({ kind: 'eof', value: '', line, column: col() });
  return tokens;
}
