/**
 * Management > ExHook as one declaration (emqx-api-part1 §20): `GET /exhooks` (bare list in call
 * order), enable switch (`PUT /exhooks/{name}` with the whole config), moves (`POST .../move`
 * with `front`, `rear`, `before:<name>`, `after:<name>`) and delete.
 */
import { api } from '../../../lib/api.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { EnableSwitch } from './EnableSwitch.tsx';
import './messages.ts';

export interface Metrics {
  succeed: number;
  failed: number;
  rate: number;
  max_rate: number;
}

export interface Exhook {
  name: string;
  enable: boolean;
  url: string;
  request_timeout?: string;
  failed_action?: 'deny' | 'ignore';
  ssl?: Record<string, unknown>;
  socket_options?: Record<string, unknown>;
  auto_reconnect?: string | false;
  pool_size?: number;
  metrics?: Metrics;
  node_metrics?: { node: string; metrics: Metrics }[];
  node_status?: { node: string; status: string }[];
  hooks?: { name: string; params?: Record<string, unknown> }[];
}

export const exhookPath = (name: string, rest = '') => `/exhooks/${encodeURIComponent(name)}${rest}`;

/** The server's config without the detail-only parts, as PUT takes it. */
export function configOf(h: Exhook): Record<string, unknown> {
  const { metrics, node_metrics, node_status, hooks, ...config } = h;
  return config;
}

/** One state for the server: disabled, else the first node that is not connected, else connected. */
export function statusOf(h: Exhook): string {
  if (!h.enable) return 'disabled';
  const states = (h.node_status ?? []).map((s) => s.status);
  return states.find((s) => s !== 'connected') ?? (states.length ? 'connected' : 'connecting');
}

let order: string[] = [];
const at = (h: Exhook) => order.indexOf(h.name);
const move = (h: Exhook, position: string) => api.post(exhookPath(h.name, '/move'), { position });

export const exhooks: ResourceDecl<Exhook> = {
  name: 'exhooks',
  title: 'management.exhook',
  rowKey: (h) => h.name,
  list: arrayList<Exhook>('/exhooks', (all) => (order = all.map((h) => h.name))),
  empty: 'exhook.empty',
  tools: [{ key: 'add', label: 'exhook.add', href: '/exhook/create', run: async () => undefined }],
  columns: [
    { key: 'name', title: 'exhook.name', link: (h) => `/exhook/detail/${encodeURIComponent(h.name)}` },
    { key: 'hooks', title: 'exhook.hooks', text: (h) => String(h.hooks?.length ?? 0) },
    { key: 'url', title: 'exhook.url', text: (h) => <code>{h.url}</code> },
    { key: 'status', title: 'exhook.status', text: (h) => <StatusTag status={statusOf(h)} test="exhook-status" /> },
    { key: 'enable', title: 'exhook.enable', text: (h) => <EnableSwitch hook={h} /> },
  ],
  actions: [
    { key: 'up', label: 'exhook.moveUp', when: (h) => at(h) > 0, success: 'exhook.moved', run: (h) => move(h, `before:${order[at(h) - 1]}`) },
    { key: 'down', label: 'exhook.moveDown', when: (h) => at(h) < order.length - 1, success: 'exhook.moved', run: (h) => move(h, `after:${order[at(h) + 1]}`) },
    { key: 'top', label: 'exhook.moveTop', when: (h) => at(h) > 0, success: 'exhook.moved', run: (h) => move(h, 'front') },
    { key: 'bottom', label: 'exhook.moveBottom', when: (h) => at(h) < order.length - 1, success: 'exhook.moved', run: (h) => move(h, 'rear') },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'exhook.confirmDelete', success: 'exhook.deleted', run: (h) => api.del(exhookPath(h.name)) },
  ],
};
