/** System and Configuration: dashboard users and the user's settings. */
import { fromFolder, type Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the first chunk); screen texts are in
// messages.ts, which the screens import, so they load with the screen.
defineMessages({
  'users.title': { zh: '用户', en: 'Users' },
  'settings.title': { zh: '设置', en: 'Settings' },
  'config.mqtt': { zh: 'MQTT 配置', en: 'MQTT' },
  'config.log': { zh: '日志', en: 'Log' },
  'config.monitoring': { zh: '监控', en: 'Monitoring' },
  'config.limiter': { zh: '速率限制', en: 'Limiter' },
  'listener.title': { zh: '监听器', en: 'Listeners' },
  'listener.detail': { zh: '监听器设置', en: 'Listener settings' },
  'config.general': { zh: '通用', en: 'General' },
  'config.session': { zh: '会话', en: 'Session' },
  'config.retainer': { zh: '保留消息', en: 'Retainer' },
  'config.systemTopic': { zh: '系统主题', en: 'System Topic' },
  'config.alarmSettings': { zh: '告警设置', en: 'Alarm Settings' },
  'config.integration': { zh: '监控集成', en: 'Integration' },
  'cluster.title': { zh: '集群', en: 'Cluster' },
  'config.basic': { zh: '基础配置', en: 'Basic Config' },
  'license.title': { zh: 'License', en: 'License' },
  'auditLog.title': { zh: '审计日志', en: 'Audit Log' },
  'history.title': { zh: '配置历史', en: 'Configuration history' },
});

/** The broker configuration screens share one lazy chunk (config/screens.ts); users and settings another (screens.ts). */
const screen = (name: keyof typeof import('./config/screens.ts')) => fromFolder(() => import('./config/screens.ts'), name);
const own = (name: keyof typeof import('./screens.ts')) => fromFolder(() => import('./screens.ts'), name);

export const system: Feature = {
  redirects: {
    '/mqtt': '/mqtt/general',
    '/monitoring': '/monitoring/alarm-settings',
  },
  screens: [
    { path: '/users', title: 'users.title', load: own('UsersPage'), menu: { group: 'management', order: 105 } },
    { path: '/settings', title: 'settings.title', load: own('SettingsPage'), menu: { group: 'system', order: 95 } },
    // Broker configuration (issue #8): config/pages.ts declares each page.
    { path: '/mqtt/general', title: 'config.mqtt', load: screen('MqttPage'), menu: { group: 'system', order: 20 } },
    { path: '/mqtt/session', title: 'config.session', load: screen('MqttPage'), parent: '/mqtt/general' },
    { path: '/mqtt/retainer', title: 'config.retainer', load: screen('MqttPage'), parent: '/mqtt/general' },
    { path: '/mqtt/system-topic', title: 'config.systemTopic', load: screen('MqttPage'), parent: '/mqtt/general' },
    { path: '/log', title: 'config.log', load: screen('LogPage'), menu: { group: 'system', order: 30 } },
    { path: '/limiter', title: 'config.limiter', load: screen('LimiterPage'), menu: { group: 'system', order: 35 }, requires: 'globalLimiter' },
    { path: '/monitoring/alarm-settings', title: 'config.monitoring', load: screen('MonitoringPage'), menu: { group: 'system', order: 40 } },
    { path: '/listener', title: 'listener.title', load: screen('ListenersPage'), menu: { group: 'system', order: 25 } },
    { path: '/listener/detail/:id', title: 'listener.detail', load: screen('ListenerDetail'), parent: '/listener' },
    { path: '/monitoring/integration', title: 'config.integration', load: screen('MonitoringPage'), parent: '/monitoring/alarm-settings' },
    { path: '/basic-config', title: 'config.basic', load: screen('BasicConfigPage'), menu: { group: 'system', order: 10 } },
    { path: '/cluster', title: 'cluster.title', load: screen('ClusterPage'), menu: { group: 'system', order: 45 } },
    { path: '/license', title: 'license.title', load: screen('LicensePage'), menu: { group: 'system', order: 85 }, requires: 'license' },
    { path: '/config-history', title: 'history.title', load: own('ConfigHistoryPage'), menu: { group: 'system', order: 92 } },
    { path: '/audit', title: 'auditLog.title', load: screen('AuditPage'), menu: { group: 'system', order: 90 }, requires: 'audit' },
  ],
};
