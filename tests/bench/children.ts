// Starting the benchmark's helper processes (load generators, the HTTP requester, the bare
// broker) and reading the JSON lines they print, plus the resident set size of any process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/simulator.ts';

export interface Child {
  process: ChildProcess;
  /** Resolves with the next JSON line printed on stdout (rejects if the child exits first). */
  next<T = any>(timeoutMs?: number): Promise<T>;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  /** Every line the child printed that was not JSON (its human-readable output). */
  text(): string;
  stop(): Promise<void>;
}

/** Runs `tests/bench/<script>` under tsx with the given arguments. */
export function startChild(script: string, args: string[] = []): Child {
  const child = spawn(process.execPath, ['--import', 'tsx/esm', path.join('tests', 'bench', script), ...args], {
    cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  let buffer = '';
  let plain = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        plain += line + '\n';
        continue;
      }
      const waiter = waiting.shift();
      if (waiter) waiter(value);
      else lines.push(value);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    next<T>(timeoutMs = 180_000) {
      if (lines.length) return Promise.resolve(lines.shift() as T);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script}: no answer within ${timeoutMs} ms\n${stderr}`)), timeoutMs);
        void exited.then(() => setTimeout(() => reject(new Error(`${script} exited (${child.exitCode}):\n${stderr}`)), 50));
        waiting.push((value) => (clearTimeout(timer), resolve(value as T)));
      });
    },
    send(line) {
      child.stdin!.write(line + '\n');
    },
    text: () => plain,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
