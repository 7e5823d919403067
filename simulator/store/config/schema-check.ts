// The release's config schema as the hocon checker's types (release-tree.ts read through
// lib/hocon-check/dump.ts), and the one way the store refuses a body the broker's schema refuses:
// 400 BAD_REQUEST with every problem in the release's wording, under `root.` as
// emqx_dashboard_swagger.erl check_request_body/5 puts the body.
import { checkBody, type CheckOptions } from '../../lib/hocon-check/check.ts';
import { DumpTypes, type DumpField } from '../../lib/hocon-check/dump.ts';
import { formatErrors } from '../../lib/hocon-check/format.ts';
import type { HoconType } from '../../lib/hocon-check/types.ts';
import { apiError } from '../../plugins/errors.ts';
import type { EmqxVersion, Profile } from '../profile.ts';
import { releaseTree, treeRoot, treeStruct, type TreeField } from './release-tree.ts';

const types = new Map<EmqxVersion, DumpTypes>();
const atoms = new Map<EmqxVersion, Set<string>>();

function typesOf(version: EmqxVersion): DumpTypes {
  let t = types.get(version);
  if (!t) {
    t = new DumpTypes();
    types.set(version, t);
  }
  return t;
}

/** Every enum symbol and singleton of the release's tree: atoms its VM knows. */
function atomsOf(version: EmqxVersion): Set<string> {
  let set = atoms.get(version);
  if (!set) {
    set = new Set();
    const seen = new Set<DumpField[]>();
    const walk = (fields: DumpField[]) => {
      for (const f of fields) {
        for (const m of f.type.matchAll(/Enum\(([^)]*)\)/g)) for (const s of m[1].split(',')) set!.add(s);
        for (const m of f.type.matchAll(/String\("([^"]*)"\)/g)) set!.add(m[1]);
        for (const ref of f.refs ?? []) {
          if (seen.has(ref.fields)) continue;
          seen.add(ref.fields);
          walk(ref.fields);
        }
      }
    };
    walk(releaseTree(version));
    atoms.set(version, set);
  }
  return set;
}

/** The checker's options for a release. */
export function checkOptions(profile: Profile): CheckOptions {
  return { dialect: profile.dialect, atoms: atomsOf(profile.version) };
}

/** The type of a config root of the release, or undefined when its tree has none. */
export function rootType(version: EmqxVersion, root: string): HoconType | undefined {
  const field = treeRoot(version, root);
  return field ? typesOf(version).typeOf(field) : undefined;
}

/** Tree fields of the release as the checker's field types. */
export function fieldTypes(version: EmqxVersion, fields: TreeField[]): ReturnType<DumpTypes['fieldsOf']> {
  return typesOf(version).fieldsOf(fields);
}

/** A named struct below a root (`mqtt_tcp_listener` under `listeners`) as a type. */
export function structType(version: EmqxVersion, root: string, struct: string): HoconType {
  return { kind: 'struct', name: struct, fields: fieldTypes(version, treeStruct(version, root, struct)) };
}

/**
 * Checks a request body against `type` as the broker's request filter does and throws 400
 * BAD_REQUEST naming every problem; returns the checked body (nulls dropped, plain numbers and
 * booleans converted, value syntaxes kept as given).
 */
export function refuseInvalid(profile: Profile, type: HoconType, body: unknown, root = 'root'): unknown {
  const checked = checkBody(type, body, checkOptions(profile), root);
  if (checked.errors.length) throw apiError(400, 'BAD_REQUEST', formatErrors(checked.errors));
  return checked.value;
}

/** The struct a tree field holds (`Struct(x)`, `Map($name->Struct(x))`, `Array(Struct(x))`), when it is one. */
function structOf(field: TreeField): TreeField[] | undefined {
  return /^(Struct|Map\([^)]*->Struct|Array\(Struct)\(/.test(field.type) && field.refs?.length === 1 ? field.refs[0].fields : undefined;
}

/**
 * hocon's unknown-field check alone (hocon_tconf.erl check_unknown_fields/3) down the structs of a
 * release tree, for bodies the store checks value by value itself (connectors, actions, sources,
 * gateways): the first struct with a field the tree lacks is refused with 400 BAD_REQUEST
 * `unknown_fields`. `extra` names the API fields beside the tree's (type, name) and the fields
 * the 5.8+ dumps leave out as ?IMPORTANCE_NO_DOC (`enable`).
 */
export function refuseUnknownFields(fields: TreeField[], body: unknown, extra: readonly string[] = [], path = 'root'): void {
  const walk = (fs: TreeField[], value: unknown, at: string, allowed: readonly string[]): void => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const names = new Set([...allowed, ...fs.flatMap((f) => [f.text, ...(f.aliases ?? [])])]);
    const unknown = Object.keys(value).filter((k) => !names.has(k) && (value as Record<string, unknown>)[k] !== null);
    if (unknown.length) {
      const unmatched = fs.map((f) => f.text).filter((n) => !(n in value));
      const list = (xs: string[]) => { const s = [...xs].sort(); return s.length === 0 ? 'none' : s.length <= 2 ? s.join(',') : `${s.slice(0, 2).join(',')},...`; };
      throw apiError(400, 'BAD_REQUEST', formatErrors([{ kind: 'validation_error', path: at, reason: 'unknown_fields', unknown: list(unknown), unmatched: list(unmatched) }]));
    }
    for (const f of fs) {
      const sub = structOf(f);
      const v = (value as Record<string, unknown>)[f.text];
      if (!sub || v === undefined) continue;
      if (f.type.startsWith('Struct(')) walk(sub, v, `${at}.${f.text}`, []);
      else if (f.type.startsWith('Map(') && v && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(sub, item, `${at}.${f.text}.${k}`, []);
      else if (Array.isArray(v)) v.forEach((item, i) => walk(sub, item, `${at}.${f.text}.${i + 1}`, []));
    }
  };
  walk(fields, body, path, extra);
}

/** The struct of one entry of a map root (`connectors.http`, `gateway.mqttsn`), or undefined. */
export function entryFields(version: EmqxVersion, root: string, entry: string): TreeField[] | undefined {
  const top = treeRoot(version, root)?.refs?.[0]?.fields.find((f) => f.text === entry || f.aliases?.includes(entry));
  return top?.refs?.length === 1 ? top.refs[0].fields : undefined;
}

/**
 * The members of a union of structs (`Array(OneOf(Struct(builtin_db),…))`) that a body picks by
 * its discriminating fields, as the broker's union selectors do (emqx_authn_schema.erl
 * union_member_selector/1 by mechanism and backend, emqx_authz_schema.erl by type): the fields of
 * every struct whose singletons among `keys` equal the body's. Where a further field picks among
 * those (mongo_type, redis_type, use_jwks, method) their fields are taken together.
 */
export function unionMember(field: TreeField | undefined, body: Record<string, unknown>, keys: readonly string[]): TreeField[] | undefined {
  const members = (field?.refs ?? []).map((r) => r.fields).filter((fields) => keys.every((key) => {
    const f = fields.find((x) => x.text === key);
    const m = f ? /^String\("([^"]*)"\)$/.exec(f.type) : null;
    return f ? m !== null && m[1] === body[key] : body[key] === undefined;
  }));
  if (members.length === 0) return undefined;
  const byName = new Map<string, TreeField>();
  for (const fields of members) for (const f of fields) if (!byName.has(f.text)) byName.set(f.text, f);
  return [...byName.values()];
}

/** A struct field of a root (`authorization.sources`), or undefined. */
export function rootField(version: EmqxVersion, root: string, name: string): TreeField | undefined {
  return treeRoot(version, root)?.refs?.[0]?.fields.find((f) => f.text === name);
}
