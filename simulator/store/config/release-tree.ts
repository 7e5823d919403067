// The config schema tree of each broker release (fixtures/profiles/<version>/config.json, written by
// tools/profiles/generate.mjs from the dumps in ../shared/reference), read once per release and
// expanded back into the dump's shape (fields with their structs in `refs`) for the config roots,
// the /schemas documents and the hocon checker. It knows no root by name.
import { readFileSync } from 'node:fs';
import type { DumpField } from '../../lib/hocon-check/dump.ts';
import type { Limits } from '../../lib/hocon-check/types.ts';
import type { EmqxVersion } from '../profile.ts';

interface CompactField {
  n: string;
  t: string;
  d?: string;
  a?: string[];
  k?: Record<string, string>;
  l?: Limits;
  h?: 1;
  x?: 1;
  o?: 1;
  s?: 'keys';
  m?: Record<string, string>;
  r?: string[];
}

/** A field of a release tree: the dump's shape, with the generator's refinements. */
export interface TreeField extends DumpField {
  limits?: Limits;
  /** `required => {false, recursively}`: left out of the defaults unless given. */
  optional?: boolean;
  refs?: { text: string; fields: TreeField[] }[];
}

interface ReleaseData {
  tree: TreeField[];
  /** What a fresh broker's config files set over the defaults, by root. */
  base: Record<string, unknown>;
}

const trees = new Map<EmqxVersion, ReleaseData>();

function expand(compact: { roots: CompactField[]; structs: Record<string, CompactField[]> }): TreeField[] {
  const structs = new Map<string, TreeField[]>();
  const fieldOf = (c: CompactField): TreeField => {
    const f: TreeField = { text: c.n, type: c.t };
    if (c.d !== undefined) f.default = c.d;
    if (c.a) f.aliases = c.a;
    if (c.k) f.kind = c.k;
    if (c.l) f.limits = c.l;
    if (c.h) f.hidden = true;
    if (c.x) f.deprecated = true;
    if (c.o) f.optional = true;
    if (c.s) f.select = c.s;
    if (c.m) f.names = c.m;
    if (c.r) f.refs = c.r.map((id) => ({ text: id.replace(/#\d+$/, ''), fields: structOf(id) }));
    return f;
  };
  const structOf = (id: string): TreeField[] => {
    let fields = structs.get(id);
    if (!fields) {
      // Registered before it is filled, so a struct that refers to itself ends.
      fields = [];
      structs.set(id, fields);
      fields.push(...(compact.structs[id] ?? []).map(fieldOf));
    }
    return fields;
  };
  return compact.roots.map(fieldOf);
}

function load(version: EmqxVersion): ReleaseData {
  let data = trees.get(version);
  if (!data) {
    const compact = JSON.parse(readFileSync(new URL(`../../../fixtures/profiles/${version}/config.json`, import.meta.url), 'utf8'));
    data = { tree: expand(compact), base: compact.base ?? {} };
    trees.set(version, data);
  }
  return data;
}

/** The root fields of a release's tree. */
export function releaseTree(version: EmqxVersion): TreeField[] {
  return load(version).tree;
}

/** What a fresh broker of the release has in its config files for a root (etc/*.conf, base.hocon). */
export function releaseBase(version: EmqxVersion, root: string): Record<string, unknown> {
  return structuredClone((load(version).base[root] ?? {}) as Record<string, unknown>);
}

/** A top-level field of a release's tree, or undefined. */
export function treeRoot(version: EmqxVersion, root: string): TreeField | undefined {
  return releaseTree(version).find((f) => f.text === root);
}

/** The fields of a named struct anywhere below a root (`mqtt_tcp_listener` under `listeners`). */
export function treeStruct(version: EmqxVersion, root: string, struct: string): TreeField[] {
  const seen = new Set<TreeField[]>();
  const search = (fields: TreeField[]): TreeField[] | null => {
    for (const f of fields) {
      for (const ref of f.refs ?? []) {
        if (ref.text === struct) return ref.fields;
        if (seen.has(ref.fields)) continue;
        seen.add(ref.fields);
        const found = search(ref.fields);
        if (found) return found;
      }
    }
    return null;
  };
  const top = treeRoot(version, root);
  return top ? search([top]) ?? [] : [];
}
