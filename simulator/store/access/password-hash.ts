// The password hashing of EMQX's built-in database and DB authenticators
// (emqx_authn_password_hashing): plain/md5/sha/sha256/sha512 with the salt before or after the
// password or none, pbkdf2 (node crypto) and bcrypt (bcryptjs). Hashes are hex except plain and
// bcrypt, whose stored hash is the full `$2b$…` string with its salt. PBKDF2 and bcrypt run on
// the worker pool (lib/hash-pool.ts), never on the event loop; the simple digests stay inline.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { bcryptCompare, bcryptHash, pbkdf2Hex } from '../../lib/hash-pool.ts';

export type SaltPosition = 'disable' | 'prefix' | 'suffix';

export interface HashAlgorithm {
  name: 'plain' | 'md5' | 'sha' | 'sha256' | 'sha512' | 'bcrypt' | 'pbkdf2';
  salt_position?: SaltPosition;
  salt_rounds?: number;
  mac_fun?: string;
  iterations?: number;
  dk_length?: number;
}

export const SIMPLE_HASHES = ['plain', 'md5', 'sha', 'sha256', 'sha512'] as const;
export const MAC_FUNS = ['md4', 'md5', 'ripemd160', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;

const DIGEST: Record<string, string> = { md5: 'md5', sha: 'sha1', sha256: 'sha256', sha512: 'sha512', sha224: 'sha224', sha384: 'sha384', md4: 'md4', ripemd160: 'ripemd160' };

/** A fresh salt for a new user: bcrypt's own salt string, 16 random hex bytes otherwise. */
export function newSalt(algorithm: HashAlgorithm): string {
  if (algorithm.name === 'bcrypt') return bcrypt.genSaltSync(algorithm.salt_rounds ?? 10);
  if (algorithm.name === 'pbkdf2') return randomBytes(16).toString('hex');
  return algorithm.salt_position === 'disable' ? '' : randomBytes(16).toString('hex');
}

/**
 * The simulator's bound on PBKDF2 work, where EMQX has none beyond positive integers
 * (emqx_authn_password_hashing.erl at e5.8.9: `iterations` and `dk_length` are pos_integer()) and
 * relies on the connection's own process: iterations × output blocks (dk_length over the
 * digest's length). 10,000,000 is some seconds of one worker, e.g. 600,000 iterations of a
 * 32-byte SHA-256 key sixteen times over.
 */
export const MAX_PBKDF2_WORK = 10_000_000;
/** Longest derived key accepted, in bytes. */
export const MAX_DK_LENGTH = 1024;

function digestOf(algorithm: HashAlgorithm): string {
  return DIGEST[algorithm.mac_fun ?? 'sha256'] ?? 'sha256';
}

/** Why a PBKDF2 setting is over the simulator's bounds, or null. */
export function pbkdf2Problem(iterations: number, dkLength: number | undefined, macFun: string | undefined): string | null {
  const digestLength = createHash(DIGEST[macFun ?? 'sha256'] ?? 'sha256').digest().length;
  if (dkLength !== undefined && dkLength > MAX_DK_LENGTH) return `dk_length must be at most ${MAX_DK_LENGTH}`;
  const blocks = Math.ceil((dkLength ?? digestLength) / digestLength);
  if (iterations * blocks > MAX_PBKDF2_WORK) return `iterations × ${blocks} output block(s) must be at most ${MAX_PBKDF2_WORK}`;
  return null;
}

/** The stored hash of `password` with `salt`. */
export async function hashWith(algorithm: HashAlgorithm, password: string, salt: string): Promise<string> {
  switch (algorithm.name) {
    case 'bcrypt':
      return bcryptHash(password, salt);
    case 'pbkdf2': {
      const digest = digestOf(algorithm);
      const length = algorithm.dk_length ?? createHash(digest).digest().length;
      return pbkdf2Hex(password, salt, algorithm.iterations ?? 1, length, digest);
    }
    default: {
      const position = algorithm.salt_position ?? 'prefix';
      const input = position === 'prefix' ? salt + password : position === 'suffix' ? password + salt : password;
      if (algorithm.name === 'plain') return input;
      return createHash(DIGEST[algorithm.name]).update(input).digest('hex');
    }
  }
}

/** True when `password` hashes to `stored` (constant time for equal lengths). */
export async function checkPassword(algorithm: HashAlgorithm, password: string, stored: string, salt: string): Promise<boolean> {
  if (algorithm.name === 'bcrypt') return bcryptCompare(password, stored).catch(() => false);
  const actual = Buffer.from((await hashWith(algorithm, password, salt).catch(() => '')).toLowerCase());
  const expected = Buffer.from(algorithm.name === 'plain' ? stored : stored.toLowerCase());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
