/**
 * What the topic panel derives from a topic's history: a line-by-line diff of the last two JSON
 * payloads, and the numeric values of the payload or of one JSON field over time. Pure functions.
 */
import type { TopicMessage } from './tree.ts';

/** Lines compared at most on each side (the diff is quadratic). */
export const DIFF_MAX_LINES = 400;

export type DiffLine = { kind: ' ' | '-' | '+'; text: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The JSON value of a message's payload, or undefined when it is none. */
export function jsonOf(message: TopicMessage | undefined): { value: unknown } | undefined {
  if (!message?.payload) return undefined;
  try {
    return { value: JSON.parse(decoder.decode(message.payload)) };
  } catch {
    return undefined;
  }
}

/** A line diff (longest common subsequence) of `a` and `b`; null when either is too long. */
export function diffLines(a: string[], b: string[]): DiffLine[] | null {
  if (a.length > DIFF_MAX_LINES || b.length > DIFF_MAX_LINES) return null;
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common length of a[i..] and b[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) out.push({ kind: ' ', text: a[i++] }), j++;
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push({ kind: '-', text: a[i++] });
    else out.push({ kind: '+', text: b[j++] });
  }
  while (i < n) out.push({ kind: '-', text: a[i++] });
  while (j < m) out.push({ kind: '+', text: b[j++] });
  return out;
}

/** The diff of the last two JSON payloads of `history` (pretty-printed), or why there is none. */
export function jsonDiff(history: readonly TopicMessage[]): DiffLine[] | 'none' | 'tooLarge' {
  const found: unknown[] = [];
  for (let i = history.length - 1; i >= 0 && found.length < 2; i--) {
    const json = jsonOf(history[i]);
    if (json) found.unshift(json.value);
  }
  if (found.length < 2) return 'none';
  const lines = (v: unknown) => JSON.stringify(v, null, 2).split('\n');
  return diffLines(lines(found[0]), lines(found[1])) ?? 'tooLarge';
}

/** Paths of the numeric fields of a JSON value (`a.b`, `list.0`), depth first, at most `max`. */
export function numericFields(value: unknown, max = 30): string[] {
  const paths: string[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (paths.length >= max) return;
    if (typeof v === 'number' && path) paths.push(path);
    else if (v && typeof v === 'object' && depth < 4) {
      for (const [key, child] of Object.entries(v)) walk(child, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  walk(value, '', 0);
  return paths;
}

/** The number a message holds: the whole payload (`field` empty) or a JSON field; null if none. */
export function numberOf(message: TopicMessage, field: string): number | null {
  const json = jsonOf(message);
  if (!json) return null;
  let v: unknown = json.value;
  if (field) {
    for (const key of field.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
