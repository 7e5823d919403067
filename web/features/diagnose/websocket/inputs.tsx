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

/** A text, password or number field; a number field keeps '' while empty, so a range rule can say what is missing. */
export function TextInput<V extends string | number>(p: Common & {
  value: V | ''; onChange: (v: V) => void; type?: 'text' | 'password' | 'number'; placeholder?: string; list?: string; children?: ComponentChildren;
}) {
  // preact's types allow `list` on some input types only; browsers take it on these three.
  const type = p.type ?? 'text';
  return (
    <Field {...p}>
      <span class="ws-input-row">
        <input {...attrs(p)} type={type as 'number'} value={String(p.value)} placeholder={p.placeholder} list={p.list} autoComplete={type === 'password' ? 'new-password' : 'off'}
          onInput={(e) => p.onChange((type !== 'number' || value(e) === '' ? value(e) : Number(value(e))) as V)} />
        {p.children}
      </span>
    </Field>
  );
}

export const NumberInput = (p: Common & { value: number | ''; onChange: (v: number | '') => void; list?: string }) => <TextInput {...p} type="number" />;

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
