/**
 * Whether the broker answers. Once a request finds no server at all (lib/api.ts reports every
 * outcome), `GET /status` (public, emqx_mgmt_api_status) is asked after 1 s, then after pauses
 * doubling up to 5 s, until something answers; then the console says the broker is back and every
 * screen reloads its data (`refreshAll`). Any answer counts, a 401 too: the session is another
 * matter (lib/reauth.ts). It renders nothing; the shell's banner reads `connection`.
 */
import { proxy } from 'valtio';
import { api, setReachabilityListener } from './api.ts';
import { t } from './i18n.ts';
import { refreshAll } from './resources.ts';
import { toast } from './toasts.ts';

export const FIRST_PAUSE_MS = 1000;
export const LONGEST_PAUSE_MS = 5000;

export const connection = proxy({
  /** Since when (epoch ms) nothing has answered; 0 while the broker answers. */
  lostSince: 0,
  /** When the last probe was sent (epoch ms). */
  triedAt: 0,
});

let timer: ReturnType<typeof setTimeout> | undefined;
let pause = FIRST_PAUSE_MS;

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(() => void probe(), pause);
  pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
}

/** Asks `/status` now (the banner's "Try now"); the next pause follows if nothing answers. */
export async function probe() {
  if (!connection.lostSince) return;
  clearTimeout(timer);
  connection.triedAt = Date.now();
  try {
    await api.get('/status', { responseType: 'text' });
  } catch {
    // The listener below has heard the outcome already: an answer ends the outage, none schedules the next try.
  }
  if (connection.lostSince) schedule();
}

function heard(reached: boolean) {
  if (!reached) {
    if (connection.lostSince) return;
    connection.lostSince = Date.now();
    pause = FIRST_PAUSE_MS;
    schedule();
    return;
  }
  if (!connection.lostSince) return;
  clearTimeout(timer);
  connection.lostSince = 0;
  toast(t('connection.back'), 'success');
  refreshAll();
}

/** Starts listening for outages (the logged-in shell); the returned function stops it. */
export function watchConnection(): () => void {
  setReachabilityListener(heard);
  return () => {
    setReachabilityListener(() => {});
    clearTimeout(timer);
    connection.lostSince = 0;
  };
}
