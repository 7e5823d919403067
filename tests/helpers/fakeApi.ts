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

const SNAPSHOT: { status?: number; body?: unknown; delay?: number } = { body: { node: 'emqx@127.0.0.1', filename: 'emqx-export-2026-01-01-00-00-00.000.tar.gz' } };

export function fakeApi(routes: Record<string, Reply>) {
  const calls: Call[] = [];
  // The snapshot a risky save takes first (ui/SnapshotFirst.tsx), when the test gives the export no
  // route of its own: answered as the broker does, and kept apart from the save's own calls.
  const snapshots: Call[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), location.href);
    const path = url.pathname.replace(/^.*\/api\/v5/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: Call = {
      method, path, query: url.searchParams, headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined, signal: init.signal,
    };
    const snapshot = `${method} ${path}` === 'POST /data/export' && !routes[`${method} ${path}`];
    (snapshot ? snapshots : calls).push(call);
    const route = snapshot ? SNAPSHOT : routes[`${method} ${path}`];
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
  return { calls, snapshots, restore: () => (globalThis.fetch = original) };
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
