/**
 * The listeners tab (§19.2): `GET /gateways/{name}/listeners`, add (`POST`), edit (`PUT .../{id}`,
 * asking first because it disconnects the listener's clients), enable or disable, and delete.
 */
import { useMemo } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import type { GatewayKind } from './kinds.ts';
import { listenerBody, listenerFields, listenerValues, type Listener } from './listenerForm.ts';

const idOf = (gateway: string, l: Listener) => l.id ?? `${gateway}:${l.type}:${l.name}`;
const max = (value: unknown) => (value === 'infinity' || value === undefined ? '∞' : formatNumber(Number(value)));

export function declare(name: string, kind: GatewayKind): ResourceDecl<Listener> {
  const at = (l: Listener) => `/gateways/${name}/listeners/${encodeURIComponent(idOf(name, l))}`;
  const toggle = (enable: boolean) => (l: Listener) => api.put(at(l), listenerBody({ ...listenerValues(l), enable }, l));
  return {
    name: 'gateway-listeners',
    title: 'gateway.listeners',
    rowKey: (l) => idOf(name, l),
    list: arrayList<Listener>(`/gateways/${name}/listeners`),
    empty: 'gateway.noListeners',
    columns: [
      { key: 'name', title: 'gateway.listenerName' },
      { key: 'type', title: 'gateway.listenerType' },
      { key: 'bind', title: 'gateway.bind', text: (l) => <code>{String(l.bind)}</code> },
      { key: 'status', title: 'gateway.status', text: (l) => <StatusTag status={l.enable === false ? 'disabled' : l.status?.running ?? l.running ? 'running' : 'stopped'} /> },
      { key: 'connections', title: 'gateway.connections', text: (l) => `${formatNumber(l.status?.current_connections ?? 0)} / ${max(l.max_connections)}` },
      { key: 'mountpoint', title: 'gateway.mountpoint', optional: true },
    ],
    createLabel: 'gateway.addListener',
    create: {
      title: 'gateway.addListener', success: 'gateway.listenerAdded',
      fields: listenerFields(kind.listenerTypes, true),
      initial: () => listenerValues({ type: kind.listenerTypes[0], bind: '' }),
      submit: (v) => api.post(`/gateways/${name}/listeners`, listenerBody(v)),
    },
    actions: [
      {
        key: 'edit', label: 'common.edit',
        form: {
          title: 'gateway.editListener', success: 'gateway.listenerUpdated', fields: listenerFields(kind.listenerTypes, false),
          initial: (l) => listenerValues(l!),
          submit: async (v, l) => {
            // Spec part1 §4: updating a listener disconnects its clients, so it asks first.
            if (!(await confirm(t('gateway.confirmUpdateListener', { key: idOf(name, l!) }), { danger: true }))) throw new ApiError(0, 'ECONNABORTED', 'canceled');
            return api.put(at(l!), listenerBody(v, l));
          },
        },
      },
      { key: 'disable', label: 'gateway.disableListener', when: (l) => l.enable !== false, danger: true, confirm: 'gateway.confirmDisableListener', success: 'gateway.listenerDisabled', run: toggle(false) },
      { key: 'enable', label: 'gateway.enableListener', when: (l) => l.enable === false, success: 'gateway.listenerEnabled', run: toggle(true) },
      { key: 'delete', label: 'common.delete', danger: true, confirm: 'gateway.confirmDeleteListener', success: 'gateway.listenerDeleted', run: (l) => api.del(at(l)) },
    ],
  };
}

export function GatewayListeners({ name, kind }: { name: string; kind: GatewayKind }) {
  const decl = useMemo(() => declare(name, kind), [name]);
  return <ResourcePage decl={decl} title={false} />;
}
