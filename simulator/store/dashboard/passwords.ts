// Password and secret hashing for dashboard users and API keys (security.md S4): salted scrypt
// for passwords, salted SHA-256 for the 256-bit random API secrets, and the password rule of the
// product specification (part2 §5). Nothing here ever logs or returns a password.
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// OWASP's scrypt baseline (N=2^14, r=8, p=1); maxmem must exceed 128·N·r bytes.
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$key` (base64 salt and key). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password against a stored hash in constant time for equal-length keys. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem,
  });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// A hash no password matches, so an unknown user costs the same work as a known one (S1).
const DECOY_SALT = randomBytes(16);

/** Spends one password derivation without any outcome, for unknown usernames (S1). */
export async function spendOneHash(password: string): Promise<void> {
  await derive(password, DECOY_SALT, SCRYPT);
}

/**
 * Hashes an API secret. The secret is 32 random bytes, so a fast salted digest is enough:
 * a slow KDF protects guessable passwords, not 256-bit random values.
 */
export function hashSecret(secret: string): string {
  const salt = randomBytes(16).toString('base64');
  const digest = createHash('sha256').update(salt).update(secret).digest('base64');
  return `sha256$${salt}$${digest}`;
}

/** Checks an API secret against `hashSecret` output in constant time. */
export function verifySecret(secret: string, stored: string): boolean {
  const [kind, salt, digest] = stored.split('$');
  if (kind !== 'sha256' || salt === undefined || !digest) return false;
  const expected = Buffer.from(digest, 'base64');
  const actual = createHash('sha256').update(salt).update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * The password rule (spec part2 §5, EMQX `legal_password`): 8–64 printable ASCII characters
 * from at least two of letters, digits and symbols (space counts as a symbol). Returns the
 * reason as EMQX words it, or null when the password is acceptable.
 */
export function passwordRuleError(password: string): string | null {
  if (password.length < 8 || password.length > 64) return 'The range of password length is 8~64';
  if (!/^[\x20-\x7e]*$/.test(password)) return 'Only ascii characters are allowed in the password';
  const kinds = [/[a-zA-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  if (kinds < 2) {
    return 'Bad password. At least two different kinds of characters from groups of letters, numbers, and special characters';
  }
  return null;
}
