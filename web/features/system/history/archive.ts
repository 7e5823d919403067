/**
 * Reading broker backups in the browser and comparing them: the archive is gunzipped with
 * `DecompressionStream`, untarred with nanotar, and its `cluster.hocon` (emqx_mgmt_data_backup's
 * layout) parsed with the HOCON reader the simulator uses too; two configurations are compared
 * root by root (listeners, authorization, rule_engine …). The built-in database tables of an
 * archive are binary mnesia backups: they are listed, not compared.
 */
import { parseTar } from 'nanotar';
import { parseHocon, type HoconObject, type HoconValue } from '../../../../common/hocon.ts';
import { api } from '../../../lib/api.ts';

export interface Backup {
  node: string;
  filename: string;
  size?: number;
  created_at: string;
}

export interface Archive {
  cluster: HoconObject;
  /** Names of the built-in database tables it holds. */
  tables: string[];
}

/** Reads a backup archive (.tar.gz bytes). */
export async function readArchive(data: Blob): Promise<Archive> {
  const tar = await new Response(data.stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  const entries = parseTar(tar);
  const cluster = entries.find((e) => /^[^/]+\/cluster\.hocon$/.test(e.name));
  return {
    cluster: cluster ? parseHocon(cluster.text) : {},
    tables: entries.map((e) => /^[^/]+\/mnesia\/([^/]+)$/.exec(e.name)?.[1]).filter((n): n is string => Boolean(n)),
  };
}

/** Downloads and reads one stored backup. */
export async function loadArchive(file: Backup): Promise<Archive> {
  const blob = await api.get<Blob>(`/data/files/${encodeURIComponent(file.filename)}`, { params: { node: file.node }, responseType: 'blob' });
  return readArchive(blob);
}

/** The configuration as it is now: a fresh export, read and deleted again. */
export async function loadNow(): Promise<Archive> {
  const made = await api.post<Backup>('/data/export', {});
  try {
    return await loadArchive(made);
  } finally {
    await api.del(`/data/files/${encodeURIComponent(made.filename)}`, { params: { node: made.node } });
  }
}

export interface Change {
  /** The root (section) it belongs to: `listeners`, `authorization` … */
  section: string;
  /** Dotted path below the root, e.g. `tcp.default.max_connections`. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

const isObject = (v: HoconValue | undefined): v is HoconObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** How a list item is known across versions (authenticators, sources, servers, topics). */
function itemKey(item: HoconValue, index: number): string {
  if (!isObject(item)) return String(index);
  const id = item.mechanism ? `${item.mechanism}:${item.backend ?? ''}` : item.type ?? item.name ?? item.topic ?? item.id ?? item.name_vsn;
  return id === undefined ? String(index) : String(id);
}
const text = (v: HoconValue | undefined) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

function walk(section: string, path: string[], a: HoconValue | undefined, b: HoconValue | undefined, out: Change[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const at = path.join('.');
  if (a === undefined) return void out.push({ section, path: at, kind: 'added', after: text(b) });
  if (b === undefined) return void out.push({ section, path: at, kind: 'removed', before: text(a) });
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(section, [...path, key], a[key], b[key], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && [...a, ...b].every(isObject)) {
    const byKey = (list: HoconValue[]) => new Map(list.map((item, i) => [itemKey(item, i), item]));
    const [x, y] = [byKey(a), byKey(b)];
    if (x.size === a.length && y.size === b.length) {
      for (const key of new Set([...x.keys(), ...y.keys()])) walk(section, [...path, key], x.get(key), y.get(key), out);
      return;
    }
  }
  out.push({ section, path: at, kind: 'changed', before: text(a), after: text(b) });
}

/** What changes from configuration `a` to `b`, root by root, in the order of the roots. */
export function diffConfigs(a: HoconObject, b: HoconObject): Change[] {
  const out: Change[] = [];
  for (const root of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) walk(root, [], a[root], b[root], out);
  return out;
}

/**
 * What restoring `backup` does to `now`: the roots it holds replace the current ones, the roots
 * it does not hold stay (emqx_mgmt_data_backup imports only what the archive carries).
 */
export function restoreChanges(backup: HoconObject, now: HoconObject): { changes: Change[]; kept: string[] } {
  const kept = Object.keys(now).filter((root) => !(root in backup)).sort();
  const current = Object.fromEntries(Object.entries(now).filter(([root]) => root in backup));
  return { changes: diffConfigs(current, backup), kept };
}
