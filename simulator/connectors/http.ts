// The http connector and action (emqx_bridge_http): health is a TCP probe of the base URL; an
// action sends a real request to `url` + the rendered `path` with the method, the merged headers
// and the rendered body (no body template = the whole rule output as JSON), retrying network
// errors and 5xx answers up to `max_retries` times.
import { render } from '../rules/template.ts';
import type { Obj } from '../rules/values.ts';
import { ProbeConnector } from './probe.ts';

type Json = Record<string, unknown>;

export interface SendResult {
  ok: boolean;
  retried: number;
  reason?: string;
}

/** `15s`, `500ms`, `1m`, `infinity` → milliseconds (null for infinity). */
export function durationMs(value: unknown, fallback: number): number | null {
  if (value === 'infinity') return null;
  if (typeof value === 'number') return value;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(String(value ?? ''));
  if (!m) return fallback;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms']!;
  return Number(m[1]) * unit;
}

function joinUrl(base: string, path: string): string {
  if (!path) return base;
  if (base.endsWith('/') && path.startsWith('/')) return base + path.slice(1);
  if (!base.endsWith('/') && !path.startsWith('/')) return `${base}/${path}`;
  return base + path;
}

export class HttpConnector extends ProbeConnector {
  constructor(private readonly conf: Json) {
    super('http', conf);
  }

  /** Sends one rule output through an action's `parameters`. */
  async send(parameters: Json, resourceOpts: Json, output: Obj): Promise<SendResult> {
    const method = String(parameters.method ?? 'post').toUpperCase();
    const url = joinUrl(String(this.conf.url ?? ''), render(String(parameters.path ?? ''), output));
    const headers: Record<string, string> = {};
    const merged = { ...(this.conf.headers as Json | undefined), ...(parameters.headers as Json | undefined) };
    for (const [key, value] of Object.entries(merged)) headers[key.toLowerCase()] = render(String(value ?? ''), output);
    // Hop-by-hop headers are the transport's business.
    delete headers.connection;
    delete headers['keep-alive'];
    const template = parameters.body;
    const body = method === 'GET' || method === 'DELETE' ? undefined
      : typeof template === 'string' && template !== '' ? render(template, output) : JSON.stringify(output);
    const timeout = durationMs(parameters.request_timeout ?? resourceOpts.request_ttl, 45_000) ?? 45_000;
    const attempts = 1 + Math.max(0, Number(parameters.max_retries ?? 2) || 0);
    let reason = '';
    for (let i = 0; i < attempts; i++) {
      try {
        const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeout) });
        await res.arrayBuffer();
        if (res.status < 300) return { ok: true, retried: i };
        reason = `HTTP ${res.status}`;
        if (res.status < 500) return { ok: false, retried: i, reason };
      } catch (err) {
        reason = (err as Error).message;
      }
    }
    return { ok: false, retried: attempts - 1, reason };
  }
}
