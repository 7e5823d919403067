// The size budgets of DESIGN.md §6 and what counts as the login page, shared by the build's
// report (build.mjs) and the benchmark's bundle rows (tests/bench/bundle.ts), both read from
// esbuild's metafile.

/**
 * Budgets in gzip bytes (the login page's is held to 40 KB, below DESIGN.md's 45), and the login
 * page's modules: a browser opens at most six connections to one HTTP/1.1 host, so up to six
 * modules arrive in one round of requests; a seventh waits for one of them.
 */
export const BUDGETS = { login: 40 * 1024, lazyChunk: 30 * 1024, total: 320 * 1024, loginModules: 6 };

/** Chunks exempt from the per-chunk budget: the MQTT client library. */
export const EXEMPT = [/node_modules[\\/]mqtt[\\/]/];

/**
 * The output files the login page loads: `index` (index.html, which holds its stylesheet), the
 * boot script, the entry and the entry's static imports, transitively. `outputs` is the
 * metafile's (with the boot script's build joined to it).
 */
export function loginFiles(outputs, index) {
  const entries = Object.keys(outputs).filter((f) => ['web/main.tsx', 'web/boot.ts'].includes(outputs[f].entryPoint));
  const files = new Set([index, ...entries]);
  for (const file of files) {
    if (file === index) continue;
    for (const imp of outputs[file].imports) if (imp.kind === 'import-statement') files.add(imp.path);
  }
  return files;
}

/** Whether `file` is exempt from the per-chunk budget (index.html never is). */
export function isExempt(outputs, file) {
  return Boolean(outputs[file]) && Object.keys(outputs[file].inputs).some((input) => EXEMPT.some((re) => re.test(input)));
}
