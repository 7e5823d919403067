/**
 * Nested configuration objects and the flat dotted names forms use (`ssl.enable`): `flatten`
 * turns what the API returns into form values, `unflatten` turns form values back into the body.
 * Arrays and non-plain values are leaves.
 */
type Obj = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

export function flatten(value: Obj, prefix = ''): Obj {
  const out: Obj = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(inner) && Object.keys(inner).length > 0) Object.assign(out, flatten(inner, name));
    else out[name] = inner;
  }
  return out;
}

export function unflatten(values: Obj): Obj {
  const out: Obj = {};
  for (const [name, value] of Object.entries(values)) {
    const parts = name.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(target[part])) target[part] = {};
      target = target[part] as Obj;
    }
    target[parts[parts.length - 1]] = value;
  }
  return out;
}

/** The value at a dotted path, or undefined. */
export function getPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (isPlainObject(v) ? v[key] : undefined), value);
}
