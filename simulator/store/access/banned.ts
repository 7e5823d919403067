// Banned clients (emqx_banned, emqx_mgmt_api_banned; emqx-api-part1 §14): entries by client id,
// username or peer host (and the 5.6+ regex/CIDR kinds), `until` defaulting to at + 1 year as in
// 5.5, expiry by the store clock, the list envelopes with and without filters, and the check
// CONNECT runs. Flapping detection creates entries here too.
import { apiError } from '../../plugins/errors.ts';
import { cidrMatcher } from './acl-file.ts';
import type { StoreContext } from '../context.ts';
import { compileRegex, regexProblem } from '../../lib/regex.ts';
import { parseEpochSecond, rfc3339 } from '../../lib/time.ts';
import { DEFAULTS } from '../profile.ts';

export const BAN_KINDS = ['clientid', 'username', 'peerhost', 'clientid_re', 'username_re', 'peerhost_net'] as const;
export type BanKind = (typeof BAN_KINDS)[number];

export interface BanRecord {
  as: BanKind;
  who: string;
  by: string;
  reason: string;
  /** Epoch ms. */
  at: number;
  /** Epoch ms, or null for "infinity". */
  until: number | null;
}

export interface BanView {
  as: string;
  who: string;
  by: string;
  reason: string;
  at: string;
  until: string;
}

export interface Subject {
  clientid: string;
  username: string | null;
  peerhost: string;
}

const YEAR_MS = 365 * 24 * 3600_000;
const FILTERS = ['clientid', 'username', 'peerhost', 'like_clientid', 'like_username', 'like_peerhost', 'like_peerhost_net'] as const;

// The compiled test of each entry, made once: every CONNECT runs them all.
const matchers = new WeakMap<BanRecord, (s: Subject) => boolean>();

function matcher(record: BanRecord): (s: Subject) => boolean {
  let m = matchers.get(record);
  if (!m) {
    m = compileMatcher(record);
    matchers.set(record, m);
  }
  return m;
}

// The regex kinds run on the linear-time engine (lib/regex.ts): a client id or username cannot
// make a pattern backtrack. An entry stored with a pattern it cannot compile (only an imported
// state can hold one) bans nobody.
function compileMatcher(record: BanRecord): (s: Subject) => boolean {
  switch (record.as) {
    case 'clientid':
      return (s) => s.clientid === record.who;
    case 'username':
      return (s) => s.username === record.who;
    case 'peerhost':
      return (s) => s.peerhost === record.who;
    case 'clientid_re': {
      if (regexProblem(record.who)) return () => false;
      const re = compileRegex(record.who);
      return (s) => re.test(s.clientid);
    }
    case 'username_re': {
      if (regexProblem(record.who)) return () => false;
      const re = compileRegex(record.who);
      return (s) => s.username !== null && re.test(s.username);
    }
    case 'peerhost_net': {
      let m: (address: string) => boolean;
      try {
        m = cidrMatcher(record.who);
      } catch {
        return () => false;
      }
      return (s) => m(s.peerhost);
    }
    default:
      return () => false;
  }
}

export class Banned {
  constructor(private readonly ctx: StoreContext) {}

  // Reads never write defaults into the state (a refused request must leave it as it was).
  private get records(): BanRecord[] {
    return this.ctx.state.banned ?? [];
  }

  private get writable(): BanRecord[] {
    return (this.ctx.state.banned ??= []);
  }

  /** Drops entries whose `until` has passed (EMQX expires them periodically). */
  private expire(): void {
    const now = this.ctx.clock.now();
    const list = this.records;
    for (let i = list.length - 1; i >= 0; i--) {
      const until = list[i].until;
      if (until !== null && until <= now) list.splice(i, 1);
    }
  }

  view(r: BanRecord): BanView {
    return { as: r.as, who: r.who, by: r.by, reason: r.reason, at: rfc3339(r.at), until: r.until === null ? 'infinity' : rfc3339(r.until) };
  }

  list(query: Record<string, unknown> & { page: number; limit: number }): Record<string, unknown> {
    this.expire();
    const given = FILTERS.filter((f) => query[f] !== undefined);
    if (given.length > 1) throw apiError(400, 'BAD_REQUEST', 'too_many_filters');
    const { page, limit } = query;
    const start = (page - 1) * limit;
    let rows = this.records;
    const filter = given[0];
    if (filter) {
      const value = String(query[filter]);
      if (filter.startsWith('like_')) {
        const problem = regexProblem(value);
        if (problem) throw apiError(400, 'BAD_REQUEST', JSON.stringify({ message: 'invalid regular expression', reason: problem, position: 0, filter: value }));
        const re = compileRegex(value);
        const kind = filter === 'like_peerhost_net' ? 'peerhost_net' : filter.slice(5);
        rows = rows.filter((r) => r.as === kind && re.test(r.who));
        return {
          data: rows.slice(start, start + limit).map((r) => this.view(r)),
          meta: { page, limit, hasnext: rows.length > start + limit },
        };
      }
      rows = rows.filter((r) => r.as === filter && r.who === value);
      return { data: rows.slice(start, start + limit).map((r) => this.view(r)), meta: { page, limit, hasnext: false, count: rows.length } };
    }
    return { data: rows.slice(start, start + limit).map((r) => this.view(r)), meta: { page, limit, count: rows.length } };
  }

  /** POST /banned: validates, refuses duplicates and entries already expired. */
  async create(body: Record<string, unknown>): Promise<BanRecord> {
    this.expire();
    const as = body.as as BanKind;
    if (!BAN_KINDS.includes(as)) throw apiError(400, 'BAD_REQUEST', `as must be one of ${BAN_KINDS.join(', ')}`);
    if (typeof body.who !== 'string' || body.who === '') throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: who');
    const now = this.ctx.clock.now();
    const at = body.at === undefined ? now : parseEpochSecond(body.at as string | number);
    if (at === null) throw apiError(400, 'BAD_REQUEST', 'at must be an RFC 3339 time or epoch seconds');
    let until: number | null;
    if (body.until === 'infinity') until = null;
    // The default changed in 5.8.1 from a year after `at` to infinity (store/profile.ts DEFAULTS).
    else if (body.until === undefined) until = DEFAULTS.bannedUntil(this.ctx.profile) === 'infinity' ? null : at + YEAR_MS;
    else {
      until = parseEpochSecond(body.until as string | number);
      if (until === null) throw apiError(400, 'BAD_REQUEST', 'until must be an RFC 3339 time, epoch seconds or "infinity"');
    }
    if (until !== null && until <= now) {
      throw apiError(400, 'BAD_REQUEST', `Cannot create expired banned, ${Math.floor(at / 1000)} to ${Math.floor(until / 1000)}`);
    }
    const record: BanRecord = { as, who: body.who, by: typeof body.by === 'string' ? body.by : 'mgmt_api', reason: typeof body.reason === 'string' ? body.reason : '', at, until };
    if (as === 'clientid_re' || as === 'username_re') {
      const problem = regexProblem(record.who);
      if (problem) throw apiError(400, 'BAD_REQUEST', `who: invalid ${as} ${record.who}: ${problem}`);
    }
    if (as === 'peerhost_net') {
      try {
        cidrMatcher(record.who);
      } catch {
        throw apiError(400, 'BAD_REQUEST', `invalid ${as}: ${record.who}`);
      }
    }
    if (as === 'peerhost' && !/^[0-9.]+$|^[0-9a-fA-F:]+$/.test(record.who)) throw apiError(400, 'BAD_REQUEST', `invalid peerhost: ${record.who}`);
    const existing = this.records.find((r) => r.as === as && r.who === record.who);
    if (existing) throw apiError(400, 'ALREADY_EXISTS', JSON.stringify(this.view(existing)));
    this.writable.push(record);
    await this.ctx.persist();
    return record;
  }

  /** Adds or replaces an entry without the API's checks (flapping detection). */
  async put(record: BanRecord): Promise<void> {
    const list = this.writable;
    const index = list.findIndex((r) => r.as === record.as && r.who === record.who);
    if (index >= 0) list[index] = record;
    else list.push(record);
    await this.ctx.persist();
  }

  async remove(as: string, who: string): Promise<void> {
    this.expire();
    const index = this.records.findIndex((r) => r.as === as && r.who === who);
    if (index < 0) throw apiError(404, 'NOT_FOUND', `${as}: ${who} not found`);
    this.records.splice(index, 1);
    await this.ctx.persist();
  }

  async clear(): Promise<void> {
    this.ctx.state.banned = [];
    await this.ctx.persist();
  }

  /** The live entry that bans this subject, if any. */
  check(subject: Subject): BanRecord | undefined {
    const now = this.ctx.clock.now();
    return this.records.find((r) => (r.until === null || r.until > now) && matcher(r)(subject));
  }

  /** True when this entry bans the subject (for kicking live clients after a POST). */
  matches(record: BanRecord, subject: Subject): boolean {
    return matcher(record)(subject);
  }
}
