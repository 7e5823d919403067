// Log traces (emqx_trace, emqx_mgmt_api_trace): the trace records are persisted configuration,
// their status follows the clock (waiting before start_at, running until end_at or a stop,
// stopped after), and each trace has a log file in `<data-dir>/trace/` (kept in memory without a
// data dir) that the broker's trace tap appends lines to. Only node 1 has real clients, so the
// other simulated nodes report empty logs. Messages and limits follow emqx_trace.erl.
import { closeSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { isIP } from 'node:net';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { insideDir } from '../../lib/inside-dir.ts';
import { rfc3339 } from '../../lib/time.ts';
import { topicFilterProblem } from '../../lib/topic.ts';
import { zip } from '../../lib/zip.ts';

export type TraceType = 'clientid' | 'topic' | 'ip_address';
export type PayloadEncode = 'text' | 'hex' | 'hidden';
export type TraceStatus = 'waiting' | 'running' | 'stopped';

/** A trace as persisted; times are epoch ms on whole seconds, as EMQX keeps them in seconds. */
export interface TraceRecord {
  name: string;
  type: TraceType;
  /** The client id, topic filter or IP address the trace follows. */
  filter: string;
  payload_encode: PayloadEncode;
  start_at: number;
  end_at: number;
  /** False once stopped by PUT /trace/{name}/stop. */
  enable: boolean;
}

export interface TraceInput {
  name: string;
  type: TraceType;
  filter: string;
  payload_encode?: PayloadEncode;
  /** Epoch ms, already parsed; undefined for the defaults (now, start + 10 min). */
  start_at?: number;
  end_at?: number;
}

/** The GET /trace object: the filter appears under the key named by `type`. */
export type TraceView = {
  name: string;
  type: TraceType;
  payload_encode: PayloadEncode;
  start_at: string;
  end_at: string;
  status: TraceStatus;
  log_size: Record<string, number>;
} & Partial<Record<TraceType, string>>;

/** The name rule of POST /trace (emqx_trace_api: letters, then letters, digits, `-`, `_`). */
export const TRACE_NAME = /^[A-Za-z]+[A-Za-z0-9-_]*$/;
export const TRACE_TYPES: readonly TraceType[] = ['clientid', 'topic', 'ip_address'];
export const PAYLOAD_ENCODES: readonly PayloadEncode[] = ['text', 'hex', 'hidden'];

/** emqx_trace's ?MAX_SIZE. */
export const MAX_TRACES = 30;
/** Reads above this many bytes answer 503 "Requested chunk size too big" (EMQX: enomem). */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
const DEFAULT_DURATION_MS = 10 * 60_000;

const second = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Why a stored trace record is unusable, or null: POST /trace's rules (name, type, filter by type,
 * payload encoding) plus the stored shape, for records that arrive by a backup import.
 */
export function traceRecordProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const r = value as Record<string, unknown>;
  if (typeof r.name !== 'string' || r.name.length > 256 || !TRACE_NAME.test(r.name)) return `name must match ${TRACE_NAME.source}`;
  if (!TRACE_TYPES.includes(r.type as TraceType)) return `type must be one of ${TRACE_TYPES.join(', ')}`;
  if (typeof r.filter !== 'string' || r.filter === '') return 'filter must be a non-empty string';
  if (r.type === 'topic' && topicFilterProblem(r.filter)) return `topic: ${r.filter} invalid by ${topicFilterProblem(r.filter)}`;
  if (r.type === 'ip_address' && !isIP(r.filter)) return 'ip address: einval';
  if (!PAYLOAD_ENCODES.includes(r.payload_encode as PayloadEncode)) return `payload_encode must be one of ${PAYLOAD_ENCODES.join(', ')}`;
  if (!Number.isFinite(r.start_at) || !Number.isFinite(r.end_at) || (r.end_at as number) <= (r.start_at as number)) return 'start_at must be before end_at';
  if (typeof r.enable !== 'boolean') return 'enable must be a boolean';
  return null;
}

/** The log file's name as EMQX gives it: `trace_<name>_<start date>.log`. */
export function traceFileName(record: TraceRecord): string {
  return `trace_${record.name}_${rfc3339(record.start_at).slice(0, 10)}.log`;
}

/** Index just past the last complete UTF-8 character of `chunk`, so a page never splits one. */
function utf8Boundary(chunk: Buffer): number {
  let i = chunk.length - 1;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  while (i >= 0 && i > chunk.length - 4 && (chunk[i] & 0xc0) === 0x80) i--;
  if (i < 0) return chunk.length;
  const lead = chunk[i];
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return chunk.length - i >= needed ? chunk.length : i;
}

/** One node-1 log: a file appended to in order, or memory when there is no data dir. */
class TraceLog {
  size = 0;
  mtime = 0;
  private memory: Buffer[] = [];
  private pending: Buffer[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string | null) {
    if (file && existsSync(file)) {
      const info = statSync(file);
      this.size = info.size;
      this.mtime = info.mtimeMs;
    }
  }

  append(text: string, now: number): void {
    const data = Buffer.from(text, 'utf8');
    this.size += data.length;
    this.mtime = now;
    if (!this.file) {
      this.memory.push(data);
      return;
    }
    const file = this.file;
    // Lines wait for the write in progress and then go out together, in order; a failed write is
    // dropped, as a logger would.
    this.pending.push(data);
    if (this.pending.length > 1) return;
    this.writing = this.writing
      .then(() => {
        const batch = Buffer.concat(this.pending);
        this.pending = [];
        return appendFile(file, batch);
      })
      .catch(() => undefined);
  }

  /** Resolves when every appended line is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  async read(position: number, bytes: number): Promise<Buffer> {
    await this.writing;
    const length = Math.max(0, Math.min(bytes, this.size - position));
    if (length === 0) return Buffer.alloc(0);
    if (!this.file) {
      if (this.memory.length > 1) this.memory = [Buffer.concat(this.memory)];
      return this.memory[0].subarray(position, position + length);
    }
    const chunk = Buffer.alloc(length);
    const fd = openSync(this.file, 'r');
    try {
      const read = readSync(fd, chunk, 0, length, position);
      return chunk.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  }

  async all(): Promise<Buffer> {
    return this.read(0, this.size);
  }

  async remove(): Promise<void> {
    await this.writing;
    this.memory = [];
    this.size = 0;
    if (this.file) rmSync(this.file, { force: true });
  }
}

export class Traces {
  private readonly logs = new Map<string, TraceLog>();
  private readonly dir: string | null;

  /**
   * @param dataDir the simulator's --data-dir (logs go to its `trace/` folder), or null for memory
   * @param nodes the cluster's node names, node 1 first
   */
  constructor(
    private readonly ctx: StoreContext,
    dataDir: string | null,
    private readonly nodes: () => string[],
  ) {
    this.dir = dataDir === null ? null : path.join(dataDir, 'trace');
    if (this.dir) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  // Reads never add the key to the state (no state change through GET, security.md S11).
  private get records(): TraceRecord[] {
    return this.ctx.state.traces ?? [];
  }

  private find(name: string): TraceRecord {
    const record = this.records.find((r) => r.name === name);
    if (!record) throw apiError(404, 'NOT_FOUND', `${name} NOT FOUND`);
    return record;
  }

  private log(record: TraceRecord): TraceLog {
    let log = this.logs.get(record.name);
    if (!log) {
      log = new TraceLog(this.file(record));
      this.logs.set(record.name, log);
    }
    return log;
  }

  // The log file inside `<data-dir>/trace/` (security.md S22). A record whose name breaks the
  // rule (only an old or edited state file can hold one) logs in memory and touches no file.
  private file(record: TraceRecord): string | null {
    if (!this.dir || !TRACE_NAME.test(record.name)) return null;
    return insideDir(this.dir, traceFileName(record));
  }

  /** The status at `now` (emqx_mgmt_api_trace:status/4). */
  status(record: TraceRecord, now = this.ctx.clock.now()): TraceStatus {
    if (!record.enable || now >= record.end_at) return 'stopped';
    return now < record.start_at ? 'waiting' : 'running';
  }

  private view(record: TraceRecord, now: number): TraceView {
    const [self, ...others] = this.nodes();
    const log_size: Record<string, number> = { [self]: this.log(record).size };
    for (const node of others) log_size[node] = 0;
    return {
      name: record.name,
      type: record.type,
      [record.type]: record.filter,
      payload_encode: record.payload_encode,
      start_at: rfc3339(record.start_at),
      end_at: rfc3339(record.end_at),
      status: this.status(record, now),
      log_size,
    };
  }

  /** GET /trace: newest start first. */
  list(): TraceView[] {
    const now = this.ctx.clock.now();
    return [...this.records].sort((a, b) => b.start_at - a.start_at).map((r) => this.view(r, now));
  }

  /** The traces recording at `now`, for the broker tap (cheap: usually none). */
  running(now: number): TraceRecord[] {
    const records = this.ctx.state.traces;
    if (!records?.length) return [];
    return records.filter((r) => r.enable && r.start_at <= now && now < r.end_at);
  }

  /** POST /trace, with emqx_trace:create/1's checks and messages. */
  async create(input: TraceInput): Promise<TraceView> {
    const now = this.ctx.clock.now();
    if (this.records.length >= MAX_TRACES) {
      throw apiError(400, 'INVALID_PARAMS', 'The number of traces created has reached the maximum, please delete the useless ones first');
    }
    if (input.type === 'topic' && topicFilterProblem(input.filter)) {
      throw apiError(400, 'INVALID_PARAMS', `topic: ${input.filter} invalid by ${topicFilterProblem(input.filter)}`);
    }
    if (input.type === 'ip_address' && !isIP(input.filter)) throw apiError(400, 'INVALID_PARAMS', 'ip address: einval');
    if (input.end_at !== undefined && input.end_at <= now) throw apiError(400, 'INVALID_PARAMS', 'end_at time has already passed');
    // A start in the past means now (emqx_trace:to_system_second/1).
    const start = second(Math.max(now, input.start_at ?? now));
    const end = input.end_at === undefined ? start + DEFAULT_DURATION_MS : second(input.end_at);
    if (end <= start) throw apiError(400, 'INVALID_PARAMS', 'failed by start_at >= end_at');
    if (this.records.some((r) => r.name === input.name)) throw apiError(409, 'ALREADY_EXISTS', `${input.name} Already Exists`);
    // Only one trace per filter may start in the same second.
    const twin = this.records.find((r) => r.start_at === start && r.type === input.type && r.filter === input.filter);
    if (twin) throw apiError(409, 'DUPLICATE_CONDITION', `${twin.name} Duplication Condition`);
    const record: TraceRecord = {
      name: input.name, type: input.type, filter: input.filter, payload_encode: input.payload_encode ?? 'text',
      start_at: start, end_at: end, enable: true,
    };
    (this.ctx.state.traces ??= []).push(record);
    await this.ctx.persist();
    // EMQX 5.5's create answer repeats start_at as end_at (emqx_mgmt_api_trace:format_trace/1).
    const view = this.view(record, now);
    return { ...view, end_at: view.start_at };
  }

  /** PUT /trace/{name}/stop. */
  async stop(name: string): Promise<{ enable: false; name: string }> {
    const record = this.find(name);
    if (record.enable) {
      record.enable = false;
      await this.ctx.persist();
    }
    return { enable: false, name };
  }

  async remove(name: string): Promise<void> {
    const record = this.find(name);
    this.ctx.state.traces = this.records.filter((r) => r !== record);
    await this.ctx.persist();
    await this.log(record).remove();
    this.logs.delete(name);
  }

  async clear(): Promise<void> {
    const records = this.records;
    this.ctx.state.traces = [];
    await this.ctx.persist();
    for (const record of records) await this.log(record).remove();
    this.logs.clear();
  }

  /** Appends lines to a trace's node-1 log. */
  append(record: TraceRecord, text: string, now: number): void {
    this.log(record).append(text, now);
  }

  private checkNode(node: string | undefined): string {
    const nodes = this.nodes();
    const chosen = node ?? nodes[0];
    if (!nodes.includes(chosen)) throw apiError(404, 'NOT_FOUND', 'Node NOT FOUND');
    return chosen;
  }

  /** GET /trace/{name}/log (envelope G): up to `bytes` from `position` of one node's log. */
  async read(name: string, options: { node?: string; position: number; bytes: number }) {
    const record = this.find(name);
    const node = this.checkNode(options.node);
    const meta = (position: number) => ({ position, bytes: options.bytes });
    // A waiting trace has no file yet: EMQX answers "" rather than an error.
    if (this.status(record) === 'waiting') return { items: '', meta: meta(options.position) };
    if (options.bytes > MAX_READ_BYTES) throw apiError(503, 'SERVICE_UNAVAILABLE', 'Requested chunk size too big');
    const log = this.log(record);
    const size = node === this.nodes()[0] ? log.size : 0;
    if (options.position >= size) return { items: '', meta: meta(size) };
    const chunk = await log.read(options.position, options.bytes);
    const end = options.position + chunk.length < size ? utf8Boundary(chunk) : chunk.length;
    return { items: chunk.subarray(0, end).toString('utf8'), meta: meta(options.position + end) };
  }

  /** GET /trace/{name}/log_detail: the nodes whose log file exists (from the start on). */
  detail(name: string): { node: string; size: number; mtime: number }[] {
    const record = this.find(name);
    if (this.status(record) === 'waiting') return [];
    const log = this.log(record);
    return this.nodes().map((node, i) => ({
      node,
      size: i === 0 ? log.size : 0,
      mtime: Math.floor((i === 0 && log.mtime ? log.mtime : record.start_at) / 1000),
    }));
  }

  /** GET /trace/{name}/download: a zip of the non-empty logs, one `<node>-<file>` each. */
  async archive(name: string, node?: string): Promise<{ filename: string; data: Buffer }> {
    const record = this.find(name);
    const nodes = node === undefined ? this.nodes() : [this.checkNode(node)];
    const log = this.log(record);
    const entries = [];
    if (nodes.includes(this.nodes()[0]) && log.size > 0 && this.status(record) !== 'waiting') {
      entries.push({ name: `${this.nodes()[0]}-${traceFileName(record)}`, data: await log.all(), mtime: log.mtime });
    }
    if (entries.length === 0) throw apiError(404, 'NOT_FOUND', 'Trace is empty');
    return { filename: `${name}.zip`, data: zip(entries) };
  }

  /** Waits for pending log writes (the app's close). */
  async flush(): Promise<void> {
    await Promise.all([...this.logs.values()].map((log) => log.flushed()));
  }
}
