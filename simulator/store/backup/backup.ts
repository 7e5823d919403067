// Data backup (emqx_mgmt_data_backup): an export is `emqx-export-<time>.tar.gz` in the broker's
// layout (layout.ts): `<base>/META.hocon`, `<base>/cluster.hocon` with the configuration as HOCON
// and `<base>/mnesia/<table>` per built-in database table; importing one puts back what it holds.
// Files live under `<data-dir>/backup/`, or in memory without a data directory. An import is
// checked item by item with the rules the API applies (backup-checks.ts) and applied all or
// nothing; dashboard users and API keys are out of an API key's reach both ways (security.md S19).
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiError } from '../../plugins/errors.ts';
import { checkState, CREDENTIAL_KEYS } from './backup-checks.ts';
import { CREDENTIAL_SETS, decode, encode, tableSets, unknownRoots } from './layout.ts';
import { SELF_NODE } from '../cluster/cluster.ts';
import type { StoreContext } from '../context.ts';
import { HoconError, parseHocon, writeHocon, type HoconObject } from '../../lib/hocon.ts';
import { insideDir } from '../../lib/inside-dir.ts';
import { JsonInputError, nonFinitePath, parseOutsideJson } from '../../lib/json.ts';
import { compareVersions } from '../profile.ts';
import type { PersistedState } from '../state.ts';
import { ArchiveError, MiB, targz, untargz, type ArchiveLimits } from '../../lib/tar.ts';
import { rfc3339 } from '../../lib/time.ts';

/** emqx_mgmt_data_backup's backup_file_info: also `size` and `created_at_sec`, which the API passes on. */
export interface BackupFileView {
  node: string;
  filename: string;
  size: number;
  created_at: string;
  created_at_sec: number;
}

/** META.hocon: the release that wrote the archive. */
interface Meta {
  version: string;
  edition: string;
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}\.tar\.gz$/;
/** Caps on a backup archive (security.md S21); only META.hocon, cluster.hocon and the tables are kept. */
export const BACKUP_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 64 * MiB,
  maxTotalBytes: 64 * MiB,
  maxEntries: 100,
  maxEntryBytes: 32 * MiB,
  maxKeptBytes: 32 * MiB,
};
const KEPT = /^[^/]+\/(?:(?:META|cluster)\.hocon|mnesia\/[a-z0-9_]+)$/;
/** A mnesia table file's name inside the archive. */
const TABLE_ENTRY = /^[^/]+\/mnesia\/([a-z0-9_]+)$/;

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
   * Writes an export of the whole configuration and every table, or of the given roots
   * (`root_keys`) and table sets (`table_sets`, 5.8+), each narrowing only its own part as in
   * parse_export_request. An API key's export leaves the dashboard users' and API keys' tables out
   * entirely rather than writing them without their hashes: a record without its hash could not be
   * imported back without either locking its user out or keeping a hash the archive does not show.
   */
  async export(rootKeys: string[] | undefined, sets: string[] | undefined, caller: BackupCaller): Promise<BackupFileView> {
    const { profile } = this.ctx;
    const unknownSets = (sets ?? []).filter((s) => !tableSets(profile).includes(s));
    if (unknownSets.length) throw bad(`Invalid table sets: ${unknownSets.sort().join(', ')}`);
    let chosen = sets ?? tableSets(profile);
    if (caller.apiKey) chosen = chosen.filter((s) => !CREDENTIAL_SETS.includes(s));
    const { cluster, tables } = encode(this.ctx.state, profile, { rootKeys, sets: chosen });
    const now = this.ctx.clock.now();
    const base = `emqx-export-${stamp(now)}`;
    const filename = `${base}.tar.gz`;
    const meta: Meta = { edition: profile.edition, version: profile.version };
    const data = await targz([
      { name: base, data: Buffer.alloc(0), type: 'directory', mtime: now },
      { name: `${base}/META.hocon`, data: Buffer.from(writeHocon(meta as unknown as HoconObject)), mtime: now },
      { name: `${base}/cluster.hocon`, data: Buffer.from(writeHocon(cluster)), mtime: now },
      { name: `${base}/mnesia`, data: Buffer.alloc(0), type: 'directory', mtime: now },
      ...Object.entries(tables).map(([table, rows]) => ({ name: `${base}/mnesia/${table}`, data: Buffer.from(JSON.stringify(rows)), mtime: now })),
    ]);
    await this.save(filename, data, now);
    return view(filename, data.length, now);
  }

  async list(): Promise<BackupFileView[]> {
    const rows: { filename: string; created: number; size: number }[] = [];
    if (this.dir) {
      let names: string[] = [];
      try {
        names = await readdir(this.dir);
      } catch {
        names = [];
      }
      for (const filename of names.filter((n) => FILE_NAME.test(n))) {
        const info = await stat(path.join(this.dir, filename));
        rows.push({ filename, created: info.mtimeMs, size: info.size });
      }
    } else {
      for (const [filename, { created, data }] of this.memory) rows.push({ filename, created, size: data.length });
    }
    rows.sort((a, b) => b.created - a.created || b.filename.localeCompare(a.filename));
    return rows.map((r) => view(r.filename, r.size, r.created));
  }

  /** Reads an archive within BACKUP_LIMITS: META.hocon, cluster.hocon (may be missing) and the tables, parsed but unchecked. */
  private async unpack(data: Buffer): Promise<{ meta: Meta; cluster: HoconObject; tables: Record<string, unknown> }> {
    let entries;
    try {
      entries = await untargz(data, { limits: BACKUP_LIMITS, keep: (name) => KEPT.test(name) });
    } catch (err) {
      if (err instanceof ArchiveError) throw bad(`Invalid backup file: ${err.message}`);
      throw err;
    }
    const files = entries.filter((e) => e.type === 'file');
    // validate_backup: every file sits under the one <backup name> directory.
    const bases = new Set(files.map((e) => e.name.split('/')[0]));
    if (bases.size > 1) throw bad('invalid backup archive content: all files in the archive must be under <backup name> directory');
    const find = (suffix: string) => files.find((e) => e.name.endsWith(`/${suffix}`) && e.name.split('/').length === 2);
    const metaEntry = find('META.hocon');
    if (!metaEntry) throw bad('invalid backup archive file: missing META.hocon');
    // The HOCON reader refuses deep nesting and prototype keys; table files are JSON from outside;
    // no number may overflow to Infinity (security.md S25).
    const read = (entry: { name: string; data: Buffer }, parse: (text: string) => unknown) => {
      const file = entry.name.split('/').pop();
      try {
        const value = parse(entry.data.toString('utf8'));
        const infinite = nonFinitePath(value);
        if (infinite !== null) throw bad(`Invalid backup file: ${file}: ${infinite || 'the value'} is not a finite number`);
        return value;
      } catch (err) {
        if (err instanceof HoconError || err instanceof JsonInputError) throw bad(`Invalid backup file: ${file}: ${err.message}`);
        throw err;
      }
    };
    const meta = read(metaEntry, parseHocon) as unknown as Meta;
    const clusterEntry = find('cluster.hocon');
    const cluster = clusterEntry ? (read(clusterEntry, parseHocon) as HoconObject) : {};
    const tables: Record<string, unknown> = {};
    for (const e of files) {
      const table = TABLE_ENTRY.exec(e.name)?.[1];
      if (table) tables[table] = read(e, parseOutsideJson);
    }
    return { meta, cluster, tables };
  }

  /** check_edition and check_version of emqx_mgmt_data_backup: no Enterprise backup into Community, none from a newer release. */
  private checkMeta(meta: Meta): void {
    if (meta.edition !== 'ee' && meta.edition !== 'ce') throw bad('invalid backup archive content: wrong EMQX edition value in META.hocon');
    if (meta.edition === 'ee' && this.ctx.profile.edition === 'ce') throw bad('importing EMQX Enterprise data backup to EMQX is not allowed');
    const version = String(meta.version ?? '');
    if (!/^\d+\.\d+/.test(version)) throw bad('invalid backup archive content: wrong EMQX version value in META.hocon');
    const minor = (v: string) => v.split('.').slice(0, 2).join('.');
    if (compareVersions(minor(version), minor(this.ctx.profile.version)) > 0) {
      throw bad(`[warning] Backup version "${version}" is newer than EMQX version "${this.ctx.profile.version}", import is not allowed.`);
    }
  }

  /** Reads and checks an archive: its META fits this release and what it restores passes every check of backup-checks.ts. */
  private async parse(data: Buffer): Promise<Partial<PersistedState>> {
    const { meta, cluster, tables } = await this.unpack(data);
    this.checkMeta(meta);
    const unknown = unknownRoots(cluster);
    if (unknown.length) throw bad(`Invalid backup file: unknown configuration root ${unknown.join(', ')}`);
    const state = decode({ cluster, tables });
    const problem = checkState(state);
    if (problem) throw bad(`Invalid backup file: ${problem}`);
    return state;
  }

  // S19: what an API key may not see or write. An archive it cannot read counts as holding them.
  private async credentialsIn(data: Buffer): Promise<string[]> {
    try {
      const { tables } = await this.unpack(data);
      return CREDENTIAL_KEYS.filter((k) => (k === 'users' ? 'emqx_admin' : 'emqx_app') in tables);
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
   * Restores what an export holds: each configuration root of its cluster.hocon and each of its
   * tables replaces the current one; roots and tables it does not carry stay as they are
   * (import_cluster_hocon, import_mnesia_tabs). Every item is checked first, so nothing changes
   * unless all pass. Users whose password hash changes or who are gone lose their sessions.
   */
  async import(filename: string, options: ImportOptions): Promise<void> {
    const data = await this.load(filename);
    if (!data) throw bad('Backup file not found');
    const imported = await this.parse(data);
    const touched = CREDENTIAL_KEYS.filter((k) => k in imported);
    if (options.apiKey && touched.length > 0) this.refuseApiKey(touched, 'import');
    const state = this.ctx.state as unknown as Record<string, unknown>;
    const before = new Map(this.ctx.state.users.map((u) => [u.username, u.password_hash]));
    for (const [key, value] of Object.entries(imported)) {
      // An empty table leaves a part that was never configured unconfigured.
      if (!(key in state) && empty(value)) continue;
      state[key] = value;
    }
    const after = new Map(this.ctx.state.users.map((u) => [u.username, u.password_hash]));
    for (const [username, hash] of before) if (after.get(username) !== hash) options.revokeUser(username);
    // Not written: persist() puts the state back as it is on disk and rejects (the revoked
    // sessions stay revoked).
    await this.ctx.persist();
    // Live parts (sockets, caches) follow the new state.
    await this.ctx.stateReplaced();
  }
}

/** A list row or export answer: created_at in seconds, as the file's ctime is (RFC 3339 and epoch). */
function view(filename: string, size: number, createdMs: number): BackupFileView {
  const sec = Math.floor(createdMs / 1000);
  return { node: SELF_NODE, filename, size, created_at: rfc3339(sec * 1000), created_at_sec: sec };
}

/** An empty list, or an object of empty lists (the built-in rules). */
function empty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => Array.isArray(v) && v.length === 0);
}
