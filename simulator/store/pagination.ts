// Page/limit query schema and the list envelope A of emqx-api-part1 §2.2:
// `{data, meta: {page, limit, hasnext, count}}`.

/** JSON-schema properties for `page` (≥ 1, default 1) and `limit` (1–10000, default 100). */
export const pageQueryProperties = {
  page: { type: 'integer', minimum: 1, default: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 10000, default: 100 },
} as const;

export interface PageQuery {
  page: number;
  limit: number;
}

export interface PageEnvelope<T> {
  data: T[];
  meta: { page: number; limit: number; hasnext: boolean; count: number };
}

/** Slices one page out of a full list and describes it with envelope A. */
export function paginate<T>(rows: readonly T[], { page, limit }: PageQuery): PageEnvelope<T> {
  const start = (page - 1) * limit;
  return {
    data: rows.slice(start, start + limit),
    meta: { page, limit, hasnext: start + limit < rows.length, count: rows.length },
  };
}

/** Envelope A as EMQX sends it for fuzzy (`like_*`) queries too: `count` only when exact. */
export interface QueryEnvelope<T> {
  data: T[];
  meta: { page: number; limit: number; hasnext: boolean; count?: number };
}

/**
 * Pages through matching rows without materialising them, building views for the page only.
 * `count: false` leaves `meta.count` out, as EMQX does when a fuzzy filter was used.
 */
export function paginateRows<T, V>(
  rows: Iterable<T>,
  { page, limit }: PageQuery,
  view: (row: T) => V,
  options: { count: boolean } = { count: true },
): QueryEnvelope<V> {
  const start = (page - 1) * limit;
  const data: V[] = [];
  let total = 0;
  for (const row of rows) {
    if (total >= start && data.length < limit) data.push(view(row));
    total++;
  }
  const meta: QueryEnvelope<V>['meta'] = { page, limit, hasnext: total > start + limit };
  if (options.count) meta.count = total;
  return { data, meta };
}
