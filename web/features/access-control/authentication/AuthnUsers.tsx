/**
 * The users tab of a built-in database authenticator: the declared user list, plus import from a
 * CSV or JSON file with template downloads and the server's result summary (total, success,
 * override, skipped, failed; 5.8.2+). Earlier brokers answer 204 without a body: the summary is
 * then counted from the users list before and after (`meta.count`).
 */
import { useMemo, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { canWrite, has } from '../../../lib/broker.ts';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { touch } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { parseUsers, template, type ImportType } from './importUsers.ts';
import { declareUsers } from './users.ts';
import './messages.ts';

interface ImportResult { total: number; success: number; override: number; skipped: number; failed: number }
type Summary = { counts: ImportResult } | { total: number; added: number; after: number };

/** How many users the authenticator has (one row asked for, the total read from `meta.count`). */
const countUsers = (id: string) =>
  api.get<{ meta: { count?: number } }>(`/authentication/${encodeURIComponent(id)}/users`, { params: { page: 1, limit: 1 } }).then((r) => r.meta.count ?? 0);

function ImportForm({ id }: { id: string }) {
  const [type, setType] = useState<ImportType>('plain');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState<Summary | null>(null);
  const [busy, setBusy] = useState(false);
  const href = (format: 'csv' | 'json') => `data:${format === 'csv' ? 'text/csv' : 'application/json'};charset=utf-8,${encodeURIComponent(template(type, format))}`;

  const run = async (event: Event) => {
    event.preventDefault();
    setResult(null);
    if (!file) return setProblem(t('authn.fileRequired'));
    let users: Record<string, unknown>[];
    try {
      users = parseUsers(file.name, await file.text(), type);
    } catch (error) {
      return setProblem((error as Error).message);
    }
    setProblem('');
    setBusy(true);
    try {
      const before = has('importUsersCounts') ? undefined : await countUsers(id);
      const res = await api.post<ImportResult | undefined>(`/authentication/${encodeURIComponent(id)}/import_users`, users, { params: { type } });
      if (res && typeof res.total === 'number') setResult({ counts: res });
      else {
        const after = await countUsers(id);
        setResult({ total: users.length, added: before === undefined ? Number.NaN : after - before, after });
      }
      toast(t('authn.importDone'));
      touch('authn-users');
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={run} noValidate data-test="authn-import-form">
      <div class="field">
        <label htmlFor="import-type">{t('authn.importType')}</label>
        <select id="import-type" name="type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as ImportType)} data-test="import-type">
          <option value="plain">{t('authn.importFmt.plain')}</option>
          <option value="hash">{t('authn.importFmt.hash')}</option>
        </select>
      </div>
      <p class="template-links">
        <a href={href('csv')} download={`user-import-template-${type}.csv`} data-test="template-csv">{t('authn.template', { format: 'CSV' })}</a>
        <a href={href('json')} download={`user-import-template-${type}.json`} data-test="template-json">{t('authn.template', { format: 'JSON' })}</a>
      </p>
      <div class="field">
        <label htmlFor="import-file">{t('authn.importFile')}</label>
        <input id="import-file" type="file" name="filename" accept=".csv,.json" aria-invalid={problem ? 'true' : undefined} data-test="import-file"
          onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
        <small class={problem ? 'field-error' : 'muted'} data-test={problem ? 'import-error' : undefined}>{problem}</small>
      </div>
      {result && (
        <p class="notice" data-test="import-result">
          {'counts' in result ? t('authn.importResult', { ...result.counts })
            : Number.isNaN(result.added) ? t('authn.importNow', { ...result }) : t('authn.importCounted', { ...result })}
        </p>
      )}
      <div class="form-actions"><button type="submit" aria-busy={busy} disabled={busy} data-test="import-submit">{t('authn.import')}</button></div>
    </form>
  );
}

export function AuthnUsers({ id }: { id: string }) {
  const decl = useMemo(() => declareUsers(id), [id]);
  const [importing, setImporting] = useState(false);
  return (
    <>
      {canWrite() && (
        <div class="toolbar tab-tools">
          <button type="button" class="secondary outline" onClick={() => setImporting(true)} data-test="authn-import">{t('authn.import')}</button>
        </div>
      )}
      <ResourcePage decl={decl} title={false} />
      {importing && <Drawer title={t('authn.importTitle')} onClose={() => setImporting(false)} test="authn-import-drawer"><ImportForm id={id} /></Drawer>}
    </>
  );
}
