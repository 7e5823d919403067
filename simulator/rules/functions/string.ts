// String functions of emqx_rule_funcs: case, trimming, substrings, split/tokens/concat, padding,
// replace, regular expressions, find and sprintf (with the common ~s ~p ~w directives).
// The regex_* functions run on the linear-time engine (lib/regex.ts): neither a pattern nor a
// subject from a message can make them backtrack. A literal pattern RE2 cannot compile is refused
// with the rule's SQL; one that arrives with a message fails that run (`failed.exception`), as a
// `re:run` badarg fails it in EMQX.
import { compileRegex, regexProblem, type Regex } from '../../lib/regex.ts';
import { EvalError, str, toArray, toInt, toStr } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

function regex(re: unknown): Regex {
  const pattern = str(re);
  try {
    return compileRegex(pattern);
  } catch (err) {
    throw new EvalError(`invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
}

/** The write-time check of the regex_* functions: their pattern (second argument) when literal. */
function literalPattern(literals: unknown[]): string | null {
  const pattern = literals[1];
  if (typeof pattern !== 'string') return null;
  const problem = regexProblem(pattern);
  return problem && `invalid regular expression ${pattern}: ${problem}`;
}

function direction(v: unknown, allowed: string[]): string {
  const d = str(v);
  if (!allowed.includes(d)) throw new EvalError(`invalid direction ${d}`);
  return d;
}

/**
 * The text of one match under an Erlang `re:replace` replacement: `&` is the whole match, `\N`
 * and `\gN` a group, `\&` and `\\` the characters themselves.
 */
function replacement(template: string, groups: (string | undefined)[]): string {
  const group = (n: number) => groups[n] ?? '';
  return template.replace(/\\g\{?(\d+)\}?|\\(\d+)|\\([&\\])|&/g, (_all, g: string | undefined, d: string | undefined, lit: string | undefined) => {
    if (lit) return lit;
    if (g !== undefined || d !== undefined) return group(Number(g ?? d));
    return group(0);
  });
}

function sprintf(format: string, args: unknown[]): string {
  let i = 0;
  return format.replace(/~([spwn~])/g, (_m, d: string) => {
    if (d === '~') return '~';
    if (d === 'n') return '\n';
    if (i >= args.length) throw new EvalError('sprintf: too few arguments');
    const v = args[i++];
    return d === 's' ? toStr(v) : typeof v === 'string' ? `<<"${v}">>` : toStr(v);
  });
}

export const stringFunctions: FnGroup = {
  lower: def(1, 1, ([s]) => str(s).toLowerCase()),
  upper: def(1, 1, ([s]) => str(s).toUpperCase()),
  trim: def(1, 1, ([s]) => str(s).trim()),
  ltrim: def(1, 1, ([s]) => str(s).trimStart()),
  rtrim: def(1, 1, ([s]) => str(s).trimEnd()),
  reverse: def(1, 1, ([s]) => [...str(s)].reverse().join('')),
  strlen: def(1, 1, ([s]) => [...str(s)].length),
  // substr(S, Start[, Length]) with a 0-based start.
  substr: def(2, 3, ([s, start, len]) => {
    const chars = [...str(s)];
    const from = toInt(start);
    return chars.slice(from, len === undefined ? undefined : from + toInt(len)).join('');
  }),
  // substring(S, Start[, End]) with 0-based positions, End exclusive.
  substring: def(2, 3, ([s, start, end]) => [...str(s)].slice(toInt(start), end === undefined ? undefined : toInt(end)).join('')),
  split: def(2, 3, ([s, sep, dir]) => {
    const text = str(s);
    const separator = str(sep);
    if (dir === undefined) return text.split(separator).filter((p) => p !== '');
    const d = direction(dir, ['leading', 'trailing']);
    const at = d === 'leading' ? text.indexOf(separator) : text.lastIndexOf(separator);
    return at < 0 ? [text] : [text.slice(0, at), text.slice(at + separator.length)].filter((p) => p !== '');
  }),
  // tokens(S, Separators[, 'nocrlf']): CR and LF separate too only with 'nocrlf'.
  tokens: def(2, 3, ([s, seps, crlf]) => {
    const chars = new Set([...str(seps), ...(crlf === undefined ? [] : direction(crlf, ['nocrlf']) ? ['\r', '\n'] : [])]);
    const out: string[] = [];
    let cur = '';
    for (const c of str(s)) {
      if (chars.has(c)) {
        if (cur) out.push(cur);
        cur = '';
      } else cur += c;
    }
    if (cur) out.push(cur);
    return out;
  }),
  concat: def(2, 64, (args) => args.map(toStr).join('')),
  sprintf: def(1, 64, ([format, ...rest]) => sprintf(str(format), rest)),
  pad: def(2, 4, ([s, len, dir, ch]) => {
    const text = str(s);
    const n = toInt(len);
    const fill = ch === undefined ? ' ' : str(ch);
    const d = dir === undefined ? 'trailing' : direction(dir, ['leading', 'trailing', 'both']);
    const missing = Math.max(0, n - [...text].length);
    if (d === 'leading') return fill.repeat(missing) + text;
    if (d === 'trailing') return text + fill.repeat(missing);
    const left = Math.floor(missing / 2);
    return fill.repeat(left) + text + fill.repeat(missing - left);
  }),
  replace: def(3, 4, ([s, search, rep, dir]) => {
    const text = str(s);
    const from = str(search);
    const to = str(rep);
    const d = dir === undefined ? 'all' : direction(dir, ['all', 'leading', 'trailing']);
    if (d === 'all') return text.split(from).join(to);
    const at = d === 'leading' ? text.indexOf(from) : text.lastIndexOf(from);
    return at < 0 ? text : text.slice(0, at) + to + text.slice(at + from.length);
  }),
  regex_match: def(2, 2, ([s, re]) => regex(re).test(str(s)), literalPattern),
  regex_replace: def(3, 3, ([s, re, rep]) => {
    const template = str(rep);
    return regex(re).replaceAll(str(s), (m) => replacement(template, m));
  }, literalPattern),
  regex_extract: def(2, 2, ([s, re]) => {
    const m = regex(re).exec(str(s));
    if (!m) return [];
    return m.length > 1 ? m.slice(1).map((g) => g ?? '') : [m[0]];
  }, literalPattern),
  ascii: def(1, 1, ([s]) => {
    const text = str(s);
    if (text.length !== 1) throw new EvalError('ascii needs one character');
    return text.charCodeAt(0);
  }),
  find: def(2, 3, ([s, search, dir]) => {
    const text = str(s);
    const needle = str(search);
    const d = dir === undefined ? 'leading' : direction(dir, ['leading', 'trailing']);
    const at = d === 'leading' ? text.indexOf(needle) : text.lastIndexOf(needle);
    return at < 0 ? '' : text.slice(at);
  }),
  join_to_string: def(1, 2, (args) => {
    const [sep, list] = args.length === 1 ? [', ', args[0]] : args;
    return toArray(list).map(toStr).join(str(sep));
  }),
};
