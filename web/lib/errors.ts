/**
 * The one error path of the console: every caught failure goes to `handleError`, which expires
 * the session on 401, shows a toast, and hands field errors to a form. No empty catch elsewhere.
 */
import { ApiError, isSessionExpired } from './api.ts';
import { hasMessage, t } from './i18n.ts';
import { currentPath, navigate } from './navigation.ts';
import { clearSession } from './session.ts';
import { toast } from './toasts.ts';

/** A raw reason put in words: a message key, its values, and the form field it is about. */
export interface ReasonSentence {
  key: string;
  values?: Record<string, string>;
  field?: string;
}

type ReasonReader = (message: string, body?: unknown) => ReasonSentence | undefined;
// Set by `errorCatalog.ts`, which the logged-in shell loads (its texts stay off the login page).
let readReason: ReasonReader | null = null;

/** Lets the error catalog put known raw reasons into words. */
export function registerReasons(reader: ReasonReader) {
  readReason = reader;
}

/** The sentence a raw reason reads as, when the error catalog knows it. */
function sentenceOf(error: ApiError): ReasonSentence | undefined {
  return error.message ? readReason?.(error.message, error.body) : undefined;
}

/**
 * Human text for an error, in the current language: a known reason as a sentence (errorCatalog.ts),
 * else the code's sentence; never the server's own text, an Erlang term or an upper-case code.
 * The raw text is `errorDetail`'s, shown under "Details".
 */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error && error.message ? error.message : t('common.operationFailed');
  if (error.status === 0) return t('errors.NETWORK_ERROR');
  const sentence = sentenceOf(error);
  if (sentence) return t(sentence.key, sentence.values);
  return hasMessage(`errors.${error.code}`) ? t(`errors.${error.code}`) : t('common.operationFailed');
}

/** The raw error as the server sent it, for a "Details" disclosure. */
export function errorDetail(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status === 0) return undefined;
  return `${error.status} ${error.code}${error.message ? `: ${error.message}` : ''}`;
}

/**
 * Finds which form field a server validation message is about: Fastify-style `body/name …`,
 * EMQX's JSON-encoded `{path, …}` message, or a message naming the field as a word.
 */
export function fieldOfError(error: ApiError, fields: string[]): string | undefined {
  if (error.status !== 400) return undefined;
  const message = error.message;
  try {
    const parsed = JSON.parse(message) as { path?: string; field?: string };
    const path = String(parsed.path ?? parsed.field ?? '');
    const last = path.split('.').pop();
    if (last && fields.includes(last)) return last;
  } catch {
    // not JSON: fall through to the text patterns below
  }
  const slash = /(?:body|querystring|params)[/.](\w+)/.exec(message)?.[1];
  if (slash && fields.includes(slash)) return slash;
  const quoted = /property '(\w+)'/.exec(message)?.[1];
  if (quoted && fields.includes(quoted)) return quoted;
  return fields.find((field) => new RegExp(`\\b${field}\\b`, 'i').test(message));
}

let expiring = false;
let signInOver: (() => void) | null = null;

/**
 * Lets the logged-in shell ask for the password over the screen when the session has expired
 * (lib/reauth.ts), instead of leaving the screen for the login page.
 */
export function setSignInOver(prompt: typeof signInOver) {
  signInOver = prompt;
}

/**
 * Ends the session and returns to login, keeping the page to come back to (spec part1 §2); in
 * the logged-in shell, signing in again happens over the screen instead.
 */
export function expireSession() {
  if (signInOver) return signInOver();
  if (expiring) return;
  expiring = true;
  const back = currentPath();
  clearSession();
  toast(t('errors.loginExpired'), 'error');
  const to = back.startsWith('/login') ? '/login' : `/login?to=${encodeURIComponent(back)}`;
  void navigate(to, { replace: true, force: true }).finally(() => {
    expiring = false;
  });
}

/**
 * Shows an error as a toast (its raw text under "Details"). With `form`, a 400 that names one of
 * `form.fields` is also that field's error. Aborted requests (navigation, cancel-all) are silent.
 */
export function handleError(
  error: unknown,
  form?: { fields: string[]; setFieldError: (field: string, message: string) => void },
) {
  if (error instanceof ApiError) {
    if (error.code === 'ECONNABORTED' && error.message === 'canceled') return;
    if (isSessionExpired(error)) return expireSession();
    // A write that failed is always told in a toast; a field it names also shows it in place.
    const named = sentenceOf(error)?.field;
    const field = form && (named && form.fields.includes(named) ? named : fieldOfError(error, form.fields));
    if (form && field) form.setFieldError(field, errorText(error));
  }
  toast(errorText(error), 'error', errorDetail(error));
}
