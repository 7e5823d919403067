// Compression functions: gzip/gunzip (gzip header and checksum), zip/unzip (raw deflate) and
// zip_compress/zip_uncompress (zlib header and checksum). Results are binaries: text when the
// bytes are UTF-8, the bytes otherwise (so bin2hexstr/base64_encode can take them).
import { isUtf8 } from 'node:buffer';
import zlib from 'node:zlib';
import { EvalError, toStr } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

const bytesOf = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(toStr(v)));
const binary = (bytes: Buffer): string | Buffer => (isUtf8(bytes) ? bytes.toString('utf8') : bytes);

function codec(name: string, run: (input: Buffer) => Buffer) {
  return def(1, 1, ([v]) => {
    try {
      return binary(run(bytesOf(v)));
    } catch (err) {
      throw new EvalError(`${name}: ${(err as Error).message}`);
    }
  });
}

export const compressionFunctions: FnGroup = {
  gzip: codec('gzip', (b) => zlib.gzipSync(b)),
  gunzip: codec('gunzip', (b) => zlib.gunzipSync(b)),
  zip: codec('zip', (b) => zlib.deflateRawSync(b)),
  unzip: codec('unzip', (b) => zlib.inflateRawSync(b)),
  zip_compress: codec('zip_compress', (b) => zlib.deflateSync(b)),
  zip_uncompress: codec('zip_uncompress', (b) => zlib.inflateSync(b)),
};
