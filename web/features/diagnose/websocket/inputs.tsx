/**
 * Small labelled inputs for the test client's forms, bound to values in its valtio store (the
 * kit's Form keeps values in component state, which would not survive leaving the route).
 * Each shows its error under the field, as the kit's Form does.
 */
import type { ComponentChildren } from 'preact';
import { t } from '../../../lib/i18n.ts';

interface Common {
  label: string;
  name: string;
  error?: string;
  help?: string;
  disabled?: boolean;
}

const value = (event: Event) => (event.target as HTMLInputElement).value;

function Field(props: Common & { children: ComponentChildren }) {
  return (
    <label class="ws-field">
      <span>{t(props.label)}</span>
      {props.children}
      {props.error
        ? <small class="field-error" data-test={`error-${props.name}`}>{props.error}</small>
        : props.help ? <small class="muted">{t(props.help)}</small> : null}
    </label>
  );
}

const attrs = (p: Common) => ({
  name: p.name,
  disabled: p.disabled,
  'aria-invalid': p.error ? ('true' as const) : undefined,
  'data-test': `ws-${p.name}`,
});

export function TextInput(p: Common & { value: string; onChange: (v: string) => void; type?: 'text' | 'password'; placeholder?: string; children?: ComponentChildren }) {
  const input = { ...attrs(p), value: p.value, placeholder: p.placeholder, onInput: (e: Event) => p.onChange(value(e)) };
  return (
    <Field {...p}>
      <span class="ws-input-row">
        {p.type === 'password' ? <input {...input} type="password" autoComplete="new-password" /> : <input {...input} type="text" autoComplete="off" />}
        {p.children}
      </span>
    </Field>
  );
}

/** A number field that keeps '' while empty, so a range rule can say what is missing. */
export function NumberInput(p: Common & { value: number | ''; onChange: (v: number | '') => void; list?: string }) {
  return (
    <Field {...p}>
      <input {...attrs(p)} type="number" value={p.value === '' ? '' : String(p.value)} list={p.list}
        onInput={(e) => p.onChange(value(e) === '' ? '' : Number(value(e)))} />
    </Field>
  );
}

/** A select; option labels are shown as given (translate them first). */
export function SelectInput<V extends string | number>(p: Common & { value: V; options: { value: V; label: string }[]; onChange: (v: V) => void }) {
  return (
    <Field {...p}>
      <select {...attrs(p)} value={String(p.value)}
        onChange={(e) => p.onChange(p.options.find((o) => String(o.value) === value(e))!.value)}>
        {p.options.map((o) => <option key={o.value} value={String(o.value)}>{o.label}</option>)}
      </select>
    </Field>
  );
}

export function CheckInput(p: Common & { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label class="ws-check">
      <input {...attrs(p)} type="checkbox" role="switch" checked={p.checked} onChange={(e) => p.onChange((e.target as HTMLInputElement).checked)} />
      {t(p.label)}
    </label>
  );
}

/** QoS 0, 1 and 2 (spec part1 §9). */
export const QOS_OPTIONS = [0, 1, 2].map((q) => ({ value: q as 0 | 1 | 2, label: `QoS ${q}` }));
