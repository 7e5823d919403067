// What index.html carries so that a login form shows before the console's modules load:
// the boot script (web/boot.ts, a classic script: it runs before the first paint) and the login
// form drawn once per language (build/login-forms.tsx; how the console takes it over:
// web/lib/bootForm.ts).
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Builds the boot script into `out` (boot-[hash].js); returns the build's metafile. */
export async function buildBoot({ root, out, minify }) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { boot: 'web/boot.ts' },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    outdir: out,
    entryNames: '[name]-[hash]',
    minify,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.metafile;
}

/**
 * The login forms, English then Chinese, as markup: the console's Login page rendered with
 * happy-dom, in a child process (its globals stay out of the build's). `options` are the
 * console build's (aliases, JSX, defines).
 */
export async function drawLoginForms({ root, options }) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['build/login-forms.tsx'],
    bundle: true,
    write: false,
    format: 'esm',
    // Resolved as for the browser (module builds, as the console's bundle), run by Node.
    platform: 'browser',
    target: 'node20',
    jsx: options.jsx,
    jsxImportSource: options.jsxImportSource,
    alias: options.alias,
    define: options.define,
    loader: { '.css': 'empty' },
    external: ['@happy-dom/global-registrator'],
    logLevel: 'warning',
  });
  // Next to node_modules, so that the external import resolves; a folder per build (two builds may run at once).
  const cache = path.join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'login-forms-'));
  const file = path.join(dir, 'login-forms.mjs');
  writeFileSync(file, result.outputFiles[0].text);
  try {
    return JSON.parse(execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 })).join('\n  ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
