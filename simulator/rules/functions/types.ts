// Type checks and conversions (is_*, str, int, float, bool, map, …): a conversion that cannot be
// made raises an evaluation error, so the rule does not match.
import { floatText, isObj, toBool, toFloat, toInt, toMap, toStr } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

const check = (f: (v: unknown) => boolean) => def(1, 1, ([v]) => f(v));

export const typeFunctions: FnGroup = {
  is_null: check((v) => v === undefined || v === null),
  is_not_null: check((v) => v !== undefined && v !== null),
  is_str: check((v) => typeof v === 'string'),
  is_bool: check((v) => typeof v === 'boolean'),
  is_int: check((v) => typeof v === 'number' && Number.isInteger(v)),
  is_float: check((v) => typeof v === 'number' && !Number.isInteger(v)),
  is_num: check((v) => typeof v === 'number'),
  is_map: check((v) => isObj(v)),
  is_array: check((v) => Array.isArray(v)),
  str: def(1, 1, ([v]) => toStr(v)),
  str_utf8: def(1, 1, ([v]) => toStr(v)),
  int: def(1, 1, ([v]) => toInt(v)),
  float: def(1, 2, ([v, decimals]) => {
    const f = toFloat(v);
    return decimals === undefined ? f : Number(f.toFixed(toInt(decimals)));
  }),
  float2str: def(2, 2, ([v, decimals]) => floatText(Number(toFloat(v).toFixed(toInt(decimals))))),
  bool: def(1, 1, ([v]) => toBool(v)),
  map: def(1, 1, ([v]) => toMap(v)),
  coalesce: def(1, 64, (args) => {
    const list = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
    return list.find((v) => v !== undefined && v !== null);
  }),
};
