/**
 * The filters above a list, drawn with the form widgets; applied values go to the URL (so the
 * list, a reload and a shared link agree), Reset clears them. Filters declared `more` wait behind
 * a "More filters" button (open at once when one of them is set), so the keyboard reaches the list
 * in a few Tab presses. A time that is no time is not applied. Knows no resource.
 */
import { useState } from 'react';
import { t } from '../lib/i18n.ts';
import { widgets } from './fields.tsx';
import type { FieldDecl } from './resource.ts';

export function FilterBar(props: { filters: FieldDecl[]; query: Record<string, string>; onApply: (values: Record<string, string | undefined>) => void }) {
  const initial = () => Object.fromEntries(props.filters.map((f) => [f.name, props.query[f.name] ?? ''])) as Record<string, string>;
  const [values, setValues] = useState<Record<string, string>>(initial);
  const more = props.filters.filter((f) => f.more);
  const [showMore, setShowMore] = useState(() => more.some((f) => props.query[f.name]));
  const badTime = (f: FieldDecl, value = values[f.name]) => f.kind === 'datetime' && !!value && Number.isNaN(Date.parse(value));
  const apply = (next: Record<string, string>) =>
    props.onApply({ ...Object.fromEntries(props.filters.map((f) => [f.name, badTime(f, next[f.name]) ? undefined : next[f.name]])), page: undefined });
  return (
    <form class="filters" role="search" onSubmit={(e) => (e.preventDefault(), apply(values))}>
      {props.filters.filter((f) => showMore || !f.more).map((f) => {
        const Widget = widgets[f.kind ?? 'text'];
        const field = { ...f, placeholder: f.placeholder ?? t(f.label) };
        return (
          <label key={f.name} class="filter" title={t(f.label)}>
            <span class="visually-hidden">{t(f.label)}</span>
            <Widget id={`filter-${f.name}`} field={field} value={values[f.name]} invalid={badTime(f)} onBlur={() => {}}
              onChange={(value) => {
                const next = { ...values, [f.name]: String(value ?? '') };
                setValues(next);
                // Choices apply at once; typed text (a time too) waits for Enter or Search.
                if (f.kind === 'select') apply(next);
              }} />
          </label>
        );
      })}
      {more.length > 0 && (
        <button type="button" class="secondary outline" aria-expanded={showMore} data-test="filter-more" onClick={() => setShowMore(!showMore)}>
          {t(showMore ? 'common.fewerFilters' : 'common.moreFilters')}
        </button>
      )}
      <button type="submit" class="secondary" data-test="filter-search">{t('common.search')}</button>
      <button type="button" class="secondary outline" data-test="filter-reset"
        onClick={() => {
          const empty = Object.fromEntries(props.filters.map((f) => [f.name, ''])) as Record<string, string>;
          setValues(empty);
          apply(empty);
        }}>
        {t('common.reset')}
      </button>
    </form>
  );
}
