/**
 * The field widget registry (STYLE.md habit 3): one entry per field kind, each a small
 * component with the same props. `Form` looks widgets up here; a new kind is a new entry.
 */
import type { JSX } from 'react';
import { t } from '../lib/i18n.ts';
import type { FieldDecl, FieldKind } from './resource.ts';

export interface WidgetProps {
  id: string;
  field: FieldDecl;
  value: unknown;
  invalid: boolean;
  onChange: (value: unknown) => void;
  onBlur: () => void;
}

const inputValue = (event: Event) => (event.target as HTMLInputElement).value;

function common(p: WidgetProps) {
  return {
    id: p.id,
    name: p.field.name,
    disabled: p.field.disabled,
    'aria-invalid': p.invalid ? ('true' as const) : undefined,
    'aria-describedby': `${p.id}-msg`,
    'data-test': `field-${p.field.name}`,
    onBlur: p.onBlur,
  };
}

const text = (type: 'text' | 'password') => (p: WidgetProps) => {
  const attrs = {
    ...common(p),
    value: String(p.value ?? ''),
    placeholder: p.field.placeholder,
    autoComplete: p.field.autoComplete ?? (type === 'password' ? 'new-password' : 'off'),
    onInput: (e: Event) => p.onChange(inputValue(e)),
  };
  return type === 'password' ? <input {...attrs} type="password" /> : <input {...attrs} type="text" />;
};

export const widgets: Record<FieldKind, (props: WidgetProps) => JSX.Element> = {
  text: text('text'),
  password: text('password'),
  number: (p) => (
    <input {...common(p)} type="number" value={p.value === undefined || p.value === '' ? '' : String(p.value)}
      onInput={(e) => p.onChange(inputValue(e) === '' ? '' : Number(inputValue(e)))} />
  ),
  textarea: (p) => (
    <textarea {...common(p)} rows={3} value={String(p.value ?? '')} placeholder={p.field.placeholder}
      onInput={(e) => p.onChange((e.target as HTMLTextAreaElement).value)} />
  ),
  select: (p) => (
    <select {...common(p)} value={String(p.value ?? '')} onChange={(e) => p.onChange((e.target as HTMLSelectElement).value)}>
      {(p.field.options ?? []).map((o) => <option key={o.value} value={o.value}>{t(o.label)}</option>)}
    </select>
  ),
  switch: (p) => (
    <input {...common(p)} type="checkbox" role="switch" checked={Boolean(p.value)}
      onChange={(e) => p.onChange((e.target as HTMLInputElement).checked)} />
  ),
};
