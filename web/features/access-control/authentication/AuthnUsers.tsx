/**
 * The users tab of a built-in database authenticator: the declared user list, plus import from a
 * CSV or JSON file with template downloads and the server's result summary (total, success,
 * override, skipped, failed).
 */
import { useMemo, useState } from 'react';
import { api } from '../../../lib/api.ts';
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

function ImportForm({ id }: { id: string }) {
  const [type, setType] = useState<ImportType>('plain');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
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
      const res = await api.post<ImportResult>(`/authentication/${encodeURIComponent(id)}/import_users`, users, { params: { type } });
      setResult(res);
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
      {result && <p class="notice" data-test="import-result">{t('authn.importResult', { ...result })}</p>}
      <div class="form-actions"><button type="submit" aria-busy={busy} disabled={busy} data-test="import-submit">{t('authn.import')}</button></div>
    </form>
  );
}

export function AuthnUsers({ id }: { id: string }) {
  const decl = useMemo(() => declareUsers(id), [id]);
  const [importing, setImporting] = useState(false);
  return (
    <>
      <div class="toolbar tab-tools">
        <button type="button" class="secondary outline" onClick={() => setImporting(true)} data-test="authn-import">{t('authn.import')}</button>
      </div>
      <ResourcePage decl={decl} title={false} />
      {importing && <Drawer title={t('authn.importTitle')} onClose={() => setImporting(false)} test="authn-import-drawer"><ImportForm id={id} /></Drawer>}
    </>
  );
}
