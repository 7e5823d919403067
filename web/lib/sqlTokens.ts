/**
 * Splits rule SQL (emqx-api-part2 §5.5) into tokens for highlighting: keywords, strings (single-
 * quoted literals and double-quoted FROM topics), numbers, function calls, operators, comments.
 * It only colours text — it never validates; the tokens always join back to the input.
 */

export type TokenType = 'keyword' | 'string' | 'number' | 'function' | 'operator' | 'comment' | 'ident' | 'text';

export interface Token {
  type: TokenType;
  text: string;
}

/** Reserved words of the rule SQL grammar (emqx rulesql: SELECT/FOREACH forms, CASE, boolean words). */
export const SQL_KEYWORDS = [
  'SELECT', 'FROM', 'WHERE', 'AS', 'AND', 'OR', 'NOT', 'FOREACH', 'DO', 'INCASE',
  'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'TRUE', 'FALSE', 'NULL',
];
const KEYWORDS = new Set(SQL_KEYWORDS);

// Order matters: comments and strings before operators, numbers before identifiers.
const PATTERNS: [TokenType, RegExp][] = [
  ['comment', /--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y],
  ['string', /'(?:[^'\\]|\\[\s\S]|'')*(?:'|$)|"(?:[^"\\]|\\[\s\S])*(?:"|$)/y],
  ['number', /(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w$])/y],
  ['ident', /[A-Za-z_$][\w$]*/y],
  ['operator', /=~|<>|!=|>=|<=|[=<>+\-*/]/y],
];

/** Tokens of `sql`; unknown characters and whitespace come out as `text`. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const push = (type: TokenType, text: string) => {
    const last = tokens[tokens.length - 1];
    if (type === 'text' && last?.type === 'text') last.text += text;
    else tokens.push({ type, text });
  };
  let at = 0;
  outer: while (at < sql.length) {
    for (const [type, pattern] of PATTERNS) {
      pattern.lastIndex = at;
      const match = pattern.exec(sql);
      if (!match || match[0] === '') continue;
      const text = match[0];
      at += text.length;
      if (type !== 'ident') push(type, text);
      else if (KEYWORDS.has(text.toUpperCase())) push('keyword', text);
      // A name followed by "(" is a call; dotted paths such as payload.a stay identifiers.
      else if (/^\s*\(/.test(sql.slice(at, at + 40))) push('function', text);
      else push('ident', text);
      continue outer;
    }
    push('text', sql[at]);
    at += 1;
  }
  return tokens;
}

/** The word being typed just before `cursor` (letters, digits, `_`, `.`), and where it starts. */
export function wordBefore(text: string, cursor: number): { start: number; word: string } {
  let start = cursor;
  while (start > 0 && /[\w.]/.test(text[start - 1])) start -= 1;
  return { start, word: text.slice(start, cursor) };
}

/** Line (0-based) and column of `offset` in `text`, for placing the completion list. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, column: before[before.length - 1].length };
}
