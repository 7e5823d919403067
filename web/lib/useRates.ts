/**
 * Rates from counters: EMQX's metric endpoints answer running totals (`matched`, `success`,
 * `messages.in.count` …), so a trend is drawn by reading them on a timer and dividing what each
 * grew by the time between two readings. Readings are kept per source in a rolling window of the
 * last minute and a coarser one of the last hour, for as long as the console stays open; nothing
 * is stored, and no history exists from before a page first read its source.
 */
import { useEffect, useState } from 'react';
import { ApiError } from './api.ts';
import { handleError, SESSION_CODES } from './errors.ts';

/** One reading: counters by name at a moment (epoch ms). */
export interface RateSample {
  at: number;
  counters: Record<string, number>;
}

/** Per-second rates by counter name over the interval that ends at `at`. */
export interface RatePoint {
  at: number;
  rates: Record<string, number>;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** Hour readings are kept this far apart, so an hour is 120 points whatever the poll interval. */
export const HOUR_STEP_MS = 30_000;

/**
 * The window with `sample` added: readings older than `spanMs` before it go, and when `minGapMs`
 * is set a reading closer than that to the previous one is not kept. A reading older than the
 * window's last one is ignored. Example: `addSample([], { at: 0, counters: { n: 0 } }, 60_000)`.
 */
export function addSample(window: RateSample[], sample: RateSample, spanMs: number, minGapMs = 0): RateSample[] {
  const last = window.at(-1);
  if (last && (sample.at <= last.at || sample.at - last.at < minGapMs)) return window;
  return [...window.filter((s) => sample.at - s.at <= spanMs), sample];
}

/**
 * Rates between each two neighbouring readings, rounded to hundredths. A counter that went down
 * was reset in between (EMQX's metrics/reset), so its present value is what it counted since:
 * that is taken as its growth, rather than a negative rate.
 */
export function ratesOf(samples: RateSample[]): RatePoint[] {
  const points: RatePoint[] = [];
  for (let i = 1; i < samples.length; i++) {
    const before = samples[i - 1];
    const after = samples[i];
    const seconds = (after.at - before.at) / 1000;
    if (seconds <= 0) continue;
    const rates: Record<string, number> = {};
    for (const [name, value] of Object.entries(after.counters)) {
      const previous = before.counters[name] ?? 0;
      const grown = value >= previous ? value - previous : value;
      rates[name] = Math.round((grown / seconds) * 100) / 100;
    }
    points.push({ at: after.at, rates });
  }
  return points;
}

/** The numeric fields of an answer, e.g. a `metrics` object; everything else is dropped. */
export function countersOf(value: Record<string, unknown> | undefined, names?: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, n] of Object.entries(value ?? {})) if (typeof n === 'number' && (!names || names.includes(name))) out[name] = n;
  return out;
}

interface History {
  minute: RateSample[];
  hour: RateSample[];
}

// Per source, so that leaving a page and coming back shows the hour read so far.
const histories = new Map<string, History>();

/** Adds a reading of `source` to both of its windows and returns them. */
export function recordSample(source: string, sample: RateSample): History {
  const before = histories.get(source) ?? { minute: [], hour: [] };
  const after = { minute: addSample(before.minute, sample, MINUTE_MS), hour: addSample(before.hour, sample, HOUR_MS, HOUR_STEP_MS) };
  histories.set(source, after);
  // Sources not read for an hour have nothing left to show.
  for (const [key, h] of histories) if (sample.at - (h.minute.at(-1)?.at ?? 0) > HOUR_MS) histories.delete(key);
  return after;
}

/** Forgets every source's readings (a new session, or a test). */
export function clearRateHistory() {
  histories.clear();
}

export interface Rates {
  minute: RatePoint[];
  hour: RatePoint[];
  error: unknown;
  /** Reads once more now (the error state's retry). */
  retry: () => void;
}

/**
 * Reads `load` every `everyMs` while the page is visible (document.visibilityState) and derives
 * the rates of the last minute and hour; reading stops while the tab is hidden and on unmount,
 * and a request still running then is aborted. `source` names the readings, e.g. the URL.
 * Example: `useRates('/rules/r1/metrics', (signal) => api.get(…).then((b) => countersOf(b.metrics)))`.
 */
export function useRates(source: string, load: (signal: AbortSignal) => Promise<Record<string, number>>, everyMs = 2000): Rates {
  const [state, setState] = useState<{ history?: History; error?: unknown }>(() => ({ history: histories.get(source) }));
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    let stopped = false;
    setState({ history: histories.get(source) });
    const read = () => {
      timer = undefined;
      const mine = (controller = new AbortController());
      load(mine.signal).then(
        (counters) => {
          if (mine.signal.aborted) return;
          setState({ history: recordSample(source, { at: Date.now(), counters }) });
          next();
        },
        (error) => {
          if (mine.signal.aborted) return;
          // A dead session goes to login; other failures stay on the chart with a retry.
          if (error instanceof ApiError && error.status === 401 && SESSION_CODES.includes(error.code)) handleError(error);
          setState((prev) => ({ history: prev.history, error }));
        },
      );
    };
    const next = () => {
      if (!stopped && document.visibilityState === 'visible') timer = setTimeout(read, everyMs);
    };
    const pause = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      controller?.abort();
    };
    const onVisibility = () => {
      pause();
      if (document.visibilityState === 'visible') read();
    };
    if (document.visibilityState === 'visible') read();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      pause();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [source, everyMs, attempt]);
  return {
    minute: ratesOf(state.history?.minute ?? []),
    hour: ratesOf(state.history?.hour ?? []),
    error: state.error,
    retry: () => setAttempt((n) => n + 1),
  };
}
