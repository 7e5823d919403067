/**
 * The clients tab (§19.4): `GET /gateways/{name}/clients` (envelope A, filters in the URL) and
 * kick (`DELETE .../clients/{clientid}`). LwM2M clients show endpoint name, IP, registered at
 * and lifetime (spec part1 §3); the others the usual connection columns.
 */
import { useMemo } from 'react';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { pageList, type Column, type ResourceDecl } from '../../../ui/resource.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';

interface GatewayClient {
  clientid: string;
  username?: string | null;
  ip_address?: string;
  port?: number;
  connected?: boolean;
  connected_at?: string;
  created_at?: string;
  endpoint_name?: string;
  lifetime?: number;
}

const time = (value?: string) => <span class="nowrap">{formatDateTime(value)}</span>;
const LWM2M: Column<GatewayClient>[] = [
  { key: 'endpoint_name', title: 'gateway.endpointName' },
  { key: 'ip_address', title: 'gateway.ipAddress' },
  { key: 'created_at', title: 'gateway.registeredAt', text: (c) => time(c.created_at) },
  { key: 'lifetime', title: 'gateway.lifetime', text: (c) => (c.lifetime === undefined ? '—' : `${c.lifetime} s`) },
];
const OTHERS: Column<GatewayClient>[] = [
  { key: 'clientid', title: 'gateway.clientId' },
  { key: 'username', title: 'gateway.username' },
  { key: 'ip_address', title: 'gateway.ipAddress', text: (c) => (c.port ? `${c.ip_address}:${c.port}` : c.ip_address ?? '—') },
  { key: 'connected', title: 'gateway.status', text: (c) => <StatusTag status={c.connected ? 'connected' : 'disconnected'} /> },
  { key: 'connected_at', title: 'gateway.connectedAt', text: (c) => time(c.connected_at) },
];

function declare(name: string): ResourceDecl<GatewayClient> {
  const lwm2m = name === 'lwm2m';
  return {
    name: 'gateway-clients',
    title: 'gateway.clients',
    rowKey: (c) => c.clientid,
    list: pageList<GatewayClient>(`/gateways/${name}/clients`),
    empty: 'gateway.noClients',
    refreshMs: 10_000,
    filters: lwm2m
      ? [{ name: 'like_endpoint_name', label: 'gateway.endpointName' }]
      : [{ name: 'like_clientid', label: 'gateway.clientId' }, { name: 'like_username', label: 'gateway.username' }],
    columns: lwm2m ? LWM2M : OTHERS,
    actions: [{
      key: 'kick', label: 'gateway.kick', danger: true, confirm: 'gateway.confirmKick', success: 'gateway.kicked',
      run: (c) => api.del(`/gateways/${name}/clients/${encodeURIComponent(c.clientid)}`),
    }],
  };
}

export function GatewayClients({ name }: { name: string }) {
  const decl = useMemo(() => declare(name), [name]);
  return <ResourcePage decl={decl} title={false} />;
}
