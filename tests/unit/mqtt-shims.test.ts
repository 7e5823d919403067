// The stand-ins of web/shims/mqtt/ behave as the packages they replace, for what mqtt.js uses of
// them: the LRU cache of outgoing topic aliases against the real lru-cache mqtt.js depends on.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const require = createRequire(import.meta.url);
type Cache = { get(k: number): unknown; set(k: number, v: string): unknown; clear(): void; keys(): Iterable<number>; size: number };
type CacheClass = new (options: { max: number }) => Cache;
const { LRUCache: Real } = createRequire(require.resolve('mqtt'))('lru-cache') as { LRUCache: CacheClass };
const { LRUCache: Shim } = require('../../web/shims/mqtt/lru-cache.cjs') as { LRUCache: CacheClass };

type Op = { op: 'get'; key: number } | { op: 'set'; key: number; value: string } | { op: 'clear' };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 1, max: 8 }), value: fc.string({ maxLength: 3 }) }),
  fc.constant({ op: 'clear' as const }),
);

test('the LRU stand-in answers get, size and keys() as lru-cache does, for any sequence of operations', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
      const real = new Real({ max });
      const shim = new Shim({ max });
      for (const o of ops) {
        if (o.op === 'get') assert.is(shim.get(o.key), real.get(o.key));
        else if (o.op === 'set') {
          shim.set(o.key, o.value);
          real.set(o.key, o.value);
        } else {
          shim.clear();
          real.clear();
        }
        assert.is(shim.size, real.size);
        assert.equal([...shim.keys()], [...real.keys()]);
      }
    }),
    { numRuns: 300 },
  );
});

test.run();
