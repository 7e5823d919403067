// Installed plugins (emqx_plugins, emqx-api-part1 §21): a package is a `<name>-<vsn>.tar.gz`
// that is really unpacked for its `<name>-<vsn>/release.json` and README; install order is the
// boot order, and start/stop state and order persist. With --data-dir the package itself is kept
// under `plugins/`.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { insideDir } from '../../lib/inside-dir.ts';
import { ArchiveError, MiB, untargz, type ArchiveLimits } from '../../lib/tar.ts';

/** A plugin as persisted: its release.json, README, run state and config. */
export interface PluginRecord {
  /** `<name>-<rel_vsn>`, the path id. */
  id: string;
  info: Record<string, unknown>;
  readme: string;
  running: boolean;
  installed_at: number;
  /** Current config (5.7+ plugin config), when the package ships one. */
  config?: Record<string, unknown>;
  /** Avro schema and i18n from the package, when present. */
  avsc?: Record<string, unknown>;
  i18n?: Record<string, unknown>;
}

export interface PluginView extends Record<string, unknown> {
  name: string;
  rel_vsn: string;
  running_status: { node: string; status: 'running' | 'stopped' }[];
  readme?: string;
}

export const PLUGIN_ID = /^[A-Za-z]+[A-Za-z0-9-_.]*$/;
/**
 * Caps on a package (security.md S21): the upload itself, what it inflates to, its entries. Only
 * the few metadata files are kept in memory, each at most 1 MiB; the rest is counted and dropped.
 */
export const PACKAGE_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 64 * MiB,
  maxTotalBytes: 256 * MiB,
  maxEntries: 10_000,
  maxEntryBytes: 64 * MiB,
  maxKeptBytes: 1 * MiB,
};
const METADATA = /^(?:\.\/)?[^/]+\/(?:release\.json|README\.md|config\.json|config_schema\.avsc|config_i18n\.json)$/;
const FORM_HINT = 'form-data should be plugin=@packagename-vsn.tar.gz;type=application/x-gzip';

function parseJson(data: Buffer, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(data.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw apiError(400, 'BAD_PLUGIN_INFO', `${what} is not a valid JSON object`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why a stored plugin record is unusable, or null: the same name rules as an install (the id is
 * `<name>-<rel_vsn>` and matches PLUGIN_ID), for records that arrive by a backup import.
 */
export function pluginRecordProblem(value: unknown): string | null {
  if (!isObject(value)) return 'must be an object';
  const { id, info, readme, running, installed_at } = value;
  if (typeof id !== 'string' || !PLUGIN_ID.test(id)) return `id must match ${PLUGIN_ID.source}`;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.rel_vsn !== 'string') return 'info.name and info.rel_vsn are required';
  if (`${info.name}-${info.rel_vsn}` !== id) return 'id must be <info.name>-<info.rel_vsn>';
  if (typeof readme !== 'string' || typeof running !== 'boolean' || typeof installed_at !== 'number') return 'readme, running and installed_at are required';
  for (const key of ['config', 'avsc', 'i18n'] as const) if (value[key] !== undefined && !isObject(value[key])) return `${key} must be an object`;
  return null;
}

export class Plugins {
  private readonly dir: string | null;

  constructor(
    private readonly ctx: StoreContext,
    dataDir: string | null,
    private readonly nodes: () => string[],
  ) {
    this.dir = dataDir === null ? null : path.join(dataDir, 'plugins');
  }

  // Reads never add the key to the state (a refused write must leave the state as it was).
  private get records(): PluginRecord[] {
    return this.ctx.state.plugins ?? [];
  }

  private find(id: string): PluginRecord {
    const record = this.records.find((p) => p.id === id);
    if (!record) throw apiError(404, 'NOT_FOUND', id);
    return record;
  }

  private view(record: PluginRecord, detail: boolean): PluginView {
    const info = record.info;
    const status = record.running ? 'running' : 'stopped';
    const view: PluginView = {
      ...info,
      name: String(info.name),
      rel_vsn: String(info.rel_vsn),
      // release.json says `authors`; the API schema names it `author`: both are sent.
      author: info.author ?? info.authors ?? [],
      running_status: this.nodes().map((node) => ({ node, status })),
    };
    if (detail) view.readme = record.readme;
    return view;
  }

  list(): PluginView[] {
    return this.records.map((p) => this.view(p, false));
  }

  get(id: string): PluginView {
    return this.view(this.find(id), true);
  }

  /** Reads and checks a package; nothing is installed unless every check passes. */
  async install(filename: string | undefined, data: Buffer | undefined): Promise<PluginView> {
    if (filename === undefined || data === undefined) throw apiError(400, 'BAD_FORM_DATA', FORM_HINT);
    const base = path.basename(filename);
    if (!base.endsWith('.tar.gz')) throw apiError(400, 'BAD_FORM_DATA', `${FORM_HINT} (got ${base})`);
    let entries;
    try {
      entries = await untargz(data, { limits: PACKAGE_LIMITS, keep: (name) => METADATA.test(name) });
    } catch (err) {
      if (err instanceof ArchiveError) throw apiError(400, 'BAD_PLUGIN_INFO', `bad plugin package ${base}: ${err.message}`);
      throw err;
    }
    const release = entries.find((e) => e.type === 'file' && /^[^/]+\/release\.json$/.test(e.name.replace(/^\.\//, '')));
    if (!release) throw apiError(400, 'BAD_PLUGIN_INFO', `bad plugin package ${base}: <name>-<vsn>/release.json not found`);
    const root = release.name.replace(/^\.\//, '').split('/')[0];
    const info = parseJson(release.data, 'release.json');
    for (const key of ['name', 'rel_vsn'] as const) {
      if (typeof info[key] !== 'string' || info[key] === '') throw apiError(400, 'BAD_PLUGIN_INFO', `release.json: ${key} is required`);
    }
    const id = `${info.name}-${info.rel_vsn}`;
    if (!PLUGIN_ID.test(id)) throw apiError(400, 'BAD_PLUGIN_INFO', `release.json: invalid plugin name ${id}`);
    if (root !== id) throw apiError(400, 'BAD_PLUGIN_INFO', `release.json is in ${root}/, expected ${id}/`);
    if (this.records.some((p) => p.id === id)) throw apiError(400, 'ALREADY_INSTALLED', `${id} already installed`);
    const file = (suffix: string) => entries.find((e) => e.type === 'file' && e.name.replace(/^\.\//, '') === `${id}/${suffix}`);
    const record: PluginRecord = {
      id,
      info,
      readme: file('README.md')?.data.toString('utf8') ?? '',
      running: false,
      installed_at: this.ctx.clock.now(),
    };
    const config = file('config.json');
    if (config) record.config = parseJson(config.data, 'config.json');
    const avsc = file('config_schema.avsc');
    if (avsc) record.avsc = parseJson(avsc.data, 'config_schema.avsc');
    const i18n = file('config_i18n.json');
    if (i18n) record.i18n = parseJson(i18n.data, 'config_i18n.json');
    if (this.dir) {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(this.packageFile(id), data, { mode: 0o600 });
    }
    this.ctx.state.plugins = [...this.records, record];
    await this.ctx.persist();
    return this.view(record, true);
  }

  async uninstall(id: string): Promise<void> {
    const record = this.find(id);
    this.ctx.state.plugins = this.records.filter((p) => p !== record);
    await this.ctx.persist();
    // A record with an id no API would take (an old or edited state file) has no file to remove.
    const file = this.dir && PLUGIN_ID.test(id) ? insideDir(this.dir, `${id}.tar.gz`) : null;
    if (file) await rm(file, { force: true });
  }

  // The package's path; the id was checked against PLUGIN_ID by whoever built the record.
  private packageFile(id: string): string {
    const file = PLUGIN_ID.test(id) && this.dir ? insideDir(this.dir, `${id}.tar.gz`) : null;
    if (!file) throw apiError(400, 'BAD_PLUGIN_INFO', `invalid plugin name ${id}`);
    return file;
  }

  async setRunning(id: string, running: boolean): Promise<void> {
    this.find(id).running = running;
    await this.ctx.persist();
  }

  /** front | rear | before:<id> | after:<id>, as emqx_plugins:ensure_enabled/2 positions. */
  async move(id: string, position: string): Promise<void> {
    const record = this.find(id);
    const match = /^(front|rear)$|^(before|after):(.+)$/.exec(position);
    if (!match) throw apiError(400, 'BAD_POSITION', `Invalid parameter. Unknow position: ${position}`);
    const rest = this.records.filter((p) => p !== record);
    let index: number;
    if (match[1] === 'front') index = 0;
    else if (match[1] === 'rear') index = rest.length;
    else {
      const target = rest.findIndex((p) => p.id === match[3]);
      if (target === -1) throw apiError(400, 'MOVE_FAILED', `position_anchor_plugin_not_configured: ${match[3]}`);
      index = match[2] === 'before' ? target : target + 1;
    }
    rest.splice(index, 0, record);
    this.ctx.state.plugins = rest;
    await this.ctx.persist();
  }

  config(id: string): Record<string, unknown> {
    const record = this.find(id);
    if (!record.config) throw apiError(400, 'BAD_CONFIG', 'Plugin Config Not Found');
    return record.config;
  }

  async setConfig(id: string, config: Record<string, unknown>): Promise<void> {
    const record = this.find(id);
    const fields = (record.avsc?.fields ?? []) as { name: string; type: unknown }[];
    for (const field of fields) {
      const value = config[field.name];
      if (value === undefined) continue;
      const type = typeof field.type === 'string' ? field.type : null;
      const ok = type === null
        || (type === 'string' && typeof value === 'string')
        || (type === 'boolean' && typeof value === 'boolean')
        || ((type === 'int' || type === 'long') && Number.isInteger(value))
        || ((type === 'float' || type === 'double') && typeof value === 'number');
      if (!ok) throw apiError(400, 'BAD_CONFIG', `${field.name}: expected ${type}`);
    }
    record.config = config;
    await this.ctx.persist();
  }

  schema(id: string): { avsc: Record<string, unknown> | null; i18n: Record<string, unknown> | null } {
    const record = this.find(id);
    if (!record.avsc) throw apiError(404, 'FILE_NOT_EXISTED', 'Plugin Config Schema Not Found');
    return { avsc: record.avsc, i18n: record.i18n ?? null };
  }
}
