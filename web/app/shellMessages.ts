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
  'notFound.title': { zh: '页面未找到', en: 'Page not found' },
  'notFound.back': { zh: '返回首页', en: 'Back to the overview' },
});
