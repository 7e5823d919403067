/**
 * Renders a `ResourceDecl`: heading with tools and create button, filters in the URL, the table
 * with optional selection and column chooser, the pager, row actions with confirmation, forms
 * and views in a drawer. A plain collection screen is this plus its declaration. A read-only user
 * (`canWrite`, Enterprise viewer) gets the list without create, tools, bulk actions or row actions
 * that write; `anyRole` marks what stays.
 */
import type { ComponentChild } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'react';
import { Link } from 'wouter';
import { canWrite, has } from '../lib/broker.ts';
import { draftKey, readDraft, writeDraft } from '../lib/drafts.ts';
import { t } from '../lib/i18n.ts';
import { withNamespace } from '../lib/namespace.ts';
import { useQuery } from '../lib/query.ts';
import { perform, touch, useRemote } from '../lib/resources.ts';
import { toast } from '../lib/toasts.ts';
import { useColumns } from './ColumnChooser.tsx';
import { Drawer } from './Drawer.tsx';
import { FilterBar } from './FilterBar.tsx';
import { Freshness, useStale } from './Freshness.tsx';
import { Form } from './Form.tsx';
import { Icon } from './Icon.tsx';
import { NamespacePicker } from './NamespacePicker.tsx';
import { Pager } from './Pager.tsx';
import { ResourceTable } from './ResourceTable.tsx';
import type { FormDecl, ResourceDecl, RowAction } from './resource.ts';

type Open<Row> = { title: string; test: string; form?: FormDecl<Row>; body?: ComponentChild; row?: Row; anyRole?: boolean };
/** Which form drawer is open, kept with the form's draft so that a reload opens it again. */
type OpenDraft = { action: string; row?: string };


/** Whether a row action is offered to this user. */
const allowed = <Row,>(action: RowAction<Row>, row: Row, writer: boolean) =>
  writer || Boolean(action.view) || (typeof action.anyRole === 'function' ? action.anyRole(row) : Boolean(action.anyRole));

export function ResourcePage<Row>({ decl, title = true }: { decl: ResourceDecl<Row>; title?: boolean }) {
  const [query, setQuery] = useQuery();
  // The namespace goes on the requests (lib/namespace.ts), not into the list's filters.
  const { ns: _ns, ...filters } = query;
  const list = useRemote(decl.name, (signal) => decl.list(filters, signal), JSON.stringify(query), decl.refreshMs);
  const namespaced = decl.namespaced && has('namespaces');
  const [drawerDraft] = useState(() => draftKey(`${decl.name}-drawer`));
  const [open, setOpenState] = useState<Open<Row> | null>(null);
  const setOpen = (next: Open<Row> | null, draft?: OpenDraft) => {
    writeDraft(drawerDraft, next?.form ? draft : undefined);
    setOpenState(next);
  };
  const [selected, setSelected] = useState<string[]>([]);
  const { visible, chooser } = useColumns(decl.name, decl.columns.filter((c) => !c.requires || has(c.requires))
    .map((c) => (namespaced && c.link ? { ...c, link: (row: Row) => withNamespace(c.link!(row)) } : c)));
  const rows = list.data?.rows;
  const selectedRows = () => (rows ?? []).filter((row) => selected.includes(decl.rowKey(row)));
  const writer = canWrite();
  const stale = useStale(decl.refreshMs ? list.updatedAt : undefined, decl.refreshMs ?? 0);
  const bulk = writer ? decl.bulk : undefined;

  const openCreate = () => setOpen({ title: t(decl.create!.title), form: decl.create!, test: `${decl.name}-create-form` }, { action: 'create' });
  const act = (action: RowAction<Row>, row: Row) => {
    const test = `${decl.name}-${action.key}-form`;
    if (action.form) return setOpen({ title: t(action.form.title), form: action.form, row, test, anyRole: allowed(action, row, false) }, { action: action.key, row: decl.rowKey(row) });
    if (action.view) return setOpen({ title: t(action.view.title), body: action.view.render(row), test: `${decl.name}-${action.key}-view` });
    void perform({ resource: decl.name, run: () => action.run!(row), confirm: action.confirm, danger: action.danger, success: action.success, params: { key: decl.rowKey(row) } });
  };

  // After a reload, the form drawer that was open opens again (its values come from its draft).
  const [reopen, setReopen] = useState(() => readDraft<OpenDraft>(drawerDraft));
  useLayoutEffect(() => () => writeDraft(drawerDraft, undefined), []);
  useEffect(() => {
    if (!reopen || (reopen.action !== 'create' && !rows)) return;
    setReopen(undefined);
    const action = decl.actions?.find((a) => a.key === reopen.action && a.form);
    const row = rows?.find((r) => decl.rowKey(r) === reopen.row);
    if (reopen.action === 'create' && decl.create && writer) openCreate();
    else if (action && row && allowed(action, row, writer)) act(action, row);
    else writeDraft(drawerDraft, undefined);
  }, [rows]);

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
        {title ? <h2>{t(decl.title)}</h2> : <span />}
        <div class="toolbar">
          {decl.refreshMs ? <Freshness at={list.updatedAt} every={decl.refreshMs} /> : null}
          {chooser}
          {decl.tools?.filter((tool) => writer || tool.anyRole).map((tool) => tool.href
            ? <Link key={tool.key} href={namespaced ? withNamespace(tool.href) : tool.href} class="secondary" data-test={`${decl.name}-${tool.key}`}>{t(tool.label)}</Link>
            : (
              <button type="button" key={tool.key} class={tool.danger ? 'secondary outline danger' : 'secondary outline'} data-test={`${decl.name}-${tool.key}`}
                disabled={!rows?.length} onClick={() => perform({ resource: decl.name, ...tool })}>
                {t(tool.label)}
              </button>
            ))}
          <button type="button" class="secondary outline icon-button" aria-label={t('common.refresh')} onClick={list.reload} data-test={`${decl.name}-refresh`}>
            <Icon name="refresh" />
          </button>
          {(decl.create || decl.createView) && writer && (
            <button type="button" data-test={`${decl.name}-create`}
              onClick={decl.create ? openCreate : () => setOpen({ title: t(decl.createView!.title), body: decl.createView!.render(() => setOpen(null)), test: `${decl.name}-create-form` })}>
              <Icon name="plus" /> {t(decl.createLabel ?? 'common.create')}
            </button>
          )}
        </div>
      </header>
      {namespaced && <NamespacePicker />}
      {decl.filters && <FilterBar filters={decl.filters} query={query} onApply={(values) => (setSelected([]), setQuery(values))} />}
      {bulk && selected.length > 0 && (
        <div class="bulk-bar" data-test={`${decl.name}-bulk`}>
          <span>{t('common.selected', { count: selected.length })}</span>
          {bulk.map((b) => (
            <button type="button" key={b.key} class={b.danger ? 'danger' : ''} data-test={`${decl.name}-bulk-${b.key}`}
              onClick={async () => (await perform({ resource: decl.name, ...b, run: () => b.run(selectedRows()), params: { count: selected.length } })) && setSelected([])}>
              {t(b.label)}
            </button>
          ))}
        </div>
      )}
      <ResourceTable<Row> name={decl.name} columns={visible} rows={rows} rowKey={decl.rowKey} empty={decl.empty}
        loading={list.loading} error={list.error} retry={list.reload} stale={stale}
        selected={bulk ? selected : undefined} onSelect={bulk ? setSelected : undefined}
        actions={decl.actions && ((row) => decl.actions!.filter((a) => (!a.when || a.when(row)) && allowed(a, row, writer)).map((a) => a.href ? (
          <Link key={a.key} href={a.href(row)} class="link" data-test={`${decl.name}-${a.key}`}>{t(a.label)}</Link>
        ) : (
          <button type="button" key={a.key} class={a.danger ? 'link danger' : 'link'} data-test={`${decl.name}-${a.key}`} onClick={() => act(a, row)}>
            {t(a.label)}
          </button>
        )))} />
      {list.data && (
        <Pager meta={list.data.meta} rows={list.data.rows.length} onPage={(page) => setQuery({ page })}
          onLimit={(limit) => setQuery({ limit, page: undefined })} />
      )}
      {open && (
        <Drawer title={open.title} onClose={() => setOpen(null)} test={open.test}>
          {open.form
            ? <Form fields={open.form.fields} initial={open.form.initial?.(open.row)} anyRole={open.anyRole} draft={open.test}
              onCancel={() => setOpen(null)} onSubmit={(values) => submit(open.form!, values, open.row)} />
            : open.body}
        </Drawer>
      )}
    </section>
  );
}
