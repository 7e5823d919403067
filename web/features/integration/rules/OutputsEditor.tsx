/**
 * The outputs of a rule, kept as the broker's `actions` array (emqx-api-part2 §5.3): console
 * `{function: 'console'}`, republish `{function: 'republish', args}`, and action ids such as
 * `http:my_action`, shown with their status and a link to the action, added with the picker.
 */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote, type Remote } from '../../../lib/resources.ts';
import { ROUTES } from '../actions/bridgeList.tsx';
import { encodeId, bridgeId } from '../connectors/bridge.ts';
import { BridgeStatus, TypeBadge } from '../connectors/BridgeCells.tsx';
import { ActionPicker, type Outputs } from './ActionPicker.tsx';
import type { RuleAction } from './rules.tsx';
import './messages.ts';

type Args = Record<string, unknown>;

/** A new republish output with the broker's defaults spelt out. */
export const newRepublish = (): RuleAction => ({
  function: 'republish',
  args: { topic: '', qos: 0, retain: false, payload: '${payload}', mqtt_properties: {}, user_properties: '${user_properties}', direct_dispatch: false },
});

// QoS and retain are a value or the template that takes it from the message.
const QOS = ['0', '1', '2', '${qos}'];
const RETAIN = ['false', 'true', '${retain}'];
const fromText = (v: string) => (v === 'true' ? true : v === 'false' ? false : /^\d$/.test(v) ? Number(v) : v);
/** The MQTT 5 properties a republish may set (each a template string; empty ones are left out). */
export const MQTT_PROPERTIES = ['Payload-Format-Indicator', 'Message-Expiry-Interval', 'Content-Type', 'Response-Topic', 'Correlation-Data'] as const;

/** Sets or, when empty, removes one MQTT 5 property. */
export function withProperty(props: Args, name: string, value: string): Args {
  const { [name]: _old, ...rest } = props;
  return value === '' ? rest : { ...rest, [name]: value };
}

const PROPERTY_HINTS: Record<string, string> = {
  'Payload-Format-Indicator': '${pub_props.Payload-Format-Indicator}',
  'Message-Expiry-Interval': '${pub_props.Message-Expiry-Interval}',
  'Content-Type': 'application/json',
  'Response-Topic': '${pub_props.Response-Topic}',
  'Correlation-Data': '${pub_props.Correlation-Data}',
};

/** The republish arguments form (also the flow designer's republish node). */
export function Republish({ args, set, error, index }: { args: Args; set: (a: Args) => void; error?: string; index: number }) {
  const props = (args.mqtt_properties ?? {}) as Args;
  const field = (name: string) => ({ value: String(args[name] ?? ''), onInput: (e: Event) => set({ ...args, [name]: (e.currentTarget as HTMLInputElement).value }) });
  const choice = (name: string, values: string[]) => (
    <select value={String(args[name])} data-test={`rule-output-${name}`} onChange={(e) => set({ ...args, [name]: fromText(e.currentTarget.value) })}>
      {values.map((v) => <option key={v} value={v}>{v.startsWith('$') ? `${v} (${t('rules.fromMessage')})` : v}</option>)}
    </select>
  );
  return (
    <div class="rule-grid">
      <label>
        {t('rules.topic')}
        <input {...field('topic')} placeholder="alerts/${clientid}" aria-invalid={error ? true : undefined} data-test="rule-output-topic" id={`rule-output-topic-${index}`} />
        {error && <small class="field-error" data-test="rule-output-topic-error">{error}</small>}
      </label>
      <label>{t('rules.qos')}{choice('qos', QOS)}</label>
      <label>{t('rules.retain')}{choice('retain', RETAIN)}</label>
      <label class="wide">
        {t('rules.payload')}
        <textarea rows={3} {...field('payload')} data-test="rule-output-payload" />
        <small class="muted">{t('rules.payloadHelp')}</small>
      </label>
      <label class="wide">{t('rules.userProperties')}<input {...field('user_properties')} data-test="rule-output-user-properties" /></label>
      <details class="wide" data-test="rule-output-mqtt-properties" open={Object.keys(props).length > 0}>
        <summary>{t('rules.mqttProperties')}</summary>
        <div class="rule-grid">
          {MQTT_PROPERTIES.map((name) => (
            <label key={name}>
              {name}
              <input value={String(props[name] ?? '')} placeholder={PROPERTY_HINTS[name]} data-test={`rule-output-prop-${name}`}
                onInput={(e) => set({ ...args, mqtt_properties: withProperty(props, name, e.currentTarget.value) })} />
            </label>
          ))}
        </div>
        <small class="muted">{t('rules.mqttPropertiesHelp')}</small>
      </details>
      <label class="wide">
        <input type="checkbox" role="switch" checked={args.direct_dispatch === true} data-test="rule-output-direct-dispatch"
          onChange={(e) => set({ ...args, direct_dispatch: e.currentTarget.checked })} />
        {t('rules.directDispatch')}
      </label>
    </div>
  );
}

/** An action output: its link, type and status as `GET /actions` reports it, or that it is gone. */
function ActionTitle({ id, remote }: { id: string; remote: Remote<Outputs> }) {
  const type = id.slice(0, id.indexOf(':'));
  const found = remote.data?.actions.find((a) => bridgeId(a) === id);
  return (
    <span class="toolbar">
      <strong>{t('rules.action')}: <Link href={`${ROUTES.actions}/${encodeId(id)}`} data-test="rule-output-link">{id.slice(type.length + 1)}</Link></strong>
      {type && <TypeBadge type={type} />}
      {found ? <BridgeStatus row={found} />
        : remote.data && <span class="tag tag-bad" data-test="rule-output-missing">{t('rules.actionMissing')}</span>}
    </span>
  );
}

/**
 * The actions a rule may name and the types offered (`GET /actions`, `GET /action_types`). The
 * editor page asks for them with the rule and the events, not once its form shows.
 */
export function useOutputs(): Remote<Outputs> {
  return useRemote('actions', async (signal): Promise<Outputs> => {
    const [actions, types] = await Promise.all([api.get<Outputs['actions']>('/actions', { signal }), api.get<string[]>('/action_types', { signal })]);
    return { actions, types };
  });
}

export function OutputsEditor(props: { outputs: Remote<Outputs>; actions: RuleAction[]; onChange: (a: RuleAction[]) => void; errors: Record<number, string> }) {
  const { outputs, actions, onChange } = props;
  const [picking, setPicking] = useState(false);
  const replace = (i: number, next: RuleAction) => onChange(actions.map((a, j) => (j === i ? next : a)));
  const add = (kind: string) => onChange([...actions, kind === 'console' ? { function: 'console' } : newRepublish()]);
  const attached = actions.filter((a): a is string => typeof a === 'string');
  return (
    <section data-test="rule-outputs">
      <h3 class="section-title">{t('rules.outputs')}</h3>
      {actions.length === 0 && <p class="muted" data-test="rule-no-outputs">{t('rules.noOutputs')}</p>}
      {actions.map((a, i) => {
        const name = typeof a === 'string' ? a : a.function;
        const title = typeof a === 'string' ? <ActionTitle id={a} remote={outputs} />
          : <strong>{name === 'console' ? t('rules.console') : name === 'republish' ? t('rules.republish') : name}</strong>;
        return (
          <article key={i} class="rule-output" data-test="rule-output" data-key={name}>
            <header>
              {title}
              <button type="button" class="secondary outline" data-test="rule-output-remove" aria-label={`${t('rules.remove')}: ${name}`}
                onClick={() => onChange(actions.filter((_, j) => j !== i))}>
                {t('rules.remove')}
              </button>
            </header>
            {name === 'console' && <small class="muted">{t('rules.consoleHelp')}</small>}
            {typeof a !== 'string' && name === 'republish' && (
              <Republish args={a.args ?? {}} index={i} error={props.errors[i]} set={(args) => replace(i, { ...a, args })} />
            )}
          </article>
        );
      })}
      <div class="toolbar">
        <button type="button" class="outline" data-test="rule-add-console" onClick={() => add('console')}>+ {t('rules.console')}</button>
        <button type="button" class="outline" data-test="rule-add-republish" onClick={() => add('republish')}>+ {t('rules.republish')}</button>
        <button type="button" class="outline" data-test="rule-add-action" aria-haspopup="dialog" onClick={() => setPicking(true)}>+ {t('rules.action')}</button>
      </div>
      {/* In the body, not in the rule's form: the drawer's own forms must not submit the rule. */}
      {picking && createPortal(
        <ActionPicker remote={outputs} attached={attached} onAdd={(id) => onChange([...actions, id])} onClose={() => setPicking(false)} />,
        document.body,
      )}
    </section>
  );
}
