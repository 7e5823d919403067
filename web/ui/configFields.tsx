/**
 * Widgets of the config field kinds (registered in fields.tsx): `duration` and `bytesize` as a
 * number plus a unit select (keywords such as `infinity` join the select), `number` with
 * keywords, `secret`, `cert` (PEM text or a picked file) and `list`. Each keeps EMQX's wire value:
 * "15s", "1MB", "******" while untouched, PEM text, a string array. Importing this module
 * * registers them (the shell and SchemaForm do), so the login page's bundle stays without them;
 * so does the time widget, one text field typed in local time.
 */
import { useLayoutEffect, useState } from 'react';
import { defineMessages, hasMessage, t } from '../lib/i18n.ts';
import { BYTESIZE_UNITS, DURATION_UNITS, splitBytesize, splitDuration } from '../lib/units.ts';
import { formatDateTime } from '../lib/format.ts';
import { common as attrs, widgets, type WidgetProps } from './fields.tsx';

defineMessages({
  'schemaForm.unit.ms': { zh: '毫秒', en: 'ms' },
  'schemaForm.unit.s': { zh: '秒', en: 's' },
  'schemaForm.unit.m': { zh: '分钟', en: 'minute' },
  'schemaForm.unit.h': { zh: '小时', en: 'hour' },
  'schemaForm.unit.d': { zh: '天', en: 'day' },
  'schemaForm.unit.value': { zh: '数值', en: 'value' },
  'schemaForm.keyword.infinity': { zh: '无限制', en: 'infinity' },
  'schemaForm.keyword.disabled': { zh: '禁用', en: 'disabled' },
  'schemaForm.uploadFile': { zh: '选择文件', en: 'Choose file' },
});

const inputValue = (event: Event) => (event.target as HTMLInputElement).value;
const label = (prefix: string, word: string) => (hasMessage(`${prefix}.${word}`) ? t(`${prefix}.${word}`) : word);

type Parts = { amount: string; unit: string };

/**
 * A number and a unit select. `split` reads the wire value, `join` writes it; a keyword chosen
 * in the select is the whole value and empties the number.
 */
function AmountUnit(p: WidgetProps & { units: readonly string[]; split: (v: string) => Parts | undefined; join: (parts: Parts) => unknown; fallback: string }) {
  const keywords = p.field.keywords ?? [];
  const read = (value: unknown): Parts => {
    const raw = value === undefined || value === null ? '' : String(value);
    if (keywords.includes(raw)) return { amount: '', unit: raw };
    return p.split(raw) ?? { amount: raw, unit: p.fallback };
  };
  const [parts, setParts] = useState<Parts>(() => read(p.value));
  // A new value from outside (reset, reload) replaces what is shown, before the next paint (in
  // the same update that takes the reset button away, not a frame later).
  useLayoutEffect(() => {
    if (p.value !== emit(parts)) setParts(read(p.value));
  }, [p.value]);
  function emit(next: Parts): unknown {
    if (keywords.includes(next.unit)) return next.unit;
    return next.amount.trim() === '' ? '' : p.join(next);
  }
  const change = (next: Parts) => {
    setParts(next);
    p.onChange(emit(next));
  };
  const keyword = keywords.includes(parts.unit);
  return (
    <div class="unit-input" role="group">
      <input {...attrs(p)} type="text" inputMode="decimal" value={keyword ? '' : parts.amount} disabled={p.field.disabled || keyword}
        placeholder={keyword ? label('schemaForm.keyword', parts.unit) : p.field.placeholder}
        onInput={(e) => change({ ...parts, amount: inputValue(e) })} />
      <select value={parts.unit} disabled={p.field.disabled} data-test={`field-${p.field.name}-unit`} aria-label={`${t(p.field.label)}: ${t('schemaForm.unit.value')}`}
        onChange={(e) => change({ ...parts, unit: (e.target as HTMLSelectElement).value })}>
        {[...p.units, ...keywords].map((u) => <option key={u} value={u}>{keywords.includes(u) ? label('schemaForm.keyword', u) : label('schemaForm.unit', u)}</option>)}
      </select>
    </div>
  );
}

const numeric = (amount: string) => (/^-?\d+(\.\d+)?$/.test(amount.trim()) ? amount.trim() : undefined);

export function DurationInput(p: WidgetProps) {
  const units = p.field.units ?? DURATION_UNITS;
  return <AmountUnit {...p} units={units} fallback={units.includes('s') ? 's' : units[0]}
    split={(v) => splitDuration(v, units)} join={({ amount, unit }) => (numeric(amount) ? `${numeric(amount)}${unit}` : amount)} />;
}

export function BytesizeInput(p: WidgetProps) {
  const units = p.field.units ?? BYTESIZE_UNITS;
  return <AmountUnit {...p} units={units} fallback={units.includes('MB') ? 'MB' : units[0]}
    split={splitBytesize} join={({ amount, unit }) => (numeric(amount) ? `${numeric(amount)}${unit}` : amount)} />;
}

/** A number that may also be one of `keywords` ("infinity"); plain numbers without keywords. */
export function NumberInput(p: WidgetProps) {
  if (!p.field.keywords?.length) {
    return <input {...attrs(p)} type="number" value={p.value === undefined || p.value === null || p.value === '' ? '' : String(p.value)}
      onInput={(e) => p.onChange(inputValue(e) === '' ? '' : Number(inputValue(e)))} />;
  }
  return <AmountUnit {...p} units={['value']} fallback="value"
    split={(v) => ({ amount: v, unit: 'value' })} join={({ amount }) => (numeric(amount) ? Number(amount) : amount)} />;
}

/** A password EMQX returns obfuscated as "******": sent back unchanged unless the user types. */
export function SecretInput(p: WidgetProps) {
  return <input {...attrs(p)} type="password" autoComplete="new-password" value={String(p.value ?? '')} placeholder={p.field.placeholder}
    onFocus={(e) => (e.target as HTMLInputElement).select()} onInput={(e) => p.onChange(inputValue(e))} />;
}

/** PEM text typed or read from a picked file whose extension is one of `extensions`. */
export function CertInput(p: WidgetProps) {
  const extensions = p.field.extensions ?? ['.pem', '.crt', '.key'];
  const [problem, setProblem] = useState('');
  const pick = async (event: Event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    if (!extensions.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      setProblem(t('validation.fileExtension', { extensions: extensions.join(', ') }));
      input.value = '';
      return;
    }
    setProblem('');
    p.onChange(await file.text());
  };
  return (
    <div class="cert-input">
      <textarea {...attrs(p)} rows={4} class="mono" spellcheck={false} value={String(p.value ?? '')} placeholder={p.field.placeholder ?? '-----BEGIN CERTIFICATE-----'}
        onInput={(e) => p.onChange((e.target as HTMLTextAreaElement).value)} />
      <label class="cert-file">
        <input type="file" accept={extensions.join(',')} disabled={p.field.disabled} data-test={`field-${p.field.name}-file`} onChange={pick} />
        <span>{t('schemaForm.uploadFile')}</span>
      </label>
      {problem && <small class="field-error" role="alert" data-test={`field-${p.field.name}-file-error`}>{problem}</small>}
    </div>
  );
}

/** A string array edited one entry per line; blank lines are dropped from the value only. */
export function ListInput(p: WidgetProps) {
  const toText = (value: unknown) => (Array.isArray(value) ? value.join('\n') : String(value ?? ''));
  const toList = (text: string) => text.split('\n').map((s) => s.trim()).filter(Boolean);
  const [text, setText] = useState(() => toText(p.value));
  useLayoutEffect(() => {
    if (JSON.stringify(toList(text)) !== JSON.stringify(p.value)) setText(toText(p.value));
  }, [p.value]);
  return <textarea {...attrs(p)} rows={3} value={text} placeholder={p.field.placeholder}
    onInput={(e) => {
      const next = (e.target as HTMLTextAreaElement).value;
      setText(next);
      p.onChange(toList(next));
    }} />;
}

// Registration: same kinds, same wire values, richer widgets (see the note in fields.tsx).
/** A local time typed as `YYYY-MM-DD HH:mm[:ss]` (spec part1 §9; a `T` may stand for the space). */
const LOCAL_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** The RFC 3339 time (what EMQX takes) a typed local time means; '' for nothing, the text itself when it is no time. */
export function parseLocalTime(text: string): string {
  const m = LOCAL_TIME.exec(text.trim());
  if (!text.trim()) return '';
  const date = m && new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  return date && date.getMonth() === +m![2] - 1 && date.getDate() === +m![3] ? date.toISOString() : text;
}

/**
 * A time as one text field: one Tab stop (a datetime-local input has one per part, seven in
 * Chromium), shown and typed as `YYYY-MM-DD HH:mm:ss` in local time.
 */
export function DateTime(p: WidgetProps) {
  const shown = p.value ? formatDateTime(String(p.value)) : '';
  const [text, setText] = useState(shown);
  // A value set from outside (reset, a suggestion) replaces what is shown.
  useLayoutEffect(() => setText((typed) => (parseLocalTime(typed) === p.value ? typed : shown)), [p.value]);
  return (
    <input {...attrs(p)} type="text" inputMode="numeric" autoComplete="off" value={text} placeholder="YYYY-MM-DD HH:mm:ss"
      onInput={(e) => (setText(inputValue(e)), p.onChange(parseLocalTime(inputValue(e))))} />
  );
}

Object.assign(widgets, {
  datetime: DateTime,
  number: NumberInput,
  duration: DurationInput,
  bytesize: BytesizeInput,
  secret: SecretInput,
  cert: CertInput,
  list: ListInput,
});
