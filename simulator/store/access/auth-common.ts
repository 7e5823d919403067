// What authenticators and authorization sources share: secret redaction and the `******` merge of
// emqx-api-part2 §1.3, per-source decision counters with their rates, the TCP reachability probe
// behind the status of database backends, and the status envelope of §2.6/§3.5.
import net from 'node:net';
import { apiError } from '../../plugins/errors.ts';

export const REDACTED = '******';
const SENSITIVE = new Set([
  'password', 'secret', 'token', 'jwt', 'private_key', 'bind_password', 'account_key', 'aws_secret_access_key',
  'secret_access_key', 'access_key_secret', 'access_key_id', 'secret_key', 'security_token', 'sp_private_key',
]);
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization']);
// An inline PEM private key (a TLS `keyfile` given as text): EMQX writes it to a file and shows
// the path (emqx_tls_lib:ensure_ssl_files); it never appears in an answer or the audit log here.
const INLINE_PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/** True for a header whose value is a credential (emqx_utils_redact.erl is_sensitive_header/1). */
export function isSecretHeader(name: string): boolean {
  return SENSITIVE_HEADERS.has(name.trim().toLowerCase());
}

/** True for text that holds an inline PEM private key. */
export function isInlinePrivateKey(value: unknown): boolean {
  return typeof value === 'string' && INLINE_PRIVATE_KEY.test(value);
}

function keepsValue(value: unknown): boolean {
  return typeof value !== 'string' || value === '' || /^\$\{[^}]+\}$/.test(value) || value.startsWith('file://');
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy with secret values replaced by `******`. */
export function redact(value: unknown, inHeaders = false): unknown {
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (isInlinePrivateKey(value)) return REDACTED;
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    const secret = inHeaders ? isSecretHeader(key) : SENSITIVE.has(key);
    if (secret && !keepsValue(v)) out[key] = REDACTED;
    else out[key] = inHeaders ? v : redact(v, key === 'headers');
  }
  return out;
}

/** `incoming` with every `******` value replaced by what `stored` holds at the same path. */
export function restoreSecrets(incoming: unknown, stored: unknown): unknown {
  if (incoming === REDACTED) return stored === undefined ? incoming : stored;
  if (!isObject(incoming)) return incoming;
  const out: Json = {};
  for (const [key, v] of Object.entries(incoming)) out[key] = restoreSecrets(v, isObject(stored) ? stored[key] : undefined);
  return out;
}

/** A deep copy (configs are plain JSON). */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** `defaults` with `value` merged over it, objects recursively. */
export function withDefaults(defaults: Json, value: Json): Json {
  const out: Json = clone(defaults);
  for (const [key, v] of Object.entries(value)) {
    out[key] = isObject(v) && isObject(out[key]) ? withDefaults(out[key] as Json, v) : clone(v);
  }
  return out;
}

/** The 400 of a config that fails validation: EMQX puts a JSON-encoded validation error in `message`. */
export function invalid(reason: string, path?: string, value?: unknown): Error {
  const body: Json = { kind: 'validation_error', reason };
  if (path) body.path = path;
  if (value !== undefined) body.value = value;
  return apiError(400, 'BAD_REQUEST', JSON.stringify(body));
}

/** Decision counters of one authenticator or source, with EMQX's rate fields. */
export class Counters {
  private readonly counts: Record<string, number>;
  // Events per wall-clock second, for the rates; the last 5 minutes are kept.
  private readonly seconds = new Map<number, number>();
  private max = 0;

  constructor(private readonly keys: readonly string[], private readonly now: () => number) {
    this.counts = Object.fromEntries(keys.map((k) => [k, 0]));
  }

  /** Counts one decision: `total` and the named outcome. */
  count(outcome: string): void {
    this.counts.total++;
    this.counts[outcome]++;
    const second = Math.floor(this.now() / 1000);
    this.seconds.set(second, (this.seconds.get(second) ?? 0) + 1);
    if (this.seconds.size > 310) {
      for (const s of this.seconds.keys()) if (s < second - 300) this.seconds.delete(s);
    }
  }

  private sum(second: number, span: number): number {
    let total = 0;
    for (const [s, n] of this.seconds) if (s > second - span && s <= second) total += n;
    return total;
  }

  snapshot(): Record<string, number> {
    const second = Math.floor(this.now() / 1000);
    const rate = Math.round((this.sum(second, 5) / 5) * 100) / 100;
    this.max = Math.max(this.max, rate);
    return { ...this.counts, rate, rate_max: this.max, rate_last5m: Math.round((this.sum(second, 300) / 300) * 100) / 100 };
  }

  /** All zeros, as another node of the cluster reports (it served no client of this process). */
  zero(): Record<string, number> {
    return { ...Object.fromEntries(this.keys.map((k) => [k, 0])), rate: 0, rate_max: 0, rate_last5m: 0 };
  }
}

export interface ProbeResult {
  status: 'connected' | 'disconnected';
  reason?: string;
}

/** `host[:port]` (or `[v6]:port`) → host and port, or null when it is not one. */
export function parseServer(server: string, defaultPort: number): { host: string; port: number } | null {
  const m = /^\s*(\[[0-9a-fA-F:]+\]|[^:\s/]+)(?::(\d{1,5}))?\s*$/.exec(server);
  if (!m) return null;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

/** Opens (and closes) a TCP connection to see whether the server is reachable. */
export function probe(host: string, port: number, timeoutMs = 1500): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (result: ProbeResult) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish({ status: 'disconnected', reason: `connect to ${host}:${port} timed out` }));
    socket.once('connect', () => finish({ status: 'connected' }));
    socket.once('error', (err: NodeJS.ErrnoException) => finish({ status: 'disconnected', reason: `${err.code ?? 'error'}: cannot connect to ${host}:${port}` }));
  });
}

/** Probes the first server of `server` or a comma-separated `servers` list. */
export function probeServers(servers: string, defaultPort: number): Promise<ProbeResult> {
  const first = servers.split(',').map((s) => s.trim()).find(Boolean) ?? '';
  const parsed = parseServer(first, defaultPort);
  if (!parsed) return Promise.resolve({ status: 'disconnected', reason: `invalid server: ${first}` });
  return probe(parsed.host, parsed.port);
}

/** The status envelope: the same state on every node, real metrics for this node, zeros for others. */
export function statusEnvelope(nodes: string[], self: string, result: ProbeResult, counters: Counters, resourceMetrics: boolean): Json {
  const mine = counters.snapshot();
  const nodeMetrics = nodes.map((node) => ({ node, metrics: node === self ? mine : counters.zero() }));
  const metrics: Record<string, number> = { ...mine };
  const resource = resourceMetrics ? { matched: mine.total, success: mine.success ?? mine.allow ?? 0, failed: mine.failed ?? mine.deny ?? 0, rate: mine.rate, rate_max: mine.rate_max, rate_last5m: mine.rate_last5m } : {};
  const envelope: Json = {
    status: result.status,
    node_status: nodes.map((node) => ({ node, status: result.status })),
    metrics,
    node_metrics: nodeMetrics,
    resource_metrics: resource,
    node_resource_metrics: nodes.map((node) => ({ node, metrics: node === self ? resource : {} })),
    node_error: [],
  };
  if (result.reason) envelope.status_reason = result.reason;
  return envelope;
}

/** Renders `${name}` placeholders from `vars`; unknown placeholders become empty strings. */
export function render(template: string, vars: Record<string, string | null | undefined>): string {
  return template.replace(/\$\{([^}]+)\}/g, (_, name: string) => vars[name.trim()] ?? '');
}
