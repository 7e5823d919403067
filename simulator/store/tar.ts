// A minimal ustar (POSIX.1-1988) reader and writer with gzip on top, for plugin packages and
// data backups: regular files and directories only, names up to 255 bytes (prefix + name), all
// in memory. Reading checks header checksums and sizes so a truncated or corrupt archive is an
// error with a plain reason instead of a partial result.
import { gunzipSync, gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  data: Buffer;
  /** Modification time, epoch ms. */
  mtime?: number;
  type?: 'file' | 'directory';
}

/** A problem with an archive; `message` is fit for an API answer. */
export class ArchiveError extends Error {}

const BLOCK = 512;

function writeString(header: Buffer, value: string, offset: number, length: number): void {
  header.write(value, offset, length, 'utf8');
}

function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

// Splits a long path at a slash so that it fits the 155-byte prefix and 100-byte name fields.
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.lastIndexOf('/'); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new ArchiveError(`file name too long for ustar: ${name}`);
}

function header(entry: TarEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  const directory = entry.type === 'directory';
  const { prefix, base } = splitName(directory && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name);
  writeString(h, base, 0, 100);
  writeOctal(h, directory ? 0o755 : 0o644, 100, 8);
  writeOctal(h, 0, 108, 8);
  writeOctal(h, 0, 116, 8);
  writeOctal(h, directory ? 0 : entry.data.length, 124, 12);
  writeOctal(h, Math.floor((entry.mtime ?? Date.now()) / 1000), 136, 12);
  h.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  h[156] = directory ? 0x35 : 0x30;
  writeString(h, 'ustar\0', 257, 6);
  writeString(h, '00', 263, 2);
  writeString(h, prefix, 345, 155);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

/** Builds an uncompressed tar archive. */
export function tar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry));
    if (entry.type === 'directory') continue;
    parts.push(entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  // Two zero blocks end the archive.
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError('corrupt tar header');
  return parseInt(text, 8);
}

/** Reads a tar archive; regular files and directories are returned, other entry kinds skipped. */
export function untar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | null = null;
  let ended = false;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) {
      ended = true;
      break;
    }
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
    if (readOctal(block, 148, 8) !== sum) throw new ArchiveError('corrupt tar header (checksum mismatch)');
    const size = readOctal(block, 124, 12);
    const type = String.fromCharCode(block[156] || 0x30);
    const prefix = block.subarray(257, 262).toString('latin1') === 'ustar' ? readString(block, 345, 155) : '';
    const base = readString(block, 0, 100);
    const name = longName ?? (prefix ? `${prefix}/${base}` : base);
    longName = null;
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new ArchiveError('truncated archive');
    const data = archive.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    const mtime = readOctal(block, 136, 12) * 1000;
    if (type === 'L') {
      // GNU long name: the next entry's name is this entry's data.
      longName = readString(data, 0, data.length);
    } else if (type === '0' || type === '\0' || type === '7') {
      entries.push({ name, data: Buffer.from(data), mtime, type: 'file' });
    } else if (type === '5') {
      entries.push({ name: name.replace(/\/+$/, ''), data: Buffer.alloc(0), mtime, type: 'directory' });
    }
  }
  if (!ended && offset < archive.length) throw new ArchiveError('truncated archive');
  if (!ended && entries.length === 0) throw new ArchiveError('empty or truncated archive');
  return entries;
}

/** Builds a .tar.gz archive. */
export function targz(entries: readonly TarEntry[]): Buffer {
  return gzipSync(tar(entries));
}

/** Reads a .tar.gz archive; a bad gzip stream or tar structure throws ArchiveError. */
export function untargz(archive: Buffer): TarEntry[] {
  let plain: Buffer;
  try {
    plain = gunzipSync(archive);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ArchiveError(code === 'Z_BUF_ERROR' ? 'truncated archive (unexpected end of gzip data)' : 'not a gzip archive');
  }
  return untar(plain);
}
