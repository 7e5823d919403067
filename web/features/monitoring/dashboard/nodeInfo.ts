/**
 * The nodeInfo shape of `GET /nodes` and `GET /nodes/{node}` (emqx-api-part1 §5.1) and the few
 * helpers the node screens share. A stopped member comes back with only node, status and role.
 */
import { formatDuration, formatNumber } from '../../../lib/format.ts';

export interface NodeInfo {
  node: string;
  node_status: 'running' | 'stopped' | string;
  role?: string;
  version?: string;
  edition?: string;
  uptime?: number;
  connections?: number;
  live_connections?: number;
  load1?: number;
  load5?: number;
  load15?: number;
  max_fds?: number;
  memory_total?: string;
  memory_used?: string;
  process_available?: number;
  process_used?: number;
  otp_release?: string;
  sys_path?: string;
  log_path?: string;
}

/** The detail route of a node; names contain `@`, so they are encoded. */
export const nodePath = (node: string) => `/dashboard/nodes/${encodeURIComponent(node)}`;

const dash = (s: string) => s || '—';

/** `used / total`, or a dash when the node did not report them (e.g. stopped). */
export function pair(used: string | number | undefined, total: string | number | undefined): string {
  if (used === undefined && total === undefined) return '—';
  const text = (v: string | number | undefined) => (typeof v === 'number' ? formatNumber(v) : v ?? '—');
  return `${text(used)} / ${text(total)}`;
}

export const uptime = (n: NodeInfo) => dash(formatDuration(n.uptime));
export const load = (n: NodeInfo) => (n.load1 === undefined ? '—' : `${n.load1} / ${n.load5 ?? '—'} / ${n.load15 ?? '—'}`);
export const count = (v: number | undefined) => dash(formatNumber(v));
