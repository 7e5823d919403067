// Slow password hashes (PBKDF2, bcrypt) on a small pool of worker threads, so that one hash —
// a CONNECT's, an added user's — never holds the event loop: EMQX hashes in the connection's own
// process, and one client's hash never stalls another's (emqx_authn_password_hashing.erl). The
// workers are created on first use and do not keep the process alive. Cheap digests (sha256 …)
// stay on the caller's thread.
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

type Task =
  | { op: 'pbkdf2'; args: [password: string, salt: string, iterations: number, length: number, digest: string] }
  | { op: 'bcrypt-hash'; args: [password: string, salt: string] }
  | { op: 'bcrypt-compare'; args: [password: string, hash: string] };

// CommonJS, evaluated in each worker: one task at a time, answered by id.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
const bcrypt = require(workerData.bcrypt);
parentPort.on('message', ({ id, op, args }) => {
  try {
    let result;
    if (op === 'pbkdf2') result = crypto.pbkdf2Sync(args[0], args[1], args[2], args[3], args[4]).toString('hex');
    else if (op === 'bcrypt-hash') result = bcrypt.hashSync(args[0], args[1]);
    else result = bcrypt.compareSync(args[0], args[1]);
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});`;

interface Pending {
  task: Task;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

const SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
const bcryptPath = createRequire(import.meta.url).resolve('bcryptjs');
const idle: Worker[] = [];
const queue: Pending[] = [];
const running = new Map<Worker, Pending>();
let created = 0;
let nextId = 0;

function spawn(): Worker {
  const worker = new Worker(WORKER, { eval: true, workerData: { bcrypt: bcryptPath } });
  worker.unref();
  worker.on('message', (msg: { result?: unknown; error?: string }) => {
    const job = running.get(worker);
    running.delete(worker);
    if (job) {
      if (msg.error !== undefined) job.reject(new Error(msg.error));
      else job.resolve(msg.result);
    }
    idle.push(worker);
    pump();
  });
  worker.on('error', (err) => {
    // A worker that dies fails its task; the pool makes a new one when needed.
    const job = running.get(worker);
    running.delete(worker);
    created--;
    job?.reject(err);
    pump();
  });
  created++;
  return worker;
}

function pump(): void {
  while (queue.length > 0) {
    const worker = idle.pop() ?? (created < SIZE ? spawn() : undefined);
    if (!worker) return;
    const job = queue.shift()!;
    running.set(worker, job);
    worker.postMessage({ id: nextId++, ...job.task });
  }
}

function run<T>(task: Task): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ task, resolve: resolve as (v: unknown) => void, reject });
    pump();
  });
}

/** PBKDF2 as hex, on a worker. */
export function pbkdf2Hex(password: string, salt: string, iterations: number, length: number, digest: string): Promise<string> {
  return run<string>({ op: 'pbkdf2', args: [password, salt, iterations, length, digest] });
}

/** A bcrypt hash of `password` with `salt` (a `$2b$…` salt string), on a worker. */
export function bcryptHash(password: string, salt: string): Promise<string> {
  return run<string>({ op: 'bcrypt-hash', args: [password, salt] });
}

/** True when `password` matches the bcrypt `hash`, on a worker. */
export function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return run<boolean>({ op: 'bcrypt-compare', args: [password, hash] });
}
