// Brute-force protection for POST /login and for the old password of change_pwd (security.md S2):
// per-user lockout after repeated failures and a per-IP rate limit, both on the injectable clock.
// Failures are counted for any username, known or not, so a lockout does not reveal which users
// exist; a wrong old password counts like a failed login of that user.
import type { Clock } from '../../plugins/clock.ts';
import { apiError } from '../../plugins/errors.ts';

export interface LockoutOptions {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export interface RateLimitOptions {
  max: number;
  windowMs: number;
}

// Above this many tracked keys, stale entries are swept so the maps stay bounded.
const SWEEP_AT = 10_000;

export class LoginGuard {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly lockout: LockoutOptions,
    private readonly rate: RateLimitOptions,
  ) {}

  /** Counts one login attempt from an IP; false when the IP is over its limit. */
  admitIp(ip: string): boolean {
    const now = this.clock.now();
    if (this.attempts.size > SWEEP_AT) this.sweep(now);
    const recent = (this.attempts.get(ip) ?? []).filter((t) => now - t < this.rate.windowMs);
    if (recent.length >= this.rate.max) {
      this.attempts.set(ip, recent);
      return false;
    }
    recent.push(now);
    this.attempts.set(ip, recent);
    return true;
  }

  /** Seconds until the IP may try again (for Retry-After). */
  retryAfterSeconds(ip: string): number {
    const oldest = this.attempts.get(ip)?.[0] ?? this.clock.now();
    return Math.max(1, Math.ceil((oldest + this.rate.windowMs - this.clock.now()) / 1000));
  }

  /**
   * Admits one attempt from `ip` to prove `username`'s password, or throws what POST /login
   * answers: 429 TOO_MANY_REQUESTS with Retry-After over the IP limit, 401 LOGIN_LOCKED while
   * the user is locked.
   */
  admit(ip: string, username: string): void {
    if (!this.admitIp(ip)) {
      throw apiError(429, 'TOO_MANY_REQUESTS', 'Too many login attempts, try again later',
        { 'retry-after': String(this.retryAfterSeconds(ip)) });
    }
    if (this.isLocked(username)) throw apiError(401, 'LOGIN_LOCKED', 'Login locked');
  }

  /** True while the user is locked out. */
  isLocked(username: string): boolean {
    const until = this.lockedUntil.get(username);
    if (until === undefined) return false;
    if (this.clock.now() < until) return true;
    this.lockedUntil.delete(username);
    return false;
  }

  /** Records a failed login; the failure that reaches the limit starts the lock. */
  recordFailure(username: string): void {
    const now = this.clock.now();
    if (this.failures.size > SWEEP_AT) this.sweep(now);
    const recent = (this.failures.get(username) ?? []).filter((t) => now - t < this.lockout.windowMs);
    recent.push(now);
    if (recent.length >= this.lockout.maxFailures) {
      this.lockedUntil.set(username, now + this.lockout.lockMs);
      this.failures.delete(username);
      return;
    }
    this.failures.set(username, recent);
  }

  /** A successful login clears the user's failure count. */
  recordSuccess(username: string): void {
    this.failures.delete(username);
  }

  private sweep(now: number): void {
    for (const [key, times] of this.failures) {
      if (times.every((t) => now - t >= this.lockout.windowMs)) this.failures.delete(key);
    }
    for (const [key, until] of this.lockedUntil) if (until <= now) this.lockedUntil.delete(key);
    for (const [key, times] of this.attempts) {
      if (times.every((t) => now - t >= this.rate.windowMs)) this.attempts.delete(key);
    }
  }
}
