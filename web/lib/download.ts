/**
 * File downloads from the API: the file name comes from `content-disposition` (spec part 1 §7) and
 * the body is saved through a temporary object URL. It does not stream: the file is held in memory.
 */
import { ApiError, api, type Params } from './api';

/** Percent-decodes RFC 5987 `value-chars`: UTF-8 by default, byte-per-character for ISO-8859-1. */
function decodeExtValue(charset: string, encoded: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i += 1) {
    const hex = encoded.slice(i + 1, i + 3);
    if (encoded[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(encoded.charCodeAt(i));
    }
  }
  if (/^iso-8859-1$/i.test(charset)) return String.fromCharCode(...bytes);
  return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
}

/** Splits `attachment; filename="a; b.zip"; filename*=…` into lower-cased parameter names and raw values. */
function dispositionParams(header: string): Map<string, string> {
  const params = new Map<string, string>();
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const [, name, raw] of header.matchAll(re)) {
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw.trim();
    params.set(name.toLowerCase(), value);
  }
  return params;
}

/**
 * The file name announced by a `content-disposition` header, preferring RFC 6266's `filename*`
 * over `filename`, without any directory part; `fallback` when there is none.
 */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  // A leading ';' lets the parameter pattern also match a header that starts with a parameter.
  const params = dispositionParams(`;${header.replace(/^[^;=]*;/, '')}`);
  let name = '';
  const extended = params.get('filename*')?.match(/^([^']*)'[^']*'(.*)$/);
  if (extended) {
    try {
      name = decodeExtValue(extended[1], extended[2]);
    } catch (failure) {
      // An undecodable filename* falls back to the plain filename parameter (RFC 6266 §4.3).
      if (!(failure instanceof TypeError)) throw failure;
    }
  }
  if (!name) name = params.get('filename') ?? '';
  // The server names the file, not where it goes: keep only the last path segment.
  name = name.split(/[/\\]/).pop()?.trim() ?? '';
  return name && name !== '.' && name !== '..' ? name : fallback;
}

/** GETs `path` as a blob and saves it under the server's file name (or `fallbackName`); resolves with that name. */
export async function download(path: string, params?: Params, fallbackName = 'download'): Promise<string> {
  let disposition: string | null = null;
  const blob = await api
    .get<Blob>(path, {
      params,
      responseType: 'blob',
      onHeaders: (headers) => {
        disposition = headers?.get('content-disposition') ?? null;
      },
    });
  const name = filenameFromDisposition(disposition, fallbackName);
  await saveBlob(blob instanceof Blob ? blob : new Blob([blob ?? '']), name);
  return name;
}

/** Saves `blob` as a file named `name` through a temporary object URL. */
export async function saveBlob(blob: Blob, name: string): Promise<void> {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.style.display = 'none';
  document.body.append(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    // The click resolves the URL synchronously (HTML "download the hyperlink"); one task of margin
    // before freeing the blob keeps slower engines safe.
    await new Promise((resolve) => setTimeout(resolve, 0));
    URL.revokeObjectURL(url);
  }
}
