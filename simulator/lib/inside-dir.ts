// Paths built from names that come from requests, backups or state files (trace logs, plugin
// packages, backup files; security.md S22). The names are checked against their own patterns
// where they enter; this is the second fence: whatever the name, the resolved path must be a
// direct child of its folder. It does not create or open anything.
import path from 'node:path';

/**
 * The path of `name` inside `dir`, or null when it would resolve elsewhere (`..`, a separator,
 * an absolute path, NUL). Example: `insideDir('/data/trace', 'trace_a.log')` → `/data/trace/trace_a.log`.
 */
export function insideDir(dir: string, name: string): string | null {
  if (name === '' || name.includes('\0') || name.includes('/') || name.includes('\\')) return null;
  const base = path.resolve(dir);
  const file = path.resolve(base, name);
  return path.dirname(file) === base && path.basename(file) === name ? file : null;
}
