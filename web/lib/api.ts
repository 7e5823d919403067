/**
 * The only door to the broker's REST API (`api/v5`, relative to the page so the console works under
 * any base path). It adds the Bearer token, drops empty params, honours AbortSignal, tracks requests
 * so they can all be cancelled, and turns every failure into one `ApiError`. It does not show
 * anything: screens pass errors to `handleError` in `errors.ts`.
 */
import redaxios from 'redaxios';

export const API_BASE = 'api/v5';
/** EMQX's dashboard gives up on a request after 20 s; we do the same. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** One failure shape for everything: HTTP status (0 when no response), EMQX code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Whether a failed request says that what it asked for does not exist. */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

export type Params = Record<string, unknown>;
export interface RequestOptions {
  params?: Params;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  responseType?: 'json' | 'text' | 'blob';
  /** Called with the response headers, e.g. to read content-disposition. */
  onHeaders?: (headers: Headers) => void;
}

/** 401 codes that mean the token is gone or expired (emqx-api-part1.md §1.2). */
export const SESSION_CODES = ['BAD_TOKEN', 'TOKEN_TIME_OUT', 'AUTHORIZATION_HEADER_ERROR'];

/** Whether a failure says the session's token is no longer accepted. */
export const isSessionExpired = (error: unknown) => error instanceof ApiError && error.status === 401 && SESSION_CODES.includes(error.code);

/** A request the broker refused for an expired token, as the expiry handler gets it. */
export interface ExpiredRequest {
  method: string;
  path: string;
  signal?: AbortSignal;
  /** Sends the same request again (with the token of that moment). */
  resend: () => Promise<unknown>;
}

let tokenSource: () => string | undefined = () => undefined;
let expiredHandler: ((request: ExpiredRequest) => Promise<unknown>) | null = null;
let reachability: (reached: boolean) => void = () => {};
let bodyFilter: (method: string, path: string, body: unknown) => unknown = (_method, _path, body) => body;
let paramFilter: (method: string, path: string, params?: Params) => Params | undefined = (_method, _path, params) => params;
const pending = new Set<AbortController>();

/** Tells the client where the current token comes from (the session store). */
export function setTokenSource(source: () => string | undefined) {
  tokenSource = source;
}

/**
 * Lets the logged-in shell take over a request refused for an expired token (signing in again
 * over the screen, lib/reauth.ts): what the handler resolves or rejects with is the request's
 * outcome. Without one (the login page) the refusal goes to the caller as it is.
 */
export function setExpiredHandler(handler: typeof expiredHandler) {
  expiredHandler = handler;
}

/** Tells `listener` after every request whether the server answered at all (lib/connection.ts). */
export function setReachabilityListener(listener: (reached: boolean) => void) {
  reachability = listener;
}

/** Lets the broker profile (`broker.ts`) drop body fields the broker would refuse, before every write. */
export function setBodyFilter(filter: (method: string, path: string, body: unknown) => unknown) {
  bodyFilter = filter;
}

/** Lets the shell add query params every request of some endpoints carries (`lib/namespace.ts`). */
export function setParamFilter(filter: typeof paramFilter) {
  paramFilter = filter;
}

/** Aborts every request in flight, e.g. when the guard sends the user to login. */
export function cancelAll() {
  for (const controller of [...pending]) controller.abort();
  pending.clear();
  primed.clear();
}

/** How long a primed answer waits for the screen that asks for it. */
const PRIMED_MS = 5000;
const primed = new Map<string, { at: number; answer: Promise<unknown> }>();
const primeKey = (path: string, params?: Params) => `${path.replace(/^\//, '')}?${serializeParams(params)}`;

/**
 * Sends a GET before anyone asks for it (after sign-in, the first screen's requests go out
 * alongside its chunk): the first `api.get` of the same path and params within 5 s takes its
 * answer instead of asking again, not before `after` has settled when it is given. Gives the
 * answer, settled either way.
 */
export function prime(path: string, params?: Params, after?: Promise<unknown>): Promise<unknown> {
  const answer = request('GET', path, undefined, { params });
  // Handed over once `after` has settled too (the first answer drawn before the others).
  const handed = after ? answer.then((data) => after.then(() => data), (error: unknown) => after.then(() => Promise.reject(error))) : answer;
  // A failure nobody takes is no unhandled rejection; the one that takes it hears it.
  if (handed !== answer) handed.catch(() => undefined);
  primed.set(primeKey(path, params), { at: Date.now(), answer: handed });
  // Once handed, what it resolved with can be read at once (`settledValue`).
  handed.then((data) => void ((handed as Settled<unknown>)[SETTLED] = { value: data }), () => undefined);
  return answer.catch(() => undefined);
}

const SETTLED = Symbol('settled');
type Settled<T> = Promise<T> & { [SETTLED]?: { value: T } };

/**
 * What a primed answer `api.get` gave resolved with, if it has already (else undefined): a screen
 * drawn after it came can show it in its first render, not in a render after.
 */
export function settledValue<T>(answer: Promise<T>): { value: T } | undefined {
  return (answer as Settled<T>)[SETTLED];
}

/** The primed answer for a plain GET of `path` with these params, taken once. */
function takePrimed(path: string, options: RequestOptions = {}): Promise<unknown> | undefined {
  if (primed.size === 0 || options.responseType || options.onHeaders || options.headers) return undefined;
  const key = primeKey(path, options.params);
  const hit = primed.get(key);
  primed.delete(key);
  return hit && Date.now() - hit.at <= PRIMED_MS ? hit.answer : undefined;
}

let held = 0;

/**
 * Runs `run` with no request leaving: a call made meanwhile gets an answer that never comes and
 * sends nothing (the shell rendered out of sight and removed in the same task, Shell.tsx
 * `rehearse`). A primed answer stays for the screen that asks for it.
 */
export function withoutRequests<T>(run: () => T): T {
  held++;
  try {
    return run();
  } finally {
    held--;
  }
}

/** Number of requests in flight (for tests and the progress bar). */
export function pendingCount() {
  return pending.size;
}

/**
 * Serialises params without empty values (undefined, null, '' and empty arrays); arrays repeat
 * the key (`clientid=a&clientid=b`) as EMQX 5.6+ expects. redaxios would send "undefined".
 */
export function serializeParams(params: Params = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null || item === '') continue;
      search.append(key, String(item));
    }
  }
  return search.toString();
}

function toError(response: unknown): ApiError {
  if (response instanceof ApiError) return response;
  if (response instanceof Error) return new ApiError(0, 'NETWORK_ERROR', 'Network Error');
  const res = response as { status?: number; statusText?: string; data?: unknown };
  const data = res.data as { code?: unknown; message?: unknown; reason_code?: unknown } | string | undefined;
  if (data && typeof data === 'object') {
    const code = typeof data.code === 'string' ? data.code : `HTTP_${res.status}`;
    const message = typeof data.message === 'string' ? data.message : JSON.stringify(data.message ?? data);
    return new ApiError(res.status ?? 0, code, message, data);
  }
  return new ApiError(res.status ?? 0, `HTTP_${res.status}`, (typeof data === 'string' && data) || res.statusText || '');
}

/**
 * Sends one request and resolves with the parsed body; rejects with ApiError. One refused for an
 * expired token goes to the expiry handler when the shell has set one.
 */
export async function request<T = unknown>(method: string, path: string, data?: unknown, options: RequestOptions = {}): Promise<T> {
  if (held) return new Promise<T>(() => {});
  const token = tokenSource();
  try {
    return await send<T>(method, path, data, options, token);
  } catch (error) {
    if (!token || !expiredHandler || !isSessionExpired(error)) throw error;
    return (await expiredHandler({ method: method.toUpperCase(), path, signal: options.signal, resend: () => request(method, path, data, options) })) as T;
  }
}

async function send<T>(method: string, path: string, data: unknown, options: RequestOptions, token: string | undefined): Promise<T> {
  const controller = new AbortController();
  let reason: 'canceled' | 'timeout' = 'canceled';
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort);
  if (options.signal?.aborted) controller.abort();
  const timer = setTimeout(() => {
    reason = 'timeout';
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  pending.add(controller);
  try {
    const response = await redaxios.request({
      url: `${API_BASE}/${path.replace(/^\//, '')}`,
      method: method.toLowerCase() as 'get',
      data: bodyFilter(method.toUpperCase(), path, data) as object,
      params: paramFilter(method.toUpperCase(), path, options.params),
      paramsSerializer: serializeParams,
      responseType: options.responseType === 'blob' ? 'blob' : 'text',
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers },
      // redaxios does not forward `signal` (developit/redaxios#11): pass it through fetch.
      fetch: (url: RequestInfo | URL, init?: RequestInit) => fetch(url, { ...init, signal: controller.signal }),
    } as never);
    reachability(true);
    const res = response as unknown as { data: T; headers: Headers };
    options.onHeaders?.(res.headers);
    return res.data === '' ? (undefined as T) : res.data;
  } catch (failure) {
    // A failed blob request carries its JSON error body as a Blob: read it back first.
    const res = failure as { data?: unknown };
    if (typeof Blob !== 'undefined' && res?.data instanceof Blob) {
      const text = await res.data.text();
      try {
        res.data = JSON.parse(text);
      } catch {
        res.data = text;
      }
    }
    // ECONNABORTED is the code the specification recognises for both abort and time-out.
    if (controller.signal.aborted) throw new ApiError(0, 'ECONNABORTED', reason);
    const error = toError(failure);
    reachability(error.status !== 0);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
    pending.delete(controller);
  }
}

/** Verb helpers: `api.get('/users')`, `api.post('/users', body)`. */
export const api = {
  get: <T = unknown>(path: string, options?: RequestOptions) => ((held ? undefined : takePrimed(path, options)) as Promise<T> | undefined) ?? request<T>('GET', path, undefined, options),
  post: <T = unknown>(path: string, data?: unknown, options?: RequestOptions) => request<T>('POST', path, data ?? {}, options),
  put: <T = unknown>(path: string, data?: unknown, options?: RequestOptions) => request<T>('PUT', path, data ?? {}, options),
  del: <T = unknown>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
