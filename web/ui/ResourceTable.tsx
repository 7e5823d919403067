/**
 * A table of rows from declared columns, with optional row selection, a row-action column and
 * the loading, empty and error states. Cells are rendered as text (security.md S12).
 */
import type { ComponentChild } from 'preact';
import { Link } from 'wouter';
import { t } from '../lib/i18n.ts';
import type { Column } from './resource.ts';
import { Empty, Failed, Loading } from './States.tsx';

export interface TableProps<Row> {
  name: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  loading: boolean;
  error?: unknown;
  retry?: () => void;
  actions?: (row: Row) => ComponentChild;
  empty?: string;
  /** The rows are older than two refresh periods: greyed (ui/Freshness.tsx). */
  stale?: boolean;
  /** Keys of the selected rows; the checkbox column appears when set. */
  selected?: string[];
  onSelect?: (keys: string[]) => void;
}

function cell<Row>(column: Column<Row>, row: Row): ComponentChild {
  const text = column.text ? column.text(row) : plain((row as Record<string, unknown>)[column.key]);
  return column.link ? <Link href={column.link(row)}>{text}</Link> : text;
}

function plain(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function ResourceTable<Row>(props: TableProps<Row>) {
  if (props.error && !props.rows) return <Failed error={props.error} retry={props.retry} />;
  if (!props.rows) return <Loading />;
  const keys = props.rows.map(props.rowKey);
  const selected = props.selected ?? [];
  const all = keys.length > 0 && keys.every((k) => selected.includes(k));
  const pick = (key: string, on: boolean) => props.onSelect?.(on ? [...selected, key] : selected.filter((k) => k !== key));
  return (
    <div class={props.stale ? 'table-wrap stale' : 'table-wrap'} aria-busy={props.loading}>
      {props.error ? <Failed error={props.error} retry={props.retry} /> : null}
      <table class="striped" data-test={`${props.name}-table`}>
        <thead>
          <tr>
            {props.onSelect && (
              <th scope="col" class="select-col">
                <input type="checkbox" aria-label={t('common.selectAll')} checked={all} data-test={`${props.name}-select-all`}
                  onChange={(e) => props.onSelect!((e.target as HTMLInputElement).checked ? keys : [])} />
              </th>
            )}
            {props.columns.map((c) => <th key={c.key} scope="col">{t(c.title)}</th>)}
            {props.actions && <th scope="col" class="actions-col">{t('common.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, i) => (
            <tr key={keys[i]} data-test={`${props.name}-row`} data-key={keys[i]}>
              {props.onSelect && (
                <td class="select-col">
                  <input type="checkbox" aria-label={keys[i]} checked={selected.includes(keys[i])} data-test={`${props.name}-select`}
                    onChange={(e) => pick(keys[i], (e.target as HTMLInputElement).checked)} />
                </td>
              )}
              {props.columns.map((c) => <td key={c.key}>{cell(c, row)}</td>)}
              {props.actions && <td class="actions-col">{props.actions(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {props.rows.length === 0 && <Empty text={props.empty && t(props.empty)} />}
    </div>
  );
}
