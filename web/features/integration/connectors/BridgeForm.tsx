/**
 * The form of a connector, action or source of one type: the type's `post_*` component of the
 * served schema in a `SchemaForm`, a 'Test' button (`POST /<kind>_probe` with the same body) and
 * the write itself — POST on create, PUT without type and name on edit (emqx-api-part2 §4.2, §4.3).
 */
import { useRef } from 'react';
import { api, ApiError } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { errorText } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { loadSchema, resolveRef } from '../../../lib/schemas.ts';
import { toast } from '../../../lib/toasts.ts';
import { namePattern } from '../../../lib/validators.ts';
import type { FieldDecl } from '../../../ui/resource.ts';
import { SchemaForm } from '../../../ui/SchemaForm.tsx';
import { schemaFields } from '../../../ui/schemaFields.ts';
import { tlsFields } from '../../../ui/tls.ts';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { apiPath, bridgeId, defaultsOf, hiddenFields, postComponent, writeBody, type Bridge, type Kind } from './bridge.ts';
import './messages.ts';

const SECTIONS: Record<string, string> = { parameters: 'connectors.parameters', resource_opts: 'connectors.resourceOpts' };
/** The fields a connector's address lives in, where a failed connection Test is said. */
const ADDRESS = /(^|\.)(url|server|servers|bootstrap_hosts|endpoint|host|hosts|address)$/;
const NAME = { required: true, requiredMessage: 'validation.nameRequired', rules: [namePattern] };

export function BridgeForm(props: {
  kind: Kind;
  type: string;
  /** The object being edited, or the starting values of a new one (without schema defaults). */
  value?: Partial<Bridge>;
  create: boolean;
  fields?: FieldDecl[];
  /** Changes to schema fields by name (e.g. `connector` as a select of connectors). */
  overrides?: Record<string, Partial<FieldDecl>>;
  /** i18n key of the question asked before an update. */
  confirmUpdate?: string;
  onSaved: (saved: Bridge) => void;
}) {
  const { kind, type, create } = props;
  const schema = useRemote(`schema:${kind}`, () => loadSchema(kind === 'connectors' ? 'connectors' : 'actions'));
  const testing = useRef(false);
  if (schema.error && !schema.data) return <Failed error={schema.error} retry={schema.reload} />;
  if (!schema.data) return <Loading />;
  const doc = schema.data;
  const component = postComponent(doc, kind, type);
  if (!component) return <Empty text={t('connectors.noSchema')} />;
  const value = create ? { ...defaultsOf(doc, { $ref: `#/components/schemas/${component}` }), ...props.value, type } : props.value;
  const probe = async (body: Record<string, unknown>) => {
    await api.post(`/${kind}_probe`, writeBody({ ...body, type, name: body.name || value?.name || 'probe' }, true));
    toast(t('connectors.testOk'));
  };
  // A validation 400 goes to its field as any save's; a failed connection (TEST_FAILED) is said at
  // the address field, in the catalogue's words ('Test failed: The connection was refused: …').
  const testFailure = (error: unknown, names: string[]) => {
    if (!(error instanceof ApiError) || error.code !== 'TEST_FAILED') return undefined;
    const field = names.find((n) => ADDRESS.test(n)) ?? names[0];
    return { field, message: `${t('connectors.testFailed')}: ${errorText(error)}` };
  };
  const submit = async (body: Record<string, unknown>) => {
    if (testing.current) return probe(body);
    if (!create && props.confirmUpdate && !(await confirm(t(props.confirmUpdate), { danger: true }))) return;
    const saved = create
      ? await api.post<Bridge>(`/${kind}`, writeBody(body, true))
      : await api.put<Bridge>(apiPath(kind, bridgeId(value as Bridge)), writeBody(body, false));
    props.onSaved(saved);
  };
  // TLS as the shared client group (shown when enabled); parameters and resource options under headings.
  const tls = Boolean(resolveRef(doc, { $ref: `#/components/schemas/${component}` }).properties?.ssl);
  const sections = Object.fromEntries(schemaFields(doc, component).flatMap((f) => {
    const head = f.name.split('.')[0];
    return SECTIONS[head] ? [[f.name, { section: SECTIONS[head] }]] : [];
  }));
  return (
    <SchemaForm doc={doc} component={component} value={value} test={`${kind}-form`} snapshot
      overrides={{ hidden: [...hiddenFields(create), 'ssl'], order: ['name', 'connector', 'enable', 'description'], labelPrefix: 'connectors',
        fields: { ...sections, name: NAME, ...props.overrides } }}
      extraFields={[...(props.fields ?? []), ...(tls ? tlsFields('ssl') : [])]} submitText={t(create ? 'common.create' : 'common.save')} onSubmit={submit} mapError={testFailure}
      actions={<button type="submit" class="secondary outline" data-test={`${kind}-test`} onClick={() => ((testing.current = true), setTimeout(() => (testing.current = false)))}>{t('connectors.test')}</button>} />
  );
}
