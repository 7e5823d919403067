// The build's chunk rule (build/chunks.mjs): the generic modules that two or more lazily loaded
// parts reach, and the login page does not, go in one chunk; the console's graph has such modules.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { importGraph, lazyEntries, sharedGeneric, staticClosure, type Graph } from '../../build/chunks.mjs';

const imp = (p: string, kind = 'import-statement') => ({ path: p, kind });
const graph: Graph = {
  'web/main.tsx': { imports: [imp('web/lib/i18n.ts'), imp('web/app/Shell.tsx', 'dynamic-import'), imp('react', 'import-statement')] },
  'web/lib/i18n.ts': { imports: [] },
  'web/app/Shell.tsx': { imports: [imp('web/ui/Drawer.tsx'), imp('web/features/a/screens.ts', 'dynamic-import'), imp('web/features/b/screens.ts', 'dynamic-import')] },
  'web/features/a/screens.ts': { imports: [imp('web/ui/Table.tsx'), imp('web/lib/i18n.ts'), imp('web/features/shared.ts'), imp('web/ui/Chart.tsx')] },
  'web/features/b/screens.ts': { imports: [imp('web/ui/Table.tsx'), imp('web/ui/Drawer.tsx'), imp('web/features/shared.ts'), imp('web/lib/upload.ts')] },
  'web/ui/Table.tsx': { imports: [imp('web/lib/format.ts')] },
  'web/ui/Drawer.tsx': { imports: [] },
  'web/ui/Chart.tsx': { imports: [imp('frappe-charts', 'dynamic-import')] },
  'web/features/shared.ts': { imports: [] },
  'web/lib/format.ts': { imports: [] },
  'web/lib/upload.ts': { imports: [] },
};
graph['web/main.tsx'].imports[2] = { ...imp('react'), external: true };

test('lazy entries are the shell and the screens; the shared chunk takes the generic modules two of them reach, not the login page’s', () => {
  assert.equal(lazyEntries(graph), ['web/app/Shell.tsx', 'web/features/a/screens.ts', 'web/features/b/screens.ts']);
  assert.equal([...staticClosure(graph, 'web/main.tsx')].sort(), ['web/lib/i18n.ts', 'web/main.tsx']);
  // Table (a, b), format (through Table), Drawer (the shell, b); not Chart or upload (one each),
  // not i18n (the login page's), not features/shared.ts (a feature's, not generic).
  assert.equal(sharedGeneric(graph), ['web/lib/format.ts', 'web/ui/Drawer.tsx', 'web/ui/Table.tsx']);
});

test('in the console’s own graph the shared modules are generic, outside the login page, and reached twice', async () => {
  const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
  const g = await importGraph(root);
  const shared = sharedGeneric(g);
  const login = staticClosure(g, 'web/main.tsx');
  assert.ok(shared.length > 10, shared.join(' '));
  assert.ok(lazyEntries(g).includes('web/app/Shell.tsx'));
  // The SQL editor stays with the screens that use it (STYLE.md habit 10).
  assert.not.ok(shared.includes('web/ui/CodeEditor.tsx'));
  assert.ok(lazyEntries(g).filter((entry) => staticClosure(g, entry).has('web/ui/CodeEditor.tsx')).length >= 2, 'the editor is shared');
  for (const file of shared) {
    assert.match(file, /^web\/(ui|lib)\//);
    assert.not.ok(login.has(file), file);
    assert.ok(lazyEntries(g).filter((entry) => staticClosure(g, entry).has(file)).length >= 2, file);
  }
});

test.run();
