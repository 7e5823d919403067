// The console's import graph, read once per build, and what the build decides from it: the
// modules of the login page (its static imports from web/main.tsx), and one chunk for the
// generic modules (web/ui, web/lib) that two or more lazily loaded parts share.
import * as esbuild from 'esbuild';
import path from 'node:path';

/**
 * The web/ modules and their imports, static and dynamic, as esbuild resolves them: packages and
 * stylesheets are left out (imports of them are marked external), but for the ones tsconfig's
 * `paths` name (react → preact/compat). Keys and paths are relative to `root`, as in a metafile
 * (`web/app/Shell.tsx`).
 * @param {string} root
 * @returns {Promise<Record<string, { imports: { path: string, kind: string, external?: boolean }[] }>>}
 */
export async function importGraph(root) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['web/main.tsx'],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    splitting: true,
    outdir: path.join(root, 'dist'),
    logLevel: 'silent',
    packages: 'external',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    plugins: [{
      name: 'no-stylesheets',
      setup(build) {
        build.onResolve({ filter: /\.css$/ }, (args) => ({ path: args.path, external: true }));
      },
    }],
  });
  return result.metafile.inputs;
}

/** The modules `from` reaches through static imports (itself included). */
export function staticClosure(graph, from) {
  const seen = new Set([from]);
  for (const file of seen) {
    for (const imp of graph[file]?.imports ?? []) if (!imp.external && imp.kind === 'import-statement') seen.add(imp.path);
  }
  return seen;
}

/** What the console loads lazily: the shell, screens and config help, the modules of web/app and web/features some module imports with `import()`. */
export function lazyEntries(graph) {
  const entries = new Set();
  for (const node of Object.values(graph)) {
    for (const imp of node.imports) if (!imp.external && imp.kind === 'dynamic-import' && /^web\/(app|features)\//.test(imp.path)) entries.add(imp.path);
  }
  return [...entries].sort();
}

const GENERIC = /^web\/(ui|lib)\//;
/** Generic modules that load with the screens that use them all the same (STYLE.md habit 10: the SQL editor loads lazily). */
const OWN_CHUNK = new Set(['web/ui/CodeEditor.tsx', 'web/lib/sqlTokens.ts']);

/**
 * The generic modules (web/ui, web/lib) that the static imports of two or more lazy entries reach
 * and the login page does not. esbuild would put each group of them with the same set of
 * importers in a chunk of its own: a dozen small chunks (Tabs, Descriptions, the resource table
 * …), each with its own gzip start and its own import and export lists in every chunk that uses it.
 */
export function sharedGeneric(graph) {
  const login = staticClosure(graph, 'web/main.tsx');
  const reached = new Map();
  for (const entry of lazyEntries(graph)) {
    for (const file of staticClosure(graph, entry)) reached.set(file, (reached.get(file) ?? 0) + 1);
  }
  return [...reached].filter(([file, n]) => n >= 2 && GENERIC.test(file) && !OWN_CHUNK.has(file) && !login.has(file)).map(([file]) => file).sort();
}

/**
 * Puts the shared generic modules (sharedGeneric) in one chunk, as a build step (build.mjs
 * applies `transform` to every web/ module it loads): every lazy entry ends with an import of
 * `shared-generic`, a module that imports them all (`contents`), so esbuild finds the same
 * importers for each and makes one chunk of them, loaded with the shell (itself a lazy entry),
 * ahead of the first screen, which needs most of them anyway. The import goes at the end of the
 * entry: its own imports are still evaluated first, in their order.
 */
export function sharedGenericChunk() {
  let entries = new Set();
  const report = { modules: [] };
  return {
    report,
    start(graph) {
      report.modules = sharedGeneric(graph);
      entries = new Set(lazyEntries(graph));
    },
    /** The module that imports them, resolved from the repository's root. */
    contents: () => report.modules.map((file) => `import ${JSON.stringify('./' + file)};`).join('\n'),
    transform: (file, source) => (entries.has(file) ? `${source}\nimport 'shared-generic';\n` : source),
  };
}
