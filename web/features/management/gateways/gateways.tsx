/**
 * Management > Gateways as one declaration (§19.1): `GET /gateways` lists every gateway type,
 * unloaded ones as `{name, status: "unloaded"}`. The switch enables or disables a loaded one
 * (`PUT /gateways/{name}/enable/{bool}`, asking first because disabling closes its connections);
 * an unloaded one is set up through the create wizard.
 */
import { canWrite } from '../../../lib/broker.ts';
import { api } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { perform } from '../../../lib/resources.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { kindOf } from './kinds.ts';
import './messages.ts';

export interface Gateway {
  name: string;
  status: 'running' | 'stopped' | 'unloaded';
  current_connections?: number;
  max_connections?: number | 'infinity';
  listeners?: { id: string; type: string; name: string; running: boolean }[];
}

export const gatewayLabel = (name: string) => kindOf(name)?.label ?? name;
const loaded = (g: Gateway) => g.status !== 'unloaded';

export function GatewaySwitch({ gateway: g }: { gateway: Gateway }) {
  const toggle = () => {
    if (!loaded(g)) return void navigate(`/gateway/create/${g.name}`);
    const enable = g.status !== 'running';
    void perform({
      resource: 'gateways',
      run: () => api.put(`/gateways/${g.name}/enable/${enable}`),
      confirm: enable ? undefined : 'gateway.confirmDisable',
      danger: true,
      params: { key: gatewayLabel(g.name) },
      success: enable ? 'gateway.enabledOk' : 'gateway.disabledOk',
    });
  };
  return (
    <input type="checkbox" role="switch" checked={g.status === 'running'} disabled={!canWrite()} aria-label={`${t('gateway.enable')} ${gatewayLabel(g.name)}`}
      data-test="gateways-enable" onClick={(e) => (e.preventDefault(), toggle())} />
  );
}

const connections = (g: Gateway) =>
  loaded(g) ? `${formatNumber(g.current_connections ?? 0)} / ${g.max_connections === 'infinity' || g.max_connections === undefined ? '∞' : formatNumber(g.max_connections)}` : '—';

export const gateways: ResourceDecl<Gateway> = {
  name: 'gateways',
  title: 'management.gateways',
  rowKey: (g) => g.name,
  list: arrayList<Gateway>('/gateways'),
  empty: 'gateway.empty',
  refreshMs: 10_000,
  columns: [
    { key: 'name', title: 'gateway.name', text: (g) => gatewayLabel(g.name), link: (g) => (loaded(g) ? `/gateway/detail/${g.name}/settings` : `/gateway/create/${g.name}`) },
    { key: 'status', title: 'gateway.status', text: (g) => (loaded(g) ? <StatusTag status={g.status} /> : <span class="tag tag-off">{t('gateway.unloaded')}</span>) },
    { key: 'connections', title: 'gateway.connections', text: connections },
    { key: 'listeners', title: 'gateway.listeners', text: (g) => (g.listeners ?? []).map((l) => `${l.type}:${l.name}`).join(', ') || '—', optional: true },
    { key: 'enable', title: 'gateway.enable', text: (g) => <GatewaySwitch gateway={g} /> },
  ],
  actions: [
    { key: 'setup', label: 'gateway.setup', when: (g) => !loaded(g), href: (g) => `/gateway/create/${g.name}` },
    { key: 'settings', label: 'common.settings', when: loaded, anyRole: true, href: (g) => `/gateway/detail/${g.name}/settings` },
  ],
};
