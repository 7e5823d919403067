// The HTTP backend of authentication and authorization (emqx_authn_http, emqx_authz_http): one
// real request to the configured URL with `${username}`/`${clientid}`/`${password}`… rendered
// into the URL, headers and body, and EMQX's reading of the answer: 2xx with
// `{"result": "allow"|"deny"|"ignore", "is_superuser": bool}` (204 = allow), anything else ignore.
import http from 'node:http';
import https from 'node:https';
import { durationMs } from '../messaging/slow-subs.ts';
import { render } from './auth-common.ts';

type Json = Record<string, any>;

export interface HttpAnswer {
  result: 'allow' | 'deny' | 'ignore';
  is_superuser: boolean;
  body?: Json;
}

function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, { method: method.toUpperCase(), headers, agent: false, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < 1_000_000) text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Calls the configured endpoint with the client's variables; network errors read as ignore. */
export async function callHttp(config: Json, vars: Record<string, string | null | undefined>): Promise<HttpAnswer> {
  const encoded = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v == null ? v : encodeURIComponent(v)]));
  let url: URL;
  try {
    url = new URL(render(String(config.url), encoded));
  } catch {
    return { result: 'ignore', is_superuser: false };
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((config.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = render(String(v), vars);
  delete headers.connection;
  delete headers['keep-alive'];
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries((config.body ?? {}) as Record<string, unknown>)) fields[k] = render(String(v), vars);
  let body: string | undefined;
  if (config.method === 'get') {
    for (const [k, v] of Object.entries(fields)) url.searchParams.append(k, v);
  } else if ((headers['content-type'] ?? '').includes('x-www-form-urlencoded')) {
    body = new URLSearchParams(fields).toString();
  } else {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(fields);
  }
  try {
    const res = await send(url, config.method ?? 'post', headers, body, durationMs(String(config.request_timeout ?? '5s')) ?? 5000);
    if (res.status === 204) return { result: 'allow', is_superuser: false };
    if (res.status < 200 || res.status > 299) return { result: 'ignore', is_superuser: false };
    let parsed: Json = {};
    try {
      parsed = JSON.parse(res.text) as Json;
    } catch {
      return { result: 'ignore', is_superuser: false };
    }
    const result = ['allow', 'deny', 'ignore'].includes(parsed?.result) ? parsed.result : 'ignore';
    return { result, is_superuser: parsed.is_superuser === true || parsed.is_superuser === 'true', body: parsed };
  } catch {
    return { result: 'ignore', is_superuser: false };
  }
}
