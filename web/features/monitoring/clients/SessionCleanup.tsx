/**
 * The bulk session clean-up drawer of the Clients screen (cleanup.ts does the work): the filter,
 * the count, a confirmation, then a progress bar with pause and cancel, and the final report.
 */
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { confirm } from '../../../lib/confirm.ts';
import { handleError } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { cancel, cleanup, countMatches, dismiss, getRate, pause, resume, setRate, start, type CleanupFilter } from './cleanup.ts';
import { nodeOptions } from './nodeOptions.ts';
import './messages.ts';

const FIELDS: FieldDecl[] = [
  { name: 'before', label: 'cleanup.before', kind: 'datetime' },
  { name: 'like_clientid', label: 'cleanup.clientid' },
  { name: 'username', label: 'clients.username' },
  { name: 'node', label: 'clients.node', kind: 'select', options: [{ value: '', label: 'clients.allNodes' }], loadOptions: nodeOptions },
  { name: 'rate', label: 'cleanup.rate', kind: 'number', rules: [(v) => (Number(v) >= 1 ? undefined : t('cleanup.rateMin'))] },
];

function filterOf(values: Record<string, unknown>): CleanupFilter {
  const text = (k: string) => String(values[k] ?? '').trim() || undefined;
  const before = text('before');
  return { before: before && new Date(before).toISOString(), like_clientid: text('like_clientid'), username: text('username'), node: text('node') };
}

export function SessionCleanup() {
  const { job } = useSnapshot(cleanup);
  const [counted, setCounted] = useState<number | null>(null);

  if (job) {
    const ended = job.state === 'cancelled' || job.state === 'finished';
    return (
      <div data-test="cleanup-job" data-state={job.state}>
        <progress value={job.done} max={job.ids.length || 1} data-test="cleanup-progress" />
        <p data-test="cleanup-counts">{t('cleanup.progress', { done: job.done, total: job.ids.length, removed: job.removed, gone: job.gone, failed: job.failed.length })}</p>
        {job.failed.length > 0 && (
          <ul class="muted" data-test="cleanup-failed">
            {job.failed.slice(0, 20).map((f) => <li key={f.clientid}><code>{f.clientid}</code>: {f.reason === 'connected' ? t('cleanup.connected') : f.reason}</li>)}
          </ul>
        )}
        <div class="form-actions">
          {job.state === 'running' && <button type="button" class="secondary" data-test="cleanup-pause" onClick={pause}>{t('cleanup.pause')}</button>}
          {(job.state === 'paused' || job.state === 'cancelled') && <button type="button" class="secondary" data-test="cleanup-resume" onClick={resume}>{t('cleanup.resume')}</button>}
          {!ended && <button type="button" class="danger" data-test="cleanup-cancel" onClick={cancel}>{t('common.cancel')}</button>}
          {ended && <button type="button" data-test="cleanup-dismiss" onClick={dismiss}>{t('common.close')}</button>}
        </div>
      </div>
    );
  }

  const submit = async (values: Record<string, unknown>) => {
    setRate(Number(values.rate));
    const filter = filterOf(values);
    const count = await countMatches(filter);
    setCounted(count);
    if (count === 0) return;
    if (!(await confirm(t('cleanup.confirm', { count, rate: getRate() }), { danger: true }))) return;
    await start(filter).catch(handleError);
  };
  return (
    <>
      <p class="muted">{t('cleanup.intro')}</p>
      <Form fields={FIELDS} initial={{ rate: getRate() }} submitText={t('cleanup.count')} onSubmit={submit} test="cleanup-form" />
      {counted !== null && <p data-test="cleanup-count">{t('cleanup.matches', { count: counted })}</p>}
    </>
  );
}
