// The injectable clock every timing in the simulator reads (token expiry, lockout, uptime, alarm
// durations), so tests can move time without waiting. It does not schedule timers.
import type { FastifyInstance } from 'fastify';

export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Decorates `app.clock` with the given clock. */
export function clockPlugin(app: FastifyInstance, clock: Clock): void {
  app.decorate('clock', clock);
}
