/**
 * Management > API key as one declaration (emqx-api-part1 §4): `GET /api_key` (bare list),
 * create (`POST /api_key`, whose answer holds the only copy of the secret), edit, enable or
 * disable (`PUT /api_key/{name}`, always with `expired_at`: leaving it out resets it to never),
 * and delete (`DELETE /api_key/{name}`).
 */
import { api } from '../../../lib/api.ts';
import { has } from '../../../lib/broker.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { required, strictNamePattern, type Rule } from '../../../lib/validators.ts';
import { arrayList, type FieldDecl, type ResourceDecl } from '../../../ui/resource.ts';
import { scopesBody, scopesColumn, scopesField } from '../../../ui/scopes.ts';
import { ApiKeyDetail, Expires, Status } from './ApiKeyCells.tsx';
import './messages.ts';

export interface ApiKey {
  name: string;
  api_key: string;
  /** RFC 3339, or "infinity". */
  expired_at: string;
  created_at: string;
  desc: string;
  enable: boolean;
  expired: boolean;
  /** Enterprise RBAC: administrator, viewer or publisher. */
  role?: string;
  /** 5.9 on: the scopes it may reach, or `unset` for a key made before scopes (it reaches all). */
  scopes?: string[] | 'unset';
}

export type CreatedKey = ApiKey & { api_secret: string };

const at = (k: ApiKey) => `/api_key/${encodeURIComponent(k.name)}`;
const never = (v: Record<string, unknown>) => Boolean(v.never);
// An unchanged expiry may stay in the past (editing an expired key); a new one may not.
const future: Rule = (value, values) =>
  value && value !== values.wasExpiry && Date.parse(String(value)) <= Date.now() ? t('apiKeys.pastExpiry') : undefined;

const expiry: FieldDecl[] = [
  { name: 'never', label: 'apiKeys.neverExpire', kind: 'switch' },
  { name: 'expired_at', label: 'apiKeys.expiredAt', kind: 'datetime', rules: [required(), future], visible: (v) => !never(v) },
];
const common: FieldDecl[] = [
  { name: 'enable', label: 'apiKeys.enable', kind: 'switch' },
  { name: 'role', label: 'common.role', kind: 'select', requires: 'rbac',
    options: ['administrator', 'viewer', 'publisher'].map((value) => ({ value, label: `role.${value}` })) },
  scopesField(),
  { name: 'desc', label: 'apiKeys.desc', kind: 'textarea' },
];
const body = (v: Record<string, unknown>) =>
  ({ desc: String(v.desc ?? ''), enable: Boolean(v.enable), expired_at: never(v) ? 'infinity' : String(v.expired_at), ...(has('rbac') ? { role: v.role || 'administrator' } : {}), ...scopesBody(v) });

/** The declaration; `onCreated` receives the POST answer, the one place the secret appears. */
export function declareApiKeys(onCreated: (key: CreatedKey) => void): ResourceDecl<ApiKey> {
  const toggle = (enable: boolean) => (k: ApiKey) => api.put(at(k), { desc: k.desc, enable, expired_at: k.expired_at, ...(k.role ? { role: k.role } : {}) });
  return {
    name: 'api-key',
    title: 'management.apiKeys',
    rowKey: (k) => k.name,
    list: arrayList<ApiKey>('/api_key'),
    empty: 'apiKeys.empty',
    columns: [
      { key: 'name', title: 'apiKeys.name' },
      { key: 'api_key', title: 'apiKeys.apiKey', text: (k) => <code>{k.api_key}</code> },
      { key: 'enable', title: 'apiKeys.status', text: (k) => <Status apiKey={k} /> },
      { key: 'expired_at', title: 'apiKeys.expiredAt', text: (k) => <Expires apiKey={k} /> },
      { key: 'created_at', title: 'apiKeys.createdAt', text: (k) => <span class="nowrap">{formatDateTime(k.created_at)}</span> },
      { key: 'role', title: 'common.role', requires: 'rbac', text: (k) => (k.role ? t(`role.${k.role}`) : '—') },
      scopesColumn<ApiKey>(),
      { key: 'desc', title: 'apiKeys.desc', optional: true },
    ],
    createLabel: 'apiKeys.create',
    create: {
      title: 'apiKeys.create', success: 'apiKeys.created',
      fields: [{ name: 'name', label: 'apiKeys.name', rules: [required('validation.nameRequired'), strictNamePattern] }, ...expiry, ...common],
      initial: () => ({ never: true, enable: true, role: 'administrator' }),
      submit: async (v) => onCreated(await api.post<CreatedKey>('/api_key', { name: v.name, ...body(v) })),
    },
    actions: [
      { key: 'view', label: 'common.view', view: { title: 'apiKeys.detail', render: (k) => <ApiKeyDetail apiKey={k} /> } },
      {
        key: 'edit', label: 'common.edit',
        form: {
          title: 'apiKeys.edit', success: 'apiKeys.updated', fields: [...common.slice(0, 1), ...expiry, ...common.slice(1)],
          initial: (k) => ({ enable: k!.enable, never: k!.expired_at === 'infinity', expired_at: k!.expired_at === 'infinity' ? '' : k!.expired_at, wasExpiry: k!.expired_at, desc: k!.desc, role: k!.role ?? 'administrator', scopes: Array.isArray(k!.scopes) ? k!.scopes : [] }),
          submit: (v, k) => api.put(at(k!), body(v)),
        },
      },
      { key: 'disable', label: 'apiKeys.disableKey', when: (k) => k.enable, confirm: 'apiKeys.confirmDisable', success: 'apiKeys.disabled', run: toggle(false) },
      { key: 'enable', label: 'apiKeys.enableKey', when: (k) => !k.enable, success: 'apiKeys.enabled', run: toggle(true) },
      { key: 'delete', label: 'common.delete', danger: true, confirm: 'apiKeys.confirmDelete', success: 'apiKeys.deleted', run: (k) => api.del(at(k)) },
    ],
  };
}
