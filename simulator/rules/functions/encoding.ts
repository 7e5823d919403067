// Encoding and decoding: base64, hex strings, JSON.
import { EvalError, str, toStr } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

export const encodingFunctions: FnGroup = {
  base64_encode: def(1, 1, ([v]) => Buffer.from(toStr(v)).toString('base64')),
  base64_decode: def(1, 1, ([v]) => {
    const text = str(v);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw new EvalError('invalid base64');
    return Buffer.from(text, 'base64').toString('utf8');
  }),
  bin2hexstr: def(1, 1, ([v]) => Buffer.from(toStr(v)).toString('hex').toUpperCase()),
  hexstr2bin: def(1, 1, ([v]) => {
    const text = str(v);
    if (!/^([0-9a-fA-F]{2})*$/.test(text)) throw new EvalError('invalid hex string');
    return Buffer.from(text, 'hex').toString('utf8');
  }),
  json_encode: def(1, 1, ([v]) => JSON.stringify(v === undefined ? null : v)),
  json_decode: def(1, 1, ([v]) => {
    try {
      return JSON.parse(str(v));
    } catch {
      throw new EvalError('invalid JSON');
    }
  }),
};
