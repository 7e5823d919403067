// Builds the console into dist/: code-split ESM with hashed names and relative URLs, a size table
// per chunk (raw, gzip, brotli), and a failing exit when a budget of DESIGN.md §6 is exceeded.
// `--watch` rebuilds on change with preact/debug; `--if-needed` skips when dist/ is up to date.
// Pico's rules that cannot match anything the console renders are left out of the stylesheet
// (build/css-purge.mjs); `--no-css-purge` ships Pico whole. The login page's stylesheet holds
// only the rules that can match what the login page renders; the rest (shell-*.css) loads with
// the logged-in shell; `--no-css-split` ships one stylesheet. index.html also carries the login
// form drawn in both languages and the boot script that shows it before any module runs
// (build/prerender.mjs). The generic modules that lazy parts share make one chunk, and the
// Chinese texts of the lazy chunks one catalogue that a console in Chinese loads with the shell
// (build/chunks.mjs, build/messages.mjs). The charts are frappe-charts' line chart alone
// (build/frappe.mjs), and terser minifies every module esbuild wrote once more (build/minify.mjs).
// The modules sign-in leads to carry V8's compile hint (build/compile-hints.mjs).
import * as esbuild from 'esbuild';
import { BUDGETS, isExempt, loginFiles } from './build/budgets.mjs';
import { addCompileHints, hintedFiles } from './build/compile-hints.mjs';
import { addSource, addThirdParty, emptyUsage, purgeCss, splitCss } from './build/css-purge.mjs';
import { buildBoot, drawLoginForms } from './build/prerender.mjs';
import { importGraph, sharedGenericChunk, staticClosure } from './build/chunks.mjs';
import { zhCatalogue } from './build/messages.mjs';
import { minifyOutputs } from './build/minify.mjs';
import { frappeLineChart } from './build/frappe.mjs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const root = path.dirname(fileURLToPath(import.meta.url));
const web = path.join(root, 'web');
const out = path.join(root, 'dist');
// Everything but index.html goes under static/: EMQX serves its dashboard folder's "/" and
// "/static/[...]" and no other path (emqx_dashboard.erl static_dispatch, v5.5.1 and v5.8.9).
const assets = path.join(out, 'static');
const args = new Set(process.argv.slice(2));
const watch = args.has('--watch');
const cssPurge = !args.has('--no-css-purge');
const cssSplit = !args.has('--no-css-split');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function upToDate() {
  const stamp = path.join(out, 'index.html');
  if (!existsSync(stamp)) return false;
  const sources = Math.max(newestMtime(web), newestMtime(path.join(root, 'build')),
    ...['build.mjs', 'package-lock.json'].map((f) => statSync(path.join(root, f)).mtimeMs));
  return statSync(stamp).mtimeMs >= sources;
}

/**
 * Third-party code that creates DOM the stylesheet may style (charts, the flow editor), as it is
 * bundled: the words of its strings count as elements, classes and values, all its words as
 * attribute names. A folder stands for the .js files under it.
 */
const THIRD_PARTY_UI = ['frappe-charts/src/js', 'drawflow/dist/drawflow.min.js'];
/** Third-party code that ships only a UMD build (see umdAsModule). */
const UMD_ONLY = ['drawflow/dist/drawflow.min.js'];
/**
 * Pico selectors kept whatever the source scan says: state the browser or Pico's own markup
 * adds at run time. Add a pattern here rather than a marker in a component.
 */
export const CSS_KEEP = [];

function sourceFiles(dir, found = [], dirs = []) {
  dirs.push(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, found, dirs);
    else if (/\.(tsx?|jsx?|mjs|html?|css)$/.test(entry.name)) found.push(full);
  }
  return found;
}

/** What the purge removed in the last build, for the size report. */
const purged = { selectors: 0, keyframes: 0 };

/**
 * What the console can render, read from web/ and the DOM-building libraries, plus the
 * animation names its own stylesheets use (so Pico keyframes they reference stay).
 */
export function consoleUsage() {
  const usage = emptyUsage();
  const keyframes = new Set();
  for (const file of sourceFiles(web)) {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.css')) {
      for (const m of text.matchAll(/animation(?:-name)?\s*:([^;}]*)/gi)) for (const t of m[1].match(/-?[A-Za-z_][\w-]*/g) ?? []) keyframes.add(t);
    } else addSource(usage, text, file);
  }
  for (const lib of THIRD_PARTY_UI) {
    const file = path.join(root, 'node_modules', lib);
    if (!existsSync(file)) continue;
    const files = statSync(file).isDirectory() ? sourceFiles(file).filter((f) => f.endsWith('.js')) : [file];
    for (const f of files) addThirdParty(usage, readFileSync(f, 'utf8'));
  }
  return { usage, keyframes };
}

/**
 * This build's import graph of web/ (build/chunks.mjs), read once however many plugins ask for
 * it, and read again for the next build (watch mode).
 */
let graphRun = null;
const currentGraph = () => (graphRun ??= importGraph(root));

/** What the login page loads itself, late, when a sign-in needs it: it renders before the shell too. */
const LOGIN_LAZY = ['web/app/LoginSteps.tsx'];

/**
 * The source files the login page's static import graph reaches, and those of its own lazy steps
 * (other dynamic imports and stylesheets left out): everything that can render before the
 * logged-in shell loads.
 */
async function loginSources() {
  const graph = await currentGraph();
  const inputs = new Set([...staticClosure(graph, 'web/main.tsx'), ...LOGIN_LAZY.flatMap((entry) => [...staticClosure(graph, entry)])]);
  return [...inputs].filter((input) => input.startsWith('web/')).map((input) => path.join(root, input));
}

/** What the login page can render: the usage of its static import graph. */
async function loginUsage() {
  const usage = emptyUsage();
  for (const file of await loginSources()) addSource(usage, readFileSync(file, 'utf8'), file);
  return usage;
}

const PICO = path.join(root, 'node_modules/@picocss/pico/css/pico.min.css');
const APP_CSS = path.join(web, 'styles.css');


/** What the split copied into the shell's stylesheet in the last build, for the size report. */
const split = { copied: 0 };

/**
 * The console's two stylesheets, Pico and web/styles.css. Pico is purged of the rules nothing in
 * the console can match (unless `--no-css-purge`). With the split, web/main.tsx imports the rules
 * that can match the login page, and the entry point `shell` is the stylesheet the shell adds
 * after them (see splitCss for why the cascade stays the same; writeHtml for how it is found).
 */
const stylesheets = {
  name: 'stylesheets',
  setup(build) {
    /** @type {{ pico: string, app: string, shell: string }} */
    let parts;
    build.onStart(async () => {
      const { usage, keyframes } = consoleUsage();
      const pico = readFileSync(PICO, 'utf8');
      const app = readFileSync(APP_CSS, 'utf8');
      const purgeOptions = { keep: CSS_KEEP, keyframesUsedElsewhere: keyframes };
      if (cssSplit) {
        const result = splitCss([{ css: pico, usage: cssPurge ? usage : null }, { css: app, usage: null }], await loginUsage(), purgeOptions);
        Object.assign(purged, { selectors: result.removedSelectors.length, keyframes: result.removedKeyframes.length });
        split.copied = result.copied;
        parts = { pico: result.first[0], app: result.first[1], shell: result.later.join('\n') };
      } else {
        const result = cssPurge ? purgeCss(pico, usage, purgeOptions) : { css: pico, removedSelectors: [], removedKeyframes: [] };
        Object.assign(purged, { selectors: result.removedSelectors.length, keyframes: result.removedKeyframes.length });
        parts = { pico: result.css, app, shell: '' };
      }
    });
    // Any change in web/ may use another element or class: cut again then (watch mode).
    const watched = () => {
      const dirs = [];
      const files = sourceFiles(web, [], dirs);
      return { watchFiles: [...files, PICO], watchDirs: dirs };
    };
    build.onLoad({ filter: /[\\/]@picocss[\\/]pico[\\/]css[\\/][^\\/]+\.css$/ }, () => ({ contents: parts.pico, loader: 'css', ...watched() }));
    build.onLoad({ filter: /[\\/]web[\\/]styles\.css$/ }, () => ({ contents: parts.app, loader: 'css', resolveDir: web, ...watched() }));
    build.onResolve({ filter: /^shell-styles$/ }, () => ({ path: 'shell', namespace: 'shell-styles' }));
    build.onLoad({ filter: /.*/, namespace: 'shell-styles' }, () => ({ contents: parts.shell, loader: 'css', resolveDir: web, ...watched() }));
  },
};

/**
 * mqtt.js for the browser, bundled from its own build/ output with the small stand-ins of
 * web/shims/mqtt/ instead of its prebuilt dist/mqtt.esm.js and the Node polyfills in it (why, and
 * which mqtt.js version this relies on: web/shims/mqtt/README.md). It is a separate esbuild run
 * so that its aliases and the injected `process`/`Buffer` reach mqtt.js and its dependencies only;
 * the console build takes the result as one module, loaded lazily as its own chunk.
 */
const mqttShims = path.join(web, 'shims/mqtt');
const MQTT_ENTRY = path.join(mqttShims, 'mqtt.esm.js');
/**
 * The files whose logging calls go to the no-op `debug` stand-in (and readable-stream's no-op
 * debuglog): mqtt.js's client and handlers (`this.log`, `client.log`, set from `debug` since the
 * console passes no `log` option), its transports, mqtt-packet and readable-stream (`debug`).
 */
const MQTT_LOGGING = /[\\/]node_modules[\\/](?:mqtt[\\/]build|mqtt-packet|readable-stream[\\/]lib)[\\/].*\.js$/;
/** A call of one of those loggers, as it starts in their source. */
const LOG_CALL = /(?<![\w$.])(this\.log|client\.log|debug)\(/g;
/** readable-stream's modules that mqtt.js never reaches, as its stream classes require them. */
const STREAMS_LEFT_OUT = /^(\.\/from|\.\/duplexify|string_decoder\/)$/;
/** mqtt.js's transports that a page cannot use: Node's, and the WeChat and Alipay mini-program sockets. */
const MQTT_NODE_ONLY = /^\.\/(tcp|tls|socks|wx|ali)$/;
const mqttOptions = {
  absWorkingDir: root,
  entryPoints: [MQTT_ENTRY],
  // Minified here too, before the console build minifies it again as one module: 0.6 KB gzip
  // less than minifying it once.
  minify: !watch,
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  metafile: true,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
  sourcemap: watch ? 'inline' : false,
  inject: [path.join(mqttShims, 'globals.js')],
  alias: {
    url: path.join(mqttShims, 'url.cjs'),
    debug: path.join(mqttShims, 'debug.cjs'),
    'worker-timers': path.join(mqttShims, 'worker-timers.cjs'),
    'lru-cache': path.join(mqttShims, 'lru-cache.cjs'),
    ws: path.join(mqttShims, 'empty.cjs'),
  },
  plugins: [{
    // Each logging call marked pure: the minifier drops the call and its message text (about
    // 150 of them, 2.5 KB gzip), keeping any argument that could have an effect. The calls did
    // nothing: they reach the no-op logger.
    name: 'mqtt-quiet-logs',
    setup(build) {
      build.onLoad({ filter: MQTT_LOGGING }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replace(LOG_CALL, '/* @__PURE__ */ $1('),
        loader: 'js',
      }));
    },
  }, {
    name: 'mqtt-node-only',
    setup(build) {
      const connectDir = /[\\/]node_modules[\\/]mqtt[\\/]build[\\/]lib[\\/]connect[\\/]/;
      build.onResolve({ filter: MQTT_NODE_ONLY }, (args) =>
        connectDir.test(args.importer) ? { path: path.join(mqttShims, 'empty.cjs') } : undefined);
      // readable-stream's four classes, without its index (the file says why).
      build.onResolve({ filter: /^readable-stream$/ }, () => ({ path: path.join(mqttShims, 'readable-stream.cjs') }));
      // mqtt-packet's parser keeps the bytes it has not parsed yet in bl's list, and uses it as a
      // list only: the list without the stream bl wraps it in (BufferList.js, bl's own file).
      build.onResolve({ filter: /^bl$/ }, (args) => (/[\\/]mqtt-packet[\\/]parser\.js$/.test(args.importer)
        ? { path: path.join(path.dirname(createRequire(args.importer).resolve('bl')), 'BufferList.js') } : undefined));
      // Nor Readable.from, Duplex.from and string decoding, which mqtt.js never reaches (left-out.cjs).
      const streamsDir = /[\\/]node_modules[\\/]readable-stream[\\/]lib[\\/]internal[\\/]streams[\\/]/;
      build.onResolve({ filter: STREAMS_LEFT_OUT }, (args) =>
        streamsDir.test(args.importer) ? { path: path.join(mqttShims, 'left-out.cjs') } : undefined);
      // shared.js reads mqtt.js's version from its package.json: give it the version, not the file.
      build.onResolve({ filter: /^\.\.\/\.\.\/package\.json$/ }, (args) =>
        /[\\/]node_modules[\\/]mqtt[\\/]build[\\/]lib[\\/]shared\.js$/.test(args.importer)
          ? { path: path.join(args.resolveDir, args.path), namespace: 'mqtt-version' } : undefined);
      build.onLoad({ filter: /.*/, namespace: 'mqtt-version' }, (args) => ({
        contents: JSON.stringify({ version: JSON.parse(readFileSync(args.path, 'utf8')).version }),
        loader: 'json',
      }));
    },
  }],
};

/** The last mqtt.js bundle and the files it came from (rebuilt only when one of them changes). */
let mqttBundle = null;

async function bundleMqtt() {
  if (mqttBundle && mqttBundle.files.every((file) => !existsSync(file) || statSync(file).mtimeMs <= mqttBundle.built)) return mqttBundle;
  const built = Date.now();
  const result = await esbuild.build(mqttOptions);
  const files = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':')).map((input) => path.join(root, input));
  mqttBundle = { code: result.outputFiles[0].text, files, built };
  return mqttBundle;
}

/**
 * Resolves the console's `import('mqtt')` to the bundle above, as a module named after the
 * prebuilt file it replaces: the chunk keeps its name (mqtt.esm-…) and the MQTT library
 * exemption (EXEMPT, build/budgets.mjs) still recognises it.
 */
const mqttBrowser = {
  name: 'mqtt-browser',
  setup(build) {
    build.onResolve({ filter: /^mqtt$/ }, () => ({ path: 'node_modules/mqtt/dist/mqtt.esm.js', namespace: 'mqtt-browser' }));
    build.onLoad({ filter: /.*/, namespace: 'mqtt-browser' }, async () => {
      const { code, files } = await bundleMqtt();
      return { contents: code, loader: 'js', resolveDir: mqttShims, watchFiles: files };
    });
  },
};

/**
 * drawflow ships only a UMD build. Bundled as CommonJS it brings esbuild's interop helpers, and
 * those become a chunk that every entry imports, the login page too (one more request before its
 * form). Loaded as a module instead: the UMD's CommonJS branch fills a local `module`, which is
 * the default export.
 */
const umdAsModule = {
  name: 'umd-as-module',
  setup(build) {
    const files = new Set(UMD_ONLY.map((file) => path.join(root, 'node_modules', file)));
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!files.has(args.path)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      return { contents: `var module = { exports: {} }, exports = module.exports;\n${source}\nexport default module.exports;\n`, loader: 'js' };
    });
  },
};

/** The steps that rewrite web/ modules as they load: the shared generic chunk and the Chinese catalogue. */
const shared = sharedGenericChunk();
const catalogue = zhCatalogue({ root });
const webSources = {
  name: 'web-sources',
  setup(build) {
    build.onStart(async () => {
      const graph = await currentGraph();
      shared.start(graph);
      catalogue.start(graph, staticClosure(graph, 'web/main.tsx'));
    });
    build.onResolve({ filter: /^shared-generic$/ }, () => ({ path: 'shared-generic', namespace: 'shared-generic' }));
    build.onLoad({ filter: /.*/, namespace: 'shared-generic' }, () => ({ contents: shared.contents(), loader: 'js', resolveDir: root }));
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      const file = path.relative(root, args.path).split(path.sep).join('/');
      if (!file.startsWith('web/') || file.startsWith('web/shims/')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const code = shared.transform(file, catalogue.transform(file, source));
      return code === source ? undefined : { contents: code, loader: path.extname(file).slice(1) };
    });
  },
};

const options = {
  absWorkingDir: root,
  entryPoints: { main: 'web/main.tsx', ...(cssSplit ? { shell: 'shell-styles' } : {}) },
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  outdir: assets,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: !watch,
  sourcemap: watch ? 'linked' : false,
  metafile: true,
  legalComments: 'none',
  // Chinese texts as UTF-8 rather than \u escapes: a third of the bytes, and module scripts are
  // always decoded as UTF-8 by the browser, whatever the server's content type says.
  charset: 'utf8',
  logLevel: 'warning',
  alias: {
    react: 'preact/compat',
    'react-dom': 'preact/compat',
    'react/jsx-runtime': 'preact/jsx-runtime',
    'use-sync-external-store/shim/index.js': path.join(web, 'shims/use-sync-external-store.js'),
    // rosetta's dlv: its `browser` field names a UMD build, whose CommonJS wrapper brings esbuild's
    // interop helpers into the login page as a module of their own; the ES build is the same code.
    dlv: path.join(root, 'node_modules/dlv/dist/dlv.es.js'),
  },
  define: {
    'process.env.NODE_ENV': JSON.stringify(watch ? 'development' : 'production'),
    // valtio reads `import.meta.env ? import.meta.env.MODE : void 0`. Both as constants: an object
    // here would become a module of its own that the login page loads as one more request.
    'import.meta.env.MODE': JSON.stringify(watch ? 'development' : 'production'),
    'import.meta.env': 'true',
  },
  plugins: [
    mqttBrowser,
    frappeLineChart(web),
    umdAsModule,
    stylesheets,
    webSources,
    {
      name: 'html',
      setup(build) {
        build.onEnd(async (result) => {
          graphRun = null;
          if (result.errors.length > 0) return;
          if (!watch) await minifyModules(result.metafile);
          if (!watch) hintSignIn(result.metafile);
          await writeHtml(result.metafile);
        });
      },
    },
  ],
};

/** The second minifier pass over the build's modules (build/minify.mjs); the metafile gets their new sizes. */
async function minifyModules(metafile) {
  const sizes = await minifyOutputs(root, Object.keys(metafile.outputs).filter((file) => file.endsWith('.js')));
  for (const [file, bytes] of Object.entries(sizes)) metafile.outputs[file].bytes = bytes;
}

/**
 * Where Sign in leads without a deep link (web/app/Login.tsx `target`): the shell and the
 * overview's module. Their code is compiled as it loads, while the login form waits
 * (build/compile-hints.mjs).
 */
const SIGN_IN_MODULES = ['web/app/Shell.tsx', 'web/features/monitoring/dashboard/screens.ts'];

function hintSignIn(metafile) {
  const built = new Set(Object.values(metafile.outputs).map((o) => o.entryPoint));
  const missing = SIGN_IN_MODULES.filter((module) => !built.has(module));
  if (missing.length) throw new Error(`compile hints: no output for ${missing.join(', ')}`);
  addCompileHints(root, metafile.outputs, hintedFiles(metafile.outputs, SIGN_IN_MODULES));
}

async function writeHtml(metafile) {
  // The boot script and the login forms drawn into index.html (build/prerender.mjs); the boot
  // script's output joins the metafile, for the report.
  for (const file of readdirSync(assets)) if (/^boot-.*\.js$/.test(file)) rmSync(path.join(assets, file));
  const boot = await buildBoot({ root, out: assets, minify: !watch });
  Object.assign(metafile.outputs, boot.outputs);
  const bootFile = Object.keys(boot.outputs).find((file) => boot.outputs[file].entryPoint === 'web/boot.ts');
  const forms = await drawLoginForms({ root, options });
  const outputs = Object.entries(metafile.outputs);
  const rel = (file) => path.relative(out, path.join(root, file)).split(path.sep).join('/');
  const entry = outputs.find(([, o]) => o.entryPoint === 'web/main.tsx');
  const shell = outputs.find(([, o]) => o.entryPoint === 'shell-styles:shell')?.[0];
  // Preload the entry's static imports so they load in parallel with it, not after it is parsed.
  const preload = new Set();
  const walk = (file) => {
    for (const imp of metafile.outputs[file].imports) {
      if (imp.kind === 'import-statement' && !preload.has(imp.path)) (preload.add(imp.path), walk(imp.path));
    }
  };
  walk(entry[0]);
  // The login page's stylesheet travels inside index.html: no request of its own, and none of
  // the module requests waits behind it (Chromium holds back preloads while a stylesheet in the
  // head loads).
  const cssFile = path.join(root, entry[1].cssBundle);
  const css = readFileSync(cssFile, 'utf8');
  if (/<\/style/i.test(css)) throw new Error('the login stylesheet holds </style and cannot be inlined');
  rmSync(cssFile);
  rmSync(`${cssFile}.map`, { force: true });
  const html = readFileSync(path.join(web, 'index.html'), 'utf8')
    // (Replacer functions: the stylesheet holds `$` sequences that a replacement string would
    // expand.) Two inert templates, above the boot script that reads one of them:
    // - the shell's stylesheet, added after the login page's when the shell loads (web/app/shellStyles.ts);
    // - the entry, then its modules largest first (a browser takes six at a time from one host
    //   over HTTP/1.1, and the small ones left for the second round come back soonest), added to
    //   the head by the boot script (web/boot.ts): after the frame that paints the drawn login
    //   form, which their fetch and compile would hold back; at once without that form.
    .replace('<!--templates-->', () => [
      ...(shell ? [`<template id="shell-styles"><link rel="stylesheet" href="./${rel(shell)}"></template>`] : []),
      '<template id="entry-modules">',
      `<link rel="modulepreload" href="./${rel(entry[0])}">`,
      ...[...preload].sort((a, b) => metafile.outputs[b].bytes - metafile.outputs[a].bytes).map((file) => `<link rel="modulepreload" href="./${rel(file)}">`),
      '</template>',
    ].join('\n  '))
    .replace('<!--styles-->', () => `<style id="login-styles">${css}</style>`)
    // The first request after the page, and blocking: language, theme and the drawn form are
    // settled before the first paint.
    .replace('<!--boot-->', () => `<script src="./${rel(bootFile)}"></script>`)
    .replace('<!--login-->', () => forms);
  writeFileSync(path.join(out, 'index.html'), html);
  copyFileSync(path.join(web, 'favicon.svg'), path.join(assets, 'favicon.svg'));
}

const kb = (n) => (n / 1024).toFixed(1).padStart(7);

/** Measures every output, prints the table, and returns the list of budget breaches. */
export function report(metafile) {
  const outputs = metafile.outputs;
  const sizes = {};
  // The login page's stylesheet is inside index.html: index.html counts in its place.
  const INDEX = path.relative(root, path.join(out, 'index.html')).split(path.sep).join('/');
  for (const file of [...Object.keys(outputs), INDEX]) {
    if (file.endsWith('.map') || !existsSync(path.join(root, file))) continue;
    const data = readFileSync(path.join(root, file));
    sizes[file] = {
      raw: data.length,
      gzip: gzipSync(data, { level: 9 }).length,
      brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  }
  const login = loginFiles(outputs, INDEX);
  const exempt = (file) => isExempt(outputs, file);
  const rows = Object.entries(sizes).sort((a, b) => b[1].gzip - a[1].gzip);
  console.log(`\n${'file'.padEnd(48)}${'raw KB'.padStart(9)}${'gzip KB'.padStart(9)}${'br KB'.padStart(9)}`);
  for (const [file, s] of rows) {
    const mark = login.has(file) ? ' (login)' : exempt(file) ? ' (exempt)' : '';
    console.log(`${(path.relative('dist', file) + mark).padEnd(48)}${kb(s.raw)}  ${kb(s.gzip)}  ${kb(s.brotli)}`);
  }
  const sum = (files) => files.reduce((n, f) => n + (sizes[f]?.gzip ?? 0), 0);
  const loginGzip = sum([...login]);
  const total = sum(Object.keys(sizes));
  const lazy = Object.keys(sizes).filter((f) => !login.has(f) && f.endsWith('.js') && !exempt(f));
  const largest = lazy.reduce((best, f) => (sizes[f].gzip > (sizes[best]?.gzip ?? -1) ? f : best), '');
  const loginModules = [...login].filter((f) => f !== INDEX).length;
  console.log(`\nlogin page JS+CSS gzip ${kb(loginGzip)} KB (budget ${BUDGETS.login / 1024} KB), ${loginModules} modules (budget ${BUDGETS.loginModules})`);
  console.log(`largest lazy chunk gzip ${kb(sizes[largest]?.gzip ?? 0)} KB (budget ${BUDGETS.lazyChunk / 1024} KB)${largest ? ' ' + path.relative('dist', largest) : ''}`);
  console.log(`all chunks gzip         ${kb(total)} KB (budget ${BUDGETS.total / 1024} KB)`);
  console.log(cssPurge ? `Pico purge: ${purged.selectors} selectors, ${purged.keyframes} keyframes removed` : 'Pico purge: off');
  console.log(`shared chunk: ${shared.report.modules.length} generic modules that two or more lazy parts use`);
  console.log(`Chinese catalogue: ${catalogue.report.texts} texts of ${catalogue.report.calls} calls out of the lazy chunks`);
  console.log(cssSplit ? `CSS split: the shell's stylesheet repeats ${split.copied} selectors of the login page's to keep the cascade` : 'CSS split: off');
  const breaches = [];
  if (loginGzip > BUDGETS.login) breaches.push(`login page ${kb(loginGzip)} KB > ${BUDGETS.login / 1024} KB`);
  if (loginModules > BUDGETS.loginModules) breaches.push(`login page ${loginModules} modules > ${BUDGETS.loginModules}`);
  if ((sizes[largest]?.gzip ?? 0) > BUDGETS.lazyChunk) breaches.push(`chunk ${largest} > ${BUDGETS.lazyChunk / 1024} KB`);
  if (total > BUDGETS.total) breaches.push(`total ${kb(total)} KB > ${BUDGETS.total / 1024} KB`);
  return breaches;
}

if (watch) {
  rmSync(out, { recursive: true, force: true });
  const ctx = await esbuild.context(options);
  await ctx.watch();
  console.log('watching web/ … (dist/ is rebuilt on change; run the simulator beside it)');
} else if (args.has('--if-needed') && upToDate()) {
  console.log('dist/ is up to date');
} else {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await esbuild.build(options);
  const breaches = report(result.metafile);
  writeFileSync(path.join(out, 'build.json'), JSON.stringify({ hash: createHash('sha256').update(JSON.stringify(Object.keys(result.metafile.outputs))).digest('hex').slice(0, 12) }));
  if (breaches.length) {
    console.error(`\nsize budget exceeded:\n  ${breaches.join('\n  ')}`);
    process.exit(1);
  }
}
