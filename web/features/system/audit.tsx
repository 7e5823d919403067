/**
 * System > Audit log (Enterprise): `GET /audit`, paged and filtered by the server, newest first.
 * The broker records nothing while `log.audit.enable` is off (its default) and then answers 400
 * "Audit is disabled"; the page says so and points to the Log settings instead of failing.
 */
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { t } from '../../lib/i18n.ts';
import { useRemote } from '../../lib/resources.ts';
import { Loading } from '../../ui/States.tsx';
import { pageList, type ResourceDecl } from '../../ui/resource.ts';
import { ResourcePage } from '../../ui/ResourcePage.tsx';
import './license/messages.ts';

interface AuditEntry {
  created_at: string;
  node: string;
  from: string;
  source: string;
  source_ip: string;
  operation_id: string;
  operation_type: string;
  operation_result: string;
  http_status_code: number;
  http_method: string;
}

export const audit: ResourceDecl<AuditEntry> = {
  name: 'audit',
  title: 'auditLog.title',
  rowKey: (a) => `${a.node} ${a.created_at} ${a.operation_id}`,
  list: pageList<AuditEntry>('/audit'),
  empty: 'auditLog.empty',
  filters: [
    { name: 'source', label: 'auditLog.source' },
    { name: 'operation_type', label: 'auditLog.operationType' },
    { name: 'operation_result', label: 'auditLog.result', kind: 'select', options: [{ value: '', label: 'common.all' }, { value: 'success', label: 'auditLog.success' }, { value: 'failure', label: 'auditLog.failure' }] },
  ],
  columns: [
    { key: 'created_at', title: 'auditLog.createdAt', text: (a) => <span class="nowrap">{formatDateTime(a.created_at)}</span> },
    { key: 'source', title: 'auditLog.source' },
    { key: 'source_ip', title: 'auditLog.sourceIp', optional: true },
    { key: 'operation_type', title: 'auditLog.operationType' },
    { key: 'operation_id', title: 'auditLog.operation', text: (a) => `${a.http_method?.toUpperCase() ?? ''} ${a.operation_id}` },
    { key: 'operation_result', title: 'auditLog.result', text: (a) => `${a.operation_result} (${a.http_status_code})` },
    { key: 'node', title: 'auditLog.node', optional: true, hidden: true },
  ],
};

export default function AuditPage() {
  const log = useRemote('configs/log', (signal) => api.get<{ audit?: { enable?: boolean } }>('/configs/log', { signal }));
  if (log.loading && !log.data) return <Loading />;
  if (log.data?.audit?.enable === false) {
    return (
      <section data-test="audit-disabled">
        <h2>{t('auditLog.title')}</h2>
        <p>{t('auditLog.disabled')}</p>
        <a href="#/log">{t('auditLog.openLog')}</a>
      </section>
    );
  }
  return <ResourcePage decl={audit} />;
}
