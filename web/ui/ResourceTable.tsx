/**
 * A table of rows from declared columns, with a row-action column and the loading, empty and
 * error states. Cells are rendered as text (security.md S12). Knows no resource.
 */
import type { ComponentChild } from 'preact';
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
}

function cell<Row>(column: Column<Row>, row: Row): ComponentChild {
  if (column.text) return column.text(row);
  const value = (row as Record<string, unknown>)[column.key];
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function ResourceTable<Row>(props: TableProps<Row>) {
  if (props.error && !props.rows) return <Failed error={props.error} retry={props.retry} />;
  if (!props.rows) return <Loading />;
  return (
    <div class="table-wrap" aria-busy={props.loading}>
      {props.error ? <Failed error={props.error} retry={props.retry} /> : null}
      <table class="striped" data-test={`${props.name}-table`}>
        <thead>
          <tr>
            {props.columns.map((c) => <th key={c.key} scope="col">{t(c.title)}</th>)}
            {props.actions && <th scope="col" class="actions-col">{t('common.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} data-test={`${props.name}-row`} data-key={props.rowKey(row)}>
              {props.columns.map((c) => <td key={c.key}>{cell(c, row)}</td>)}
              {props.actions && <td class="actions-col">{props.actions(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {props.rows.length === 0 && <Empty />}
    </div>
  );
}
