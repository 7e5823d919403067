// The password hashing of EMQX's built-in database and DB authenticators
// (emqx_authn_password_hashing): plain/md5/sha/sha256/sha512 with the salt before or after the
// password or none, pbkdf2 (node crypto) and bcrypt (bcryptjs). Hashes are hex except plain and
// bcrypt, whose stored hash is the full `$2b$…` string with its salt.
import { createHash, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

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

/** The stored hash of `password` with `salt`. */
export function hashWith(algorithm: HashAlgorithm, password: string, salt: string): string {
  switch (algorithm.name) {
    case 'bcrypt':
      return bcrypt.hashSync(password, salt);
    case 'pbkdf2': {
      const digest = DIGEST[algorithm.mac_fun ?? 'sha256'] ?? 'sha256';
      const length = algorithm.dk_length ?? createHash(digest).digest().length;
      return pbkdf2Sync(password, salt, algorithm.iterations ?? 1, length, digest).toString('hex');
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
export function checkPassword(algorithm: HashAlgorithm, password: string, stored: string, salt: string): boolean {
  if (algorithm.name === 'bcrypt') {
    try {
      return bcrypt.compareSync(password, stored);
    } catch {
      return false;
    }
  }
  const actual = Buffer.from(hashWith(algorithm, password, salt).toLowerCase());
  const expected = Buffer.from(algorithm.name === 'plain' ? stored : stored.toLowerCase());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
