// Hash functions: md5, sha, sha256 as lower-case hex.
import { createHash } from 'node:crypto';
import { toStr } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

const hash = (algorithm: string) => def(1, 1, ([v]) => createHash(algorithm).update(toStr(v)).digest('hex'));

export const hashFunctions: FnGroup = {
  md5: hash('md5'),
  sha: hash('sha1'),
  sha256: hash('sha256'),
};
