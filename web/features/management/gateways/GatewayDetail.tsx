/**
 * A gateway's detail: its status and the four tabs of the route (`/gateway/detail/{name}/{tab}`):
 * settings, listeners, authentication and clients. Each tab is its own component.
 */
import { Link } from 'wouter';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { GatewayAuth } from './GatewayAuth.tsx';
import { GatewayClients } from './GatewayClients.tsx';
import { GatewayListeners } from './GatewayListeners.tsx';
import { gatewayLabel, GatewaySwitch, type Gateway } from './gateways.tsx';
import { GatewaySettings } from './GatewaySettings.tsx';
import { kindOf } from './kinds.ts';

const TABS = [
  { key: 'settings', title: 'gateway.settings' },
  { key: 'listeners', title: 'gateway.listeners' },
  { key: 'auth', title: 'gateway.auth' },
  { key: 'clients', title: 'gateway.clients' },
];

export default function GatewayDetail({ name, tab }: { name: string; tab: string }) {
  const kind = kindOf(name);
  const remote = useRemote('gateways', (signal) => api.get<Gateway & Record<string, unknown>>(`/gateways/${name}`, { signal }), name);
  const gateway = remote.data;
  if (!kind) return <p class="state" data-test="gateway-unknown">{t('gateway.notLoaded')}</p>;
  if (!gateway) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  if (gateway.status === 'unloaded') {
    return (
      <div class="state" data-test="gateway-not-loaded">
        <p>{t('gateway.notLoaded')}</p>
        <Link href={`/gateway/create/${name}`}>{t('gateway.setup')}</Link>
      </div>
    );
  }
  const active = TABS.some((x) => x.key === tab) ? tab : 'settings';
  return (
    <section data-test="gateway-detail">
      <header class="page-head">
        <h2>{gatewayLabel(name)} <StatusTag status={gateway.status} test="gateway-status" /></h2>
        <label class="toolbar">{t('gateway.enable')} <GatewaySwitch gateway={gateway} /></label>
      </header>
      <Tabs tabs={TABS} active={active} onChange={(key) => void navigate(`/gateway/detail/${name}/${key}`)} />
      {active === 'settings' && <GatewaySettings name={name} kind={kind} config={gateway} />}
      {active === 'listeners' && <GatewayListeners name={name} kind={kind} />}
      {active === 'auth' && <GatewayAuth name={name} kind={kind} />}
      {active === 'clients' && <GatewayClients name={name} />}
    </section>
  );
}
