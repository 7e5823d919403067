/**
 * The drawer that gives a rule an action output, as the broker's console does: an existing action
 * picked from a searchable list (type, name, status), or a new one created here — type, then the
 * shared action form, with a new connector in place when none fits. Only types the broker lists
 * in `GET /action_types` are offered; webhook actions belong to their webhook and are left out.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import { touch, useRemote, type Remote } from '../../../lib/resources.ts';
import { loadSchema } from '../../../lib/schemas.ts';
import { toast } from '../../../lib/toasts.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { ActionCreateForm } from '../actions/ActionCreateForm.tsx';
import { bridgeId, isWebhook, typeLabel, typesIn, type Bridge } from '../connectors/bridge.ts';
import { TypeBadge } from '../connectors/BridgeCells.tsx';
import { BridgeForm } from '../connectors/BridgeForm.tsx';
import { TypePicker } from '../connectors/ConnectorCreate.tsx';
import './messages.ts';

/** What the picker lists: the broker's actions and the types that may be rule outputs. */
export interface Outputs {
  actions: Bridge[];
  types: string[];
}

/** The actions a rule may still take: of an output type, not a webhook's, not attached yet, matching `search`. */
export function offered(outputs: Outputs, attached: string[], search: string): Bridge[] {
  const needle = search.trim().toLowerCase();
  return outputs.actions.filter((a) => outputs.types.includes(a.type) && !isWebhook(a.name) && !attached.includes(bridgeId(a)))
    .filter((a) => !needle || `${a.name} ${a.type} ${typeLabel(a.type)}`.toLowerCase().includes(needle));
}

type Step = { at: 'pick' } | { at: 'type' } | { at: 'action'; type: string; connector?: string } | { at: 'connector'; type: string };

function Pick({ remote, attached, onPick }: { remote: Remote<Outputs>; attached: string[]; onPick: (id: string) => void }) {
  const [search, setSearch] = useState('');
  if (!remote.data) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  const shown = offered(remote.data, attached, search);
  const none = offered(remote.data, attached, '').length === 0;
  return (
    <>
      <input type="search" value={search} placeholder={t('rules.actionSearch')} aria-label={t('rules.actionSearch')}
        data-test="rule-action-search" onInput={(e) => setSearch(e.currentTarget.value)} />
      {shown.length === 0 ? <Empty text={t(none ? 'rules.actionNone' : 'rules.actionNoMatch')} /> : (
        <ul class="function-list" aria-label={t('rules.actionExisting')} data-test="rule-action-options">
          {shown.map((a) => (
            <li key={bridgeId(a)} data-test="rule-action-option" data-key={bridgeId(a)}>
              <span>
                <strong>{a.name}</strong><br />
                <small class="muted"><TypeBadge type={a.type} /></small>
              </span>
              <span class="toolbar" title={a.status_reason || undefined}>
                <StatusTag status={a.enable === false ? 'disabled' : a.status} test="bridge-status" />
                <button type="button" class="outline" data-test="rule-action-use" aria-label={`${t('rules.add')}: ${a.name} (${typeLabel(a.type)})`}
                  onClick={() => onPick(bridgeId(a))}>{t('rules.add')}</button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Types({ remote, onPick }: { remote: Remote<Outputs>; onPick: (type: string) => void }) {
  const schema = useRemote('schema:actions', () => loadSchema('actions'));
  const error = schema.error ?? remote.error;
  if (!schema.data || !remote.data) return error ? <Failed error={error} retry={() => (schema.reload(), remote.reload())} /> : <Loading />;
  const allowed = remote.data.types;
  return <TypePicker types={typesIn(schema.data, 'actions').filter((type) => allowed.includes(type))} onPick={onPick} />;
}

export function ActionPicker(props: { remote: Remote<Outputs>; attached: string[]; onAdd: (id: string) => void; onClose: () => void }) {
  const [step, setStep] = useState<Step>({ at: 'pick' });
  // Each step starts at its first button (Back, or Create on the list), so the keyboard stays in the
  // drawer; in the update that shows the step, so a key pressed at once meets it.
  const first = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current) first.current?.focus();
    opened.current = true;
  }, [step]);
  const add = (id: string) => (props.onAdd(id), props.onClose());
  const back = (to: Step) => (
    <button type="button" ref={first} class="secondary outline" data-test="rule-action-back" onClick={() => setStep(to)}>{t('common.back')}</button>
  );
  const title = step.at === 'pick' ? t('rules.addAction') : step.at === 'connector' ? t('bridges.createConnector') : t('rules.createAction');
  return (
    <Drawer title={title} onClose={props.onClose} test="rule-action-picker">
      {step.at === 'pick' && (
        <>
          <p class="toolbar">
            <button type="button" ref={first} class="secondary" data-test="rule-action-create" onClick={() => setStep({ at: 'type' })}>+ {t('rules.createAction')}</button>
          </p>
          <Pick remote={props.remote} attached={props.attached} onPick={add} />
        </>
      )}
      {step.at === 'type' && (
        <>
          <p>{back({ at: 'pick' })}</p>
          <Types remote={props.remote} onPick={(type) => setStep({ at: 'action', type })} />
        </>
      )}
      {step.at === 'action' && (
        <>
          <p>{back({ at: 'type' })}</p>
          <ActionCreateForm kind="actions" type={step.type} connector={step.connector} onNewConnector={() => setStep({ at: 'connector', type: step.type })}
            onSaved={(saved) => (toast(t('rules.actionCreated', { key: saved.name })), touch('actions'), add(bridgeId(saved)))} />
        </>
      )}
      {step.at === 'connector' && (
        <>
          <p>{back({ at: 'action', type: step.type })}</p>
          <BridgeForm kind="connectors" type={step.type} create value={{}}
            onSaved={(saved) => (toast(t('connectors.created')), touch('connectors'), setStep({ at: 'action', type: step.type, connector: saved.name }))} />
        </>
      )}
    </Drawer>
  );
}
