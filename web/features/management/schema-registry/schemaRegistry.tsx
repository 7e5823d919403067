/**
 * Management > Schema Registry as declarations (emqx-api-part2 §8): the schemas (`GET
 * /schema_registry`, a bare array; the editor page creates and edits; DELETE refused by the server
 * while a rule uses the schema) and the external Confluent registries (`/schema_registry_external`,
 * an object by name).
 */
import { api } from '../../../lib/api.ts';
import { navigate } from '../../../lib/navigation.ts';
import { required, strictNamePattern } from '../../../lib/validators.ts';
import { arrayList, type FieldDecl, type ListResult, type ResourceDecl } from '../../../ui/resource.ts';
import './messages.ts';

export interface Schema {
  name: string;
  type: 'avro' | 'protobuf' | 'json';
  source: string;
  description: string;
}

export interface External {
  name: string;
  type: 'confluent';
  url: string;
  auth: 'none' | { mechanism: 'basic'; username: string; password: string };
}

export const TYPE_LABELS: Record<Schema['type'], string> = { avro: 'Avro', protobuf: 'Protobuf', json: 'JSON Schema' };
export const schemaPath = (name: string) => `/schema_registry/${encodeURIComponent(name)}`;
const detail = (s: Schema) => `/schema-registry/detail/${encodeURIComponent(s.name)}`;

export const schemas: ResourceDecl<Schema> = {
  name: 'schema_registry',
  title: 'management.schemaRegistry',
  rowKey: (s) => s.name,
  list: arrayList<Schema>('/schema_registry'),
  empty: 'schemaRegistry.empty',
  columns: [
    { key: 'name', title: 'schemaRegistry.name', link: detail },
    { key: 'type', title: 'schemaRegistry.type', text: (s) => TYPE_LABELS[s.type] ?? s.type },
    { key: 'description', title: 'schemaRegistry.description' },
  ],
  tools: [{ key: 'create', label: 'schemaRegistry.create', href: '/schema-registry/create', run: async () => {} }],
  actions: [
    { key: 'edit', label: 'common.edit', run: async (s) => void navigate(detail(s)) },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'schemaRegistry.confirmDelete', success: 'schemaRegistry.deleted', run: (s) => api.del(schemaPath(s.name)) },
  ],
};

const externalPath = (name: string) => `/schema_registry_external/registry/${encodeURIComponent(name)}`;
const basic = (v: Record<string, unknown>) => v.mechanism === 'basic';
const externalFields: FieldDecl[] = [
  { name: 'url', label: 'schemaRegistry.url', rules: [required()], placeholder: 'http://127.0.0.1:8081' },
  { name: 'mechanism', label: 'schemaRegistry.auth', kind: 'select', options: [{ value: 'none', label: 'schemaRegistry.authNone' }, { value: 'basic', label: 'schemaRegistry.authBasic' }] },
  { name: 'username', label: 'schemaRegistry.username', rules: [required()], visible: basic },
  { name: 'password', label: 'schemaRegistry.password', kind: 'secret', rules: [required()], visible: basic },
];
const externalBody = (v: Record<string, unknown>) => ({
  type: 'confluent',
  url: String(v.url ?? ''),
  auth: basic(v) ? { mechanism: 'basic', username: String(v.username ?? ''), password: String(v.password ?? '') } : 'none',
});

async function listExternal(_query: Record<string, string>, signal: AbortSignal): Promise<ListResult<External>> {
  const found = await api.get<Record<string, Omit<External, 'name'>>>('/schema_registry_external', { signal });
  const rows = Object.entries(found).map(([name, r]) => ({ name, ...r }));
  return { rows, meta: { page: 1, limit: Math.max(rows.length, 1), count: rows.length } };
}

export const externals: ResourceDecl<External> = {
  name: 'schema_registry_external',
  title: 'schemaRegistry.external',
  rowKey: (r) => r.name,
  list: listExternal,
  empty: 'schemaRegistry.externalEmpty',
  columns: [
    { key: 'name', title: 'schemaRegistry.name' },
    { key: 'type', title: 'schemaRegistry.type', text: () => 'Confluent' },
    { key: 'url', title: 'schemaRegistry.url' },
    { key: 'auth', title: 'schemaRegistry.auth', text: (r) => (typeof r.auth === 'object' ? `Basic (${r.auth.username})` : '-') },
  ],
  createLabel: 'schemaRegistry.externalCreate',
  create: {
    title: 'schemaRegistry.externalCreate', success: 'schemaRegistry.externalCreated',
    fields: [{ name: 'name', label: 'schemaRegistry.name', rules: [required('validation.nameRequired'), strictNamePattern] }, ...externalFields],
    initial: () => ({ mechanism: 'none' }),
    submit: (v) => api.post('/schema_registry_external', { name: v.name, ...externalBody(v) }),
  },
  actions: [
    {
      key: 'edit', label: 'common.edit',
      form: {
        title: 'schemaRegistry.externalEdit', success: 'schemaRegistry.externalUpdated', fields: externalFields,
        initial: (r) => (typeof r!.auth === 'object' ? { url: r!.url, mechanism: 'basic', username: r!.auth.username, password: r!.auth.password } : { url: r!.url, mechanism: 'none' }),
        submit: (v, r) => api.put(externalPath(r!.name), externalBody(v)),
      },
    },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'schemaRegistry.confirmExternalDelete', success: 'schemaRegistry.externalDeleted', run: (r) => api.del(externalPath(r.name)) },
  ],
};
