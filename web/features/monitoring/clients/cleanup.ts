/**
 * Bulk session clean-up: the disconnected sessions a filter matches are counted (`meta.count`,
 * or by paging when the broker gives none), listed once, and removed one by one with
 * `DELETE /clients/{clientid}` at a bounded rate. The job (its list and where it stands) is kept
 * in localStorage, so a reload resumes where it stopped. Before each removal the session is read
 * again: one whose client has connected since is left alone.
 */
import { proxy, ref } from 'valtio';
import { ApiError, api, type Params } from '../../../lib/api.ts';
import { fetchAll, type ListEnvelope } from '../../../lib/fetchAll.ts';

export interface CleanupFilter {
  /** `lte_connected_at`: RFC 3339. */
  before?: string;
  like_clientid?: string;
  username?: string;
  node?: string;
}

export interface Job {
  filter: CleanupFilter;
  ids: string[];
  /** How many of `ids` are done. */
  done: number;
  /** Indexes past `done` already finished (removals answer out of order): not tried again. */
  ahead?: number[];
  removed: number;
  gone: number;
  failed: { clientid: string; reason: string }[];
  state: 'running' | 'paused' | 'cancelled' | 'finished';
}

const KEY = 'emqx-console-session-cleanup';
/** The job's list of client ids, written once: each step saves only the small rest. */
const IDS_KEY = 'emqx-console-session-cleanup-ids';
const RATE_KEY = 'emqx-console-session-cleanup-rate';
export const DEFAULT_RATE = 50;

/** The job on screen; `null` when there is none. */
export const cleanup = proxy({ job: readJob() });

function readJob(): Job | null {
  try {
    const job = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Omit<Job, 'ids'> | null;
    // The list is kept out of the store's proxy (`ref`): thousands of ids need no tracking.
    return job && { ...job, ids: ref(JSON.parse(localStorage.getItem(IDS_KEY) ?? '[]') as string[]) };
  } catch {
    return null;
  }
}

function save(): void {
  if (!cleanup.job) {
    localStorage.removeItem(KEY);
    localStorage.removeItem(IDS_KEY);
    return;
  }
  const { ids: _ids, ...rest } = cleanup.job;
  localStorage.setItem(KEY, JSON.stringify(rest));
}

/** The removals per second (a setting kept in the browser). */
export const getRate = () => Math.max(1, Number(localStorage.getItem(RATE_KEY)) || DEFAULT_RATE);
export const setRate = (rate: number) => localStorage.setItem(RATE_KEY, String(Math.max(1, Math.round(rate))));

/** The /clients query of a filter: disconnected sessions only. */
export function queryOf(filter: CleanupFilter): Params {
  return { conn_state: 'disconnected', lte_connected_at: filter.before, like_clientid: filter.like_clientid, username: filter.username, node: filter.node };
}

/** How many sessions match: `meta.count` when the broker gives it, else by paging through. */
export async function countMatches(filter: CleanupFilter): Promise<number> {
  const first = await api.get<ListEnvelope<unknown>>('/clients', { params: { ...queryOf(filter), page: 1, limit: 1 } });
  if (typeof first.meta?.count === 'number') return first.meta.count;
  return (await fetchAll<unknown>('/clients', queryOf(filter))).length;
}

/** Lists the matching sessions and starts removing them. */
export async function start(filter: CleanupFilter): Promise<void> {
  const rows = await fetchAll<{ clientid: string }>('/clients', queryOf(filter));
  const ids = rows.map((r) => r.clientid);
  localStorage.setItem(IDS_KEY, JSON.stringify(ids));
  cleanup.job = { filter, ids: ref(ids), done: 0, removed: 0, gone: 0, failed: [], state: 'running' };
  save();
  void run();
}

export function pause() {
  if (cleanup.job?.state === 'running') cleanup.job.state = 'paused';
  save();
}

export function cancel() {
  if (cleanup.job && cleanup.job.state !== 'finished') cleanup.job.state = 'cancelled';
  save();
}

/** Goes on with a paused or cancelled job from where it stopped. */
export function resume() {
  if (cleanup.job?.state !== 'paused' && cleanup.job?.state !== 'cancelled') return;
  cleanup.job.state = 'running';
  save();
  void run();
}

/** Forgets a job that has ended (after its report was read). */
export function dismiss() {
  cleanup.job = null;
  save();
}

// Requests cut off by the page going away fail as network errors: they are no report's failures.
let leaving = false;
addEventListener('pagehide', () => (leaving = true));
addEventListener('pageshow', () => (leaving = false));

const reasonOf = (error: unknown) => (error instanceof ApiError ? `${error.code}: ${error.message}` : String(error));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One session: read it again, and remove it unless its client is connected. False when the
 * request was cut off (the page is going away): the session is then tried again on resume.
 */
async function removeOne(job: Job, clientid: string): Promise<boolean> {
  const path = `/clients/${encodeURIComponent(clientid)}`;
  try {
    const now = await api.get<{ connected?: boolean }>(path);
    if (now.connected) job.failed.push({ clientid, reason: 'connected' });
    else {
      await api.del(path);
      job.removed++;
    }
  } catch (error) {
    if (leaving || (error instanceof ApiError && error.code === 'ECONNABORTED')) return false;
    if (error instanceof ApiError && error.status === 404) job.gone++;
    else job.failed.push({ clientid, reason: reasonOf(error) });
  }
  return true;
}

/** Removals in flight at once: the rate bounds how many start, this how many wait for an answer. */
const POOL = 8;
let running = false;

/**
 * Works through the job at the set rate until it ends, is paused or cancelled. `done` counts the
 * finished prefix of the list, so a resume starts after the last removal known to be finished.
 */
async function run(): Promise<void> {
  if (running) return;
  running = true;
  const inflight = new Set<Promise<void>>();
  try {
    const started = performance.now();
    const from = cleanup.job?.done ?? 0;
    for (let next = from; ;) {
      const job = cleanup.job;
      if (!job || job.state !== 'running') return;
      if (job.ahead?.includes(next)) {
        next++;
        continue;
      }
      if (next >= job.ids.length) {
        await Promise.all(inflight);
        if (job.state === 'running' && job.done >= job.ids.length) job.state = 'finished';
        save();
        return;
      }
      if (inflight.size >= POOL) {
        await Promise.race(inflight);
        continue;
      }
      // The n-th removal of this run starts no sooner than n / rate seconds after its start.
      const wait = started + ((next - from) * 1000) / getRate() - performance.now();
      if (wait > 0) await sleep(wait);
      if (job.state !== 'running') return;
      const index = next++;
      const step: Promise<void> = removeOne(job, job.ids[index]).then((settled) => {
        const ahead = new Set(job.ahead);
        if (settled) ahead.add(index);
        while (ahead.delete(job.done)) job.done++;
        job.ahead = [...ahead];
        inflight.delete(step);
        save();
      });
      inflight.add(step);
    }
  } finally {
    // What is in flight finishes before the job counts as stopped.
    await Promise.all(inflight);
    running = false;
    // Resumed while the last removals were still finishing: go on now.
    if (cleanup.job?.state === 'running') void run();
  }
}

// A job that was running when the page went away goes on from where it stopped.
if (cleanup.job?.state === 'running') void run();
