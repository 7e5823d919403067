/**
 * The configuration form of one authenticator or authorizer kind: the nested config is flattened
 * into the shared `Form`, and the values are turned back into the request body on submit
 * (hidden fields dropped, JSON text parsed). Secrets come back as "******" and are sent as is, so
 * the broker keeps the stored value (api part2 §1.3).
 */
import { useMemo } from 'react';
import { Form } from '../../ui/Form.tsx';
import { toBody, toValues, type KindDecl } from './blocks.ts';

type Values = Record<string, unknown>;

export function ConfigForm(props: { kind: KindDecl; config: Values; submitText?: string; test?: string; draft?: string; onSubmit: (body: Values) => Promise<unknown>; onCancel?: () => void }) {
  const initial = useMemo(() => toValues(props.config, props.kind), [props.config]);
  return (
    <Form fields={props.kind.fields} initial={initial} submitText={props.submitText} test={props.test} draft={props.draft} onCancel={props.onCancel} snapshot
      onSubmit={(values) => props.onSubmit(toBody(values, props.kind, initial))} />
  );
}
