// Topic rewrite (emqx_rewrite, emqx_rewrite_api, emqx_modules_schema): the persisted rule list that
// PUT /mqtt/topic_rewrite replaces as a whole, and the rewriting itself. As in EMQX the rules are
// tried last to first; the first rule whose source filter matches decides: its regex either
// matches and the destination (with `$N` and `${clientid}`/`${username}`) is the new topic, or it
// does not and the topic stays as it is — no later rule is tried. The regexes run on the
// linear-time engine (lib/regex.ts), so no topic can make one backtrack.
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { compileRegex, regexProblem, type Regex } from '../../lib/regex.ts';
import { topicMatches, topicNameProblem } from '../../lib/topic.ts';

export type RewriteAction = 'publish' | 'subscribe' | 'all';

/** One rule exactly as the API takes and returns it. */
export interface RewriteRule {
  action: RewriteAction;
  source_topic: string;
  dest_topic: string;
  re: string;
}

/** PUT refuses lists of this many rules or more (`length(Body) < 20` in emqx_rewrite_api). */
export const MAX_REWRITE_RULES = 20;

interface Compiled {
  filter: string;
  re: Regex;
  dest: string;
}

/** Who the topic belongs to, for the `${clientid}` and `${username}` placeholders. */
export interface RewriteBinds {
  clientid?: string | null;
  username?: string | null;
}

// Erlang's ~p of a list of binaries, as EMQX prints the invalid destinations.
function erlangBinaries(topics: string[]): string {
  return `[${topics.map((t) => `<<${JSON.stringify(t)}>>`).join(',')}]`;
}

export class Rewrite {
  private compiled: { publish: Compiled[]; subscribe: Compiled[] } | null = null;

  constructor(private readonly ctx: StoreContext) {
    ctx.onStateReplaced(() => {
      this.compiled = null;
    });
  }

  list(): RewriteRule[] {
    return this.ctx.state.rewrite ?? [];
  }

  /** Replaces every rule, with EMQX's checks in its order: regexes, count, destinations. */
  async update(rules: RewriteRule[]): Promise<RewriteRule[]> {
    rules.forEach((rule, i) => {
      const problem = regexProblem(rule.re);
      if (problem) {
        throw apiError(400, 'BAD_REQUEST', JSON.stringify({
          kind: 'validation_error', path: `rewrite.${i + 1}.re`, reason: { regexp: rule.re, compile_error: problem }, value: rule.re,
        }));
      }
    });
    if (rules.length >= MAX_REWRITE_RULES) throw apiError(413, 'EXCEED_LIMIT', `Max rewrite rules count is ${MAX_REWRITE_RULES}`);
    // rewrite_validator: publish and all rules must rewrite to a topic name; subscribe rules may
    // produce a filter. Invalid ones are collected newest first, as its fold does.
    const invalid = rules.filter((r) => r.action !== 'subscribe' && topicNameProblem(r.dest_topic)).map((r) => r.dest_topic).reverse();
    if (invalid.length > 0) {
      throw apiError(400, 'BAD_REQUEST', `Cannot use wildcard for destination topic. Invalid topics: ${erlangBinaries(invalid)}`);
    }
    this.ctx.state.rewrite = rules.map((r) => ({ action: r.action, source_topic: r.source_topic, dest_topic: r.dest_topic, re: r.re }));
    this.compiled = null;
    await this.ctx.persist();
    return this.list();
  }

  /** True when at least one rule applies to `kind`, so callers can skip the work. */
  has(kind: 'publish' | 'subscribe'): boolean {
    return this.rules()[kind].length > 0;
  }

  /** The topic after rewriting, or `topic` unchanged when no rule rewrites it. */
  rewrite(topic: string, kind: 'publish' | 'subscribe', binds: RewriteBinds = {}): string {
    const rules = this.rules();
    // The answer depends only on the rules, the topic and the placeholders: a client publishing
    // to the same topic again gets the last answer (a compiled regex keeps no state).
    const clientid = binds.clientid || null;
    const username = binds.username || null;
    const last = this.last[kind];
    if (last && last.rules === rules && last.topic === topic && last.clientid === clientid && last.username === username) return last.out;
    let out = topic;
    for (const rule of rules[kind]) {
      if (!topicMatches(rule.filter, topic)) continue;
      const match = rule.re.exec(topic);
      if (match) out = substitute(rule.dest, match, binds);
      break;
    }
    this.last[kind] = { rules, topic, clientid, username, out };
    return out;
  }

  private readonly last: Record<'publish' | 'subscribe', { rules: object; topic: string; clientid: string | null; username: string | null; out: string } | null> = {
    publish: null, subscribe: null,
  };

  private rules(): { publish: Compiled[]; subscribe: Compiled[] } {
    if (this.compiled) return this.compiled;
    const publish: Compiled[] = [];
    const subscribe: Compiled[] = [];
    // compile/1 folds with a prepend, so the last rule of the list is tried first.
    for (const rule of [...this.list()].reverse()) {
      if (regexProblem(rule.re)) continue;
      const compiled = { filter: rule.source_topic, re: compileRegex(rule.re), dest: rule.dest_topic };
      if (rule.action !== 'subscribe') publish.push(compiled);
      if (rule.action !== 'publish') subscribe.push(compiled);
    }
    this.compiled = { publish, subscribe };
    return this.compiled;
  }
}

/** `$1` … `$99`, made once (the substitution runs for every rewritten message). */
const CAPTURE_TOKENS = Array.from({ length: 99 }, (_, i) => `$${i + 1}`);

function replaceAll(text: string, token: string, value: string): string {
  return text.includes(token) ? text.split(token).join(value) : text;
}

/**
 * Fills the destination like emqx_rewrite:rewrite/4: the client placeholders first (only when
 * known and not empty), then `$1`, `$2` … (the regex groups of `match`) in order, each replaced
 * everywhere it occurs.
 */
function substitute(dest: string, match: (string | undefined)[], binds: RewriteBinds): string {
  // Every placeholder starts with `$`: a destination without one is taken as it is.
  if (!dest.includes('$')) return dest;
  let out = dest;
  if (binds.clientid) out = replaceAll(out, '${clientid}', binds.clientid);
  if (binds.username) out = replaceAll(out, '${username}', binds.username);
  for (let i = 1; i < match.length; i++) out = replaceAll(out, CAPTURE_TOKENS[i - 1] ?? `$${i}`, match[i] ?? '');
  return out;
}
