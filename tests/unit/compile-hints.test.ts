// V8's compile hint on the modules sign-in leads to (build/compile-hints.mjs): the named lazy
// modules' outputs and their static imports get it, not what they import lazily; it is written
// once, on the first line, and the metafile's sizes follow.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addCompileHints, COMPILE_HINT, hintedFiles } from '../../build/compile-hints.mjs';

const imp = (p: string, kind = 'import-statement') => ({ path: p, kind });
const outputs = () => ({
  'dist/static/main-A.js': { entryPoint: 'web/main.tsx', imports: [imp('dist/static/chunks/chunk-lib.js'), imp('dist/static/chunks/Shell-B.js', 'dynamic-import')], bytes: 10 },
  'dist/static/chunks/chunk-lib.js': { imports: [], bytes: 10 },
  'dist/static/chunks/Shell-B.js': { entryPoint: 'web/app/Shell.tsx', imports: [imp('dist/static/chunks/chunk-lib.js'), imp('dist/static/chunks/chunk-shared.js'), imp('dist/static/chunks/screens-C.js', 'dynamic-import')], bytes: 10 },
  'dist/static/chunks/chunk-shared.js': { imports: [imp('dist/static/chunks/chunk-deep.js')], bytes: 10 },
  'dist/static/chunks/chunk-deep.js': { imports: [], bytes: 10 },
  'dist/static/chunks/screens-C.js': { entryPoint: 'web/features/a/screens.ts', imports: [imp('dist/static/chunks/chunk-shared.js'), imp('dist/static/chunks/frappe-D.js', 'dynamic-import')], bytes: 10 },
  'dist/static/chunks/screens-E.js': { entryPoint: 'web/features/b/screens.ts', imports: [imp('dist/static/chunks/chunk-other.js')], bytes: 10 },
  'dist/static/chunks/chunk-other.js': { imports: [], bytes: 10 },
  'dist/static/chunks/frappe-D.js': { entryPoint: 'node_modules/frappe-charts/dist/frappe-charts.esm.js', imports: [], bytes: 10 },
  'dist/static/shell-F.css': { entryPoint: 'shell-styles:shell', imports: [], bytes: 10 },
});

test('the named modules and their static imports, transitively; not their lazy imports, other screens or the entry', () => {
  assert.equal(hintedFiles(outputs(), ['web/app/Shell.tsx', 'web/features/a/screens.ts']), [
    'dist/static/chunks/Shell-B.js',
    'dist/static/chunks/chunk-deep.js',
    'dist/static/chunks/chunk-lib.js',
    'dist/static/chunks/chunk-shared.js',
    'dist/static/chunks/screens-C.js',
  ]);
  assert.equal(hintedFiles(outputs(), ['web/none.ts']), []);
});

test('the hint is the first line, written once; the module still runs and its size is counted', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hints-'));
  try {
    const file = 'a.js';
    const code = 'export const answer = () => 42;\n';
    writeFileSync(path.join(root, file), code);
    const meta = { [file]: { imports: [], bytes: Buffer.byteLength(code) } };
    addCompileHints(root, meta, [file]);
    addCompileHints(root, meta, [file]);
    const out = readFileSync(path.join(root, file), 'utf8');
    assert.is(out, COMPILE_HINT + code);
    assert.is(out.split('\n')[0], '//# allFunctionsCalledOnLoad');
    assert.is(meta[file].bytes, Buffer.byteLength(out));
    const mod = await import(`data:text/javascript,${encodeURIComponent(out)}`);
    assert.is(mod.answer(), 42);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
