// hocon's unknown-field check for bodies that the store validates itself (config roots, settings):
// a key the current value does not have is refused with 400 naming it, as EMQX refuses a field its
// schema does not declare. The current value stands in for the schema: everything GET shows can be
// sent back, and an empty object is a map whose keys are free (headers, labels).
import { apiError, unknownFieldMessage } from '../../plugins/errors.ts';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The dotted path of the first key of `value` that `template` lacks, or null. */
export function unknownKey(template: unknown, value: unknown, path = ''): string | null {
  if (!isObj(template) || !isObj(value) || Object.keys(template).length === 0) return null;
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(template, key)) return at;
    const deeper = unknownKey(template[key], v, at);
    if (deeper) return deeper;
  }
  return null;
}

/** Throws 400 BAD_REQUEST `unknown_fields` when `value` has a key `template` lacks. */
export function refuseUnknown(template: unknown, value: unknown, root = 'root'): void {
  const key = unknownKey(template, value);
  if (key) throw apiError(400, 'BAD_REQUEST', unknownFieldMessage(key, root));
}
