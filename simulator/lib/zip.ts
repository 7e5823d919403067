// The trace download's ZIP archive, written by fflate: deflated entries with UTF-8 names, in
// memory, which suits trace logs (at most MAX_READ_BYTES each). It only writes; nothing here
// reads an archive a client sent.
import { zipSync, type Zippable } from 'fflate';

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Modification time, epoch ms. */
  mtime: number;
}

/** Builds a ZIP archive of `entries` as regular rw-r--r-- files made on Unix. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const files: Zippable = {};
  for (const entry of entries) files[entry.name] = [entry.data, { mtime: new Date(entry.mtime), os: 3, attrs: (0o100644 << 16) >>> 0 }];
  return Buffer.from(zipSync(files, { level: 6 }));
}
