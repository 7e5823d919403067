// Durable storage of the configuration state in --data-dir: what the simulator promises about it
// (security.md D1, S23, S24) and how.
//
// Writing (D1). Each save writes a temp file, fsyncs it, keeps the current file as
// `state.prev.json`, renames the temp file into place and fsyncs the directory, so a kill at any
// moment loses no acknowledged change. Saves that arrive while one is running are committed
// together, in one write.
//
// Persist, then apply (S23). The store's modules change `store.state` and then await `persist()`;
// rather than turning ~80 call sites around, a failed write is undone: this file keeps the text of
// the last durable state, and when a write fails it hands that state back (`restore`), which the
// store copies into the same `state` object (so every `ctx.state.x` reads the old value again)
// and announces as "state replaced", the notification on which modules that cache something
// derived from the state (compiled rules, indexes, settings) rebuild it; a backup import uses the
// same notification. Every save waiting on the failed write is rejected — those in its batch and
// those queued behind it, whose changes were made after its snapshot and are undone with it — and
// each caller answers 500. A failure after the new file took its name (the directory fsync) is
// not undone: the file a restart would load already holds the change. Live effects outside the
// state (revoked tokens, opened or closed sockets) stay as they are; a change made between a
// module's edit and its own `persist()` call across an await is undone without its caller seeing
// an error, which is why modules call `persist()` right after changing the state.
//
// Damaged state never resets credentials (S24). The envelope is one JSON document whose fixed
// first bytes are a header — format, version, a save sequence number and the body's SHA-256 —
// read with a pattern, without parsing the body, so the sequence of a damaged file is still
// known. The header lives in the same file as the body rather than in a separate sequence file:
// it can never disagree with its body, costs no extra fsync per save, and is one file fewer to
// damage. Because a file reaches the name `state.json` only after its bytes were fsynced, a
// damaged `state.json` was damaged afterwards and may hold an acknowledged change that
// `state.prev.json` lacks; so the previous file is loaded only when it provably holds every
// acknowledged change: when `state.json` is missing (a kill between the two renames of a save:
// the previous file is the last acknowledged state) or when its readable header names the same
// save as the previous file. Otherwise the start is refused with a message naming the files and
// `--reset-data`, which moves them aside and starts empty. A checksummed state of the wrong shape
// counts as damaged. The files are never changed by a refused start.
//
// One simulator per data directory (S23): `lockDataDir` takes a proper-lockfile lock in it; the
// lock of a killed process goes stale within seconds and is taken over.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

const FORMAT = 'emqx-console-simulator-state';
const VERSION = 2;
// Version 1 had no sequence number; its files are still read (as save 0).
const HEADER = /^\{"format":"emqx-console-simulator-state","version":(\d+),(?:"seq":(\d{1,15}),)?"sha256":"([0-9a-f]{64})","state":/;

/** The state in the data directory cannot be loaded safely: the start is refused. */
export class StateError extends Error {}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

type Reading<T> =
  | { ok: true; file: string; seq: number; state: T; json: string }
  | { ok: false; file: string; seq: number | null; problem: string };

export interface StateFileOptions<T> {
  /** The state to write; called when a write starts, so every change made before `save()` is in it. */
  snapshot: () => T;
  /**
   * Puts the last durable state back after a failed write (null: nothing was saved yet). Its
   * synchronous part must replace the state; what it returns (caches following) is not awaited.
   */
  restore: (durable: T | null) => Promise<void>;
  /** Why a checksummed state is not of the expected shape, or null. */
  check: (state: unknown) => string | null;
  /** Where problems are reported (a load from the previous file, a failed write). */
  warn: (message: string) => void;
}

function digest(json: string): string {
  return createHash('sha256').update(json).digest('hex');
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code ?? (err instanceof Error ? err.message : String(err));
}

export class StateFile<T> {
  readonly file: string;
  readonly prevFile: string;
  private readonly tmpFile: string;
  private queue: Waiter[] = [];
  private running = false;
  private drained: Promise<void> = Promise.resolve();
  /** The body of the last durable state (null: none yet) and its save sequence number. */
  private durable: string | null = null;
  private seq = 0;

  constructor(readonly dir: string, private readonly options: StateFileOptions<T>) {
    this.file = path.join(dir, 'state.json');
    this.prevFile = path.join(dir, 'state.prev.json');
    this.tmpFile = path.join(dir, 'state.json.tmp');
  }

  /**
   * Loads the state that holds every acknowledged change, or null for a directory without state.
   * Throws StateError when no file provably does. With `reset` the state files are moved aside
   * (`state.json.reset-<time>`) and the directory starts empty.
   */
  async load(reset = false): Promise<T | null> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // A temp file left by a kill was never acknowledged: drop it.
    await rm(this.tmpFile, { force: true });
    if (reset) {
      const now = Date.now();
      for (const file of [this.file, this.prevFile]) {
        if (!(await exists(file))) continue;
        const aside = `${file}.reset-${stamp(now)}`;
        await rename(file, aside);
        this.options.warn(`state: --reset-data: moved ${file} to ${aside}`);
      }
      return null;
    }
    const current = await this.read(this.file);
    if (current?.ok) return this.accept(current);
    const previous = await this.read(this.prevFile);
    if (current === null) {
      if (previous === null) return null;
      if (previous.ok) {
        this.options.warn(`state: ${path.basename(this.file)} is missing (a save was interrupted between its renames); loaded ${path.basename(this.prevFile)}, the last acknowledged state`);
        return this.accept(previous);
      }
    } else if (previous?.ok && current.seq !== null && previous.seq === current.seq) {
      this.options.warn(`state: ${path.basename(this.file)} is damaged (${current.problem}); loaded ${path.basename(this.prevFile)}, which holds the same save ${current.seq}`);
      return this.accept(previous);
    }
    throw new StateError(this.refusal(current, previous));
  }

  private accept(reading: Reading<T> & { ok: true }): T {
    this.seq = reading.seq;
    this.durable = reading.json;
    return reading.state;
  }

  private refusal(current: Reading<T> | null, previous: Reading<T> | null): string {
    const describe = (file: string, r: Reading<T> | null): string => {
      if (r === null) return `${file}: missing`;
      if (r.ok) return `${file}: intact, but from save ${r.seq}, older than ${path.basename(this.file)}${current?.seq == null ? '' : ` (save ${current.seq})`}`;
      return `${file}: ${r.problem}${r.seq === null ? '' : ` (save ${r.seq})`}`;
    };
    return [
      `the state in ${this.dir} is damaged, and no intact file holds every saved change; starting empty would reset every user and password:`,
      `  ${describe(this.file, current)}`,
      `  ${describe(this.prevFile, previous)}`,
      'Restore the files from a copy, or start with --reset-data to move them aside and start with an empty state.',
    ].join('\n');
  }

  /** One state file as found: null when absent, otherwise intact or why not. */
  private async read(file: string): Promise<Reading<T> | null> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return { ok: false, file, seq: null, problem: `unreadable (${reason(err)})` };
    }
    const header = HEADER.exec(text);
    if (!header) return { ok: false, file, seq: null, problem: text.length === 0 ? 'empty' : 'no readable header (truncated or not a state file)' };
    const version = Number(header[1]);
    if (version !== VERSION && !(version === 1 && header[2] === undefined)) return { ok: false, file, seq: null, problem: `unknown format version ${version}` };
    const seq = header[2] === undefined ? 0 : Number(header[2]);
    const rest = text.trimEnd();
    if (!rest.endsWith('}')) return { ok: false, file, seq, problem: 'truncated' };
    const json = rest.slice(header[0].length, -1);
    if (digest(json) !== header[3]) return { ok: false, file, seq, problem: 'checksum mismatch' };
    let state: unknown;
    try {
      state = JSON.parse(json);
    } catch {
      return { ok: false, file, seq, problem: 'not valid JSON' };
    }
    const shape = this.options.check(state);
    if (shape) return { ok: false, file, seq, problem: `wrong shape: ${shape}` };
    return { ok: true, file, seq, state: state as T, json };
  }

  /** Writes the current snapshot durably; resolves once it is on disk, rejects when the change was undone. */
  save(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      if (!this.running) this.drained = this.drain();
    });
  }

  /** Resolves when no write is pending or running. */
  flush(): Promise<void> {
    return this.drained;
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let json = '';
      try {
        json = JSON.stringify(this.options.snapshot());
        await this.write(json, this.seq + 1);
      } catch (err) {
        // Everything not yet durable is undone: this batch, and the saves queued meanwhile, whose
        // changes were made after this batch's snapshot. The state is replaced synchronously, so
        // no change lands between the undo and the rejections.
        const undone = [...batch, ...this.queue];
        this.queue = [];
        this.options.warn(`state: a change could not be saved (${reason(err)}); it was undone`);
        this.options.restore(this.durable === null ? null : (JSON.parse(this.durable) as T))
          .catch((e: unknown) => this.options.warn(`state: rebuilding after an undone change failed (${reason(e)})`));
        for (const w of undone) w.reject(err);
        continue;
      }
      this.seq += 1;
      this.durable = json;
      for (const w of batch) w.resolve();
    }
    this.running = false;
  }

  private async write(json: string, seq: number): Promise<void> {
    const envelope = `{"format":${JSON.stringify(FORMAT)},"version":${VERSION},"seq":${seq},"sha256":"${digest(json)}","state":${json}}`;
    const handle = await open(this.tmpFile, 'w', 0o600);
    try {
      await handle.writeFile(envelope);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The current file becomes the previous good one; if a kill lands between the two renames,
    // load() finds no state.json and takes state.prev.json, the last acknowledged state.
    if (await exists(this.file)) await rename(this.file, this.prevFile);
    await rename(this.tmpFile, this.file);
    // From here the new file is what a restart loads: the change stands even if the directory
    // cannot be synced (undoing it in memory would make memory and disk disagree).
    try {
      const dir = await open(this.dir, 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (err) {
      this.options.warn(`state: the data directory could not be synced (${reason(err)}); the last change may not survive a power loss`);
    }
  }
}

// A killed simulator stops refreshing its lock; after this long the lock counts as stale and the
// next start takes it over (proper-lockfile refreshes it every half of that).
const LOCK_STALE_MS = 3000;

/**
 * Takes the data directory's lock (`<dir>/simulator.lock`) so a second simulator cannot write the
 * same files; resolves with the release. A live holder makes it throw StateError naming the
 * directory, after waiting long enough for a killed holder's lock to go stale.
 */
export async function lockDataDir(dir: string, warn: (message: string) => void): Promise<() => Promise<void>> {
  const absolute = path.resolve(dir);
  await mkdir(absolute, { recursive: true, mode: 0o700 });
  const lockPath = path.join(absolute, 'simulator.lock');
  try {
    const release = await lockfile.lock(absolute, {
      lockfilePath: lockPath,
      stale: LOCK_STALE_MS,
      retries: { retries: Math.ceil((LOCK_STALE_MS * 1.5) / 250), factor: 1, minTimeout: 250, maxTimeout: 250 },
      onCompromised: (err) => warn(`state: the lock of ${absolute} was lost (${err.message}); another simulator may be writing this data directory`),
    });
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await release().catch(() => undefined);
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new StateError(`another simulator is using the data directory ${absolute} (its lock ${lockPath} is held); stop it, or start this one with another --data-dir`);
    }
    throw err;
  }
}
