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
import { releaseTree, treeRoot, treeStruct } from './release-tree.ts';

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

/** A named struct below a root (`mqtt_tcp_listener` under `listeners`) as a type. */
export function structType(version: EmqxVersion, root: string, struct: string): HoconType {
  return { kind: 'struct', name: struct, fields: typesOf(version).fieldsOf(treeStruct(version, root, struct)) };
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
