/**
 * The one error path of the console: every caught failure goes to `handleError`, which expires
 * the session on 401, shows a toast, and hands field errors to a form. No empty catch elsewhere.
 */
import { ApiError } from './api.ts';
import { hasMessage, t } from './i18n.ts';
import { currentPath, navigate } from './navigation.ts';
import { clearSession } from './session.ts';
import { toast } from './toasts.ts';

/** 401 codes that mean the token is gone or expired (emqx-api-part1.md §1.2). */
export const SESSION_CODES = ['BAD_TOKEN', 'TOKEN_TIME_OUT', 'AUTHORIZATION_HEADER_ERROR'];

/** Human text for an error: the translated code when we have one, else `status code: message`. */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : t('common.operationFailed');
  if (hasMessage(`errors.${error.code}`)) return t(`errors.${error.code}`);
  if (error.status === 0) return t('errors.NETWORK_ERROR');
  return error.message ? `${error.code}: ${error.message}` : `${error.status} ${error.code}`;
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

/** Ends the session and returns to login, keeping the page to come back to (spec part1 §2). */
export function expireSession() {
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
 * Shows an error. With `form`, a 400 that names one of `form.fields` becomes that field's error
 * instead of a toast. Aborted requests (navigation, cancel-all) are silent.
 */
export function handleError(
  error: unknown,
  form?: { fields: string[]; setFieldError: (field: string, message: string) => void },
) {
  if (error instanceof ApiError) {
    if (error.code === 'ECONNABORTED' && error.message === 'canceled') return;
    if (error.status === 401 && SESSION_CODES.includes(error.code)) return expireSession();
    const field = form && fieldOfError(error, form.fields);
    if (form && field) return form.setFieldError(field, errorText(error));
  }
  toast(errorText(error), 'error');
}
