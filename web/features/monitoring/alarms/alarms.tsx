/**
 * Monitoring > Alarms as two declarations over `GET /alarms?activated=true|false` (envelope A,
 * emqx-api-part1 §8): active alarms, and the history, which `DELETE /alarms` clears.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime, formatDuration } from '../../../lib/format.ts';
import { pageList, type Column, type ResourceDecl, type RowAction } from '../../../ui/resource.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import './messages.ts';

export interface Alarm {
  node: string;
  name: string;
  message: string;
  details?: Record<string, unknown>;
  duration?: number;
  activate_at?: string;
  deactivate_at?: string;
}

/**
 * EMQX alarms carry no level; `details.level` is used when a source sets one, else alarms that
 * threaten the node or the cluster as a whole count as critical and the rest as warnings.
 */
const CRITICAL = /^(partition|license_expiry|license_quota|too_many_processes)|_down$/;
export function levelOf(alarm: Alarm): string {
  const given = alarm.details?.level;
  if (typeof given === 'string' && given) return given;
  return CRITICAL.test(alarm.name) ? 'critical' : 'warning';
}

const nowrap = (text: string) => <span class="nowrap">{text}</span>;
const time = (value: string | undefined) => nowrap(formatDateTime(value, '—'));

const columns: Column<Alarm>[] = [
  { key: 'name', title: 'alarms.name' },
  { key: 'node', title: 'alarms.node', text: (a) => nowrap(a.node) },
  { key: 'message', title: 'alarms.message' },
  { key: 'level', title: 'alarms.level', text: (a) => <StatusTag status={levelOf(a)} /> },
  { key: 'activate_at', title: 'alarms.activateAt', text: (a) => time(a.activate_at) },
  { key: 'duration', title: 'alarms.duration', text: (a) => nowrap(formatDuration(a.duration) || '—') },
];

const details: RowAction<Alarm> = {
  key: 'details', label: 'alarms.details',
  view: { title: 'alarms.detailsTitle', render: (a) => <pre class="details" data-test="alarm-details">{JSON.stringify(a.details ?? {}, null, 2)}</pre> },
};

const list = (activated: boolean) => {
  const page = pageList<Alarm>('/alarms');
  return (query: Record<string, string>, signal: AbortSignal) => page({ ...query, activated: String(activated) }, signal);
};
const rowKey = (a: Alarm) => `${a.node} ${a.name} ${a.activate_at ?? ''}`;

export const activeAlarms: ResourceDecl<Alarm> = {
  name: 'alarms', title: 'monitoring.activeAlarms', rowKey, list: list(true), columns, actions: [details],
  empty: 'alarms.noActive', refreshMs: 10_000,
};

export const historyAlarms: ResourceDecl<Alarm> = {
  name: 'alarms', title: 'monitoring.historyAlarms', rowKey, list: list(false), actions: [details],
  columns: [...columns, { key: 'deactivate_at', title: 'alarms.deactivateAt', text: (a) => time(a.deactivate_at) }],
  empty: 'alarms.noHistory',
  tools: [{
    key: 'clear', label: 'alarms.clearHistory', danger: true, confirm: 'alarms.confirmClear', success: 'alarms.cleared',
    run: () => api.del('/alarms'),
  }],
};
