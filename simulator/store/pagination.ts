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
