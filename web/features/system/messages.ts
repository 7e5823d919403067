/** Texts of System and Configuration: users and settings. */
import { defineMessages } from '../../lib/i18n.ts';

export const messages = defineMessages({
  'users.username': { zh: '用户名', en: 'Username' },
  'users.description': { zh: '备注', en: 'Description' },
  'users.password': { zh: '密码', en: 'Password' },
  'users.confirmPassword': { zh: '确认密码', en: 'Confirm password' },
  'users.oldPassword': { zh: '旧密码', en: 'Old password' },
  'users.newPassword': { zh: '新密码', en: 'New password' },
  'users.create': { zh: '创建用户', en: 'Create user' },
  'users.edit': { zh: '编辑用户', en: 'Edit user' },
  'users.changePassword': { zh: '修改密码', en: 'Change password' },
  'users.created': { zh: '用户创建成功', en: 'User created' },
  'users.updated': { zh: '用户已更新', en: 'User updated' },
  'users.passwordChanged': { zh: '密码修改成功', en: 'Password changed' },
  'users.deleted': { zh: '用户已删除', en: 'User deleted' },
  'users.confirmDelete': { zh: '确认删除用户 {{key}}？', en: 'Delete the user {{key}}?' },
  'settings.language': { zh: '语言', en: 'Language' },
  'settings.theme': { zh: '主题', en: 'Theme' },
  'settings.light': { zh: '浅色', en: 'Light' },
  'settings.dark': { zh: '深色', en: 'Dark' },
  'settings.syncOsTheme': { zh: '跟随系统主题', en: 'Follow the OS theme' },
  'settings.reloadHint': { zh: '修改后页面会重新加载', en: 'The page reloads after a change' },
});
