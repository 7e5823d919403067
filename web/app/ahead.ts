/**
 * Sign-in drawn ahead: while the login form waits, once the shell, its stylesheet and the chunk of
 * the screen sign-in leads to are in (idle time), that shell and screen are drawn out of sight
 * under the form (App.tsx), their reads held until the token is in (api.ts `holdReads`). Pressing
 * Sign in then costs their first data and the login page's removal, not their whole render.
 */
import { proxy } from 'valtio';
import { holdReads } from '../lib/api.ts';

/** The path of the screen drawn under the login form, '' while none is. */
export const ahead = proxy({ path: '' });

let reads: ReturnType<typeof holdReads> | undefined;

/** Draws the shell at `path` under the login form, its reads held. */
export function drawAhead(path: string) {
  if (ahead.path) return;
  reads = holdReads();
  ahead.path = path;
}

/** Signed in: the held reads leave (the caller primes the first screen's in the same task). */
export function openAhead() {
  reads?.open();
  reads = undefined;
}

/** No shell under the login page any more: shown (the page went there) or dropped with its reads. */
export function endAhead() {
  reads?.drop();
  reads = undefined;
  ahead.path = '';
}
