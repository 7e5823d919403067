// A second minifier pass over the JavaScript that esbuild wrote: terser's compressor and name
// mangler. esbuild names the variables of nested functions so that none shadows a name of an
// outer scope (`e,t,b,C,j,H` in one function, `e,r,n,i` in the next), and terser reuses the same
// few names in every function (`e,t,r,n,i,o`), which gzip finds again and again: about 9 KB gzip
// less over all chunks, 3.8 KB of it in the MQTT client chunk. Each chunk is minified once per
// content (a cache under node_modules/.cache, rid of what no build used for two weeks), so a
// rebuild pays only for the chunks that changed.
// Module scripts only: terser reads each file as an ES module (strict, its own top-level scope);
// the boot script, a classic script, stays as esbuild wrote it.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { minify } from 'terser';

/**
 * terser's defaults (no `unsafe` transform), for ES2022 modules, as esbuild's own minifier
 * treats them: names not kept, comments dropped, UTF-8 left as it is (see build.mjs `charset`).
 */
export const TERSER_OPTIONS = {
  module: true,
  ecma: 2022,
  compress: true,
  mangle: true,
  format: { comments: false },
};

/** Cached chunks no build has used for this long are removed. */
const CACHE_DAYS = 14;

/**
 * What the cache key holds besides a file's text: terser's version and the options, read once
 * (terser fills in the option objects it is given, so each call gets a copy).
 */
const SETTINGS = `${createRequire(import.meta.url)('terser/package.json').version}\n${JSON.stringify(TERSER_OPTIONS)}`;

/** The cache key of one file. */
function key(code) {
  return createHash('sha256').update(`${SETTINGS}\n${code}`).digest('hex');
}

/**
 * Minifies the module scripts among `files` (paths relative to `root`) in place and gives back the
 * new size of each, for the metafile. The cache lives in `root`/node_modules/.cache/console-minify.
 * @returns {Promise<Record<string, number>>}
 */
export async function minifyOutputs(root, files) {
  const cache = path.join(root, 'node_modules/.cache/console-minify');
  mkdirSync(cache, { recursive: true });
  const sizes = {};
  for (const file of files) {
    const full = path.join(root, file);
    const code = readFileSync(full, 'utf8');
    const cached = path.join(cache, `${key(code)}.js`);
    let minified;
    if (existsSync(cached)) {
      minified = readFileSync(cached, 'utf8');
      const now = new Date();
      utimesSync(cached, now, now);
    } else {
      minified = (await minify(code, structuredClone(TERSER_OPTIONS))).code;
      writeFileSync(cached, minified);
    }
    writeFileSync(full, minified);
    sizes[file] = Buffer.byteLength(minified);
  }
  const old = Date.now() - CACHE_DAYS * 86_400_000;
  for (const name of readdirSync(cache)) if (statSync(path.join(cache, name)).mtimeMs < old) rmSync(path.join(cache, name), { force: true });
  return sizes;
}
