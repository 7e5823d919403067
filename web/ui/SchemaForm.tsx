/**
 * A config form rendered from a broker schema component (DESIGN.md §5) with the shared `Form`:
 * fields come from `schemaFields` (overrides as data), values are the loaded object read at the
 * fields' dotted paths, and the submit body is that object with the edited values written back.
 * Example: `<SchemaForm doc={hotconf} component="broker.mqtt" value={mqtt} onSubmit={(body) => api.put(...)} />`.
 */
import type { ComponentChildren } from 'preact';
import { useMemo } from 'react';
import { ApiError } from '../lib/api.ts';
import type { SchemaDocument } from '../lib/schemas.ts';
import './configFields.tsx';
import { Form } from './Form.tsx';
import type { FieldDecl } from './resource.ts';
import { formBody, formValues, schemaFields, type SchemaOverrides } from './schemaFields.ts';

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
  return field ? { field, message } : undefined;
}

export function SchemaForm(props: {
  /** The schema document and component key; without them only `extraFields` are shown. */
  doc?: SchemaDocument;
  component?: string;
  overrides?: SchemaOverrides;
  /** The loaded object (what GET returned for this component). */
  value: unknown;
  /** Hand-declared fields appended after the schema's (e.g. `tlsFields('ssl_options')`). */
  extraFields?: FieldDecl[];
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  onCancel?: () => void;
  submitText?: string;
  test?: string;
  children?: ComponentChildren;
  /** Buttons next to submit (see `Form`). */
  actions?: ComponentChildren;
}) {
  const fields = useMemo(() => [
    ...(props.doc && props.component ? schemaFields(props.doc, props.component, props.overrides) : []),
    ...(props.extraFields ?? []),
  ], [props.doc, props.component, props.overrides, props.extraFields]);
  const initial = useMemo(() => formValues(fields, props.value), [fields, props.value]);
  const names = fields.map((f) => f.name);
  return (
    <Form fields={fields} initial={initial} test={props.test} submitText={props.submitText} onCancel={props.onCancel}
      mapError={(error) => fieldError(error, names)} actions={props.actions}
      onSubmit={(values) => props.onSubmit(formBody(fields, props.value, values))}>
      {props.children}
    </Form>
  );
}
