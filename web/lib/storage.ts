/**
 * Browser storage of the console: user settings in plain JSON, and the current user's record
 * (name and token) encrypted with AES-GCM under a random four-character key name (spec part1 §3).
 * The encryption keeps the token out of plain sight and away from scripts that look for a fixed
 * key; it is no defence against code running in the page — the CSP and the server-side token
 * expiry are.
 */
export const SETTINGS_KEY = 'emqx-console';

export interface StoredSettings {
  lang?: 'zh' | 'en';
  theme?: 'light' | 'dark';
  syncOsTheme?: boolean;
  leftBarCollapse?: boolean;
  /** The menu shrunk to an icon rail. */
  menuRail?: boolean;
  edition?: string;
  /** The dashboard user's role (Enterprise RBAC), kept like the edition across reloads. */
  role?: string;
  /** Name of the entry holding the encrypted user record. */
  userKey?: string;
  /** Raw AES key (base64) for that record. */
  userSecret?: string;
}

export interface UserRecord {
  username: string;
  token: string;
  version?: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id of `length` letters and digits (spec §9: 4 for the storage key, 8 by default). */
export function randomId(length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** Reads the settings object; a damaged entry counts as empty. */
export function readSettings(): StoredSettings {
  try {
    const value = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}');
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** Merges `patch` into the stored settings. */
export function writeSettings(patch: Partial<StoredSettings>) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...readSettings(), ...patch }));
}

const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromB64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)) as Uint8Array<ArrayBuffer>;

async function aesKey(raw: Uint8Array) {
  return crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** Encrypts and stores the user record under a fresh random key name, removing the old entry. */
export async function saveUser(user: UserRecord): Promise<void> {
  clearUser();
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  let name = randomId(4);
  while (name === SETTINGS_KEY || localStorage.getItem(name) !== null) name = randomId(4);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey(raw), new TextEncoder().encode(JSON.stringify(user))),
  );
  localStorage.setItem(name, `${toB64(iv)}.${toB64(sealed)}`);
  writeSettings({ userKey: name, userSecret: toB64(raw) });
}

/** The stored user record, still sealed; null when there is none. */
function sealedUser(): { sealed: string; userSecret: string } | null {
  const { userKey, userSecret } = readSettings();
  const sealed = userKey ? localStorage.getItem(userKey) : null;
  return userSecret && sealed ? { sealed, userSecret } : null;
}

/** Whether a user record is stored (without decrypting it: it may still turn out damaged). */
export const hasStoredUser = () => sealedUser() !== null;

/** Decrypts the stored user record; a missing or tampered record yields null. */
export async function loadUser(): Promise<UserRecord | null> {
  const stored = sealedUser();
  if (!stored) return null;
  const { sealed, userSecret } = stored;
  try {
    const [iv, data] = sealed.split('.').map(fromB64);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await aesKey(fromB64(userSecret)), data);
    const user = JSON.parse(new TextDecoder().decode(plain));
    return typeof user?.token === 'string' && typeof user?.username === 'string' ? user : null;
  } catch {
    return null;
  }
}

/** Removes the user record and its key. */
export function clearUser() {
  const { userKey } = readSettings();
  if (userKey) localStorage.removeItem(userKey);
  writeSettings({ userKey: undefined, userSecret: undefined });
}
