// Simulator memory: resident set size before a fleet connects and with it connected, and the
// leak check: the JS heap after a forced garbage collection before the fleet came and after it
// (and the API traffic) left. RSS alone cannot tell a leak from the high-water mark V8 keeps.
import { budgeted, info, mb, type Row } from './table.ts';
import { rss, sleep } from './children.ts';

const S = 'memory';
/** What the simulator's heap may keep after the fleet leaves: +20 % of the heap before + 16 MB. */
export const AFTER_SHARE = 0.2;
export const AFTER_ALLOWANCE = 16 * 1024 * 1024;
/** What each connected, subscribed client may add to the RSS while connected. */
export const PER_CLIENT = 64 * 1024;

/** RSS a little after the fleet settled (the lowest of a few samples). */
export async function settledRss(pid: number, seconds: number): Promise<number> {
  let lowest = Infinity;
  for (let i = 0; i < seconds * 2; i++) {
    lowest = Math.min(lowest, rss(pid));
    await sleep(500);
  }
  return lowest;
}

export interface Samples {
  /** Before any client connected: RSS, and JS heap after a forced collection. */
  rssBefore: number;
  heapBefore: number;
  /** RSS with the fleet connected. */
  rssDuring: number;
  /** After the fleet (and the API traffic) left: RSS, and JS heap after a forced collection. */
  rssAfter: number;
  heapAfter: number;
}

export function memoryRows(m: Samples, clients: number): Row[] {
  const duringLimit = m.rssBefore + clients * PER_CLIENT;
  const afterLimit = m.heapBefore * (1 + AFTER_SHARE) + AFTER_ALLOWANCE;
  return [
    info(S, 'simulator RSS before any client', mb(m.rssBefore), m.rssBefore),
    budgeted(S, `simulator RSS with ${clients} clients (${((m.rssDuring - m.rssBefore) / clients / 1024).toFixed(1)} KB/client)`, m.rssDuring, mb(m.rssDuring),
      duringLimit, `≤ ${mb(duringLimit)} (+${PER_CLIENT / 1024} KB/client)`),
    info(S, 'simulator RSS after they left (V8 keeps its high-water mark)', mb(m.rssAfter), m.rssAfter),
    info(S, 'simulator JS heap before any client, after GC', mb(m.heapBefore), m.heapBefore),
    budgeted(S, 'simulator JS heap after they left, after GC', m.heapAfter, mb(m.heapAfter), afterLimit,
      `≤ ${mb(afterLimit)} (before +20 % + ${AFTER_ALLOWANCE / 1024 / 1024} MB)`),
  ];
}
