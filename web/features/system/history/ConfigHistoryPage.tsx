/**
 * System › Configuration history: the broker's backups (`GET /data/files`) as a history with time,
 * node and size; a diff of two of them or of one against now, read in the browser (archive.ts);
 * a restore (`POST /data/import`) whose confirmation is the diff it will apply.
 */
import { useState } from 'react';
import { api } from '../../../lib/api.ts';
import { handleError } from '../../../lib/errors.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { perform, useRemote } from '../../../lib/resources.ts';
import { addStyleSheet } from '../../../lib/styles.ts';
import { toast } from '../../../lib/toasts.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { Pager } from '../../../ui/Pager.tsx';
import { pageList, type Column } from '../../../ui/resource.ts';
import { ResourceTable } from '../../../ui/ResourceTable.tsx';
import { Loading } from '../../../ui/States.tsx';
import { diffConfigs, loadArchive, loadNow, restoreChanges, type Backup, type Change } from './archive.ts';
import './messages.ts';

addStyleSheet('config-history', `
.history-diff h4{margin:1rem 0 .3rem;font-size:1rem}
.history-diff li{list-style:none;margin:.2rem 0;font-size:.85rem}
.history-diff ul{padding:0}
.history-diff pre{margin:.15rem 0;padding:.3rem .5rem;white-space:pre-wrap;word-break:break-all;font-size:.78rem}
.history-diff .before{background:var(--pico-del-color);color:#fff}
.history-diff .after{background:var(--pico-ins-color);color:#fff}
`);

const files = pageList<Backup>('/data/files');
const when = (f: Backup) => formatDateTime(f.created_at);
const COLUMNS: Column<Backup>[] = [
  { key: 'created_at', title: 'history.time', text: (f) => <span class="nowrap">{when(f)}</span> },
  { key: 'node', title: 'history.node' },
  { key: 'size', title: 'history.size', text: (f) => (f.size === undefined ? '—' : formatBytes(f.size)) },
  { key: 'filename', title: 'history.filename', text: (f) => <code>{f.filename}</code> },
];

/** The changes grouped by section, or the no-differences line. */
function DiffView({ changes }: { changes: Change[] }) {
  if (!changes.length) return <p class="muted" data-test="history-no-diff">{t('history.none')}</p>;
  const sections = [...new Set(changes.map((c) => c.section))];
  return (
    <>
      {sections.map((section) => (
        <section key={section} data-test="history-section" data-section={section}>
          <h4>{section}</h4>
          <ul>
            {changes.filter((c) => c.section === section).map((c) => (
              <li key={c.path} data-test="history-change" data-path={`${section}${c.path ? `.${c.path}` : ''}`} data-kind={c.kind}>
                <code>{c.path || section}</code> <span class="muted">{t(`history.${c.kind}`)}</span>
                {c.before !== undefined && <pre class="before">{c.before}</pre>}
                {c.after !== undefined && <pre class="after">{c.after}</pre>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

interface Shown {
  title: string;
  test: string;
  changes?: Change[];
  tables?: string[];
  kept?: string[];
  restore?: Backup;
}

export default function ConfigHistoryPage() {
  const [query, setQuery] = useQuery();
  const list = useRemote('backup', (signal) => files(query, signal), JSON.stringify(query));
  const [selected, setSelected] = useState<string[]>([]);
  const [shown, setShown] = useState<Shown | null>(null);
  const rows = list.data?.rows;
  const byName = (name: string) => rows?.find((r) => r.filename === name);

  // Shows the drawer at once (loading), then the changes once both archives are read.
  const open = async (base: Shown, read: () => Promise<Partial<Shown>>) => {
    setShown(base);
    try {
      const more = await read();
      setShown((s) => (s?.title === base.title ? { ...s, ...more } : s));
    } catch (error) {
      setShown(null);
      handleError(error);
    }
  };
  const compare = (older: Backup, newer?: Backup) => open({ title: t('history.from', { a: when(older), b: newer ? when(newer) : t('history.now') }), test: 'history-diff' }, async () => {
    const [a, b] = await Promise.all([loadArchive(older), newer ? loadArchive(newer) : loadNow()]);
    return { changes: diffConfigs(a.cluster, b.cluster), tables: a.tables };
  });
  const restore = (file: Backup) => open({ title: t('history.restoreTitle', { time: when(file) }), test: 'history-restore', restore: file }, async () => {
    const [backup, now] = await Promise.all([loadArchive(file), loadNow()]);
    return { ...restoreChanges(backup.cluster, now.cluster), tables: backup.tables };
  });
  const picked = selected.map(byName).filter((f): f is Backup => Boolean(f)).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.filename.localeCompare(b.filename));

  return (
    <section class="resource" data-test="history-page">
      <header class="page-head">
        <h2>{t('history.title')}</h2>
        <div class="toolbar">
          <button type="button" class="secondary outline" disabled={picked.length < 1 || picked.length > 2} data-test="history-compare"
            onClick={() => void compare(picked[0], picked[1])}>{picked.length === 1 ? t('history.compareNow') : t('history.compare')}</button>
          <button type="button" data-test="history-snapshot"
            onClick={() => void perform({ resource: 'backup', run: () => api.post('/data/export', {}), success: 'history.snapshotDone' })}>{t('history.snapshot')}</button>
        </div>
      </header>
      <p class="muted">{t('history.intro')}</p>
      <ResourceTable<Backup> name="history" columns={COLUMNS} rows={rows} rowKey={(f) => f.filename} empty="history.empty"
        loading={list.loading} error={list.error} retry={list.reload} selected={selected} onSelect={(keys) => setSelected(keys.slice(-2))}
        actions={(f) => [
          <button type="button" key="now" class="link" data-test="history-compare-now" onClick={() => void compare(f)}>{t('history.compareNow')}</button>,
          <button type="button" key="restore" class="link danger" data-test="history-restore" onClick={() => void restore(f)}>{t('history.restore')}</button>,
        ]} />
      {list.data && <Pager meta={list.data.meta} rows={list.data.rows.length} onPage={(page) => setQuery({ page })} onLimit={(limit) => setQuery({ limit, page: undefined })} />}
      {shown && (
        <Drawer title={shown.title} onClose={() => setShown(null)} test={`${shown.test}-drawer`}>
          {shown.changes ? (
            <div class="history-diff">
              <DiffView changes={shown.changes} />
              {shown.kept && shown.kept.length > 0 && <p class="muted" data-test="history-kept">{t('history.kept', { roots: shown.kept.join(', ') })}</p>}
              {shown.tables && shown.tables.length > 0 && <p class="muted">{t('history.tables', { tables: shown.tables.join(', ') })}</p>}
              {shown.restore && (
                <div class="form-actions">
                  <button type="button" class="secondary" onClick={() => setShown(null)}>{t('common.cancel')}</button>
                  <button type="button" class="danger" data-test="history-restore-confirm" onClick={async () => {
                    const file = shown.restore!;
                    try {
                      await api.post('/data/import', { node: file.node, filename: file.filename });
                    } catch (error) {
                      return handleError(error);
                    }
                    setShown(null);
                    toast(t('history.restored'));
                  }}>{t('history.restoreDo')}</button>
                </div>
              )}
            </div>
          ) : <Loading />}
        </Drawer>
      )}
    </section>
  );
}
