// Dashboard session tokens (security.md S5, emqx_dashboard_token): opaque 256-bit random values
// kept server side with a sliding idle expiry and an absolute lifetime. Not persisted: a restart
// logs everybody out, as EMQX does when its token table is lost.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../plugins/clock.ts';

interface TokenRecord {
  username: string;
  createdAt: number;
  lastSeen: number;
}

export type TokenCheck =
  | { status: 'ok'; username: string }
  | { status: 'expired' }
  | { status: 'unknown' };

export class Tokens {
  private readonly byToken = new Map<string, TokenRecord>();

  constructor(
    private readonly clock: Clock,
    private readonly idleMs: number,
    private readonly maxMs: number,
  ) {}

  /** Issues a new token for a user; every login gets a fresh one. */
  issue(username: string): string {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    this.byToken.set(token, { username, createdAt: now, lastSeen: now });
    return token;
  }

  private expired(record: TokenRecord, now: number): boolean {
    return now - record.lastSeen > this.idleMs || now - record.createdAt > this.maxMs;
  }

  /** Checks a token and, when valid, slides its idle expiry forward. */
  check(token: string): TokenCheck {
    const record = this.byToken.get(token);
    if (!record) return { status: 'unknown' };
    const now = this.clock.now();
    if (this.expired(record, now)) return { status: 'expired' };
    record.lastSeen = now;
    return { status: 'ok', username: record.username };
  }

  /** The user a valid token belongs to, without extending it. */
  owner(token: string): string | null {
    return this.byToken.get(token)?.username ?? null;
  }

  /** Invalidates every token of a user (logout, password change, deletion). */
  revokeUser(username: string): void {
    for (const [token, record] of this.byToken) {
      if (record.username === username) this.byToken.delete(token);
    }
  }

  /** Number of tokens held, expired ones included until swept. */
  get size(): number {
    return this.byToken.size;
  }

  // Expired tokens answer TOKEN_TIME_OUT for one more idle period, then are forgotten
  // (EMQX purges its token table every TTL).
  private sweep(): void {
    const now = this.clock.now();
    for (const [token, record] of this.byToken) {
      const end = Math.min(record.lastSeen + this.idleMs, record.createdAt + this.maxMs);
      if (now - end > this.idleMs) this.byToken.delete(token);
    }
  }
}
