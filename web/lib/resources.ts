/**
 * Loading data for screens: `useRemote` runs a loader with an AbortSignal, re-runs it when its
 * key changes or when `touch(resource)` announces a write, and reports loading and error states.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { ApiError, isSessionExpired, settledValue } from './api.ts';
import { confirm } from './confirm.ts';
import { handleError } from './errors.ts';
import { t } from './i18n.ts';
import { toast } from './toasts.ts';

const versions = proxy<Record<string, number>>({});
/** Counts `refreshAll` calls: every loader of every screen re-runs when it grows. */
const EVERYTHING = '*';

/** Announces that `resource` changed, so every list of it reloads. */
export function touch(resource: string) {
  versions[resource] = (versions[resource] ?? 0) + 1;
}

/** Reloads everything every screen shows (the broker answers again after an outage). */
export function refreshAll() {
  touch(EVERYTHING);
}

/** The `refreshAll` count, for loaders outside `useRemote` to re-run with. */
export function useRefreshCount(): number {
  return useSnapshot(versions)[EVERYTHING] ?? 0;
}

export interface Remote<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** When the data was last read successfully (epoch ms). */
  updatedAt?: number;
}

/**
 * Loads `loader(signal)` for `resource`; `key` (e.g. the query string) re-runs it.
 * Example: `const users = useRemote('users', (signal) => api.get('/users', { signal }), '')`.
 */
export function useRemote<T>(resource: string, loader: (signal: AbortSignal) => Promise<T>, key = '', refreshMs = 0): Remote<T> {
  const snap = useSnapshot(versions);
  const version = (snap[resource] ?? 0) + (snap[EVERYTHING] ?? 0);
  const [tick, setTick] = useState(0);
  // The first load starts with the first render: an answer already in (one primed at sign-in,
  // api.ts `prime`) is drawn by that render, not by a second render of the whole screen.
  const first = useRef<{ controller: AbortController; answer: Promise<T> } | null>(null);
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean; at?: number }>(() => {
    const controller = new AbortController();
    first.current = { controller, answer: loader(controller.signal) };
    const settled = settledValue(first.current.answer);
    return settled ? { data: settled.value, loading: false, at: Date.now() } : { loading: true };
  });
  // Later loads are asked for as soon as the screen is in the DOM, not after its first paint (a
  // layout effect): the answer arrives a frame earlier.
  useLayoutEffect(() => {
    const adopted = first.current;
    first.current = null;
    const controller = adopted?.controller ?? new AbortController();
    if (adopted && settledValue(adopted.answer)) return () => controller.abort();
    setState((prev) => (prev.loading && !prev.error ? prev : { data: prev.data, at: prev.at, loading: true }));
    (adopted?.answer ?? loader(controller.signal)).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false, at: Date.now() }),
      (error) => {
        if (controller.signal.aborted) return;
        // A dead session redirects to login; other failures stay on screen with a retry.
        if (isSessionExpired(error)) handleError(error);
        setState((prev) => ({ data: prev.data, at: prev.at, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [resource, key, version, tick]);
  useLiveRefresh(refreshMs, () => setTick((n) => n + 1));
  return { data: state.data, error: state.error, loading: state.loading, updatedAt: state.at, reload: () => setTick((n) => n + 1) };
}

/**
 * Calls `refresh` every `ms` while the tab is visible, and once when it becomes visible again;
 * nothing when `ms` is 0. Live views pause in hidden tabs (DESIGN.md §7).
 */
export function useLiveRefresh(ms: number, refresh: () => void) {
  useEffect(() => {
    if (!ms) return;
    const timer = setInterval(() => !document.hidden && refresh(), ms);
    const onVisible = () => !document.hidden && refresh();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ms]);
}

/**
 * Runs a write the way every screen does: confirm first when asked (`confirm` is an i18n key,
 * filled with `params`), then the call, a success toast, and a reload of `resource`'s lists.
 * Resolves true when it ran and succeeded; failures go to `handleError`.
 */
export async function perform(options: {
  resource: string;
  run: () => Promise<unknown>;
  confirm?: string;
  danger?: boolean;
  success?: string;
  params?: Record<string, unknown>;
}): Promise<boolean> {
  if (options.confirm && !(await confirm(t(options.confirm, options.params), { danger: options.danger }))) return false;
  try {
    await options.run();
  } catch (error) {
    handleError(error);
    return false;
  }
  toast(t(options.success ?? 'common.success'));
  touch(options.resource);
  return true;
}
