/**
 * How old live figures are: the time of their last good reading, and whether they are stale,
 * that is older than two refresh periods (the broker stopped answering, or the tab slept). A
 * stale part is greyed (class `stale`) so numbers from before an outage do not pass for live ones.
 * Example: `<Freshness at={current.updatedAt} every={10_000} />` beside `<div class={staleClass(stale)}>`.
 */
import { useEffect, useState } from 'react';
import { formatTime } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';

/** Whether a reading taken at `at` is older than two periods of `everyMs`; turns true by itself when it becomes so. */
export function useStale(at: number | undefined, everyMs: number): boolean {
  const [, wake] = useState(0);
  const due = at === undefined ? 0 : at + 2 * everyMs - Date.now();
  useEffect(() => {
    if (due <= 0 || !Number.isFinite(due)) return;
    const timer = setTimeout(() => wake((n) => n + 1), due + 50);
    return () => clearTimeout(timer);
  }, [at, everyMs]);
  return at !== undefined && due <= 0;
}

/** "Updated 12:03:04", greyed and saying so once stale; nothing before the first reading. */
export function Freshness({ at, every, test = 'updated-at' }: { at?: number; every: number; test?: string }) {
  const stale = useStale(at, every);
  if (at === undefined) return null;
  return (
    <small class={stale ? 'freshness stale' : 'freshness muted'} data-test={test} data-stale={stale || undefined}>
      {t(stale ? 'common.staleSince' : 'common.updatedAt', { time: formatTime(at) })}
    </small>
  );
}
