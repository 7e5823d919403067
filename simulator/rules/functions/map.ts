// Map functions: map_get/map_put with nested `a.b` keys, mget/mput for plain keys, keys, values
// and map_to_entries.
import { isObj, nestedGet, nestedPut, str, toMap, type Obj } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

export const mapFunctions: FnGroup = {
  map_get: def(2, 3, ([key, map, fallback]) => {
    const value = nestedGet(toMap(map), str(key).split('.'));
    return value === undefined ? fallback : value;
  }),
  map_put: def(3, 3, ([key, value, map]) => nestedPut(structuredClone(toMap(map)) as Obj, str(key).split('.'), value)),
  mget: def(2, 3, ([key, map, fallback]) => {
    const value = toMap(map)[str(key)];
    return value === undefined ? fallback : value;
  }),
  mput: def(3, 3, ([key, value, map]) => ({ ...toMap(map), [str(key)]: value })),
  map_keys: def(1, 1, ([map]) => Object.keys(toMap(map))),
  map_values: def(1, 1, ([map]) => Object.values(toMap(map))),
  map_to_entries: def(1, 1, ([map]) => Object.entries(toMap(map)).map(([key, value]) => ({ key, value }))),
  map_size: def(1, 1, ([map]) => Object.keys(toMap(map)).length),
  is_empty_map: def(1, 1, ([map]) => isObj(map) && Object.keys(map).length === 0),
};
