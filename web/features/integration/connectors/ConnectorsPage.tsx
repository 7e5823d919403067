/**
 * Connectors (`GET /connectors`, a bare array): type, name, status with reason, enable switch;
 * reconnect and delete (duplicate is on the detail page) (refused by the broker while actions or sources use it).
 */
import { api, ApiError } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { apiPath, encodeId, bridgeId, isWebhook, type Bridge } from './bridge.ts';
import { BridgeStatus, BridgeSwitch, TypeBadge } from './BridgeCells.tsx';
import './messages.ts';

export const connectorLink = (row: Bridge) => `/connector/${encodeId(bridgeId(row))}`;

/** DELETE, with the broker's refusal turned into the list of actions and sources to remove first. */
export async function deleteConnector(row: Bridge) {
  try {
    await api.del(apiPath('connectors', bridgeId(row)));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    const list = [...(row.actions ?? []), ...(row.sources ?? [])].join(', ');
    throw new ApiError(400, error.code, `${t('connectors.deleteRefused', { list: list || '—' })} (${error.message})`, error.body);
  }
}

export const connectors: ResourceDecl<Bridge> = {
  name: 'connectors',
  title: 'integration.connectors',
  rowKey: bridgeId,
  list: arrayList<Bridge>('/connectors'),
  empty: 'connectors.empty',
  namespaced: true,
  tools: [{ key: 'new', label: 'common.create', href: '/connector/create', run: async () => undefined }],
  filters: [{ name: 'name', label: 'connectors.name' }, { name: 'type', label: 'connectors.type' }],
  columns: [
    { key: 'name', title: 'connectors.name', link: connectorLink },
    { key: 'type', title: 'connectors.type', text: (r) => <TypeBadge type={r.type} /> },
    { key: 'status', title: 'connectors.status', text: (r) => <BridgeStatus row={r} /> },
    { key: 'description', title: 'connectors.description', optional: true, hidden: true },
    { key: 'enable', title: 'connectors.enable', text: (r) => <BridgeSwitch row={r} kind="connectors" confirm="connectors.confirmDisable" /> },
  ],
  actions: [
    { key: 'reconnect', label: 'connectors.reconnect', when: (r) => r.enable, success: 'connectors.reconnected', run: (r) => api.post(apiPath('connectors', bridgeId(r), '/start')) },
    { key: 'delete', label: 'common.delete', danger: true, when: (r) => !isWebhook(r.name), confirm: 'connectors.confirmDelete', success: 'connectors.deleted', run: deleteConnector },
  ],
};

export default function ConnectorsPage() {
  return <ResourcePage decl={connectors} />;
}
