/**
 * API scopes (5.9 on, capability `scopes`) for the API key and the Users forms: one list field
 * checked against the release's scope names, the body part it sends and the list column. The
 * names are the broker's catalogue (emqx_api_key_scopes.hrl at e5.10.4 and 6.2.2, the same
 * as `GET /api_key_scopes` and `GET /user_scopes` answer).
 */
import { has } from '../lib/broker.ts';
import { defineMessages, t } from '../lib/i18n.ts';
import type { Rule } from '../lib/validators.ts';
import type { Column, FieldDecl } from './resource.ts';

defineMessages({
  'scopes.label': { zh: '权限范围', en: 'Scopes' },
  'scopes.unset': { zh: '全部（创建于权限范围之前）', en: 'All (made before scopes)' },
  'scopes.all': { zh: '全部', en: 'All' },
  'scopes.keyHelp': {
    zh: '每行一个：connections、publish、data_integration、access_control、gateways、monitoring、cluster_operations、system、audit、license。留空则新建时使用角色的默认范围，编辑时保持不变。',
    en: 'One per line: connections, publish, data_integration, access_control, gateways, monitoring, cluster_operations, system, audit, license. Empty: the role\'s default scopes when created, unchanged when edited.',
  },
  'scopes.userHelp': {
    zh: '每行一个：API 密钥的范围，以及 user_management、mfa_management、sso_management、api_key_management（除 mfa_management 外仅限管理员）。留空则新建时使用角色的默认范围，编辑时保持不变。',
    en: 'One per line: the API key scopes, and user_management, mfa_management, sso_management, api_key_management (all but mfa_management for administrators only). Empty: the role\'s default scopes when created, unchanged when edited.',
  },
  'scopes.unknown': { zh: '未知的权限范围：{{scopes}}', en: 'Unknown scopes: {{scopes}}' },
  'scopes.adminOnly': { zh: '只有管理员角色可以拥有：{{scopes}}', en: 'Only the administrator role may hold: {{scopes}}' },
});

/** The scopes API keys and dashboard users may hold, in the catalogue's order. */
export const GENERIC_SCOPES = ['connections', 'publish', 'data_integration', 'access_control', 'gateways', 'monitoring', 'cluster_operations', 'system', 'audit', 'license'];
/** Scopes only dashboard users may hold (?LOGIN_ONLY_SCOPES). */
export const USER_SCOPES = [...GENERIC_SCOPES, 'user_management', 'mfa_management', 'sso_management', 'api_key_management'];
/**
 * Login-only scopes a user of another role than administrator may not hold (?ADMIN_ONLY_SCOPES,
 * emqx_dashboard_api.erl validate_role_scope_compat/2 at 6.2.2).
 */
const ADMIN_ONLY = ['user_management', 'sso_management', 'api_key_management'];

const listed = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/** The scopes field of API keys, or with `users` of dashboard users (their names, and the admin-only ones refused for other roles). */
export function scopesField(users = false, visible?: FieldDecl['visible']): FieldDecl {
  const names = users ? USER_SCOPES : GENERIC_SCOPES;
  const known: Rule = (v) => {
    const unknown = listed(v).filter((s) => !names.includes(s));
    return unknown.length ? t('scopes.unknown', { scopes: unknown.join(', ') }) : undefined;
  };
  const byRole: Rule = (v, values) => {
    const held = listed(v).filter((s) => ADMIN_ONLY.includes(s));
    return users && (values.role || 'administrator') !== 'administrator' && held.length ? t('scopes.adminOnly', { scopes: held.join(', ') }) : undefined;
  };
  return {
    name: 'scopes', label: 'scopes.label', kind: 'list', requires: 'scopes', rules: [known, byRole],
    help: users ? 'scopes.userHelp' : 'scopes.keyHelp', visible,
  };
}

/** An empty list sends nothing: the role's scopes on create, the kept ones on edit. */
export const scopesBody = (v: Record<string, unknown>) => (has('scopes') && listed(v.scopes).length ? { scopes: listed(v.scopes) } : {});

/** The scopes column: `unset` for a record made before scopes (it reaches all), `All` for every scope of API keys or `users`. */
export function scopesColumn<T extends { scopes?: string[] | 'unset' }>(users = false): Column<T> {
  const names = users ? USER_SCOPES : GENERIC_SCOPES;
  return {
    key: 'scopes', title: 'scopes.label', requires: 'scopes',
    text: (row) => {
      if (!Array.isArray(row.scopes)) return t('scopes.unset');
      return names.every((s) => row.scopes!.includes(s)) ? t('scopes.all') : row.scopes.join(', ') || '—';
    },
  };
}
