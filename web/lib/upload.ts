/**
 * Multipart uploads with progress (plugin packages, backup archives, certificates): fetch cannot
 * report upload progress, so this one path uses XMLHttpRequest, with the same base URL, Bearer
 * token and `ApiError` as `api.ts`. It has no time-out: a large file may take long.
 */
import { API_BASE, ApiError, isSessionExpired, type Params, serializeParams } from './api.ts';
import { handleError } from './errors.ts';
import { session } from './session.ts';

export interface UploadOptions {
  /** Extra form fields sent before the file. */
  fields?: Record<string, string>;
  params?: Params;
  signal?: AbortSignal;
  /** Called with the fraction sent so far, from 0 to 1. */
  onProgress?: (fraction: number) => void;
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `ApiError` a finished request with an error status stands for (EMQX `{code, message}`). */
function failure(xhr: XMLHttpRequest): ApiError {
  const data = parse(xhr.responseText) as { code?: unknown; message?: unknown } | string | undefined;
  if (data && typeof data === 'object') {
    const code = typeof data.code === 'string' ? data.code : `HTTP_${xhr.status}`;
    const message = typeof data.message === 'string' ? data.message : JSON.stringify(data.message ?? data);
    return new ApiError(xhr.status, code, message, data);
  }
  return new ApiError(xhr.status, `HTTP_${xhr.status}`, (typeof data === 'string' && data) || xhr.statusText || '');
}

/**
 * POSTs `file` as the multipart field `field` to `path` and resolves with the parsed answer.
 * Example: `await upload('/plugins/install', 'plugin', file, { onProgress: setFraction })`.
 * An expired session goes back to login (as any request does); other failures reject with ApiError.
 */
export function upload<T = unknown>(path: string, field: string, file: Blob & { name?: string }, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = serializeParams(options.params);
    xhr.open('POST', `${API_BASE}/${path.replace(/^\//, '')}${query ? `?${query}` : ''}`);
    xhr.setRequestHeader('accept', 'application/json');
    if (session.token) xhr.setRequestHeader('authorization', `Bearer ${session.token}`);
    const abort = () => xhr.abort();
    const done = () => options.signal?.removeEventListener('abort', abort);
    xhr.upload.onprogress = (event) => event.lengthComputable && options.onProgress?.(event.total ? event.loaded / event.total : 1);
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(parse(xhr.responseText) as T);
        return;
      }
      const error = failure(xhr);
      // The same expiry path as every other request (errors.ts): a dead token means login again.
      if (isSessionExpired(error)) handleError(error);
      reject(error);
    };
    xhr.onerror = () => (done(), reject(new ApiError(0, 'NETWORK_ERROR', 'Network Error')));
    // ECONNABORTED/canceled is what api.ts reports for an abort; handleError keeps it silent.
    xhr.onabort = () => (done(), reject(new ApiError(0, 'ECONNABORTED', 'canceled')));
    const form = new FormData();
    for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
    form.append(field, file, file.name ?? 'file');
    if (options.signal?.aborted) {
      reject(new ApiError(0, 'ECONNABORTED', 'canceled'));
      return;
    }
    options.signal?.addEventListener('abort', abort);
    xhr.send(form);
  });
}
