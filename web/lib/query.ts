/**
 * List state in the URL (DESIGN.md §4): page, limit and filters are read from and written to
 * the query string, so a reload or a shared link shows the same list.
 */
import { useLocation, useSearch } from 'wouter';
import { serializeParams } from './api.ts';
import { navigate } from './navigation.ts';

export type Query = Record<string, string>;

/** The current query as a plain object, and a setter that merges (empty values are dropped). */
export function useQuery(): [Query, (patch: Record<string, string | number | undefined>) => void] {
  const search = useSearch();
  const [path] = useLocation();
  const query = Object.fromEntries(new URLSearchParams(search));
  const setQuery = (patch: Record<string, string | number | undefined>) => {
    const next = serializeParams({ ...query, ...patch });
    void navigate(next ? `${path}?${next}` : path);
  };
  return [query, setQuery];
}
