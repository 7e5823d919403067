/**
 * A config form rendered from a broker schema component (DESIGN.md §5) with the shared `Form`:
 * fields come from `schemaFields` (overrides as data), values are the loaded object read at the
 * fields' dotted paths, and the submit body is that object with the edited values written back.
 * Given a `help` lookup, each field also shows its description, default and unit, and a
 * "reset to default" button while its value differs from the broker's default.
 * Example: `<SchemaForm doc={hotconf} component="broker.mqtt" value={mqtt} onSubmit={(body) => api.put(...)} />`.
 */
import type { ComponentChildren } from 'preact';
import { useMemo } from 'react';
import { ApiError } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { defineMessages, t } from '../lib/i18n.ts';
import type { SchemaDocument } from '../lib/schemas.ts';
import './configFields.tsx';
import { Form } from './Form.tsx';
import type { FieldDecl } from './resource.ts';
import { formBody, formValue, formValues, schemaFields, type SchemaField, type SchemaOverrides } from './schemaFields.ts';

defineMessages({
  'schemaForm.default': { zh: '默认值：{{value}}', en: 'Default: {{value}}' },
  'schemaForm.unitLine': { zh: '单位：{{unit}}', en: 'Unit: {{unit}}' },
  'schemaForm.unitDuration': { zh: '时长（ms、s、m、h、d）', en: 'duration (ms, s, m, h, d)' },
  'schemaForm.unitBytesize': { zh: '大小（B、KB、MB、GB）', en: 'size (B, KB, MB, GB)' },
  'schemaForm.resetDefault': { zh: '恢复默认值', en: 'Reset to default' },
  'schemaForm.resetFieldDefault': { zh: '将“{{field}}”恢复为默认值', en: 'Reset {{field}} to its default' },
  'schemaForm.on': { zh: '开启', en: 'on' },
  'schemaForm.off': { zh: '关闭', en: 'off' },
  'schemaForm.emptyValue': { zh: '空', en: 'empty' },
});

/**
 * What a page knows about a field beyond its schema: i18n keys of the description and of the
 * unit, and the broker's default for hand-declared fields (schema fields carry their own).
 */
export interface FieldHelp {
  text: string;
  unit?: string;
  default?: unknown;
}

/** The help of a field by its dotted name, or undefined when there is none. */
export type HelpLookup = (name: string) => FieldHelp | undefined;

/** A default as it reads in the help line: on/off, "empty", lists joined, objects as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'boolean') return t(value ? 'schemaForm.on' : 'schemaForm.off');
  if (value === '' || (Array.isArray(value) && value.length === 0)) return t('schemaForm.emptyValue');
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The line under a field: description, default and unit, and the reset button while the value differs. */
function HelpLine(props: { field: SchemaField; help?: FieldHelp; id: string; value: unknown; set: (value: unknown) => void }) {
  const { field, help } = props;
  const fallback = field.default !== undefined ? field.default : help?.default;
  const unit = help?.unit ?? (field.kind === 'duration' ? 'schemaForm.unitDuration' : field.kind === 'bytesize' ? 'schemaForm.unitBytesize' : undefined);
  if (!help && fallback === undefined && !unit) return null;
  const target = fallback === undefined ? undefined : formValue(field, fallback);
  const differs = target !== undefined && JSON.stringify(props.value) !== JSON.stringify(target);
  return (
    <small id={props.id} class="field-help" data-test={`help-${field.name}`}>
      {help && <span class="field-help-text" data-test={`help-${field.name}-text`}>{t(help.text)}</span>}
      {fallback !== undefined && <span class="field-help-meta" data-test={`help-${field.name}-default`}>{t('schemaForm.default', { value: shown(fallback) })}</span>}
      {unit && <span class="field-help-meta" data-test={`help-${field.name}-unit`}>{t('schemaForm.unitLine', { unit: t(unit) })}</span>}
      {differs && (
        <button type="button" class="field-reset" data-test={`reset-${field.name}`} aria-label={t('schemaForm.resetFieldDefault', { field: t(field.label) })}
          onClick={() => props.set(target)}>{t('schemaForm.resetDefault')}</button>
      )}
    </small>
  );
}

/**
 * The field a 400 is about, with the broker's reason: EMQX's JSON-encoded `{path, reason}`
 * message (path may start with the root, e.g. `mqtt.max_packet_size`), or Fastify's `body/...`.
 */
export function fieldError(error: unknown, names: string[]): { field: string; message: string } | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  let path = '';
  let message = error.message;
  try {
    const parsed = JSON.parse(error.message) as { path?: string; reason?: unknown; field?: string };
    path = String(parsed.path ?? parsed.field ?? '');
    message = typeof parsed.reason === 'string' ? parsed.reason : error.message;
  } catch {
    path = /(?:body)[/.]([\w/.]+)/.exec(error.message)?.[1]?.replace(/\//g, '.') ?? '';
  }
  const matches = names.filter((n) => path === n || path.endsWith(`.${n}`) || (path && n.endsWith(`.${path}`)));
  const field = matches.sort((a, b) => b.length - a.length)[0]
    ?? names.find((n) => new RegExp(`\\b${n.replace(/\./g, '\\.')}\\b`).test(error.message));
  // The sentence for the reason (errorCatalog.ts); the raw text is the toast's detail.
  return field ? { field, message: errorText(error) || message } : undefined;
}

export function SchemaForm(props: {
  /** The schema document and component key; without them only `extraFields` are shown. */
  doc?: SchemaDocument;
  component?: string;
  overrides?: SchemaOverrides;
  /** The loaded object (what GET returned for this component). */
  value: unknown;
  /** Names the field a failure belongs to before the schema's own reading of it (a connection Test's address). */
  mapError?: (error: unknown, names: string[]) => { field: string; message: string } | undefined;
  /** Hand-declared fields appended after the schema's (e.g. `tlsFields('ssl_options')`). */
  extraFields?: FieldDecl[];
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  onCancel?: () => void;
  submitText?: string;
  test?: string;
  children?: ComponentChildren;
  /** Buttons next to submit (see `Form`). */
  actions?: ComponentChildren;
  /** Descriptions, units and defaults by field name; without it fields show their label only. */
  help?: HelpLookup;
  /** Offers "Snapshot first" (see `Form`). */
  snapshot?: boolean;
}) {
  const fields = useMemo(() => [
    ...(props.doc && props.component ? schemaFields(props.doc, props.component, props.overrides) : []),
    ...(props.extraFields ?? []),
  ], [props.doc, props.component, props.overrides, props.extraFields]);
  const initial = useMemo(() => formValues(fields, props.value), [fields, props.value]);
  const names = fields.map((f) => f.name);
  const help = props.help;
  return (
    <Form fields={fields} initial={initial} test={props.test} submitText={props.submitText} onCancel={props.onCancel}
      mapError={(error) => props.mapError?.(error, names) ?? fieldError(error, names)} actions={props.actions} snapshot={props.snapshot}
      fieldHelp={help && ((field, slot) => <HelpLine field={field} help={help(field.name)} {...slot} />)}
      onSubmit={(values) => props.onSubmit(formBody(fields, props.value, values))}>
      {props.children}
    </Form>
  );
}
