/** Texts of the login page (the logged-in shell's texts are in shellMessages.ts). */
import { defineMessages } from '../lib/i18n.ts';

export const messages = defineMessages({
  'login.subtitle': { zh: 'MQTT 集群管理控制台', en: 'Management console of the MQTT cluster' },
  'login.username': { zh: '用户名', en: 'Username' },
  'login.password': { zh: '密码', en: 'Password' },
  'login.submit': { zh: '登录', en: 'Log in' },
  'login.forgot': { zh: '忘记密码？', en: 'Forgot password?' },
  'login.forgotHint': {
    zh: '请联系管理员，或在 Broker 所在主机执行 emqx ctl admins passwd <用户名> <新密码> 重置密码。',
    en: 'Ask an administrator, or reset it on the broker host with: emqx ctl admins passwd <username> <new password>.',
  },
  'login.changeTitle': { zh: '修改默认密码', en: 'Change the default password' },
  'login.changeHint': {
    zh: '您正在使用默认密码，为了安全请设置新密码。也可以稍后在用户菜单或 管理 > 用户 中修改。',
    en: 'You are using the default password. Set a new one for safety; you can also change it later from the user menu or under Management > Users.',
  },
  'login.newPassword': { zh: '新密码', en: 'New password' },
  'login.confirmPassword': { zh: '确认新密码', en: 'Confirm the new password' },
  'login.skip': { zh: '跳过', en: 'Skip' },
  // Shown by the boot script on the login form drawn into index.html when the console's modules fail to load.
  'login.consoleFailed': { zh: '控制台加载失败，请检查网络后刷新页面。', en: 'The console failed to load. Check the network and reload the page.' },
  // Said on the login page and in the shell's sign-in dialog alike, whichever path changed the password.
  'reauth.passwordChanged': {
    zh: '密码已修改，Broker 因此结束了该用户的所有登录：请用新密码重新登录。',
    en: 'The password was changed, so the broker ended every login of this user: sign in with the new password.',
  },
  'login.passwordChanged': { zh: '密码修改成功', en: 'Password changed' },
  'login.locked': {
    zh: '登录失败次数过多，此账户已被锁定 10 分钟（管理员可通过 dashboard.unsuccessful_login_lock_duration 修改时长），请稍后再试。',
    en: 'Too many failed sign-ins: this account is locked for 10 minutes (unless an administrator set another time in dashboard.unsuccessful_login_lock_duration). Try again then.',
  },
});
