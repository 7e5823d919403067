/**
 * The field widget registry (STYLE.md habit 3): one entry per field kind, each a small
 * component with the same props. `Form` looks widgets up here; a new kind is a new entry.
 */
import type { JSX } from 'react';
import { useLayoutEffect, useState } from 'react';
import { handleError } from '../lib/errors.ts';
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

/** The attributes every widget's control carries (id, name, invalid state, message link, test hook). */
export function common(p: WidgetProps) {
  return {
    id: p.id,
    name: p.field.name,
    disabled: p.field.disabled,
    'aria-invalid': p.invalid ? ('true' as const) : undefined,
    // The message line, and the help a form may add under the field (Form's `fieldHelp`).
    'aria-describedby': `${p.id}-msg ${p.id}-help`,
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
    inputMode: p.field.inputMode,
    onInput: (e: Event) => p.onChange(inputValue(e)),
  };
  return type === 'password' ? <input {...attrs} type="password" /> : <input {...attrs} type="text" />;
};

export const widgets: Record<FieldKind, (props: WidgetProps) => JSX.Element> = {
  // The time widget comes with the shell (configFields.tsx): the login page has none.
  datetime: text('text'),
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
  select: (p) => <Select {...p} />,
  // Light versions of the config kinds (and of number), enough for the login page's bundle;
  // configFields.tsx replaces them with the unit/keyword/file widgets once the shell loads.
  duration: text('text'),
  bytesize: text('text'),
  secret: text('password'),
  cert: (p) => (
    <textarea {...common(p)} rows={4} class="mono" value={String(p.value ?? '')} placeholder={p.field.placeholder}
      onInput={(e) => p.onChange((e.target as HTMLTextAreaElement).value)} />
  ),
  list: (p) => (
    <textarea {...common(p)} rows={3} value={Array.isArray(p.value) ? p.value.join('\n') : String(p.value ?? '')}
      onInput={(e) => p.onChange((e.target as HTMLTextAreaElement).value.split('\n').map((s) => s.trim()).filter(Boolean))} />
  ),
  code: (p) => (
    <textarea {...common(p)} rows={8} class="mono" spellcheck={false} value={String(p.value ?? '')}
      onInput={(e) => p.onChange((e.target as HTMLTextAreaElement).value)} />
  ),
  switch: (p) => (
    <input {...common(p)} type="checkbox" role="switch" checked={Boolean(p.value)}
      onChange={(e) => p.onChange((e.target as HTMLInputElement).checked)} />
  ),
};

/** A select whose options may also come from the API (`loadOptions`, e.g. the cluster's nodes). */
function Select(p: WidgetProps) {
  const [loaded, setLoaded] = useState<{ value: string; label: string }[]>([]);
  // Asked for in the commit that mounts it, as lists are (lib/resources.ts), not after the first
  // paint: a list screen with a node filter waits for both.
  useLayoutEffect(() => {
    if (!p.field.loadOptions) return;
    const controller = new AbortController();
    p.field.loadOptions(controller.signal).then(setLoaded, (error) => !controller.signal.aborted && handleError(error));
    return () => controller.abort();
  }, [p.field.name]);
  return (
    <select {...common(p)} value={String(p.value ?? '')} onChange={(e) => p.onChange((e.target as HTMLSelectElement).value)}>
      {[...(p.field.options ?? []), ...loaded].map((o) => <option key={o.value} value={o.value}>{t(o.label)}</option>)}
    </select>
  );
}
