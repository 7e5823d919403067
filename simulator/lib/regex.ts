// Regular expressions that operators write — banned `clientid_re`/`username_re` and the list's
// `like_*` filters, topic rewrite, rule SQL `regex_*`, file ACL `{re, …}` — compiled by re2js, a
// linear-time engine (RE2): no pattern and input make a match backtrack, so one client id or topic
// cannot hold the event loop (EMQX's PCRE bounds its runs with a match limit instead). RE2 syntax:
// no backreferences and no lookaround; callers refuse such a pattern where it is written, with
// `regexProblem`. This module does not translate JavaScript or PCRE syntax into RE2.
import { RE2JS } from 're2js';

/** A compiled operator pattern; every search is unanchored, as Erlang's `re:run`. */
export interface Regex {
  readonly source: string;
  /** True when the pattern matches somewhere in `input`. */
  test(input: string): boolean;
  /** The first match: the whole match then each group (undefined when a group took no part), or null. */
  exec(input: string): (string | undefined)[] | null;
  /** `input` with every non-overlapping match replaced by what `by` makes of its match and groups. */
  replaceAll(input: string, by: (match: (string | undefined)[]) => string): string;
}

/** A pattern re2js cannot compile; the message says why (e.g. `invalid escape sequence: \1`). */
export class RegexSyntaxError extends Error {}

// Patterns repeat (every CONNECT checks the same bans, a rule sees the same literal for every
// message), so compiled ones and refusals are kept; the bound keeps patterns that arrive in
// message payloads from growing it without end.
const CACHE_LIMIT = 512;
const cache = new Map<string, Regex | RegexSyntaxError>();

function wrap(re: RE2JS, source: string): Regex {
  return {
    source,
    test: (input) => re.test(input),
    exec: (input) => {
      const m = re.exec(input);
      return m ? Array.from(m as (string | undefined)[]) : null;
    },
    replaceAll: (input, by) => {
      let out = '';
      let last = 0;
      for (const m of re.matchAll(input)) {
        const at = m.index ?? 0;
        out += input.slice(last, at) + by(Array.from(m as (string | undefined)[]));
        last = at + m[0].length;
      }
      return out + input.slice(last);
    },
  };
}

function compiled(pattern: string): Regex | RegexSyntaxError {
  let hit = cache.get(pattern);
  if (hit) return hit;
  try {
    hit = wrap(RE2JS.compile(pattern), pattern);
  } catch (err) {
    // re2js says "error parsing regexp: <what>: `<where>`"; the prefix adds nothing for an operator.
    hit = new RegexSyntaxError((err as Error).message.replace(/^error parsing regexp: /, ''));
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, hit);
  return hit;
}

/** The compiled pattern; throws RegexSyntaxError when RE2 cannot take it. */
export function compileRegex(pattern: string): Regex {
  const hit = compiled(pattern);
  if (hit instanceof RegexSyntaxError) throw hit;
  return hit;
}

/** Why RE2 cannot take `pattern`, or null when it compiles. */
export function regexProblem(pattern: string): string | null {
  const hit = compiled(pattern);
  return hit instanceof RegexSyntaxError ? hit.message : null;
}
