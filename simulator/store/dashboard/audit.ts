// The audit log of API changes (Enterprise, emqx_audit.erl, emqx_dashboard_audit.erl): one entry
// per non-GET request while `log.audit.enable` is on, newest first, bounded to
// `log.audit.max_filter_size`. EMQX keeps the entries in a disc table (emqx_audit.erl, mnesia
// disc_copies), so they outlive a restart: here they are appended, one JSON line each, to
// `audit.jsonl` in the data directory, read back at start (a torn last line is skipped) and the
// file rewritten once it holds twice the kept number. No password, token or secret is ever kept
// (security.md S4).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { StoreContext } from '../context.ts';
import type { ConfigRoots } from '../config/config-roots.ts';
import { rfc3339 } from '../../lib/time.ts';
import { isInlinePrivateKey, isSecretHeader } from '../access/auth-common.ts';

type Obj = Record<string, unknown>;

export interface AuditEntry {
  /** Epoch microseconds. */
  created_at: number;
  node: string;
  from: 'dashboard' | 'rest_api';
  source: string;
  source_ip: string;
  operation_id: string;
  operation_type: string;
  operation_result: 'success' | 'failure';
  http_status_code: number;
  http_method: 'post' | 'put' | 'delete';
  duration_ms: number;
  args: string;
  failure: Obj | string;
  http_request: { method: string; bindings: Obj; body: unknown; headers: Obj };
}

export interface AuditSettings {
  enable: boolean;
  max_filter_size: number;
  ignore_high_frequency_request: boolean;
}

// emqx_dashboard_audit.erl ?HIGH_FREQUENCY_REQUESTS: operation ids skipped when
// `ignore_high_frequency_request` is on.
export const HIGH_FREQUENCY_REQUESTS: ReadonlySet<string> = new Set([
  '/publish', '/publish/bulk',
  '/clients/:clientid/subscribe', '/clients/:clientid/unsubscribe',
  '/clients/:clientid/subscribe/bulk', '/clients/:clientid/unsubscribe/bulk',
  '/clients/kickout/bulk',
]);

// Keys whose values never enter the log: emqx_utils_redact.erl's list, widened to every password
// and key-like field of this API (change_pwd's old_pwd/new_pwd, api_secret …).
const SENSITIVE_KEY = /pass|pwd|secret|token|jwt|private_key|security_token/i;
// Cookies carry credentials too, beyond emqx_utils_redact.erl is_sensitive_header/1.
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);
const REDACTED = '******';

/**
 * A copy of `value` with what GET answers mask replaced by `******` (emqx_utils_redact.erl redact/1,
 * which the broker applies to every audit entry): sensitive keys, credential headers inside a
 * `headers` object (an HTTP connector's `Authorization`), inline PEM private keys.
 */
export function redactBody(value: unknown, depth = 0): unknown {
  if (depth > 32) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactBody(v, depth + 1));
  if (isInlinePrivateKey(value)) return REDACTED;
  if (value === null || typeof value !== 'object') return value;
  if (Buffer.isBuffer(value)) return REDACTED;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) {
    if (SENSITIVE_KEY.test(k)) out[k] = REDACTED;
    else if (k.toLowerCase() === 'headers' && v && typeof v === 'object' && !Array.isArray(v)) out[k] = redactHeaders(v as Obj);
    // An uploaded file: its name only, never its contents.
    else if (v && typeof v === 'object' && Buffer.isBuffer((v as { data?: unknown }).data)) out[k] = { filename: String((v as { filename?: unknown }).filename ?? '') };
    else out[k] = redactBody(v, depth + 1);
  }
  return out;
}

/** Request headers with credentials replaced by `******`. */
export function redactHeaders(headers: Record<string, unknown>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isSecretHeader(k) || COOKIE_HEADERS.has(k.toLowerCase()) ? REDACTED : v;
  return out;
}

/** Epoch microseconds as RFC 3339 with six fraction digits (emqx_utils_calendar, microsecond). */
export function rfc3339Micro(us: number): string {
  const ms = Math.floor(us / 1000);
  const text = rfc3339(ms, 'ms');
  return `${text.slice(0, 23)}${String(us % 1000).padStart(3, '0')}${text.slice(23)}`;
}

export interface AuditFilters {
  node?: string;
  from?: string;
  source?: string;
  source_ip?: string;
  operation_id?: string;
  operation_type?: string;
  operation_result?: string;
  http_status_code?: number;
  http_method?: string;
  gte_duration_ms?: number;
  lte_duration_ms?: number;
  /** Epoch microseconds. */
  gte_created_at?: number;
  lte_created_at?: number;
}

const EXACT = ['node', 'from', 'source', 'source_ip', 'operation_id', 'operation_type', 'operation_result', 'http_status_code', 'http_method'] as const;

export class AuditLog {
  /** Oldest first. */
  private entries: AuditEntry[] = [];
  private lastMicros = 0;
  private readonly file: string | null;
  /** Lines in the file (kept entries plus dropped ones not yet compacted away). */
  private lines = 0;
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();

  /** @param dataDir the simulator's --data-dir, or null to keep the log in memory only */
  constructor(private readonly ctx: StoreContext, private readonly roots: ConfigRoots, dataDir: string | null) {
    this.file = dataDir === null ? null : path.join(dataDir, 'audit.jsonl');
    if (this.file && existsSync(this.file)) this.load(this.file);
  }

  private load(file: string): void {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      this.lines++;
      try {
        const entry = JSON.parse(line) as AuditEntry;
        if (typeof entry.created_at === 'number' && typeof entry.operation_id === 'string') this.entries.push(entry);
      } catch {
        // A line cut short by a crash: the entries before it stand.
      }
    }
    const excess = this.entries.length - this.settings().max_filter_size;
    if (excess > 0) this.entries.splice(0, excess);
    this.lastMicros = this.entries.at(-1)?.created_at ?? 0;
  }

  /** Appends a line; lines waiting for the write in progress go out together, in order. */
  private persist(entry: AuditEntry): void {
    const file = this.file;
    if (!file) return;
    this.lines++;
    if (this.lines > 2 * Math.max(this.entries.length, 1)) {
      // Rewrite with the kept entries only (a new file renamed over the old one).
      this.pending = [];
      this.lines = this.entries.length;
      const text = this.entries.map((e) => `${JSON.stringify(e)}\n`).join('');
      this.writing = this.writing.then(() => {
        writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
        renameSync(`${file}.tmp`, file);
      }).catch(() => undefined);
      return;
    }
    this.pending.push(`${JSON.stringify(entry)}\n`);
    if (this.pending.length > 1) return;
    this.writing = this.writing
      .then(() => {
        const batch = this.pending.join('');
        this.pending = [];
        return appendFile(file, batch, { mode: 0o600 });
      })
      .catch(() => undefined);
  }

  /** Resolves when every recorded entry is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  settings(): AuditSettings {
    const audit = ((this.roots.get('log').audit ?? {}) as Partial<AuditSettings>);
    return {
      enable: audit.enable === true,
      max_filter_size: typeof audit.max_filter_size === 'number' ? audit.max_filter_size : 5000,
      ignore_high_frequency_request: audit.ignore_high_frequency_request !== false,
    };
  }

  /** Whether a request with this method and operation id is recorded now. */
  wants(method: string, operationId: string): boolean {
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
    const s = this.settings();
    return s.enable && !(s.ignore_high_frequency_request && HIGH_FREQUENCY_REQUESTS.has(operationId));
  }

  /** Records one entry (created now, node 1), dropping the oldest beyond `max_filter_size`. */
  record(entry: Omit<AuditEntry, 'created_at'>): void {
    // Microseconds from the millisecond clock, kept strictly increasing so the order is stable.
    const micros = Math.max(this.ctx.clock.now() * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    const recorded = { created_at: micros, ...entry };
    this.entries.push(recorded);
    const excess = this.entries.length - this.settings().max_filter_size;
    if (excess > 0) this.entries.splice(0, excess);
    this.persist(recorded);
  }

  /** GET /audit: matching entries, newest first, one page (envelope A). */
  query(filters: AuditFilters, page: number, limit: number): { data: Obj[]; meta: { page: number; limit: number; hasnext: boolean; count: number } } {
    const matching: AuditEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (EXACT.some((key) => filters[key] !== undefined && e[key] !== filters[key])) continue;
      if (filters.gte_duration_ms !== undefined && e.duration_ms < filters.gte_duration_ms) continue;
      if (filters.lte_duration_ms !== undefined && e.duration_ms > filters.lte_duration_ms) continue;
      if (filters.gte_created_at !== undefined && e.created_at < filters.gte_created_at) continue;
      if (filters.lte_created_at !== undefined && e.created_at > filters.lte_created_at) continue;
      matching.push(e);
    }
    const start = (page - 1) * limit;
    const data = matching.slice(start, start + limit).map((e) => ({ ...e, created_at: rfc3339Micro(e.created_at) }));
    return { data, meta: { page, limit, hasnext: start + limit < matching.length, count: matching.length } };
  }
}
