/**
 * Signing in again without leaving the screen. When the broker refuses a request for an expired
 * token (it restarted, the password changed, the token's lifetime ran out), the request waits
 * while the shell's dialog (app/SignInDialog.tsx) asks for the password; reads are then sent
 * again at once, writes only when the operator says so, so nothing typed is lost and nothing is
 * changed behind their back. Signing out instead ends the session as before. It renders nothing.
 */
import { proxy } from 'valtio';
import { ApiError, setExpiredHandler, type ExpiredRequest } from './api.ts';
import { setSignInOver } from './errors.ts';
import { currentPath, navigate } from './navigation.ts';
import { clearSession } from './session.ts';

/** Why the session ended: it expired (or the broker forgot it), or the user's password changed. */
export type SignInReason = 'expired' | 'passwordChanged';

export const reauth = proxy({
  /** `signin` while the password is asked, `resend` while refused writes wait for a word. */
  phase: null as null | 'signin' | 'resend',
  reason: 'expired' as SignInReason,
  /** The writes refused meanwhile, as `METHOD path`. */
  writes: [] as string[],
});

interface Waiting {
  promise: Promise<boolean>;
  resolve: (yes: boolean) => void;
}

function waiting(): Waiting {
  let resolve!: (yes: boolean) => void;
  const promise = new Promise<boolean>((r) => (resolve = r));
  return { promise, resolve };
}

let signIn: Waiting | null = null;
let resend: Waiting | null = null;

const canceled = () => new ApiError(0, 'ECONNABORTED', 'canceled');

/** `promise`, or a rejection once `signal` aborts (the screen that asked has gone). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort = () => {}): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(canceled());
  return new Promise<T>((resolve, reject) => {
    const abort = () => (onAbort(), reject(canceled()));
    signal.addEventListener('abort', abort, { once: true });
    promise.then((value) => (signal.removeEventListener('abort', abort), resolve(value)), reject);
  });
}

/** Opens the sign-in dialog (once however many ask) and resolves true when signed in again. */
export function askSignIn(reason: SignInReason = 'expired'): Promise<boolean> {
  if (!signIn) {
    signIn = waiting();
    reauth.reason = reason;
    reauth.phase = 'signin';
  }
  return signIn.promise;
}

/** The dialog's, once the session store holds a new token: reads go again, writes are offered. */
export function signedInAgain() {
  const done = signIn;
  signIn = null;
  reauth.phase = reauth.writes.length ? 'resend' : null;
  if (!reauth.writes.length) resend = null;
  done?.resolve(true);
}

/** The dialog's answer about the refused writes: send them again, or not. */
export function answerResend(again: boolean) {
  const done = resend;
  resend = null;
  reauth.writes = [];
  reauth.phase = null;
  done?.resolve(again);
}

/** Drops whatever waits for a sign-in or a word on refused writes, and closes the dialog. */
export function dropWaiting() {
  const [pendingSignIn, pendingResend] = [signIn, resend];
  signIn = resend = null;
  Object.assign(reauth, { phase: null, writes: [] });
  pendingSignIn?.resolve(false);
  pendingResend?.resolve(false);
}

/** Signs out instead (the dialog's other way): what waits is dropped and the login page shows. */
export function giveUp() {
  const back = currentPath();
  dropWaiting();
  clearSession();
  void navigate(`/login?to=${encodeURIComponent(back)}`, { replace: true, force: true });
}

/** What a request refused for an expired token becomes while the shell is shown. */
export async function whenExpired(request: ExpiredRequest): Promise<unknown> {
  const write = request.method !== 'GET';
  const label = `${request.method} ${request.path.replace(/^\/?/, '/')}`;
  const forget = () => {
    const at = reauth.writes.indexOf(label);
    if (at >= 0) reauth.writes.splice(at, 1);
    // The last refused write went with its screen: nothing is left to offer.
    if (reauth.phase === 'resend' && !reauth.writes.length) answerResend(false);
  };
  if (write) {
    reauth.writes.push(label);
    resend ??= waiting();
  }
  if (!(await unlessAborted(askSignIn(), request.signal, forget))) throw canceled();
  if (write && !(await unlessAborted(resend!.promise, request.signal, forget))) throw canceled();
  return request.resend();
}

/** Takes over expired sessions for the logged-in shell; the returned function hands them back. */
export function installReauth(): () => void {
  setExpiredHandler(whenExpired);
  setSignInOver(() => void askSignIn());
  return () => {
    setExpiredHandler(null);
    setSignInOver(null);
  };
}
