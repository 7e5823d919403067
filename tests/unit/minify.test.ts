// The build's second minifier pass (build/minify.mjs): it rewrites a module in place, keeps what
// the module does, and minifies a content once (a second build reads it from the cache).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { minifyOutputs } from '../../build/minify.mjs';

const MODULE = `export function total(items) {
  let sum = 0;
  for (const item of items) { const price = item.price; sum += price * item.count; }
  return { sum, text: '合计 ' + sum };
}
`;

test('a module comes out smaller, doing the same, its Chinese text as UTF-8; the same content is minified once', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'minify-'));
  try {
    writeFileSync(path.join(root, 'a.js'), MODULE);
    const sizes = await minifyOutputs(root, ['a.js']);
    const out = readFileSync(path.join(root, 'a.js'), 'utf8');
    assert.is(sizes['a.js'], Buffer.byteLength(out));
    assert.ok(out.length < MODULE.length, out);
    assert.ok(out.includes('合计'), out);
    const mod = await import(`data:text/javascript,${encodeURIComponent(out)}`);
    assert.equal(mod.total([{ price: 2, count: 3 }, { price: 1, count: 4 }]), { sum: 10, text: '合计 10' });
    const cache = path.join(root, 'node_modules/.cache/console-minify');
    assert.is(readdirSync(cache).length, 1);
    // The cached result is what a second build writes (a changed cache entry shows it was read).
    writeFileSync(path.join(cache, readdirSync(cache)[0]), 'export const cached = 1;');
    writeFileSync(path.join(root, 'a.js'), MODULE);
    await minifyOutputs(root, ['a.js']);
    assert.is(readFileSync(path.join(root, 'a.js'), 'utf8'), 'export const cached = 1;');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
