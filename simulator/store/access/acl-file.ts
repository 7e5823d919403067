// The file authorization source (emqx_authz_file, emqx_authz_rule): a small reader for the
// Erlang-term ACL text (`{allow, {username, "x"}, publish, ["t/#"]}.` one rule per term) and the
// matching of its rules — who (all, username/clientid exact or `{re, …}`, ipaddr/ipaddrs CIDR,
// and/or), action (publish/subscribe/all, with qos/retain options) and topics (`{eq, …}` literal,
// `${username}`/`${clientid}` placeholders). `{re, …}` patterns run on the linear-time engine
// (lib/regex.ts); one RE2 cannot compile makes the whole text invalid, as a failing
// `re:compile` does in emqx_authz_rule.
import { compileRegex, regexProblem } from '../../lib/regex.ts';
import { topicMatches } from '../../lib/topic.ts';

type Term = string | number | { atom: string } | { tuple: Term[] } | Term[];

/** EMQX's default acl.conf. */
export const DEFAULT_ACL = [
  '%% -type(ipaddr() :: {ipaddr, string()}).',
  '{allow, {username, {re, "^dashboard$"}}, subscribe, ["$SYS/#"]}.',
  '{allow, {ipaddr, "127.0.0.1"}, all, ["$SYS/#", "#"]}.',
  '{deny, all, subscribe, ["$SYS/#", {eq, "#"}]}.',
  '{allow, all}.',
  '',
].join('\n');

class ParseError extends Error {}

function tokenize(text: string): (string | { str: string } | { num: number })[] {
  const tokens: (string | { str: string } | { num: number })[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '%') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if ('{}[],.'.includes(c)) {
      tokens.push(c);
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let out = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        out += text[j++];
      }
      if (j >= text.length) throw new ParseError(`unterminated string at offset ${i}`);
      tokens.push(c === '"' ? { str: out } : `'${out}`);
      i = j + 1;
    } else if (/[0-9]/.test(c)) {
      let j = i;
      while (j < text.length && /[0-9]/.test(text[j])) j++;
      tokens.push({ num: Number(text.slice(i, j)) });
      i = j;
    } else if (/[a-z]/.test(c)) {
      let j = i;
      while (j < text.length && /[A-Za-z0-9_@]/.test(text[j])) j++;
      tokens.push(`'${text.slice(i, j)}`);
      i = j;
    } else {
      throw new ParseError(`unexpected character '${c}' at offset ${i}`);
    }
  }
  return tokens;
}

function parseTerms(text: string): Term[] {
  const tokens = tokenize(text);
  let pos = 0;
  const term = (): Term => {
    const t = tokens[pos++];
    if (t === undefined) throw new ParseError('unexpected end of text');
    if (typeof t === 'object') return 'str' in t ? t.str : t.num;
    if (t.startsWith("'")) return { atom: t.slice(1) };
    if (t === '{' || t === '[') {
      const close = t === '{' ? '}' : ']';
      const items: Term[] = [];
      if (tokens[pos] === close) {
        pos++;
      } else {
        for (;;) {
          items.push(term());
          const sep = tokens[pos++];
          if (sep === close) break;
          if (sep !== ',') throw new ParseError(`expected ',' or '${close}'`);
        }
      }
      return t === '{' ? { tuple: items } : items;
    }
    throw new ParseError(`unexpected '${t}'`);
  };
  const terms: Term[] = [];
  while (pos < tokens.length) {
    terms.push(term());
    if (tokens[pos++] !== '.') throw new ParseError('each rule must end with a full stop');
  }
  return terms;
}

const atom = (t: Term): string | null => (typeof t === 'object' && t !== null && 'atom' in t ? t.atom : null);
const tuple = (t: Term): Term[] | null => (typeof t === 'object' && t !== null && 'tuple' in t ? t.tuple : null);

export interface MatchContext {
  username: string | null;
  clientid: string;
  peerhost: string;
}

type Who = (ctx: MatchContext) => boolean;

interface FileRule {
  permission: 'allow' | 'deny';
  who: Who;
  action: 'publish' | 'subscribe' | 'all';
  qos: number[] | null;
  retain: boolean | 'all';
  topics: { eq: boolean; filter: string }[];
}

function ipv4(address: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

/** A CIDR (or single address) matcher; IPv6 addresses compare exactly. */
export function cidrMatcher(cidr: string): (address: string) => boolean {
  const [base, bitsText] = cidr.split('/');
  const v4 = ipv4(base);
  if (v4 === null) {
    if (!/^[0-9a-fA-F:]+$/.test(base)) throw new ParseError(`invalid ip address: ${cidr}`);
    return (address) => address.toLowerCase() === base.toLowerCase();
  }
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > 32) throw new ParseError(`invalid cidr: ${cidr}`);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (address) => {
    const a = ipv4(address);
    return a !== null && ((a & mask) >>> 0) === ((v4 & mask) >>> 0);
  };
}

function stringMatcher(value: Term, what: string): (s: string | null) => boolean {
  if (typeof value === 'string') return (s) => s === value;
  const t = tuple(value);
  if (t && atom(t[0]) === 're' && typeof t[1] === 'string') {
    const problem = regexProblem(t[1]);
    if (problem) throw new ParseError(`invalid regular expression for ${what}: ${t[1]}: ${problem}`);
    const re = compileRegex(t[1]);
    return (s) => s !== null && re.test(s);
  }
  throw new ParseError(`invalid ${what}`);
}

function compileWho(term: Term): Who {
  if (atom(term) === 'all') return () => true;
  const t = tuple(term);
  if (!t || t.length !== 2) throw new ParseError('invalid who');
  const kind = atom(t[0]);
  switch (kind) {
    case 'user':
    case 'username': {
      const m = stringMatcher(t[1], 'username');
      return (ctx) => m(ctx.username);
    }
    case 'client':
    case 'clientid': {
      const m = stringMatcher(t[1], 'clientid');
      return (ctx) => m(ctx.clientid);
    }
    case 'ipaddr': {
      if (typeof t[1] !== 'string') throw new ParseError('invalid ipaddr');
      const m = cidrMatcher(t[1]);
      return (ctx) => m(ctx.peerhost);
    }
    case 'ipaddrs': {
      if (!Array.isArray(t[1])) throw new ParseError('invalid ipaddrs');
      const ms = t[1].map((a) => {
        if (typeof a !== 'string') throw new ParseError('invalid ipaddrs');
        return cidrMatcher(a);
      });
      return (ctx) => ms.some((m) => m(ctx.peerhost));
    }
    case 'and':
    case 'or': {
      if (!Array.isArray(t[1])) throw new ParseError(`invalid ${kind}`);
      const parts = t[1].map(compileWho);
      return kind === 'and' ? (ctx) => parts.every((p) => p(ctx)) : (ctx) => parts.some((p) => p(ctx));
    }
    default:
      throw new ParseError(`invalid who: ${kind}`);
  }
}

function compileAction(term: Term): Pick<FileRule, 'action' | 'qos' | 'retain'> {
  const simple = atom(term);
  const normal = (a: string | null) => (a === 'pub' ? 'publish' : a === 'sub' ? 'subscribe' : a);
  if (simple) {
    const action = normal(simple);
    if (action !== 'publish' && action !== 'subscribe' && action !== 'all') throw new ParseError(`invalid action: ${simple}`);
    return { action, qos: null, retain: 'all' };
  }
  const t = tuple(term);
  const action = t ? normal(atom(t[0])) : null;
  if (!t || (action !== 'publish' && action !== 'subscribe' && action !== 'all') || !Array.isArray(t[1])) throw new ParseError('invalid action');
  const out: Pick<FileRule, 'action' | 'qos' | 'retain'> = { action, qos: null, retain: 'all' };
  for (const opt of t[1]) {
    const o = tuple(opt);
    if (!o || o.length !== 2) throw new ParseError('invalid action option');
    if (atom(o[0]) === 'qos') {
      const list = Array.isArray(o[1]) ? o[1] : [o[1]];
      if (!list.every((q) => q === 0 || q === 1 || q === 2)) throw new ParseError('invalid qos');
      out.qos = list as number[];
    } else if (atom(o[0]) === 'retain') {
      const r = atom(o[1]);
      if (r !== 'true' && r !== 'false' && r !== 'all') throw new ParseError('invalid retain');
      out.retain = r === 'all' ? 'all' : r === 'true';
    } else {
      throw new ParseError('invalid action option');
    }
  }
  return out;
}

function compileTopics(term: Term): FileRule['topics'] {
  if (!Array.isArray(term)) throw new ParseError('topics must be a list');
  return term.map((t) => {
    if (typeof t === 'string') return { eq: false, filter: t };
    const eq = tuple(t);
    if (eq && atom(eq[0]) === 'eq' && typeof eq[1] === 'string') return { eq: true, filter: eq[1] };
    throw new ParseError('invalid topic');
  });
}

function compileRule(term: Term): FileRule {
  const t = tuple(term);
  const permission = t ? atom(t[0]) : null;
  if (!t || (permission !== 'allow' && permission !== 'deny')) throw new ParseError('a rule must start with allow or deny');
  if (t.length === 2 && atom(t[1]) === 'all') return { permission, who: () => true, action: 'all', qos: null, retain: 'all', topics: [{ eq: false, filter: '#' }] };
  if (t.length !== 4) throw new ParseError('a rule is {Permission, Who, Action, Topics} or {Permission, all}');
  return { permission, who: compileWho(t[1]), ...compileAction(t[2]), topics: compileTopics(t[3]) };
}

/** Compiled ACL text, or an error message saying what is wrong. */
export function compileAcl(text: string): { rules: FileRule[] } | { error: string } {
  try {
    return { rules: parseTerms(text).map(compileRule) };
  } catch (err) {
    if (err instanceof ParseError) return { error: err.message };
    throw err;
  }
}

/** Renders `${username}`/`${clientid}` (and the legacy `%u`/`%c`); null when a value is missing. */
export function renderTopic(filter: string, ctx: MatchContext): string | null {
  let missing = false;
  const out = filter
    .replace(/\$\{(username|clientid)\}|%u|%c/g, (m, name?: string) => {
      const value = name === 'username' || m === '%u' ? ctx.username : ctx.clientid;
      if (!value) missing = true;
      return value ?? '';
    });
  return missing ? null : out;
}

/** True when a rule topic (rendered, `eq ` aware) covers the requested topic or filter. */
export function topicCovered(rule: { eq: boolean; filter: string }, ctx: MatchContext, topic: string): boolean {
  const filter = renderTopic(rule.filter, ctx);
  if (filter === null) return false;
  return rule.eq ? filter === topic : topicMatches(filter, topic);
}

export interface AuthzRequest {
  action: 'publish' | 'subscribe';
  topic: string;
  qos: number;
  retain: boolean;
}

/** The first matching rule's permission, or null (nomatch). */
export function matchFileRules(rules: FileRule[], ctx: MatchContext, req: AuthzRequest): 'allow' | 'deny' | null {
  for (const rule of rules) {
    if (rule.action !== 'all' && rule.action !== req.action) continue;
    if (rule.qos && !rule.qos.includes(req.qos)) continue;
    if (req.action === 'publish' && rule.retain !== 'all' && rule.retain !== req.retain) continue;
    if (!rule.who(ctx)) continue;
    if (rule.topics.some((t) => topicCovered(t, ctx, req.topic))) return rule.permission;
  }
  return null;
}
