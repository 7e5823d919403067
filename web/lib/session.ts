/**
 * The logged-in user as a valtio store with verbs: login, logout, password change and expiry.
 * The token is kept encrypted in browser storage (`storage.ts`) and checked by the server on
 * every request; this module never decides on its own that a token is valid.
 */
import { proxy } from 'valtio';
import { api, cancelAll, setTokenSource } from './api.ts';
import { clearUser, loadUser, readSettings, saveUser, writeSettings } from './storage.ts';

/** Reserved user names whose default password `public` triggers the change prompt (spec §5). */
export const RESERVED_USERS = ['admin', 'root', 'administrator'];
export const DEFAULT_PASSWORD = 'public';

export const session = proxy({
  username: '',
  token: '',
  version: '',
  edition: readSettings().edition ?? '',
  /** Enterprise RBAC: `administrator` or `viewer`; empty on Community (everyone administers). */
  role: readSettings().role ?? '',
});
setTokenSource(() => session.token || undefined);

interface LoginResponse {
  token: string;
  version: string;
  license?: { edition?: string };
  role?: string;
  /** 5.9 on, with `dashboard.password_expired_time` set: seconds left (negative once past). */
  password_expire_in_seconds?: number;
}

/** The `message` of a 401 BAD_MFA_TOKEN (emqx_dashboard_mfa.erl): `secret` only until the first code is verified. */
export interface MfaPrompt {
  mechanism: string;
  error: 'missing_mfa_token' | 'bad_mfa_token';
  secret?: string;
}

/** Loads the stored user (if any) into the store; call once before the first render. */
export async function restoreSession() {
  const user = await loadUser();
  if (!user) return;
  const { edition = '', role = '' } = readSettings();
  Object.assign(session, { username: user.username, token: user.token, version: user.version ?? '', edition, role });
}

/** What a sign-in leads to: the password prompt of a reserved user, the password's seconds left. */
export interface SignedIn {
  promptPassword: boolean;
  expiresIn?: number;
}

/**
 * Logs in and stores the token; resolves `{ promptPassword }`, true after a reserved user logged
 * in with the default password (the prompt is client side, as in EMQX 5.5), and the seconds the
 * password has left where the broker says. `mfaToken` goes only in answer to BAD_MFA_TOKEN, which
 * only a broker with MFA sends. `signedIn` hears the same as soon as the token is in the session,
 * before it is stored (the first screen's requests need not wait for that).
 */
export async function login(username: string, password: string, mfaToken?: string, signedIn?: (outcome: SignedIn) => void): Promise<SignedIn> {
  const res = await api.post<LoginResponse>('/login', { username, password, ...(mfaToken === undefined ? {} : { mfa_token: mfaToken }) });
  const edition = res.license?.edition ?? '';
  const role = res.role ?? '';
  Object.assign(session, { username, token: res.token, version: res.version ?? '', edition, role });
  const outcome = { promptPassword: password === DEFAULT_PASSWORD && RESERVED_USERS.includes(username), expiresIn: res.password_expire_in_seconds };
  signedIn?.(outcome);
  writeSettings({ edition, role });
  await saveUser({ username, token: res.token, version: res.version });
  return outcome;
}

/** Forgets the user, edition and role, and aborts every pending request (guard, expiry, logout). */
export function clearSession() {
  cancelAll();
  Object.assign(session, { username: '', token: '', version: '', edition: '', role: '' });
  clearUser();
  writeSettings({ edition: undefined, role: undefined });
}

/** Logs out on the server (the token is destroyed there) and locally, even if the call fails. */
export async function logout() {
  try {
    await api.post('/logout', { username: session.username });
  } finally {
    clearSession();
  }
}

/** Changes a user's password; the server then revokes every token of that user. */
export async function changePassword(username: string, oldPwd: string, newPwd: string) {
  await api.post(`/users/${encodeURIComponent(username)}/change_pwd`, { old_pwd: oldPwd, new_pwd: newPwd });
}

/** Whether the edition is the enterprise one (spec §9: enterprise is numeric 1, else 2). */
export function isEnterprise(edition = session.edition) {
  return edition === 'ee' || edition === 'enterprise';
}
