/** Texts of the logged-in shell: menu groups, header and not-found page. */
import { defineMessages } from '../lib/i18n.ts';

export const shellMessages = defineMessages({
  'menu.monitoring': { zh: '监控', en: 'Monitoring' },
  'menu.management': { zh: '管理', en: 'Management' },
  'menu.integration': { zh: '集成', en: 'Integration' },
  'menu.diagnose': { zh: '问题分析', en: 'Diagnose' },
  'menu.system': { zh: '系统设置', en: 'System and Configuration' },
  'menu.accessControl': { zh: '访问控制', en: 'Access Control' },
  'menu.extensions': { zh: '扩展', en: 'Extensions' },
  'menu.advancedMqtt': { zh: 'MQTT 高级特性', en: 'Advanced MQTT' },
  'menu.toggle': { zh: '展开全部分组', en: 'Open every group' },
  'menu.railOn': { zh: '收起菜单，仅显示图标', en: 'Collapse the menu to icons' },
  'menu.railOff': { zh: '展开完整菜单', en: 'Expand the full menu' },
  'shell.skipToMain': { zh: '跳到主要内容', en: 'Skip to main content' },
  'header.unreachable': { zh: '无法连接到服务器', en: 'Cannot reach the server' },
  'header.alarmsUnknown': { zh: '告警状态未知', en: 'Alarm status unknown' },
  'header.noAlarm': { zh: '暂无告警', en: 'No alarm' },
  'header.alarms': { zh: '{{count}} 条活跃告警', en: '{{count}} active alarms' },
  'header.userMenu': { zh: '用户菜单', en: 'User menu' },
  'header.settings': { zh: '设置', en: 'Settings' },
  'header.logout': { zh: '退出登录', en: 'Logout' },
  'header.confirmLogout': { zh: '确认退出登录？', en: 'Confirm to logout' },
  'header.loggedOut': { zh: '已退出登录', en: 'Logged out' },
  'reauth.title': { zh: '重新登录', en: 'Sign in again' },
  'reauth.expired': {
    zh: '登录已过期，请重新登录。Broker 不再接受当前登录（它可能已重启）；登录后可在此页面继续，已填写的内容不会丢失。',
    en: 'Login has expired, please login again. The broker no longer accepts this login (it may have restarted); once signed in you carry on here, and nothing typed is lost.',
  },
  'reauth.passwordChanged': {
    zh: '密码已修改。Broker 在密码修改后会使该用户的所有登录失效，请使用新密码重新登录。',
    en: 'The password has been changed. The broker ends every login of a user whose password changes: sign in with the new password.',
  },
  'reauth.resendTitle': { zh: '已重新登录', en: 'Signed in again' },
  'reauth.resendText': {
    zh: '以下 {{count}} 项更改在登录失效时未被 Broker 接受，是否重新发送？',
    en: 'The broker did not take {{count}} change(s) while the login was expired. Send again?',
  },
  'reauth.resend': { zh: '重新发送', en: 'Send again' },
  'reauth.discard': { zh: '不发送', en: 'Do not send' },
  'notFound.title': { zh: '页面未找到', en: 'Page not found' },
  'notFound.back': { zh: '返回首页', en: 'Back to the overview' },
});
