/** System > Users: dashboard users as one declaration (`GET/POST /users`, `PUT/DELETE /users/{username}`, change_pwd). */
import { api } from '../../lib/api.ts';
import { clearSession, session } from '../../lib/session.ts';
import { t } from '../../lib/i18n.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toasts.ts';
import { notSameAs, password, sameAs, usernamePattern } from '../../lib/validators.ts';
import { arrayList, type ResourceDecl } from '../../ui/resource.ts';
import './messages.ts';

export interface User {
  username: string;
  description?: string;
}

const at = (u: User) => `/users/${encodeURIComponent(u.username)}`;
/** EMQX refuses to delete its default user and the caller itself; we hide the button there. */
const deletable = (u: User) => u.username !== 'admin' && u.username !== session.username;

export const users: ResourceDecl<User> = {
  name: 'users',
  title: 'users.title',
  rowKey: (u) => u.username,
  list: arrayList<User>('/users'),
  columns: [
    { key: 'username', title: 'users.username' },
    { key: 'description', title: 'users.description' },
  ],
  create: {
    title: 'users.create',
    success: 'users.created',
    fields: [
      { name: 'username', label: 'users.username', required: true, rules: [usernamePattern], autoComplete: 'off' },
      { name: 'password', label: 'users.password', kind: 'password', required: true, rules: [password], help: 'validation.password' },
      { name: 'confirm', label: 'users.confirmPassword', kind: 'password', required: true, rules: [sameAs('password')] },
      { name: 'description', label: 'users.description', kind: 'textarea' },
    ],
    submit: ({ username, password, description }) => api.post('/users', { username, password, description }),
  },
  actions: [
    {
      key: 'edit', label: 'common.edit',
      form: {
        title: 'users.edit', success: 'users.updated',
        fields: [{ name: 'description', label: 'users.description', kind: 'textarea' }],
        initial: (u) => ({ description: u?.description ?? '' }),
        submit: ({ description }, u) => api.put(at(u!), { description }),
      },
    },
    {
      key: 'password', label: 'users.changePassword',
      form: {
        title: 'users.changePassword', success: 'users.passwordChanged',
        fields: [
          { name: 'old_pwd', label: 'users.oldPassword', kind: 'password', required: true, autoComplete: 'current-password' },
          { name: 'new_pwd', label: 'users.newPassword', kind: 'password', required: true, rules: [password, notSameAs('old_pwd')], help: 'validation.password' },
          { name: 'confirm', label: 'users.confirmPassword', kind: 'password', required: true, rules: [sameAs('new_pwd')] },
        ],
        submit: ({ old_pwd, new_pwd }, u) => api.post(`${at(u!)}/change_pwd`, { old_pwd, new_pwd }),
        // The server revokes every token of that user, ours included when it is us.
        after: (_, u) => {
          if (u?.username !== session.username) return;
          clearSession();
          toast(t('users.reloginAfterChange'), 'info');
          void navigate('/login?to=/users', { force: true });
        },
      },
    },
    {
      key: 'delete', label: 'common.delete', danger: true, when: deletable,
      confirm: 'users.confirmDelete', success: 'users.deleted',
      run: (u) => api.del(at(u)),
    },
  ],
};
