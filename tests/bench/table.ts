// The benchmark's result rows: one table on stdout (figure, value, budget, PASS/OVER) and the
// same rows with a timestamp in bench/results.json, so runs can be compared.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/simulator.ts';

export interface Row {
  section: string;
  figure: string;
  /** The measured value as shown, e.g. "38.2 KB" or "141 ms (min 120, max 180)". */
  value: string;
  /** The budget as shown, empty when the figure is informational. */
  budget: string;
  /** true = within budget, false = over, null = no budget. */
  pass: boolean | null;
  /** The raw number the budget applies to, for comparing runs. */
  number?: number;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;

/** A row for a figure that must stay at or below `limit` (or at or above it with `atLeast`). */
export function budgeted(section: string, figure: string, number: number, value: string, limit: number, budget: string, atLeast = false): Row {
  return { section, figure, value, budget, pass: Number.isFinite(number) ? (atLeast ? number >= limit : number <= limit) : false, number };
}

export function info(section: string, figure: string, value: string, number?: number): Row {
  return { section, figure, value, budget: '', pass: null, number };
}

/** A row saying a part could not be measured; counts as over budget. */
export function failed(section: string, figure: string, error: unknown): Row {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return { section, figure, value: `failed: ${message.slice(0, 60)}`, budget: '', pass: false };
}

export function print(rows: Row[]): void {
  const width = Math.max(6, ...rows.map((r) => r.figure.length + r.section.length + 2));
  const valueWidth = Math.max(5, ...rows.map((r) => r.value.length));
  const budgetWidth = Math.max(6, ...rows.map((r) => r.budget.length));
  const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(width)}  ${b.padStart(valueWidth)}  ${c.padEnd(budgetWidth)}  ${d}`;
  console.log('\n' + line('figure', 'value', 'budget', ''));
  console.log('-'.repeat(width + valueWidth + budgetWidth + 12));
  for (const r of rows) console.log(line(`${r.section}: ${r.figure}`, r.value, r.budget, r.pass === null ? '' : r.pass ? 'PASS' : 'OVER'));
  const over = rows.filter((r) => r.pass === false).length;
  console.log(`\n${rows.filter((r) => r.pass).length} within budget, ${over} over`);
}

/** Appends this run to bench/results.json (ignored by git; the last 50 runs, newest last). */
export function save(rows: Row[], meta: Record<string, unknown>): string {
  const dir = path.join(REPO_ROOT, 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'results.json');
  let runs: unknown[] = [];
  try {
    if (existsSync(file)) runs = (JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] }).runs ?? [];
  } catch {
    runs = [];
  }
  runs.push({ timestamp: new Date().toISOString(), ...meta, rows });
  writeFileSync(file, JSON.stringify({ runs: runs.slice(-50) }, null, 2) + '\n');
  return file;
}
