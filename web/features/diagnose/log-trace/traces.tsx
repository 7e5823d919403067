/**
 * Diagnose > Log trace as one declaration over `/trace` (emqx-api-part1 §18): the list with
 * status and per-node log size (live), create, stop, download and delete.
 */
import { api } from '../../../lib/api.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { conditionOf, detailRoute, downloadTrace, tracePath, TYPE_LABELS, type Trace } from './trace.ts';
import { createTrace } from './traceForm.ts';
import './messages.ts';

const sizes = (trace: Trace) => (
  <span class="log-sizes">
    {Object.entries(trace.log_size ?? {}).map(([node, size]) => <span key={node} class="nowrap">{node}: {formatBytes(size)}</span>)}
  </span>
);

export const traces: ResourceDecl<Trace> = {
  name: 'trace',
  title: 'diagnose.logTrace',
  rowKey: (trace) => trace.name,
  list: arrayList<Trace>('/trace'),
  empty: 'logTrace.empty',
  refreshMs: 5000,
  columns: [
    { key: 'name', title: 'logTrace.name', link: (trace) => detailRoute(trace.name) },
    { key: 'type', title: 'logTrace.type', text: (trace) => t(TYPE_LABELS[trace.type] ?? trace.type) },
    { key: 'condition', title: 'logTrace.condition', text: conditionOf },
    { key: 'start_at', title: 'logTrace.startAt', text: (trace) => <span class="nowrap">{formatDateTime(trace.start_at)}</span> },
    { key: 'end_at', title: 'logTrace.endAt', text: (trace) => <span class="nowrap">{formatDateTime(trace.end_at)}</span> },
    { key: 'status', title: 'logTrace.status', text: (trace) => <StatusTag status={trace.status} /> },
    { key: 'log_size', title: 'logTrace.logSize', text: sizes, optional: true },
  ],
  create: createTrace,
  createLabel: 'logTrace.create',
  actions: [
    {
      key: 'stop', label: 'logTrace.stop', when: (trace) => trace.status !== 'stopped', confirm: 'logTrace.confirmStop', success: 'logTrace.stopped',
      run: (trace) => api.put(`${tracePath(trace.name)}/stop`),
    },
    {
      key: 'download', label: 'logTrace.download', when: (trace) => trace.status !== 'waiting', success: 'logTrace.downloaded',
      run: (trace) => downloadTrace(trace.name),
    },
    {
      key: 'delete', label: 'common.delete', danger: true, confirm: 'logTrace.confirmDelete', success: 'logTrace.deleted',
      run: (trace) => api.del(tracePath(trace.name)),
    },
  ],
  tools: [{ key: 'clear', label: 'common.clearAll', danger: true, confirm: 'logTrace.confirmClear', success: 'logTrace.cleared', run: () => api.del('/trace') }],
};
