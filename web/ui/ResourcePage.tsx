/**
 * Renders a `ResourceDecl`: heading with create button, filters in the URL, the table, the pager,
 * row actions with confirmation, and forms in a drawer. A plain collection screen is this plus
 * its declaration.
 */
import { useState } from 'react';
import { confirm } from '../lib/confirm.ts';
import { handleError } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';
import { useQuery } from '../lib/query.ts';
import { touch, useRemote } from '../lib/resources.ts';
import { toast } from '../lib/toasts.ts';
import { Drawer } from './Drawer.tsx';
import { Form } from './Form.tsx';
import { Icon } from './Icon.tsx';
import { Pager } from './Pager.tsx';
import { ResourceTable } from './ResourceTable.tsx';
import type { FormDecl, ResourceDecl, RowAction } from './resource.ts';

export function ResourcePage<Row>({ decl }: { decl: ResourceDecl<Row> }) {
  const [query, setQuery] = useQuery();
  const key = JSON.stringify(query);
  const list = useRemote(decl.name, (signal) => decl.list(query, signal), key);
  const [open, setOpen] = useState<{ form: FormDecl<Row>; row?: Row; test: string } | null>(null);
  const [filters, setFilters] = useState<Record<string, string>>(() =>
    Object.fromEntries((decl.filters ?? []).map((f) => [f.name, query[f.name] ?? ''])));

  const act = async (action: RowAction<Row>, row: Row) => {
    if (action.form) return setOpen({ form: action.form, row, test: `${decl.name}-${action.key}-form` });
    if (action.confirm && !(await confirm(t(action.confirm, { key: decl.rowKey(row) }), { danger: action.danger }))) return;
    try {
      await action.run?.(row);
      toast(t(action.success ?? 'common.success'));
      touch(decl.name);
    } catch (error) {
      handleError(error);
    }
  };

  const submit = async (form: FormDecl<Row>, values: Record<string, unknown>, row?: Row) => {
    await form.submit(values, row);
    setOpen(null);
    toast(t(form.success));
    touch(decl.name);
    form.after?.(values, row);
  };

  return (
    <section class="resource" data-test={`${decl.name}-page`}>
      <header class="page-head">
        <h2>{t(decl.title)}</h2>
        <div class="toolbar">
          <button type="button" class="secondary outline icon-button" aria-label={t('common.refresh')} onClick={list.reload} data-test={`${decl.name}-refresh`}>
            <Icon name="refresh" />
          </button>
          {decl.create && (
            <button type="button" data-test={`${decl.name}-create`} onClick={() => setOpen({ form: decl.create!, test: `${decl.name}-create-form` })}>
              <Icon name="plus" /> {t('common.create')}
            </button>
          )}
        </div>
      </header>
      {decl.filters && (
        <form class="filters" role="search" onSubmit={(e) => (e.preventDefault(), setQuery({ ...filters, page: undefined }))}>
          {decl.filters.map((f) => (
            <input key={f.name} type="search" aria-label={t(f.label)} placeholder={t(f.label)} value={filters[f.name]}
              data-test={`filter-${f.name}`} onInput={(e) => setFilters({ ...filters, [f.name]: (e.target as HTMLInputElement).value })} />
          ))}
          <button type="submit" class="secondary">{t('common.search')}</button>
        </form>
      )}
      <ResourceTable<Row> name={decl.name} columns={decl.columns} rows={list.data?.rows} rowKey={decl.rowKey}
        loading={list.loading} error={list.error} retry={list.reload}
        actions={decl.actions && ((row) => decl.actions!.filter((a) => !a.when || a.when(row)).map((a) => (
          <button type="button" key={a.key} class={a.danger ? 'link danger' : 'link'} data-test={`${decl.name}-${a.key}`} onClick={() => act(a, row)}>
            {t(a.label)}
          </button>
        )))} />
      {list.data && (
        <Pager meta={list.data.meta} rows={list.data.rows.length} onPage={(page) => setQuery({ page })}
          onLimit={(limit) => setQuery({ limit, page: undefined })} />
      )}
      {open && (
        <Drawer title={t(open.form.title)} onClose={() => setOpen(null)} test={open.test}>
          <Form fields={open.form.fields} initial={open.form.initial?.(open.row)} onCancel={() => setOpen(null)}
            onSubmit={(values) => submit(open.form, values, open.row)} />
        </Drawer>
      )}
    </section>
  );
}
