// Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) with node's crypto, as the broker's
// dashboard checks them: HMAC-SHA1, 30-second steps, six digits, a base32 secret of 20 random bytes
// without padding (emqx_dashboard_mfa.erl init/1 and verify_totp/2 at e5.10.4 and 6.2.2, through
// pot 1.0.2 with its defaults). Only the current step is accepted: pot's `window` defaults to 0.
// It knows nothing of users or storage.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STEP_SECONDS = 30;
const DIGITS = 6;
// emqx_dashboard_mfa.erl ?TOTP_KEY_BYTES.
const SECRET_BYTES = 20;

/** RFC 4648 base32 without padding, upper case. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (either case, padding ignored); null when a character is not in the alphabet. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret for an authenticator app (32 base32 characters). */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

/** The HOTP code of `counter` (RFC 4226 §5.3 dynamic truncation), zero-padded to six digits. */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = digest[digest.length - 1] & 15;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}

/** The TOTP code of a base32 secret at `nowMs`. */
export function totp(secret: string, nowMs: number): string {
  const key = base32Decode(secret);
  if (!key) throw new Error('not a base32 secret');
  return hotp(key, Math.floor(nowMs / 1000 / STEP_SECONDS));
}

/** Whether `token` is the six-digit code of `secret` for the step `nowMs` falls in. */
export function verifyTotp(secret: string, token: string, nowMs: number): boolean {
  if (!/^[0-9]{6}$/.test(token)) return false;
  const key = base32Decode(secret);
  if (!key) return false;
  const expected = Buffer.from(hotp(key, Math.floor(nowMs / 1000 / STEP_SECONDS)));
  return timingSafeEqual(expected, Buffer.from(token));
}
