// The whole function library of the rule SQL, grouped like the broker's function reference.
import { randomUUID } from 'node:crypto';
import { arrayFunctions } from './array.ts';
import { compressionFunctions } from './compression.ts';
import { encodingFunctions } from './encoding.ts';
import { hashFunctions } from './hash.ts';
import { mapFunctions } from './map.ts';
import { mathFunctions } from './math.ts';
import { def, type FnGroup } from './registry.ts';
import { schemaFunctions } from './schema.ts';
import { stringFunctions } from './string.ts';
import { timeFunctions } from './time.ts';
import { typeFunctions } from './types.ts';

export { callFn, type FnContext } from './registry.ts';

export const FUNCTIONS: FnGroup = {
  ...mathFunctions,
  ...typeFunctions,
  ...stringFunctions,
  ...mapFunctions,
  ...arrayFunctions,
  ...hashFunctions,
  ...encodingFunctions,
  ...compressionFunctions,
  ...timeFunctions,
  ...schemaFunctions,
  uuid_v4: def(0, 0, () => randomUUID()),
  uuid_v4_no_hyphen: def(0, 0, () => randomUUID().replace(/-/g, '')),
};
