/**
 * A stand-in for the broker behind `fetch` in UI tests: routes like `GET /users` answer with a
 * status and body, and every request is recorded so a test can assert what the console sent.
 */
export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
  signal?: AbortSignal | null;
}
type Reply = { status?: number; body?: unknown; delay?: number } | ((call: Call) => { status?: number; body?: unknown; delay?: number });

const SNAPSHOT = { body: { node: 'emqx@127.0.0.1', filename: 'emqx-export-2026-01-01-00-00-00.000.tar.gz' } };

/** Not the snapshot a save takes first: the calls a test of the save itself looks at. */
export const notSnapshot = (c: Call) => c.path !== '/data/export';

export function fakeApi(routes: Record<string, Reply>) {
  const calls: Call[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), location.href);
    const path = url.pathname.replace(/^.*\/api\/v5/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: Call = {
      method, path, query: url.searchParams, headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined, signal: init.signal,
    };
    calls.push(call);
    // Every risky save takes a snapshot first (ui/SnapshotFirst.tsx): the broker always has the export.
    const route = routes[`${method} ${path}`] ?? (`${method} ${path}` === 'POST /data/export' ? SNAPSHOT : undefined);
    const reply = typeof route === 'function' ? route(call) : route ?? { status: 404, body: { code: 'NOT_FOUND', message: 'Request Path Not Found' } };
    if (reply.delay) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, reply.delay);
        init.signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new DOMException('aborted', 'AbortError'))));
      });
    }
    const status = reply.status ?? 200;
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(status === 204 ? null : text, { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

/** Resolves with the error a promise rejects with; fails the test if it resolves instead. */
export function failure<E = import('../../web/lib/api.ts').ApiError>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: E) => error,
  );
}
