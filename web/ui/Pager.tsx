/**
 * Pagination under a list: page numbers when the server tells the total (`meta.count`),
 * previous/next only when it tells just `hasnext` (EMQX envelopes A–D, emqx-api-part1.md §2.2).
 */
import { t } from '../lib/i18n.ts';
import type { ListMeta } from './resource.ts';

const SIZES = [20, 50, 100];

/** Page numbers to show: first, last, and two around the current one, with gaps as 0. */
export function pageWindow(page: number, pages: number): number[] {
  const shown = new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= pages));
  const sorted = [...shown].sort((a, b) => a - b);
  return sorted.flatMap((n, i) => (i > 0 && n - sorted[i - 1] > 1 ? [0, n] : [n]));
}

export function Pager(props: { meta: ListMeta; rows: number; onPage: (page: number) => void; onLimit: (limit: number) => void }) {
  const { page, limit, count, hasnext } = props.meta;
  const pages = count === undefined ? undefined : Math.max(1, Math.ceil(count / limit));
  const hasNext = pages === undefined ? Boolean(hasnext) : page < pages;
  if (page === 1 && !hasNext && (count ?? props.rows) <= SIZES[0]) return null;
  return (
    <nav class="pager" aria-label="pagination" data-test="pager">
      {count !== undefined && <span class="muted">{t('common.total', { count })}</span>}
      <button type="button" class="secondary outline" disabled={page <= 1} onClick={() => props.onPage(page - 1)} data-test="pager-prev">
        {t('common.previous')}
      </button>
      {pages !== undefined
        ? pageWindow(page, pages).map((n, i) =>
            n === 0 ? <span key={`gap${i}`}>…</span> : (
              <button type="button" key={n} aria-current={n === page ? 'page' : undefined}
                class={n === page ? '' : 'secondary outline'} onClick={() => props.onPage(n)}>{n}</button>
            ))
        : <span>{t('common.page', { page })}</span>}
      <button type="button" class="secondary outline" disabled={!hasNext} onClick={() => props.onPage(page + 1)} data-test="pager-next">
        {t('common.next')}
      </button>
      <select aria-label={t('common.perPage', { limit })} value={String(limit)} onChange={(e) => props.onLimit(Number((e.target as HTMLSelectElement).value))}>
        {[...new Set([...SIZES, limit])].sort((a, b) => a - b).map((n) => <option key={n} value={n}>{t('common.perPage', { limit: n })}</option>)}
      </select>
    </nav>
  );
}
