// .tar.gz reading and writing for plugin packages and data backups, on tar-stream over node:zlib.
// Reading streams the gzip data and refuses an archive as soon as it passes one of its caps
// (security.md S21): compressed size, inflated total, number of entries, size of one entry. Only
// the entries a caller keeps are held in memory; the others are counted and dropped. Regular
// files and directories are returned; links and devices are skipped, never followed.
import { createGunzip, gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';

export interface TarEntry {
  name: string;
  data: Buffer;
  /** Modification time, epoch ms. */
  mtime?: number;
  type?: 'file' | 'directory';
}

/** A problem with an archive; `message` is fit for an API answer. */
export class ArchiveError extends Error {}

/** Hard limits on one archive; every read has them, callers only tighten or widen them. */
export interface ArchiveLimits {
  /** Bytes of the .tar.gz itself. */
  maxCompressedBytes: number;
  /** Bytes after gunzip (tar headers and padding included). */
  maxTotalBytes: number;
  /** Entries of any kind. */
  maxEntries: number;
  /** Bytes of one entry, as its header declares and as it arrives. */
  maxEntryBytes: number;
  /** Bytes of one entry the caller keeps in memory. */
  maxKeptBytes: number;
}

export const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 64 * MiB,
  maxTotalBytes: 64 * MiB,
  maxEntries: 1000,
  maxEntryBytes: 32 * MiB,
  maxKeptBytes: 32 * MiB,
};

export interface ReadOptions {
  limits?: Partial<ArchiveLimits>;
  /** Which regular files to hold in memory (every one by default); the others are only counted. */
  keep?: (name: string) => boolean;
}

function gzipProblem(err: NodeJS.ErrnoException): ArchiveError {
  return new ArchiveError(err.code === 'Z_BUF_ERROR' ? 'truncated archive (unexpected end of gzip data)' : 'not a gzip archive');
}

function tarProblem(err: Error): ArchiveError {
  if (err instanceof ArchiveError) return err;
  if (/unexpected end/i.test(err.message)) return new ArchiveError('truncated archive');
  return new ArchiveError('corrupt tar archive');
}

/** Reads a .tar.gz archive within `limits`; a bad gzip stream, tar structure or a cap throws ArchiveError. */
export async function untargz(archive: Buffer, options: ReadOptions = {}): Promise<TarEntry[]> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const keep = options.keep ?? (() => true);
  if (archive.length > limits.maxCompressedBytes) throw new ArchiveError(`archive larger than ${limits.maxCompressedBytes} bytes`);
  const gunzip = createGunzip();
  const extract = tarStream.extract();
  let inflated = 0;
  // The inflated bytes are counted before tar-stream sees them, so a bomb stops at the cap
  // whatever its headers say; backpressure keeps at most a few chunks in flight.
  gunzip.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > limits.maxTotalBytes) {
      gunzip.destroy();
      extract.destroy(new ArchiveError(`archive inflates to more than ${limits.maxTotalBytes} bytes`));
    } else if (!extract.write(chunk)) {
      gunzip.pause();
    }
  });
  extract.on('drain', () => gunzip.resume());
  // streamx's end() takes an optional last chunk; its typings make it required.
  gunzip.on('end', () => extract.end(undefined));
  gunzip.on('error', (err) => extract.destroy(gzipProblem(err)));
  gunzip.end(archive);

  const entries: TarEntry[] = [];
  let count = 0;
  try {
    for await (const entry of extract) {
      const { name, type, size = 0, mtime } = entry.header;
      if (++count > limits.maxEntries) throw new ArchiveError(`archive has more than ${limits.maxEntries} entries`);
      if (size > limits.maxEntryBytes) throw new ArchiveError(`entry ${name} is larger than ${limits.maxEntryBytes} bytes`);
      const file = type === 'file' || type === 'contiguous-file';
      const kept = file && keep(name);
      if (kept && size > limits.maxKeptBytes) throw new ArchiveError(`entry ${name} is larger than ${limits.maxKeptBytes} bytes`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) if (kept) chunks.push(chunk as Buffer);
      const time = mtime ? mtime.getTime() : undefined;
      if (kept) entries.push({ name, data: Buffer.concat(chunks), mtime: time, type: 'file' });
      else if (type === 'directory') entries.push({ name: name.replace(/\/+$/, ''), data: Buffer.alloc(0), mtime: time, type: 'directory' });
    }
  } catch (err) {
    throw tarProblem(err as Error);
  } finally {
    gunzip.destroy();
    extract.destroy();
  }
  if (count === 0) throw new ArchiveError('empty archive');
  return entries;
}

/** Builds a .tar.gz archive (ustar, with pax headers for long names). */
export async function targz(entries: readonly TarEntry[]): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const entry of entries) {
    const mtime = new Date(entry.mtime ?? Date.now());
    if (entry.type === 'directory') pack.entry({ name: entry.name, type: 'directory', mode: 0o755, mtime });
    else pack.entry({ name: entry.name, type: 'file', mode: 0o644, size: entry.data.length, mtime }, entry.data);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}
