/**
 * The create wizard both chains use: choose among kinds as cards step by step, then fill the
 * chosen kind's configuration form. Each step is a list of choices; a step with one choice is
 * skipped. Kinds that already exist are shown disabled (one per chain, api part2 §2.1/§3.1).
 */
import type { ComponentChildren } from 'preact';
import { t } from '../../lib/i18n.ts';

export interface Choice {
  value: string;
  label: string;
  help?: string;
  disabled?: boolean;
}

export function Steps({ steps, current }: { steps: string[]; current: number }) {
  return (
    <ol class="wizard-steps" data-test="wizard-steps">
      {steps.map((step, i) => <li key={step} class={i === current ? 'active' : i < current ? 'done' : ''} aria-current={i === current ? 'step' : undefined}>{t(step)}</li>)}
    </ol>
  );
}

export function ChoiceCards(props: { name: string; choices: Choice[]; value: string; onChange: (value: string) => void; disabledNote?: string }) {
  return (
    <div class="choice-cards" role="radiogroup" data-test={`choices-${props.name}`}>
      {props.choices.map((choice) => (
        <label key={choice.value} class={`choice-card${props.value === choice.value ? ' selected' : ''}${choice.disabled ? ' disabled' : ''}`} data-test={`choice-${choice.value}`}>
          <input type="radio" name={props.name} value={choice.value} checked={props.value === choice.value} disabled={choice.disabled}
            onChange={() => props.onChange(choice.value)} />
          <strong>{t(choice.label)}</strong>
          {choice.help && <small class="muted">{t(choice.help)}</small>}
          {choice.disabled && props.disabledNote && <small class="muted">{t(props.disabledNote)}</small>}
        </label>
      ))}
    </div>
  );
}

export function StepButtons(props: { back?: () => void; next?: () => void; nextDisabled?: boolean; children?: ComponentChildren }) {
  return (
    <div class="form-actions">
      {props.back && <button type="button" class="secondary" onClick={props.back} data-test="wizard-back">{t('access.prev')}</button>}
      {props.next && <button type="button" onClick={props.next} disabled={props.nextDisabled} data-test="wizard-next">{t('access.next')}</button>}
      {props.children}
    </div>
  );
}
