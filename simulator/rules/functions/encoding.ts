// Encoding and decoding: base64, hex strings, JSON.
import { isUtf8 } from 'node:buffer';
import { EvalError, str, toStr } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

/** Decoded bytes: text when they are UTF-8, else the bytes themselves (e.g. for schema_decode). */
function binary(bytes: Buffer): string | Buffer {
  return isUtf8(bytes) ? bytes.toString('utf8') : bytes;
}

export const encodingFunctions: FnGroup = {
  base64_encode: def(1, 1, ([v]) => (Buffer.isBuffer(v) ? v : Buffer.from(toStr(v))).toString('base64')),
  base64_decode: def(1, 1, ([v]) => {
    const text = str(v);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw new EvalError('invalid base64');
    return binary(Buffer.from(text, 'base64'));
  }),
  bin2hexstr: def(1, 1, ([v]) => (Buffer.isBuffer(v) ? v : Buffer.from(toStr(v))).toString('hex').toUpperCase()),
  hexstr2bin: def(1, 1, ([v]) => {
    const text = str(v);
    if (!/^([0-9a-fA-F]{2})*$/.test(text)) throw new EvalError('invalid hex string');
    return binary(Buffer.from(text, 'hex'));
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
