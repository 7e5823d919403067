// Durable storage of the configuration state in --data-dir: what the simulator promises about it
// (security.md D1, S23, S24) and how.
//
// Writing (D1). Each save writes a temp file and fsyncs it, keeps the current file as
// `state.prev.json` (a hard link renamed into place, so `state.json` itself never goes away),
// renames the temp file over `state.json` and fsyncs the directory: a kill at any moment loses no
// acknowledged change, and once a first save is done `state.json` always exists. Saves that
// arrive while one is running are committed together, in one write.
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
// acknowledged change: when the readable header of `state.json` names the same save as the
// previous file. A missing `state.json` beside a previous file was removed by someone (saves
// never leave that), so nothing says the previous file is current: it is reported, never
// silently used (D4). Otherwise the start is refused with a message naming the files and
// `--reset-data`, which moves them aside and starts empty. A checksummed state of the wrong shape
// or with an item its module would refuse counts as damaged. A refused start changes no file.
//
// One simulator per data directory (S23, D5): `lockDataDir` creates `simulator.lock/` with mkdir
// (atomic) and writes the owner's process id and start time into it. A second start finds it and
// refuses for as long as that process exists — stalled, stopped or busy alike; the lock of a
// process that is gone (killed) is taken over at once. No age makes a lock stale.
import { createHash } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

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
  private readonly prevTmpFile: string;
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
    this.prevTmpFile = path.join(dir, 'state.prev.json.tmp');
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
    await rm(this.prevTmpFile, { force: true });
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
    if (current === null && previous?.ok) {
      return [
        `the state in ${this.dir} has no ${path.basename(this.file)}, only the previous ${path.basename(this.prevFile)} (save ${previous.seq}); saves never remove ${path.basename(this.file)}, so changes after save ${previous.seq} may be lost:`,
        `  ${this.file}: missing`,
        `  ${this.prevFile}: intact, save ${previous.seq}`,
        `Restore ${path.basename(this.file)} from a copy; or rename ${path.basename(this.prevFile)} to ${path.basename(this.file)} to go back to save ${previous.seq}; or start with --reset-data to move the files aside and start with an empty state.`,
      ].join('\n');
    }
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
    // The current file becomes the previous good one through a second name, so state.json never
    // goes missing: a kill leaves either the old pair or the new state.json beside the old one.
    if (await exists(this.file)) {
      await rm(this.prevTmpFile, { force: true });
      await link(this.file, this.prevTmpFile);
      await rename(this.prevTmpFile, this.prevFile);
    }
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

/** The owner of a data directory's lock, as written into it. */
interface LockOwner {
  pid: number;
  host: string;
  /** The process's start time as the kernel counts it (Linux), so a reused pid is told apart. */
  started: string | null;
}

/** When the process `pid` started (field 22 of /proc/<pid>/stat), or null where there is no /proc. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True while the process that wrote `owner` exists, stopped or stalled included. */
function ownerLives(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true; // another machine's process cannot be asked: assume it lives
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = processStart(owner.pid);
  return owner.started === null || started === null || started === owner.started;
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path.join(lockPath, 'owner.json'), 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data directory's lock (`<dir>/simulator.lock/`) so a second simulator cannot write
 * the same files; resolves with the release. A lock whose owner still exists makes it throw
 * StateError naming the directory and the owner's pid, however long that owner has not moved.
 */
export async function lockDataDir(dir: string, warn: (message: string) => void): Promise<() => Promise<void>> {
  const absolute = path.resolve(dir);
  await mkdir(absolute, { recursive: true, mode: 0o700 });
  const lockPath = path.join(absolute, 'simulator.lock');
  const me: LockOwner = { pid: process.pid, host: hostname(), started: processStart(process.pid) };
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(lockPath, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(lockPath);
    // An owner that has not written its file yet is starting right now.
    if (owner === null && attempt < 20) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (owner !== null && ownerLives(owner)) {
      throw new StateError(`another simulator (process ${owner.pid}) is using the data directory ${absolute} (its lock ${lockPath} is held); stop it, or start this one with another --data-dir`);
    }
    if (attempt >= 21) throw new StateError(`the lock ${lockPath} of the data directory ${absolute} cannot be taken over; remove it if no simulator uses that directory`);
    // The owner is gone: move its lock aside (only one of two racing starters wins the rename)
    // and try again.
    const aside = `${lockPath}.stale-${process.pid}-${attempt}`;
    // Judged gone a moment ago: if another starter has taken the lock since, it is not moved.
    const again = readOwner(lockPath);
    if (again !== null && (again.pid !== owner?.pid || again.started !== owner?.started)) continue;
    try {
      await rename(lockPath, aside);
      await rm(aside, { recursive: true, force: true });
      warn(`state: took over the lock of ${absolute} from process ${owner?.pid ?? '(unknown)'}, which no longer runs`);
    } catch {
      // Another starter moved it first.
    }
  }
  await writeFile(path.join(lockPath, 'owner.json'), JSON.stringify(me), { mode: 0o600 });
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await rm(lockPath, { recursive: true, force: true }).catch(() => undefined);
  };
}
