/**
 * The form of a new action of one type, shared by `/rule/actions/create` and the rule editor's
 * drawer: the type's schema form with `connector` chosen among connectors of that type, and a
 * way to a new connector (a link on the page, a button where the caller shows it in place).
 */
import { Link } from 'wouter';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { isWebhook, type Bridge } from '../connectors/bridge.ts';
import { TypeBadge } from '../connectors/BridgeCells.tsx';
import { BridgeForm } from '../connectors/BridgeForm.tsx';
import type { BridgeKind } from './bridgeList.tsx';
import './messages.ts';

/** The `connector` field as a select of the connectors of `type`. */
export function connectorField(type: string) {
  return {
    connector: {
      kind: 'select' as const, required: true, options: [{ value: '', label: 'bridges.chooseConnector' }],
      loadOptions: async (signal: AbortSignal) => (await api.get<Bridge[]>('/connectors', { signal }))
        .filter((c) => c.type === type && !isWebhook(c.name)).map((c) => ({ value: c.name, label: c.name })),
    },
  };
}

export function ActionCreateForm(props: { kind: BridgeKind; type: string; connector?: string; onSaved: (saved: Bridge) => void; onNewConnector?: () => void }) {
  const { kind, type } = props;
  return (
    <>
      <p class="muted">
        <TypeBadge type={type} /> ·{' '}
        {props.onNewConnector
          ? <button type="button" class="secondary outline" data-test="bridge-new-connector" onClick={props.onNewConnector}>{t('bridges.createConnector')}</button>
          : <Link href={`/connector/create?type=${encodeURIComponent(type)}`} data-test="bridge-new-connector">{t('bridges.createConnector')}</Link>}
      </p>
      <BridgeForm key={`${type}:${props.connector ?? ''}`} kind={kind} type={type} create value={{ connector: props.connector ?? '' }}
        overrides={connectorField(type)} onSaved={props.onSaved} />
    </>
  );
}
