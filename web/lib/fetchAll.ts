/**
 * Reads every row of a paged EMQX list by walking its pages (spec part 1 §7), for exports and
 * pickers that need the whole set. It is not for tables, which page on the server.
 */
import { ApiError, api, type Params } from './api';

/** Rows per request; EMQX's dashboard uses the same size (spec part 1 §9). */
export const FETCH_ALL_PAGE_SIZE = 1000;

/** The page/limit envelope of EMQX lists: `count` is absent when a fuzzy filter is used. */
export interface ListEnvelope<T> {
  data: T[];
  meta?: { page?: number; limit?: number; count?: number; hasnext?: boolean };
}

export interface FetchAllOptions {
  signal?: AbortSignal;
}

/**
 * Requests `path` page by page from page 1 with limit 1000 and returns all rows, stopping when
 * `meta.count` rows are in, a page comes back empty, or (without a count) `meta.hasnext` is false.
 */
export async function fetchAll<T>(path: string, params: Params = {}, options: FetchAllOptions = {}): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page += 1) {
    // api.get checks the signal per request; this covers an abort between two pages.
    if (options.signal?.aborted) throw new ApiError(0, 'ECONNABORTED', 'Request aborted');
    const body = await api.get<ListEnvelope<T> | T[]>(path, {
      params: { ...params, page, limit: FETCH_ALL_PAGE_SIZE },
      signal: options.signal,
    });
    // Config-like lists answer with a bare array and ignore paging: that is the whole set.
    if (Array.isArray(body)) return body;
    const data = Array.isArray(body?.data) ? body.data : [];
    if (data.length === 0) break;
    for (const row of data) rows.push(row);
    const count = body.meta?.count;
    if (typeof count === 'number' ? rows.length >= count : !body.meta?.hasnext) break;
  }
  return rows;
}
