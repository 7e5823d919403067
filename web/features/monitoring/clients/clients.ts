/**
 * Monitoring > Clients as one declaration: `GET /clients` (envelope A) with EMQX's own filter
 * names, kick out or clear session (`DELETE /clients/{clientid}`), bulk kick, live refresh.
 */
import { createElement } from 'react';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { nodeOptions } from './nodeOptions.ts';
import './messages.ts';

export interface Client {
  clientid: string;
  username: string | null;
  node: string;
  ip_address: string;
  port: number;
  proto_name: string;
  proto_ver: number;
  connected: boolean;
  clean_start: boolean;
  keepalive: number;
  expiry_interval: number;
  created_at: string;
  connected_at: string;
  disconnected_at?: string;
  subscriptions_cnt: number;
  [key: string]: unknown;
}

/** The REST path of one client; ids may hold `/`, spaces or `#`, so they are encoded. */
export const clientPath = (clientid: string) => `/clients/${encodeURIComponent(clientid)}`;
/** The console route of a client's detail page. */
export const detailRoute = (clientid: string) => `/clients/detail/${encodeURIComponent(clientid)}`;

/** MQTT protocol levels as EMQX reports them in `proto_ver`. */
const VERSIONS: Record<string, string> = { 3: 'v3.1', 4: 'v3.1.1', 5: 'v5.0' };
export const protocol = (c: Pick<Client, 'proto_name' | 'proto_ver'>) => `${c.proto_name ?? ''} ${VERSIONS[c.proto_ver] ?? c.proto_ver ?? ''}`.trim();


const kick = (c: Client) => api.del(clientPath(c.clientid));

/** The list as last shown, filters and page included: where the detail page goes back to. */
export const listReturn = { path: '/clients' };

export const clients: ResourceDecl<Client> = {
  name: 'clients',
  title: 'monitoring.clients',
  rowKey: (c) => c.clientid,
  list: pageList<Client>('/clients'),
  refreshMs: 5000,
  empty: 'clients.empty',
  columns: [
    { key: 'clientid', title: 'clients.clientid', link: (c) => detailRoute(c.clientid) },
    { key: 'username', title: 'clients.username' },
    { key: 'connected', title: 'clients.status', text: (c) => createElement(StatusTag, { status: c.connected ? 'connected' : 'disconnected' }) },
    { key: 'ip_address', title: 'clients.ipAddress', text: (c) => `${c.ip_address}:${c.port}` },
    { key: 'keepalive', title: 'clients.keepalive', optional: true },
    { key: 'clean_start', title: 'clients.cleanStart', optional: true },
    { key: 'proto_ver', title: 'clients.protocol', text: protocol, optional: true },
    { key: 'connected_at', title: 'clients.connectedAt', text: (c) => formatDateTime(c.connected_at, '—') },
    { key: 'node', title: 'clients.node', optional: true },
    { key: 'created_at', title: 'clients.createdAt', text: (c) => formatDateTime(c.created_at, '—'), hidden: true },
    { key: 'subscriptions_cnt', title: 'clients.subscriptionsCnt', hidden: true },
    { key: 'expiry_interval', title: 'clients.expiryInterval', hidden: true },
  ],
  filters: [
    { name: 'node', label: 'clients.node', kind: 'select', options: [{ value: '', label: 'clients.allNodes' }], loadOptions: nodeOptions },
    { name: 'like_clientid', label: 'clients.clientid' },
    { name: 'like_username', label: 'clients.username' },
    { name: 'ip_address', label: 'clients.ipAddress', more: true },
    {
      name: 'conn_state', label: 'clients.status', kind: 'select', more: true,
      options: [{ value: '', label: 'clients.allStates' }, { value: 'connected', label: 'status.connected' }, { value: 'disconnected', label: 'status.disconnected' }],
    },
    {
      name: 'proto_ver', label: 'clients.protoVer', kind: 'select', more: true,
      options: [{ value: '', label: 'clients.allVersions' }, ...[3, 4, 5].map((v) => ({ value: String(v), label: `MQTT ${VERSIONS[v]}` }))],
    },
    { name: 'gte_connected_at', label: 'clients.connectedFrom', kind: 'datetime', more: true },
    { name: 'lte_connected_at', label: 'clients.connectedTo', kind: 'datetime', more: true },
  ],
  actions: [
    { key: 'kick', label: 'clients.kick', danger: true, when: (c) => c.connected, confirm: 'clients.confirmKick', success: 'clients.kicked', run: kick },
    // EMQX has no separate endpoint: DELETE discards the session of a disconnected client too.
    { key: 'clear', label: 'clients.clearSession', danger: true, when: (c) => !c.connected, confirm: 'clients.confirmClearSession', success: 'clients.sessionCleared', run: kick },
  ],
  bulk: [
    {
      key: 'kick', label: 'clients.kickSelected', danger: true, confirm: 'clients.confirmBulkKick', success: 'clients.kicked',
      run: async (rows) => {
        // One DELETE per client; every one is tried, the first failure is reported.
        const failed = (await Promise.allSettled(rows.map(kick))).find((r) => r.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
      },
    },
  ],
};
