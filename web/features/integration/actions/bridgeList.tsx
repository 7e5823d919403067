/**
 * The one declaration the action (sink) and source lists are (`GET /actions`, `GET /sources`,
 * bare arrays), and delete: a referenced object asks to also remove it from its rules
 * (`also_delete_dep_actions=true`, emqx-api-part2 §4.3).
 */
import { api } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { perform } from '../../../lib/resources.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { apiPath, encodeId, bridgeId, isWebhook, type Bridge } from '../connectors/bridge.ts';
import { BridgeStatus, BridgeSwitch, TypeBadge } from '../connectors/BridgeCells.tsx';
import './messages.ts';

export type BridgeKind = 'actions' | 'sources';
export const ROUTES: Record<BridgeKind, string> = { actions: '/rule/actions', sources: '/rule/source' };
export const bridgeLink = (kind: BridgeKind, row: Bridge) => `${ROUTES[kind]}/${encodeId(bridgeId(row))}`;

/** Deletes after the right question; resolves true when deleted. */
export async function deleteBridge(kind: BridgeKind, row: Bridge): Promise<boolean> {
  const rules = row.rules ?? [];
  const question = rules.length ? t('bridges.confirmDeleteWithRules', { key: row.name, rules: rules.join(', ') }) : t('bridges.confirmDelete', { key: row.name });
  if (!(await confirm(question, { danger: true }))) return false;
  return perform({
    resource: kind, success: 'bridges.deleted',
    run: () => api.del(apiPath(kind, bridgeId(row)), rules.length ? { params: { also_delete_dep_actions: true } } : undefined),
  });
}

export function bridgeDecl(kind: BridgeKind): ResourceDecl<Bridge> {
  return {
    name: kind,
    title: kind === 'actions' ? 'integration.actions' : 'integration.sources',
    rowKey: bridgeId,
    list: arrayList<Bridge>(`/${kind}`),
    empty: kind === 'actions' ? 'bridges.emptyActions' : 'bridges.emptySources',
    tools: [{ key: 'new', label: 'common.create', href: `${ROUTES[kind]}/create`, run: async () => undefined }],
    filters: [{ name: 'name', label: 'connectors.name' }, { name: 'type', label: 'connectors.type' }],
    columns: [
      { key: 'name', title: 'connectors.name', link: (r) => bridgeLink(kind, r) },
      { key: 'type', title: 'connectors.type', text: (r) => <TypeBadge type={r.type} /> },
      { key: 'connector', title: 'bridges.connector', optional: true },
      { key: 'status', title: 'connectors.status', text: (r) => <BridgeStatus row={r} /> },
      { key: 'rules', title: 'bridges.rules', optional: true, text: (r) => (r.rules ?? []).join(', ') || '—' },
      { key: 'last_modified_at', title: 'bridges.lastModified', optional: true, hidden: true, text: (r) => formatDateTime(r.last_modified_at, '—') },
      { key: 'enable', title: 'connectors.enable', text: (r) => <BridgeSwitch row={r} kind={kind} confirm="bridges.confirmDisable" /> },
    ],
    actions: [
      { key: 'delete', label: 'common.delete', danger: true, when: (r) => !isWebhook(r.name) && !r.rules?.length,
        confirm: 'bridges.confirmDelete', success: 'bridges.deleted', run: (r) => api.del(apiPath(kind, bridgeId(r))) },
      { key: 'delete', label: 'common.delete', danger: true, when: (r) => !isWebhook(r.name) && !!r.rules?.length,
        confirm: 'bridges.confirmDeleteRules', success: 'bridges.deleted', run: (r) => api.del(apiPath(kind, bridgeId(r)), { params: { also_delete_dep_actions: true } }) },
    ],
  };
}
