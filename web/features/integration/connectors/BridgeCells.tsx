/** Cells shared by the connector, action and source lists: the type badge, status with its reason, and the enable switch (`PUT /<kind>/{id}/enable/{bool}`). */
import { canWrite } from '../../../lib/broker.ts';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { perform } from '../../../lib/resources.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { apiPath, bridgeId, typeLabel, type Bridge, type Kind } from './bridge.ts';
import './messages.ts';

export function TypeBadge({ type }: { type: string }) {
  return <span class="type-badge"><b aria-hidden="true">{type.slice(0, 1).toUpperCase()}</b> {typeLabel(type)}</span>;
}

/** Disabled objects show 'disabled' whatever the server aggregated (spec part2 §4 states). */
export function BridgeStatus({ row }: { row: Bridge }) {
  return (
    <span title={row.status_reason || undefined}>
      <StatusTag status={row.enable === false ? 'disabled' : row.status} test="bridge-status" />
      {row.enable !== false && row.status_reason ? <small class="muted"> {row.status_reason}</small> : null}
    </span>
  );
}

export function BridgeSwitch({ row, kind, confirm }: { row: Bridge; kind: Kind; confirm?: string }) {
  const toggle = (enable: boolean) => perform({
    resource: kind,
    run: () => api.put(apiPath(kind, bridgeId(row), `/enable/${enable}`)),
    confirm: enable ? undefined : confirm,
    params: { key: row.name },
    success: enable ? 'connectors.enabledToast' : 'connectors.disabledToast',
  });
  return (
    <input type="checkbox" role="switch" checked={row.enable} disabled={!canWrite()} aria-label={t('connectors.enable')} data-test={`${kind}-enable`}
      onClick={(e) => (e.preventDefault(), void toggle(!row.enable))} />
  );
}
