// Measures whether something stalls the simulator's event loop: `/status` (no credentials) is
// asked again and again while hostile work runs, and its slowest answer is compared with a
// baseline taken just before (security.md S20: within 10× the baseline plus a floor for a
// shared machine).
import * as assert from 'uvu/assert';
import { request } from './simulator.ts';

// Headroom for a shared machine: a 1 ms baseline must not make the bound 10 ms.
const FLOOR_MS = 50;

/** Milliseconds one GET /status takes. */
export async function statusMs(baseUrl: string): Promise<number> {
  const started = performance.now();
  const res = await request(baseUrl, 'GET', '/status');
  assert.is(res.status, 200);
  return performance.now() - started;
}

/** The median of a few /status requests after a warm-up. */
export async function baselineStatusMs(baseUrl: string): Promise<number> {
  await statusMs(baseUrl);
  const times: number[] = [];
  for (let i = 0; i < 7; i++) times.push(await statusMs(baseUrl));
  times.sort((a, b) => a - b);
  return times[3];
}

/**
 * Runs `hostile` while asking /status again and again, then a few times more; fails when the
 * slowest answer exceeds 10× the baseline plus the floor (`floorMs`, 50 ms unless the work is
 * CPU-bound off the loop: a busy worker thread still takes a core of a small shared machine).
 * Resolves with what `hostile` resolved.
 */
export async function assertNoStall<T>(baseUrl: string, what: string, hostile: () => Promise<T>, floorMs = FLOOR_MS): Promise<T> {
  const base = await baselineStatusMs(baseUrl);
  let done = false;
  let result: T | undefined;
  let failure: unknown = null;
  const running = hostile().then((r) => { result = r; }, (err) => { failure = err; }).finally(() => { done = true; });
  let slowest = 0;
  do slowest = Math.max(slowest, await statusMs(baseUrl));
  while (!done);
  await running;
  for (let i = 0; i < 3; i++) slowest = Math.max(slowest, await statusMs(baseUrl));
  if (failure) throw failure;
  const bound = 10 * base + floorMs;
  assert.ok(slowest <= bound, `${what}: /status took ${slowest.toFixed(1)} ms, bound ${bound.toFixed(1)} ms (baseline ${base.toFixed(1)} ms)`);
  return result as T;
}
