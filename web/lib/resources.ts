/**
 * Loading data for screens: `useRemote` runs a loader with an AbortSignal, re-runs it when its
 * key changes or when `touch(resource)` announces a write, and reports loading and error states.
 */
import { useEffect, useState } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { ApiError } from './api.ts';
import { handleError, SESSION_CODES } from './errors.ts';

const versions = proxy<Record<string, number>>({});

/** Announces that `resource` changed, so every list of it reloads. */
export function touch(resource: string) {
  versions[resource] = (versions[resource] ?? 0) + 1;
}

export interface Remote<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `loader(signal)` for `resource`; `key` (e.g. the query string) re-runs it.
 * Example: `const users = useRemote('users', (signal) => api.get('/users', { signal }), '')`.
 */
export function useRemote<T>(resource: string, loader: (signal: AbortSignal) => Promise<T>, key = ''): Remote<T> {
  const version = useSnapshot(versions)[resource] ?? 0;
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  useEffect(() => {
    const controller = new AbortController();
    setState((prev) => ({ data: prev.data, loading: true }));
    loader(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false }),
      (error) => {
        if (controller.signal.aborted) return;
        // A dead session redirects to login; other failures stay on screen with a retry.
        if (error instanceof ApiError && error.status === 401 && SESSION_CODES.includes(error.code)) handleError(error);
        setState((prev) => ({ data: prev.data, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [resource, key, version, tick]);
  return { data: state.data, error: state.error, loading: state.loading, reload: () => setTick((n) => n + 1) };
}
