/**
 * The users of a built-in database authenticator declared over `GET /authentication/{id}/users`
 * (paged on the server, fuzzy `like_user_id`, `is_superuser` filter; api part2 §2.1). Passwords
 * are write-only: editing leaves the password alone unless a new one is typed.
 */
import { api } from '../../../lib/api.ts';
import type { FieldDecl, ResourceDecl } from '../../../ui/resource.ts';
import { pageList } from '../../../ui/resource.ts';
import './messages.ts';

export interface AuthnUser {
  user_id: string;
  is_superuser: boolean;
}

const superuser: FieldDecl = { name: 'is_superuser', label: 'authn.isSuperuser', kind: 'switch' };

export function declareUsers(id: string): ResourceDecl<AuthnUser> {
  const base = `/authentication/${encodeURIComponent(id)}/users`;
  return {
    name: 'authn-users',
    title: 'authn.users',
    rowKey: (u) => u.user_id,
    list: pageList<AuthnUser>(base),
    empty: 'authn.noUsers',
    namespaced: true,
    filters: [
      { name: 'like_user_id', label: 'authn.userId' },
      { name: 'is_superuser', label: 'authn.superuserFilter', kind: 'select', options: [{ value: '', label: 'authn.anyUser' }, { value: 'true', label: 'authn.superusersOnly' }, { value: 'false', label: 'authn.nonSuperusers' }] },
    ],
    columns: [
      { key: 'user_id', title: 'authn.userId' },
      { key: 'is_superuser', title: 'authn.isSuperuser' },
    ],
    createLabel: 'authn.addUser',
    create: {
      title: 'authn.addUser', success: 'authn.userCreated',
      fields: [
        { name: 'user_id', label: 'authn.userId', required: true },
        { name: 'password', label: 'access.password', kind: 'password', required: true, requiredMessage: 'validation.passwordRequired' },
        superuser,
      ],
      submit: (v) => api.post(base, { user_id: v.user_id, password: v.password, is_superuser: Boolean(v.is_superuser) }),
    },
    actions: [
      {
        key: 'edit', label: 'common.edit',
        form: {
          title: 'authn.editUser', success: 'authn.userUpdated',
          fields: [{ name: 'password', label: 'access.password', kind: 'password', help: 'authn.newPasswordHelp' }, superuser],
          initial: (u) => ({ password: '', is_superuser: u!.is_superuser }),
          submit: (v, u) => api.put(`${base}/${encodeURIComponent(u!.user_id)}`, { ...(v.password ? { password: v.password } : {}), is_superuser: Boolean(v.is_superuser) }),
        },
      },
      { key: 'delete', label: 'common.delete', danger: true, confirm: 'authn.confirmDeleteUser', success: 'authn.userDeleted', run: (u) => api.del(`${base}/${encodeURIComponent(u.user_id)}`) },
    ],
  };
}
