// An RFC 6238 TOTP of the tests' own (WebCrypto HMAC-SHA1 and a BigInt base32 reader), written
// apart from the simulator's simulator/lib/totp.ts so that a code it computes judges that one.
import { webcrypto } from 'node:crypto';

/** RFC 4648 base32 to bytes through one BigInt, the other way round from lib/totp.ts. */
export function fromBase32(text: string): Uint8Array {
  const digits = text.replace(/=/g, '').toUpperCase();
  let n = 0n;
  for (const c of digits) n = (n << 5n) | BigInt('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(c));
  const bytes = Math.floor((digits.length * 5) / 8);
  n >>= BigInt(digits.length * 5 - bytes * 8);
  const out = new Uint8Array(bytes);
  for (let i = bytes - 1; i >= 0; i--) {
    out[i] = Number(n & 255n);
    n >>= 8n;
  }
  return out;
}

/** RFC 6238 TOTP (SHA-1, 30 s) of raw key bytes at `ms`, `digits` long. */
export async function code(key: Uint8Array, ms: number, digits = 6): Promise<string> {
  const counter = new DataView(new ArrayBuffer(8));
  counter.setBigUint64(0, BigInt(Math.floor(ms / 30_000)));
  const hmacKey = await webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await webcrypto.subtle.sign('HMAC', hmacKey, counter.buffer));
  const at = mac[19] & 0x0f;
  const value = ((mac[at] & 0x7f) * 2 ** 24) + (mac[at + 1] << 16) + (mac[at + 2] << 8) + mac[at + 3];
  return (value % 10 ** digits).toString().padStart(digits, '0');
}

/** The six-digit code of a base32 key (spaces allowed, as the console shows it) at `ms`. */
export const totpOf = (key: string, ms = Date.now()) => code(fromBase32(key.replace(/\s/g, '')), ms);
