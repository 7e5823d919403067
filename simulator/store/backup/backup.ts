// Data backup (emqx_mgmt_data_backup): an export is `emqx-export-<time>.tar.gz` holding
// `<base>/META.hocon` and `<base>/cluster.hocon` — the simulator's persisted configuration state
// as JSON (which is valid HOCON); importing one puts that state back. Files live under
// `<data-dir>/backup/`, or in memory without a data directory. An import is checked item by item
// with the rules the API applies (backup-checks.ts) and applied all or nothing; dashboard users
// and API keys are out of an API key's reach both ways (security.md S19).
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiError } from '../../plugins/errors.ts';
import { checkState, CREDENTIAL_KEYS } from './backup-checks.ts';
import { SELF_NODE } from '../cluster/cluster.ts';
import type { StoreContext } from '../context.ts';
import { insideDir } from '../../lib/inside-dir.ts';
import { JsonInputError, parseOutsideJson } from '../../lib/json.ts';
import type { PersistedState } from '../state.ts';
import { ArchiveError, MiB, targz, untargz, type ArchiveLimits } from '../../lib/tar.ts';
import { rfc3339 } from '../../lib/time.ts';

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
/** Caps on a backup archive (security.md S21); only META.hocon and cluster.hocon are kept. */
export const BACKUP_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 64 * MiB,
  maxTotalBytes: 64 * MiB,
  maxEntries: 100,
  maxEntryBytes: 32 * MiB,
  maxKeptBytes: 32 * MiB,
};
const KEPT = /^[^/]+\/(?:META|cluster)\.hocon$/;

/** Who asks: an API key may neither see nor write dashboard users and API keys (S19). */
export interface BackupCaller {
  apiKey: boolean;
}

export interface ImportOptions extends BackupCaller {
  /** Ends every session of a dashboard user whose password or existence the import changes. */
  revokeUser: (username: string) => void;
}

function stamp(ms: number): string {
  // EMQX: emqx-export-2024-01-31-12-00-00.123.tar.gz (local time).
  const local = rfc3339(ms, 'ms').slice(0, 23);
  return local.replace('T', '-').replace(/:/g, '-');
}

const bad = (message: string) => apiError(400, 'BAD_REQUEST', message);

export class Backups {
  private readonly dir: string | null;
  private readonly memory = new Map<string, { data: Buffer; created: number }>();

  constructor(private readonly ctx: StoreContext, dataDir: string | null) {
    this.dir = dataDir === null ? null : path.join(dataDir, 'backup');
  }

  // Every backup file name matches FILE_NAME wherever it comes from (S22).
  private checkName(filename: string): void {
    if (!FILE_NAME.test(filename) || filename.includes('..')) throw bad(`Invalid backup file name: ${filename}`);
  }

  // The file's path inside `<data-dir>/backup/`, verified to stay there.
  private file(dir: string, filename: string): string {
    this.checkName(filename);
    const file = insideDir(dir, filename);
    if (!file) throw bad(`Invalid backup file name: ${filename}`);
    return file;
  }

  private async save(filename: string, data: Buffer, created: number): Promise<void> {
    if (this.dir) {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(this.file(this.dir, filename), data, { mode: 0o600 });
    } else {
      this.checkName(filename);
      this.memory.set(filename, { data, created });
    }
  }

  private async load(filename: string): Promise<Buffer | null> {
    if (!this.dir) {
      this.checkName(filename);
      return this.memory.get(filename)?.data ?? null;
    }
    const file = this.file(this.dir, filename);
    try {
      return await readFile(file);
    } catch {
      return null;
    }
  }

  /**
   * Writes an export of the whole state, or of the given root keys and table sets. An API key's
   * export leaves dashboard users and API keys out entirely rather than writing them without
   * their hashes: a record without its hash could not be imported back without either locking
   * its user out or keeping a hash the archive does not show. Left out, they are simply not part
   * of the backup, and importing it (even as a full export) keeps the users and keys there are.
   */
  async export(rootKeys: string[] | undefined, tableSets: string[] | undefined, caller: BackupCaller): Promise<BackupFileView> {
    const state = this.ctx.state as unknown as Record<string, unknown>;
    const full = rootKeys === undefined && tableSets === undefined;
    let keys = Object.keys(state);
    if (!full) {
      const unknownSets = (tableSets ?? []).filter((s) => !(s in TABLE_SETS));
      if (unknownSets.length) throw bad(`Invalid table sets: ${unknownSets.join(', ')}`);
      const wanted = new Set<string>([...(rootKeys ?? []), ...(tableSets ?? []).flatMap((s) => TABLE_SETS[s])]);
      keys = keys.filter((k) => wanted.has(k));
    }
    if (caller.apiKey) keys = keys.filter((k) => !(CREDENTIAL_KEYS as readonly string[]).includes(k));
    const now = this.ctx.clock.now();
    const base = `emqx-export-${stamp(now)}`;
    const filename = `${base}.tar.gz`;
    const snapshot = Object.fromEntries(keys.map((k) => [k, state[k]]));
    const meta: Meta = { version: VERSION, edition: 'ce', full, keys };
    const data = await targz([
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

  /** Reads an archive within BACKUP_LIMITS: its META.hocon and cluster.hocon, parsed but unchecked. */
  private async unpack(data: Buffer): Promise<{ meta: Meta; state: Record<string, unknown> }> {
    let entries;
    try {
      entries = await untargz(data, { limits: BACKUP_LIMITS, keep: (name) => KEPT.test(name) });
    } catch (err) {
      if (err instanceof ArchiveError) throw bad(`Invalid backup file: ${err.message}`);
      throw err;
    }
    const find = (suffix: string) => entries.find((e) => e.type === 'file' && e.name.endsWith(`/${suffix}`));
    const metaEntry = find('META.hocon');
    const stateEntry = find('cluster.hocon');
    if (!metaEntry || !stateEntry) throw bad('Invalid backup file: META.hocon or cluster.hocon missing');
    // Depth, prototype keys and overflowing numbers are refused before any check walks the
    // values (security.md S25).
    const read = (entry: { name: string; data: Buffer }) => {
      try {
        return parseOutsideJson(entry.data.toString('utf8'));
      } catch (err) {
        if (err instanceof JsonInputError) throw bad(`Invalid backup file: ${entry.name.split('/').pop()}: ${err.message}`);
        throw err;
      }
    };
    return { meta: read(metaEntry) as Meta, state: read(stateEntry) as Record<string, unknown> };
  }

  /** Reads and checks an archive: its configuration passes every check of backup-checks.ts. */
  private async parse(data: Buffer): Promise<{ meta: Meta; state: Record<string, unknown> }> {
    const { meta, state } = await this.unpack(data);
    if (!meta || typeof meta !== 'object' || Array.isArray(meta) || (meta.full !== undefined && typeof meta.full !== 'boolean')) {
      throw bad('Invalid backup file: META.hocon must be an object whose full is true or false');
    }
    const problem = checkState(state);
    if (problem) throw bad(`Invalid backup file: ${problem}`);
    return { meta, state };
  }

  // S19: what an API key may not see or write. An archive it cannot read counts as holding them.
  private async credentialsIn(data: Buffer): Promise<string[]> {
    try {
      const { state } = await this.unpack(data);
      return CREDENTIAL_KEYS.filter((k) => state && typeof state === 'object' && k in state);
    } catch {
      return [...CREDENTIAL_KEYS];
    }
  }

  private refuseApiKey(keys: readonly string[], what: string): never {
    const held = keys.map((k) => (k === 'users' ? 'dashboard users' : 'API keys')).join(' and ');
    throw apiError(403, 'API_KEY_NOT_ALLOW', `This backup holds ${held}; only a logged-in dashboard user may ${what} it`);
  }

  /** Stores an uploaded export after checking it. */
  async upload(filename: string | undefined, data: Buffer | undefined): Promise<void> {
    if (filename === undefined || data === undefined) throw bad('Missing required parameter: filename');
    const name = path.basename(filename);
    if (!name.endsWith('.tar.gz')) throw bad('Invalid backup file: the file must be a .tar.gz archive');
    this.checkName(name);
    await this.parse(data);
    await this.save(name, data, this.ctx.clock.now());
  }

  /** A stored file's bytes; an API key gets none that hold password or secret hashes (S19). */
  async download(filename: string, caller: BackupCaller): Promise<Buffer> {
    const data = await this.load(filename);
    if (!data) throw apiError(404, 'NOT_FOUND', 'Backup file not found');
    if (caller.apiKey) {
      const held = await this.credentialsIn(data);
      if (held.length > 0) this.refuseApiKey(held, 'download');
    }
    return data;
  }

  async remove(filename: string): Promise<void> {
    const data = await this.load(filename);
    if (!data) throw apiError(404, 'NOT_FOUND', 'Backup file not found');
    if (this.dir) await rm(this.file(this.dir, filename), { force: true });
    else this.memory.delete(filename);
  }

  /**
   * Restores the state of an export: a full export replaces everything, a partial one its keys;
   * dashboard users and API keys a backup does not carry stay as they are. Every item is checked
   * first, so nothing changes unless all pass. Users whose password hash changes or who are gone
   * lose their sessions.
   */
  async import(filename: string, options: ImportOptions): Promise<void> {
    const data = await this.load(filename);
    if (!data) throw bad('Backup file not found');
    const { meta, state: imported } = await this.parse(data);
    const touched = CREDENTIAL_KEYS.filter((k) => k in imported);
    if (options.apiKey && touched.length > 0) this.refuseApiKey(touched, 'import');
    const state = this.ctx.state as unknown as Record<string, unknown>;
    const before = new Map(this.ctx.state.users.map((u) => [u.username, u.password_hash]));
    if (meta.full) {
      for (const key of Object.keys(state)) {
        if (!(key in imported) && !(CREDENTIAL_KEYS as readonly string[]).includes(key)) delete state[key];
      }
    }
    for (const [key, value] of Object.entries(imported)) state[key] = value;
    const after = new Map(this.ctx.state.users.map((u) => [u.username, u.password_hash]));
    for (const [username, hash] of before) if (after.get(username) !== hash) options.revokeUser(username);
    // Not written: persist() puts the state back as it is on disk and rejects (the revoked
    // sessions stay revoked).
    await this.ctx.persist();
    // Live parts (sockets, caches) follow the new state.
    await this.ctx.stateReplaced();
  }
}
