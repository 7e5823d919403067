// Regular expressions that operators write — banned `clientid_re`/`username_re` and the list's
// `like_*` filters, topic rewrite, rule SQL `regex_*`, file ACL `{re, …}` — compiled by re2js, a
// linear-time engine (RE2): no pattern and input make a match backtrack. Linear is not yet small:
// a match costs about program size × input length, so two bounds keep one client id, topic or
// payload from holding the event loop (security.md S20):
// - a compile-time cap: a pattern whose counted repeats promise a large program is refused before
//   it is compiled, and one whose compiled program exceeds MAX_PROGRAM_SIZE after; callers refuse
//   such a pattern where it is written, with `regexProblem` (a 400);
// - a per-match budget: when program size × input length exceeds MATCH_BUDGET the match is not
//   run and counts as no match — as Erlang's `re:run` answers `nomatch` once PCRE's match limit is
//   reached (EMQX runs its patterns with `re`).
// RE2 syntax: no backreferences and no lookaround. This module does not translate JavaScript or
// PCRE syntax into RE2.
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

/** Largest compiled program accepted (RE2's measure of a pattern's cost); ordinary patterns stay under 300. */
export const MAX_PROGRAM_SIZE = 1000;
/** Program size × input length above which a match is not run (about 40 ms on a slow core). */
export const MATCH_BUDGET = 1_000_000;
// Pattern length × the largest count a repeat gets with the repeats of the groups around it
// multiplied in: an upper estimate of the program, found without compiling, since compiling
// `(a|aa){1000}` alone takes a quarter of a second. Repeats side by side (`\d{4}-\d{2}`) do not
// multiply; RE2 itself refuses nested counts whose product passes 1000.
const ESTIMATE_LIMIT = 5 * MAX_PROGRAM_SIZE;
const MAX_REPEATS = 200;

/** Pattern length × the largest nested product of counted repeats (`{n}`, `{n,}`, `{n,m}`). */
function estimatedProgram(pattern: string): number {
  const repeats: { from: number; to: number; count: number }[] = [];
  const groups: number[] = [];
  let lastGroup = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') { i++; continue; }
    if (c === '(') groups.push(i);
    else if (c === ')') lastGroup = groups.pop() ?? 0;
    else if (c === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i, i + 16));
      if (!m) continue;
      // The repeated atom: the group just closed, or the character (class) before.
      const from = pattern[i - 1] === ')' ? lastGroup : i - 1;
      repeats.push({ from, to: i, count: Math.max(1, Number(m[2] || m[1])) });
      if (repeats.length > MAX_REPEATS) return Infinity;
    }
  }
  let worst = 1;
  for (const r of repeats) {
    let product = r.count;
    for (const outer of repeats) if (outer !== r && outer.from <= r.from && outer.to > r.to) product *= outer.count;
    worst = Math.max(worst, product);
  }
  return pattern.length * worst;
}

function wrap(re: RE2JS, source: string): Regex {
  const size = re.programSize();
  const affordable = (input: string) => size * input.length <= MATCH_BUDGET;
  return {
    source,
    test: (input) => affordable(input) && re.test(input),
    exec: (input) => {
      if (!affordable(input)) return null;
      const m = re.exec(input);
      return m ? Array.from(m as (string | undefined)[]) : null;
    },
    replaceAll: (input, by) => {
      if (!affordable(input)) return input;
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
    if (estimatedProgram(pattern) > ESTIMATE_LIMIT) throw new RegexSyntaxError(`pattern too costly: its counted repeats make a program larger than ${MAX_PROGRAM_SIZE}`);
    const re = RE2JS.compile(pattern);
    if (re.programSize() > MAX_PROGRAM_SIZE) throw new RegexSyntaxError(`pattern too costly: program size ${re.programSize()}, at most ${MAX_PROGRAM_SIZE}`);
    hit = wrap(re, pattern);
  } catch (err) {
    // re2js says "error parsing regexp: <what>: `<where>`"; the prefix adds nothing for an operator.
    hit = err instanceof RegexSyntaxError ? err : new RegexSyntaxError((err as Error).message.replace(/^error parsing regexp: /, ''));
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
