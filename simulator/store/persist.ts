// Durable storage of the configuration state in --data-dir (security.md D1): each save writes a
// temp file, fsyncs it, keeps the last good file as `state.prev.json`, renames the temp file into
// place and fsyncs the directory, so a kill at any moment loses no acknowledged change. At start
// a corrupt or half-written file is reported, moved aside (never overwritten) and the previous
// good state loaded. Saves that arrive while one is running are committed together.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const FORMAT = 'emqx-console-simulator-state';
const VERSION = 1;

interface Envelope<T> {
  format: string;
  version: number;
  sha256: string;
  state: T;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
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

export class StateFile<T> {
  readonly file: string;
  readonly prevFile: string;
  private readonly tmpFile: string;
  private queue: Waiter[] = [];
  private running = false;
  private drained: Promise<void> = Promise.resolve();

  /**
   * @param dir the data directory
   * @param snapshot returns the state to write; called when a write starts, so every change
   *   made before `save()` was called is in it
   * @param warn where problems found at load time are reported
   */
  constructor(
    readonly dir: string,
    private readonly snapshot: () => T,
    private readonly warn: (message: string) => void,
  ) {
    this.file = path.join(dir, 'state.json');
    this.prevFile = path.join(dir, 'state.prev.json');
    this.tmpFile = path.join(dir, 'state.json.tmp');
  }

  /** Loads the newest good state, or null when the directory holds none yet. */
  async load(): Promise<T | null> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // A temp file left by a kill was never acknowledged: drop it.
    await rm(this.tmpFile, { force: true });
    for (const file of [this.file, this.prevFile]) {
      if (!(await exists(file))) continue;
      const state = await this.read(file);
      if (state !== null) {
        if (file === this.prevFile) this.warn(`state: loaded the previous good state from ${path.basename(file)}`);
        return state;
      }
    }
    return null;
  }

  private async read(file: string): Promise<T | null> {
    let problem: string;
    try {
      const envelope = JSON.parse(await readFile(file, 'utf8')) as Envelope<T>;
      if (envelope?.format !== FORMAT || envelope.version !== VERSION) {
        problem = 'unknown format';
      } else if (digest(JSON.stringify(envelope.state)) !== envelope.sha256) {
        problem = 'checksum mismatch';
      } else {
        return envelope.state;
      }
    } catch (err) {
      problem = err instanceof SyntaxError ? 'not valid JSON (half-written?)' : 'unreadable';
    }
    const aside = `${file}.corrupt-${stamp(Date.now())}`;
    await rename(file, aside);
    this.warn(`state: ${path.basename(file)} is corrupt (${problem}); moved it to ${path.basename(aside)}`);
    return null;
  }

  /** Writes the current snapshot durably; resolves once it is on disk. */
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
      try {
        await this.write(this.snapshot());
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.running = false;
  }

  private async write(state: T): Promise<void> {
    const json = JSON.stringify(state);
    const envelope = `{"format":${JSON.stringify(FORMAT)},"version":${VERSION},"sha256":"${digest(json)}","state":${json}}`;
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
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
