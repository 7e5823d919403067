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
  'login.mfaTitle': { zh: '双因素认证', en: 'Two-factor authentication' },
  'login.mfaHint': { zh: '请输入身份验证器应用中显示的 6 位验证码。', en: 'Enter the 6-digit code your authenticator app shows.' },
  'login.mfaSetupHint': {
    zh: '此账户需要双因素认证。请用身份验证器应用（如 Google Authenticator、Microsoft Authenticator）扫描二维码，或手动输入下面的密钥，然后输入应用显示的 6 位验证码。',
    en: 'This account needs two-factor authentication. Scan the QR code with an authenticator app (such as Google Authenticator or Microsoft Authenticator), or type in the key below, then enter the 6-digit code it shows.',
  },
  'login.mfaSecret': { zh: '密钥', en: 'Key' },
  'login.mfaQr': { zh: '用身份验证器应用扫描的二维码', en: 'QR code for an authenticator app' },
  'login.mfaCode': { zh: '验证码', en: 'Code' },
  'login.mfaCodeRule': { zh: '验证码为 6 位数字', en: 'The code is 6 digits' },
  'login.mfaWrong': { zh: '验证码错误或已过期，请输入应用当前显示的验证码', en: 'The code is wrong or has expired: enter the one your app shows now' },
  'login.locked': {
    zh: '登录失败次数过多，此账户已被锁定 10 分钟（管理员可通过 dashboard.unsuccessful_login_lock_duration 修改时长），请稍后再试。',
    en: 'Too many failed sign-ins: this account is locked for 10 minutes (unless an administrator set another time in dashboard.unsuccessful_login_lock_duration). Try again then.',
  },
  'login.expiresIn': {
    zh: '距密码必须修改还剩 {{days}} 天。请现在修改，或稍后在 管理 > 用户 中修改。',
    en: 'Days left before your password must change: {{days}}. Change it now, or later under Management > Users.',
  },
  'login.expired': { zh: '您的密码已过期，请修改密码。', en: 'Your password has expired: change it now.' },
  'login.expiryTitle': { zh: '修改密码', en: 'Change your password' },
});
