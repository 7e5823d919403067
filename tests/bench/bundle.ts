// Bundle figures from the production build's metafile: what the login page needs (entry, its
// static imports and index.html, which holds the login page's stylesheet), the largest lazy
// chunk (the MQTT library chunk named on its own line and exempt), and all chunks together, gzip
// level 9 as the build measures; the budgets and the login page's files as the build counts them
// (build/budgets.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUDGETS, isExempt, loginFiles } from '../../build/budgets.mjs';
import { REPO_ROOT } from '../helpers/simulator.ts';
import { budgeted, failed, info, kb, type Row } from './table.ts';

interface Metafile {
  outputs: Record<string, { entryPoint?: string; cssBundle?: string; imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
}

/** Runs `node build.mjs` (which also enforces the budgets) and returns its metafile. */
function buildWithMetafile(): Metafile {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-meta-'));
  const file = path.join(dir, 'meta.json');
  try {
    const result = spawnSync(process.execPath, ['--import', './tests/bench/capture-metafile.mjs', 'build.mjs'], {
      cwd: REPO_ROOT, env: { ...process.env, BENCH_METAFILE: file }, encoding: 'utf8',
    });
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Metafile;
    } catch {
      throw new Error(`build failed: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function bundleRows(): Row[] {
  const S = 'bundle';
  let meta: Metafile;
  try {
    meta = buildWithMetafile();
  } catch (error) {
    return [failed(S, 'production build', error)];
  }
  const outputs = meta.outputs;
  const gzip = new Map<string, number>();
  // The build inlines the login page's stylesheet into index.html (and removes its file).
  const INDEX = 'dist/index.html';
  for (const file of [...Object.keys(outputs), INDEX]) {
    if (!file.endsWith('.map') && existsSync(path.join(REPO_ROOT, file))) gzip.set(file, gzipSync(readFileSync(path.join(REPO_ROOT, file)), { level: 9 }).length);
  }
  const login = loginFiles(outputs, INDEX);
  const exempt = (file: string) => isExempt(outputs, file);
  const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + (gzip.get(f) ?? 0), 0);
  const lazy = [...gzip.keys()].filter((f) => f.endsWith('.js') && !login.has(f));
  const counted = lazy.filter((f) => !exempt(f)).sort((a, b) => gzip.get(b)! - gzip.get(a)!);
  const mqtt = lazy.filter(exempt);
  const name = (f: string) => path.basename(f);
  const loginBytes = sum(login);
  const total = sum(gzip.keys());
  const largest = counted[0];
  return [
    budgeted(S, `login page JS+CSS gzip (index.html with its stylesheet and ${login.size - 1} modules)`, loginBytes, kb(loginBytes), BUDGETS.login, `≤ ${BUDGETS.login / 1024} KB`),
    budgeted(S, 'login page modules', login.size - 1, String(login.size - 1), BUDGETS.loginModules, `≤ ${BUDGETS.loginModules}`),
    budgeted(S, `largest lazy chunk gzip (${largest ? name(largest) : 'none'})`, gzip.get(largest) ?? 0, kb(gzip.get(largest) ?? 0), BUDGETS.lazyChunk, `≤ ${BUDGETS.lazyChunk / 1024} KB`),
    info(S, `MQTT library chunk gzip, exempt (${mqtt.map(name).join(', ') || 'none'})`, kb(sum(mqtt)), sum(mqtt)),
    budgeted(S, `all chunks gzip (${gzip.size} files)`, total, kb(total), BUDGETS.total, `≤ ${BUDGETS.total / 1024} KB`),
  ];
}
