/**
 * The line above the screen while the broker does not answer (lib/connection.ts): since when,
 * that the console keeps trying, and a button to try at once. It goes when the broker is back.
 */
import { useSnapshot } from 'valtio';
import { connection, probe } from '../lib/connection.ts';
import { formatTime } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';

export function ConnectionBanner() {
  const { lostSince } = useSnapshot(connection);
  if (!lostSince) return null;
  return (
    <div class="connection-banner" role="alert" data-test="connection-lost">
      <span>{t('connection.lost', { time: formatTime(lostSince) })}</span>
      <button type="button" class="secondary outline" data-test="connection-try" onClick={() => void probe()}>{t('connection.tryNow')}</button>
    </div>
  );
}
