// V8's explicit compile hint (Chromium 136+; other engines read a comment): a module whose first
// line is `//# allFunctionsCalledOnLoad` has all its functions compiled as it loads, on the
// thread that streams it. Without it each function is compiled the first time it runs: the
// first render after Sign in compiled the shell's and the overview's code on the main thread as
// it went. The hint goes on the modules sign-in leads to, which load while
// the login form waits (web/app/Login.tsx): the shell's and the landing screen's, with their
// static imports. The library chunk the login page shares with them is among those: the login
// page runs a small part of it, the shell most of the rest. The login form is drawn before any
// module loads (web/boot.ts), so its first paint does not wait for the compile.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * The outputs that get the hint: those of `entries` (source paths of lazily imported modules)
 * and their static imports, transitively. `outputs` is esbuild's metafile's.
 */
export function hintedFiles(outputs, entries) {
  const files = new Set(Object.keys(outputs).filter((f) => f.endsWith('.js') && entries.includes(outputs[f].entryPoint)));
  for (const file of files) {
    for (const imp of outputs[file].imports) if (imp.kind === 'import-statement' && imp.path.endsWith('.js')) files.add(imp.path);
  }
  return [...files].sort();
}

/** Writes the hint at the top of each file (after minifying, which drops comments); the metafile gets the new sizes. */
export function addCompileHints(root, outputs, files) {
  for (const file of files) {
    const full = path.join(root, file);
    const code = readFileSync(full, 'utf8');
    if (code.startsWith(COMPILE_HINT)) continue;
    writeFileSync(full, COMPILE_HINT + code);
    outputs[file].bytes += Buffer.byteLength(COMPILE_HINT);
  }
}
