/**
 * Management > Users: dashboard users as one declaration (`GET/POST /users`, `PUT/DELETE /users/{username}`,
 * change_pwd). On Enterprise each user has a `role` (RBAC); a viewer may still change their own password.
 * From 5.9 (capability `scopes`) each user holds scopes, shown in the list and set in the forms.
 */
import { api } from '../../lib/api.ts';
import { askSignIn } from '../../lib/reauth.ts';
import { session } from '../../lib/session.ts';
import { t } from '../../lib/i18n.ts';
import { notSameAs, password, reservedUsername, sameAs, usernamePattern } from '../../lib/validators.ts';
import { has } from '../../lib/broker.ts';
import { arrayList, type FieldDecl, type ResourceDecl } from '../../ui/resource.ts';
import { scopesBody, scopesColumn, scopesField } from '../../ui/scopes.ts';
import './messages.ts';

export interface User {
  username: string;
  description?: string;
  role?: string;
  /** 5.9 on: `none` (never set up), `disabled` or `totp`. */
  mfa?: string;
  /** 5.9 on: the scopes the user holds, or `unset` for a user made before scopes. */
  scopes?: string[] | 'unset';
}

/** Dashboard roles of Enterprise RBAC (emqx_dashboard_rbac). */
const role: FieldDecl = {
  name: 'role', label: 'common.role', kind: 'select', requires: 'rbac',
  options: [{ value: 'administrator', label: 'role.administrator' }, { value: 'viewer', label: 'role.viewer' }],
};
const roleBody = (v: Record<string, unknown>) => (has('rbac') ? { role: v.role || 'administrator' } : {});
/** The default administrator (dashboard.default_username) always holds every scope: is_default_admin_modification/3 refuses a list. */
const DEFAULT_ADMIN = 'admin';
const scopes = scopesField(true, (v) => v.username !== DEFAULT_ADMIN);

const at = (u: User) => `/users/${encodeURIComponent(u.username)}`;
/** EMQX refuses to delete its default user and the caller itself; we hide the button there. */
const deletable = (u: User) => u.username !== DEFAULT_ADMIN && u.username !== session.username;

export const users: ResourceDecl<User> = {
  name: 'users',
  title: 'users.title',
  rowKey: (u) => u.username,
  list: arrayList<User>('/users'),
  columns: [
    { key: 'username', title: 'users.username' },
    { key: 'role', title: 'common.role', requires: 'rbac', text: (u) => (u.role ? t(`role.${u.role}`) : '—') },
    { key: 'mfa', title: 'users.mfa', requires: 'dashboardMfa', text: (u) => t(u.mfa === 'totp' ? 'users.mfaOn' : 'users.mfaOff') },
    scopesColumn<User>(true),
    { key: 'description', title: 'users.description' },
  ],
  create: {
    title: 'users.create',
    success: 'users.created',
    fields: [
      { name: 'username', label: 'users.username', required: true, rules: [usernamePattern, reservedUsername], autoComplete: 'off' },
      { name: 'password', label: 'users.password', kind: 'password', required: true, rules: [password], help: 'validation.password' },
      { name: 'confirm', label: 'users.confirmPassword', kind: 'password', required: true, rules: [sameAs('password')] },
      role,
      scopes,
      { name: 'description', label: 'users.description', kind: 'textarea' },
    ],
    submit: (v) => api.post('/users', { username: v.username, password: v.password, description: v.description, ...roleBody(v), ...scopesBody(v) }),
  },
  actions: [
    {
      key: 'edit', label: 'common.edit',
      form: {
        title: 'users.edit', success: 'users.updated',
        fields: [role, scopes, { name: 'description', label: 'users.description', kind: 'textarea' }],
        initial: (u) => ({ username: u?.username, description: u?.description ?? '', role: u?.role ?? 'administrator', scopes: Array.isArray(u?.scopes) ? u.scopes : [] }),
        submit: (v, u) => api.put(at(u!), { description: v.description, ...roleBody(v), ...(u!.username === DEFAULT_ADMIN ? {} : scopesBody(v)) }),
      },
    },
    {
      key: 'password', label: 'users.changePassword', anyRole: (u) => u.username === session.username,
      form: {
        title: 'users.changePassword', success: 'users.passwordChanged',
        fields: [
          { name: 'old_pwd', label: 'users.oldPassword', kind: 'password', required: true, autoComplete: 'current-password' },
          { name: 'new_pwd', label: 'users.newPassword', kind: 'password', required: true, rules: [password, notSameAs('old_pwd')], help: 'validation.password' },
          { name: 'confirm', label: 'users.confirmPassword', kind: 'password', required: true, rules: [sameAs('new_pwd')] },
        ],
        submit: ({ old_pwd, new_pwd }, u) => api.post(`${at(u!)}/change_pwd`, { old_pwd, new_pwd }),
        // The server revokes every token of that user: when it is us, sign in again over the screen, as from the user menu.
        after: (_, u) => void (u?.username === session.username && askSignIn('passwordChanged')),
      },
    },
    // emqx_dashboard_api.erl change_mfa/2: an administrator resets another user's MFA (a new key
    // at their next sign-in, their sessions ended) or turns it off; the user's own is in the user menu.
    {
      key: 'mfaReset', label: 'users.mfaReset', when: (u) => has('dashboardMfa') && u.username !== session.username,
      confirm: 'users.confirmMfaReset', success: 'users.mfaWasReset',
      run: (u) => api.post(`${at(u)}/mfa`, { mechanism: 'totp' }),
    },
    {
      key: 'mfaOff', label: 'users.mfaTurnOff', when: (u) => has('dashboardMfa') && u.mfa === 'totp' && u.username !== session.username,
      confirm: 'users.confirmMfaOff', success: 'users.mfaWasTurnedOff',
      run: (u) => api.del(`${at(u)}/mfa`),
    },
    {
      key: 'delete', label: 'common.delete', danger: true, when: deletable,
      confirm: 'users.confirmDelete', success: 'users.deleted',
      run: (u) => api.del(at(u)),
    },
  ],
};
