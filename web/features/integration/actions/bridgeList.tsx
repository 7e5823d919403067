/**
 * The one declaration the action (sink) and source lists are (`GET /actions`, `GET /sources`,
 * bare arrays), and delete: a referenced object asks to also remove it from its rules
 * (`also_delete_dep_actions=true`, emqx-api-part2 §4.3; the same query in 5.5.1's
 * emqx_bridge_v2_api). Brokers before 5.8 send no `rules`: they are then read from `GET /rules`.
 */
import { api } from '../../../lib/api.ts';
import { fetchAll } from '../../../lib/fetchAll.ts';
import { confirm } from '../../../lib/confirm.ts';
import { handleError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { perform } from '../../../lib/resources.ts';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { apiPath, encodeId, bridgeId, isWebhook, type Bridge } from '../connectors/bridge.ts';
import { BridgeStatus, BridgeSwitch, TypeBadge } from '../connectors/BridgeCells.tsx';
import './messages.ts';

export type BridgeKind = 'actions' | 'sources';
export const ROUTES: Record<BridgeKind, string> = { actions: '/rule/actions', sources: '/rule/source' };
/** The lists' titles (i18n keys), as in the route table. */
export const TITLES: Record<BridgeKind, string> = { actions: 'integration.actions', sources: 'integration.sources' };
export const bridgeLink = (kind: BridgeKind, row: Bridge) => `${ROUTES[kind]}/${encodeId(bridgeId(row))}`;

/** Deletes after the right question; resolves true when deleted. */
export async function deleteBridge(kind: BridgeKind, row: Bridge): Promise<boolean> {
  let rules: string[];
  try {
    rules = (await withRules(kind, [row]))[0].rules ?? [];
  } catch (error) {
    handleError(error);
    return false;
  }
  const question = rules.length ? t('bridges.confirmDeleteWithRules', { key: row.name, rules: rules.join(', ') }) : t('bridges.confirmDelete', { key: row.name });
  if (!(await confirm(question, { danger: true }))) return false;
  return perform({
    resource: kind, success: 'bridges.deleted',
    run: () => api.del(apiPath(kind, bridgeId(row)), rules.length ? { params: { also_delete_dep_actions: true } } : undefined),
  });
}

interface RuleRefs { id: string; actions?: unknown[]; from?: string[] }

/**
 * The rows with their `rules`: as sent (5.8), or found from the rules that name them, an action
 * in a rule's `actions` (`type:name`), a source in its `from` (`$bridges/type:name`, `$sources/…`).
 */
export async function withRules(kind: BridgeKind, rows: Bridge[], signal?: AbortSignal): Promise<Bridge[]> {
  if (rows.every((row) => Array.isArray(row.rules))) return rows;
  const rules = await fetchAll<RuleRefs>('/rules', {}, { signal });
  const refs = (rule: RuleRefs) => kind === 'actions'
    ? (rule.actions ?? []).filter((a): a is string => typeof a === 'string')
    : (rule.from ?? []).map((f) => f.replace(/^\$(bridges|sources)\//, ''));
  return rows.map((row) => row.rules ? row : { ...row, rules: rules.filter((rule) => refs(rule).includes(bridgeId(row))).map((rule) => rule.id) });
}

export function bridgeDecl(kind: BridgeKind): ResourceDecl<Bridge> {
  return {
    name: kind,
    title: TITLES[kind],
    rowKey: bridgeId,
    list: arrayList<Bridge>(async (signal) => withRules(kind, await api.get<Bridge[]>(`/${kind}`, { signal }), signal)),
    empty: kind === 'actions' ? 'bridges.emptyActions' : 'bridges.emptySources',
    namespaced: true,
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
