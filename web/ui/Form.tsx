/**
 * A form rendered from field declarations: client rules on blur and submit, server validation
 * errors shown at the field (via `handleError`) and in a toast, the first bad field scrolled into
 * view and focused, a busy submit button, and the unsaved-edits
 * guard while values differ from the initial ones. Fields the broker lacks (`FieldDecl.requires`)
 * are left out; a read-only user (`canWrite`) gets the fields and submit disabled and no extra
 * actions, unless `anyRole` says the form is theirs to use (their own password).
 * Example: `<Form fields={[{ name: 'username', label: 'users.username', required: true }]} onSubmit={save} />`.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { canWrite, has } from '../lib/broker.ts';
import { Writable } from './Writable.tsx';
import { draftKey, readDraft, SECRET_KINDS, writeDraft } from '../lib/drafts.ts';
import { useSnapshotFirst } from './SnapshotFirst.tsx';
import { errorDetail, handleError } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/toasts.ts';
import { useUnsavedGuard } from '../lib/navigation.ts';
import { required, validTime, type Rule } from '../lib/rules.ts';
import { widgets } from './fields.tsx';
import type { FieldDecl } from './resource.ts';

type Values = Record<string, unknown>;

function rulesOf(field: FieldDecl): Rule[] {
  return [...(field.required ? [required(field.requiredMessage)] : []), ...(field.kind === 'datetime' ? [validTime] : []), ...(field.rules ?? [])];
}

/** Whether a field is shown for these values (`FieldDecl.visible`). */
const shown = (field: FieldDecl, values: Values) => !field.visible || field.visible(values);

/** Whether the broker takes this field (`FieldDecl.requires`). */
export const supported = (field: FieldDecl) => !field.requires || has(field.requires);

/** First problem of each shown field, by name. */
export function validateAll(fields: FieldDecl[], values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields.filter((f) => supported(f) && shown(f, values))) {
    for (const rule of rulesOf(field)) {
      const message = rule(values[field.name], values, field.label);
      if (message) {
        errors[field.name] = message;
        break;
      }
    }
  }
  return errors;
}

let formSeq = 0;

export function Form(props: {
  fields: FieldDecl[];
  initial?: Values;
  submitText?: string;
  onSubmit: (values: Values) => Promise<unknown>;
  onCancel?: () => void;
  test?: string;
  children?: ComponentChildren;
  /** Turns a failed submit into a field error (e.g. SchemaForm's EMQX `{path, reason}`); `handleError` otherwise. */
  mapError?: (error: unknown) => { field: string; message: string } | undefined;
  /** More buttons in the action row, before submit (e.g. a config page's Reset). */
  actions?: ComponentChildren;
  /** A form every role may submit (changing one's own password); others need `canWrite`. */
  anyRole?: boolean;
  /**
   * Keeps what is typed as a draft of this name on the screen (lib/drafts.ts), back after a
   * reload until the form is saved, cancelled or closed; secret kinds are never kept.
   */
  draft?: string;
  /**
   * Extra content under each field (a config page's description, default and reset); `id` is the
   * element id the widget's `aria-describedby` names, `set` changes the field's value.
   */
  fieldHelp?: (field: FieldDecl, slot: { id: string; value: unknown; set: (value: unknown) => void }) => ComponentChildren;
  /** Offers "Snapshot first" (a backup on the broker before the save), for risky saves. */
  snapshot?: boolean;
}) {
  const snap = useSnapshotFirst();
  const readOnly = !props.anyRole && !canWrite();
  const initial = useMemo(() => {
    const base: Values = {};
    for (const field of props.fields) base[field.name] = field.kind === 'switch' ? false : field.kind === 'select' ? field.options?.[0]?.value ?? '' : '';
    return { ...base, ...props.initial };
  }, []);
  const prefix = useMemo(() => `f${++formSeq}`, []);
  const [draft] = useState(() => props.draft && draftKey(props.draft));
  const [values, setValues] = useState<Values>(() => ({ ...initial, ...(draft ? readDraft(draft) : undefined) }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const dirty = props.fields.some((field) => values[field.name] !== initial[field.name]);
  useUnsavedGuard(dirty && !busy);
  // The draft follows the values; it goes with the form (saved, cancelled or closed), not with a reload.
  useLayoutEffect(() => {
    if (!draft) return;
    const kept = props.fields.filter((f) => !SECRET_KINDS.includes(f.kind ?? 'text') && values[f.name] !== initial[f.name]);
    writeDraft(draft, kept.length ? Object.fromEntries(kept.map((f) => [f.name, values[f.name]])) : undefined);
  }, [values]);
  useLayoutEffect(() => () => draft && writeDraft(draft, undefined), []);

  const check = (name: string, next: Values) => {
    const field = props.fields.filter((f) => f.name === name);
    const message = validateAll(field, next)[name];
    setErrors((prev) => ({ ...prev, [name]: message ?? '' }));
  };

  // After a submit that found errors (here or on the server), the first bad field is brought
  // into view and focused, so a message below the fold is not missed.
  const [showFirstError, setShowFirstError] = useState(0);
  useEffect(() => {
    if (showFirstError === 0) return;
    const first = props.fields.find((field) => errors[field.name]);
    const element = first && document.getElementById(`${prefix}-${first.name}`);
    if (!element) return;
    element.scrollIntoView?.({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [showFirstError]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (readOnly) return;
    const found = validateAll(props.fields, values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setShowFirstError((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      if (props.snapshot) await snap.before();
      await props.onSubmit(values);
      if (draft) writeDraft(draft, undefined);
    } catch (error) {
      const mapped = props.mapError?.(error);
      if (mapped) {
        setErrors((prev) => ({ ...prev, [mapped.field]: mapped.message }));
        toast(mapped.message, 'error', errorDetail(error));
      } else {
        handleError(error, {
          fields: props.fields.map((f) => f.name),
          setFieldError: (field, message) => setErrors((prev) => ({ ...prev, [field]: message })),
        });
      }
      setShowFirstError((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-test={props.test}>
      <Writable anyRole={props.anyRole}>
      {props.fields.filter((field) => supported(field) && shown(field, values)).map((field, index, list) => {
        const id = `${prefix}-${field.name}`;
        const Widget = widgets[field.kind ?? 'text'];
        const error = errors[field.name];
        const change = (value: unknown) => {
          const next = { ...values, [field.name]: value };
          setValues(next);
          if (errors[field.name]) check(field.name, next);
        };
        const widget = (
          <Widget id={id} field={field} value={values[field.name]} invalid={Boolean(error)} onChange={change}
            onBlur={() => check(field.name, values)} />
        );
        const heading = field.section && field.section !== list[index - 1]?.section
          ? <h4 class="form-section" data-test="form-section">{t(field.section)}</h4> : null;
        return (
          <div class="field" key={field.name}>
            {heading}
            {field.kind === 'switch'
              ? <label htmlFor={id}>{widget} {t(field.label)}</label>
              : <><label htmlFor={id}>{t(field.label)}{field.required && <span class="required" aria-hidden="true"> *</span>}</label>{widget}</>}
            <small id={`${id}-msg`} class={error ? 'field-error' : 'muted'} data-test={error ? `error-${field.name}` : undefined}>
              {error || (field.help ? t(field.help) : '')}
            </small>
            {props.fieldHelp?.(field, { id: `${id}-help`, value: values[field.name], set: change })}
          </div>
        );
      })}
      {props.children}
      </Writable>
      <div class="form-actions">
        {props.onCancel && <button type="button" class="secondary" onClick={props.onCancel} data-test="form-cancel">{t('common.cancel')}</button>}
        {!readOnly && props.snapshot && snap.box}
        {!readOnly && props.actions}
        <button type="submit" aria-busy={busy} disabled={busy || readOnly} title={readOnly ? t('common.readOnly') : undefined} data-test="form-submit">
          {props.submitText ?? t('common.save')}
        </button>
      </div>
    </form>
  );
}
