/**
 * The outputs of a rule, kept as the broker's `actions` array (emqx-api-part2 §5.3): console
 * `{function: 'console'}`, republish `{function: 'republish', args}`, and action ids such as
 * `http:my_action` (shown and kept, chosen on the actions pages).
 */
import { t } from '../../../lib/i18n.ts';
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

function Republish({ args, set, error, index }: { args: Args; set: (a: Args) => void; error?: string; index: number }) {
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
    </div>
  );
}

export function OutputsEditor(props: { actions: RuleAction[]; onChange: (a: RuleAction[]) => void; errors: Record<number, string> }) {
  const { actions, onChange } = props;
  const replace = (i: number, next: RuleAction) => onChange(actions.map((a, j) => (j === i ? next : a)));
  const add = (kind: string) => onChange([...actions, kind === 'console' ? { function: 'console' } : newRepublish()]);
  return (
    <section data-test="rule-outputs">
      <h3 class="section-title">{t('rules.outputs')}</h3>
      {actions.length === 0 && <p class="muted" data-test="rule-no-outputs">{t('rules.noOutputs')}</p>}
      {actions.map((a, i) => {
        const name = typeof a === 'string' ? a : a.function;
        const title = name === 'console' ? t('rules.console') : name === 'republish' ? t('rules.republish') : `${t('rules.action')}: ${name}`;
        return (
          <article key={i} class="rule-output" data-test="rule-output" data-key={name}>
            <header>
              <strong>{title}</strong>
              <button type="button" class="secondary outline" data-test="rule-output-remove" onClick={() => onChange(actions.filter((_, j) => j !== i))}>
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
      </div>
    </section>
  );
}
