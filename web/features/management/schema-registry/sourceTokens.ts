/**
 * Highlighting of schema sources for the code editor: JSON (Avro and JSON Schema) and .proto
 * text. Like the SQL tokenizer it only colours — the tokens always join back to the input.
 */
import type { Token, TokenType } from '../../../lib/sqlTokens.ts';

const PROTO_KEYWORDS = new Set([
  'syntax', 'package', 'import', 'option', 'message', 'enum', 'service', 'rpc', 'returns', 'oneof', 'map',
  'repeated', 'optional', 'required', 'reserved', 'extend', 'extensions', 'to', 'max', 'public', 'weak', 'stream',
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64',
  'sfixed32', 'sfixed64', 'bool', 'string', 'bytes', 'true', 'false', 'null',
]);

const PATTERNS: [TokenType, RegExp][] = [
  ['comment', /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y],
  ['string', /"(?:[^"\\\n]|\\.)*(?:"|$)|'(?:[^'\\\n]|\\.)*(?:'|$)/y],
  ['number', /-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w])/y],
  ['ident', /[A-Za-z_][\w.]*/y],
  ['operator', /[=:{}[\]<>;,]/y],
];

/** Tokens of a schema source; JSON keys come out as functions so they stand apart from values. */
export function tokenizeSchema(text: string): Token[] {
  const tokens: Token[] = [];
  const push = (type: TokenType, part: string) => {
    const last = tokens[tokens.length - 1];
    if (type === 'text' && last?.type === 'text') last.text += part;
    else tokens.push({ type, text: part });
  };
  let at = 0;
  outer: while (at < text.length) {
    for (const [type, pattern] of PATTERNS) {
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (!match || match[0] === '') continue;
      at += match[0].length;
      if (type === 'ident') push(PROTO_KEYWORDS.has(match[0]) ? 'keyword' : 'ident', match[0]);
      else if (type === 'string' && /^\s*:/.test(text.slice(at, at + 20))) push('function', match[0]);
      else push(type, match[0]);
      continue outer;
    }
    push('text', text[at]);
    at += 1;
  }
  return tokens;
}

/** The line a compile error names ("… (line 4)", "line 4", "第 4 行" never comes from the server). */
export function errorLine(message: string): number | undefined {
  const match = /\bline:? (\d+)/i.exec(message);
  return match ? Number(match[1]) : undefined;
}
