// Array functions: nth (1-based), length, sublist, first, last, contains.
import { EvalError, toArray, toInt } from '../values.ts';
import { def, type FnGroup } from './registry.ts';

export const arrayFunctions: FnGroup = {
  nth: def(2, 2, ([n, list]) => {
    const items = toArray(list);
    const i = toInt(n);
    if (i < 1 || i > items.length) throw new EvalError(`nth: index ${i} out of range`);
    return items[i - 1];
  }),
  length: def(1, 1, ([list]) => toArray(list).length),
  // sublist(Len, List) or sublist(Start, Len, List) with a 1-based start.
  sublist: def(2, 3, (args) => {
    const items = toArray(args[args.length - 1]);
    if (args.length === 2) return items.slice(0, toInt(args[0]));
    const start = toInt(args[0]) - 1;
    return items.slice(start, start + toInt(args[1]));
  }),
  first: def(1, 1, ([list]) => {
    const items = toArray(list);
    if (items.length === 0) throw new EvalError('first of an empty list');
    return items[0];
  }),
  last: def(1, 1, ([list]) => {
    const items = toArray(list);
    if (items.length === 0) throw new EvalError('last of an empty list');
    return items[items.length - 1];
  }),
  contains: def(2, 2, ([item, list]) => toArray(list).some((x) => JSON.stringify(x) === JSON.stringify(item))),
};
