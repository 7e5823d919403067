// Data backup (emqx_mgmt_data_backup): an export is `emqx-export-<time>.tar.gz` holding
// `<base>/META.hocon` and `<base>/cluster.hocon` — the simulator's persisted configuration state
// as JSON (which is valid HOCON); importing one puts that state back. Files live under
// `<data-dir>/backup/`, or in memory without a data directory.
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiError } from '../plugins/errors.ts';
import { SELF_NODE } from './cluster.ts';
import type { StoreContext } from './context.ts';
import type { PersistedState } from './state.ts';
import { ArchiveError, targz, untargz } from './tar.ts';
import { rfc3339 } from './time.ts';

export interface BackupFileView {
  node: string;
  filename: string;
  created_at: string;
}

interface Meta {
  version: string;
  edition: string;
  /** Everything was exported: importing replaces the whole state. */
  full: boolean;
  keys: string[];
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}\.tar\.gz$/;
const VERSION = '5.5.1';
// Table sets (mnesia tables in EMQX) and the state keys they stand for.
const TABLE_SETS: Record<string, (keyof PersistedState)[]> = {
  dashboard_users: ['users'],
  api_keys: ['api_keys'],
};

function stamp(ms: number): string {
  // EMQX: emqx-export-2024-01-31-12-00-00.123.tar.gz (local time).
  const local = rfc3339(ms, 'ms').slice(0, 23);
  return local.replace('T', '-').replace(/:/g, '-');
}

export class Backups {
  private readonly dir: string | null;
  private readonly memory = new Map<string, { data: Buffer; created: number }>();
  private readonly importHooks: (() => Promise<void> | void)[] = [];

  constructor(private readonly ctx: StoreContext, dataDir: string | null) {
    this.dir = dataDir === null ? null : path.join(dataDir, 'backup');
  }

  /** Runs after an import replaced the state, so live parts (sockets, caches) follow it. */
  onImport(fn: () => Promise<void> | void): void {
    this.importHooks.push(fn);
  }

  private checkName(filename: string): void {
    if (!FILE_NAME.test(filename) || filename.includes('..')) throw apiError(400, 'BAD_REQUEST', `Invalid backup file name: ${filename}`);
  }

  private async save(filename: string, data: Buffer, created: number): Promise<void> {
    if (this.dir) {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(path.join(this.dir, filename), data, { mode: 0o600 });
    } else {
      this.memory.set(filename, { data, created });
    }
  }

  private async load(filename: string): Promise<Buffer | null> {
    this.checkName(filename);
    if (!this.dir) return this.memory.get(filename)?.data ?? null;
    try {
      return await readFile(path.join(this.dir, filename));
    } catch {
      return null;
    }
  }

  /** Writes an export of the whole state, or of the given root keys and table sets. */
  async export(rootKeys?: string[], tableSets?: string[]): Promise<BackupFileView> {
    const state = this.ctx.state as unknown as Record<string, unknown>;
    const full = rootKeys === undefined && tableSets === undefined;
    let keys = Object.keys(state);
    if (!full) {
      const unknownSets = (tableSets ?? []).filter((s) => !(s in TABLE_SETS));
      if (unknownSets.length) throw apiError(400, 'BAD_REQUEST', `Invalid table sets: ${unknownSets.join(', ')}`);
      const wanted = new Set<string>([...(rootKeys ?? []), ...(tableSets ?? []).flatMap((s) => TABLE_SETS[s])]);
      keys = keys.filter((k) => wanted.has(k));
    }
    const now = this.ctx.clock.now();
    const base = `emqx-export-${stamp(now)}`;
    const filename = `${base}.tar.gz`;
    const snapshot = Object.fromEntries(keys.map((k) => [k, state[k]]));
    const meta: Meta = { version: VERSION, edition: 'ce', full, keys };
    const data = targz([
      { name: base, data: Buffer.alloc(0), type: 'directory', mtime: now },
      { name: `${base}/META.hocon`, data: Buffer.from(JSON.stringify(meta, null, 2)), mtime: now },
      { name: `${base}/cluster.hocon`, data: Buffer.from(JSON.stringify(snapshot, null, 2)), mtime: now },
    ]);
    await this.save(filename, data, now);
    return { node: SELF_NODE, filename, created_at: rfc3339(now) };
  }

  async list(): Promise<BackupFileView[]> {
    const rows: { filename: string; created: number }[] = [];
    if (this.dir) {
      let names: string[] = [];
      try {
        names = await readdir(this.dir);
      } catch {
        names = [];
      }
      for (const filename of names.filter((n) => FILE_NAME.test(n))) {
        rows.push({ filename, created: (await stat(path.join(this.dir, filename))).mtimeMs });
      }
    } else {
      for (const [filename, { created }] of this.memory) rows.push({ filename, created });
    }
    rows.sort((a, b) => b.created - a.created || b.filename.localeCompare(a.filename));
    return rows.map((r) => ({ node: SELF_NODE, filename: r.filename, created_at: rfc3339(r.created) }));
  }

  /** Reads and checks an archive: it must be a .tar.gz export with META.hocon and cluster.hocon. */
  private parse(data: Buffer): { meta: Meta; state: Record<string, unknown> } {
    let entries;
    try {
      entries = untargz(data);
    } catch (err) {
      if (err instanceof ArchiveError) throw apiError(400, 'BAD_REQUEST', `Invalid backup file: ${err.message}`);
      throw err;
    }
    const find = (suffix: string) => entries.find((e) => e.type === 'file' && /^[^/]+\/[^/]+$/.test(e.name) && e.name.endsWith(`/${suffix}`));
    const metaEntry = find('META.hocon');
    const stateEntry = find('cluster.hocon');
    if (!metaEntry || !stateEntry) throw apiError(400, 'BAD_REQUEST', 'Invalid backup file: META.hocon or cluster.hocon missing');
    try {
      const meta = JSON.parse(metaEntry.data.toString('utf8')) as Meta;
      const state = JSON.parse(stateEntry.data.toString('utf8')) as Record<string, unknown>;
      if (!state || typeof state !== 'object' || Array.isArray(state)) throw new Error('not an object');
      return { meta, state };
    } catch {
      throw apiError(400, 'BAD_REQUEST', 'Invalid backup file: unreadable configuration');
    }
  }

  /** Stores an uploaded export after checking it. */
  async upload(filename: string | undefined, data: Buffer | undefined): Promise<void> {
    if (filename === undefined || data === undefined) throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: filename');
    const name = path.basename(filename);
    if (!name.endsWith('.tar.gz')) throw apiError(400, 'BAD_REQUEST', 'Invalid backup file: the file must be a .tar.gz archive');
    this.checkName(name);
    this.parse(data);
    await this.save(name, data, this.ctx.clock.now());
  }

  async read(filename: string): Promise<Buffer> {
    const data = await this.load(filename);
    if (!data) throw apiError(404, 'NOT_FOUND', 'Backup file not found');
    return data;
  }

  async remove(filename: string): Promise<void> {
    const data = await this.load(filename);
    if (!data) throw apiError(404, 'NOT_FOUND', 'Backup file not found');
    if (this.dir) await rm(path.join(this.dir, filename), { force: true });
    else this.memory.delete(filename);
  }

  /** Restores the state of an export: a full export replaces everything, a partial one its keys. */
  async import(filename: string): Promise<void> {
    const data = await this.load(filename);
    if (!data) throw apiError(400, 'BAD_REQUEST', 'Backup file not found');
    const { meta, state: imported } = this.parse(data);
    const state = this.ctx.state as unknown as Record<string, unknown>;
    if (meta.full) {
      for (const key of Object.keys(state)) if (!(key in imported)) delete state[key];
    }
    for (const [key, value] of Object.entries(imported)) state[key] = value;
    state.users ??= [];
    state.api_keys ??= [];
    await this.ctx.persist();
    for (const hook of this.importHooks) await hook();
  }
}
