/**
 * The remaining time of a delayed message, counting down every second from what the list said
 * when it was loaded (so the browser's clock need not agree with the broker's). At zero it asks
 * for the list again, where the published message is gone. It pauses in a hidden tab.
 */
import { useEffect, useMemo, useState } from 'react';
import { formatDuration } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { touch, useLiveRefresh } from '../../../lib/resources.ts';

export function Remaining({ row, seconds, resource }: { row: object; seconds: number; resource: string }) {
  // Per loaded row object: every reload starts a fresh countdown.
  const deadline = useMemo(() => Date.now() + seconds * 1000, [row]);
  const [now, setNow] = useState(() => Date.now());
  useLiveRefresh(1000, () => setNow(Date.now()));
  // The nearest whole second: the ticks fall about a second apart on the due time's own phase,
  // and a tick that runs a little early would show "1s" for a second more if rounded up.
  const left = Math.max(0, Math.round((deadline - now) / 1000));
  useEffect(() => {
    if (left > 0) return;
    // The broker publishes within a second of the due time.
    const timer = setTimeout(() => touch(resource), 1000);
    return () => clearTimeout(timer);
  }, [deadline, left === 0]);
  return <span class="nowrap" data-test="delayed-remaining">{left > 0 ? formatDuration(left * 1000) : t('delayed.due')}</span>;
}
