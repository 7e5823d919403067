/**
 * Monitoring: the cluster dashboard (overview, nodes, metrics), clients, subscriptions and
 * topics, retained messages and alarms. Screen texts live in each folder's messages.ts.
 */
import { has } from '../../lib/broker.ts';
import { fromFolder, type Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the first chunk).
defineMessages({
  'monitoring.overview': { zh: '集群概览', en: 'Cluster Overview' },
  'monitoring.nodes': { zh: '节点', en: 'Nodes' },
  'monitoring.nodeDetail': { zh: '节点详情', en: 'Node details' },
  'monitoring.metrics': { zh: '指标', en: 'Metrics' },
  'monitoring.clients': { zh: '客户端', en: 'Clients' },
  'monitoring.clientDetail': { zh: '客户端详情', en: 'Client details' },
  'monitoring.subscriptions': { zh: '订阅', en: 'Subscriptions' },
  'monitoring.topics': { zh: '主题', en: 'Topics' },
  'monitoring.retained': { zh: '保留消息', en: 'Retained Messages' },
  'monitoring.alarms': { zh: '告警', en: 'Alarms' },
  'monitoring.activeAlarms': { zh: '当前告警', en: 'Active' },
  'monitoring.historyAlarms': { zh: '历史告警', en: 'History' },
  'monitoring.topicMetrics': { zh: '主题监控', en: 'Topic Metrics' },
  'monitoring.slowSubscriptions': { zh: '慢订阅', en: 'Slow Subscriptions' },
  'monitoring.slowSubSettings': { zh: '慢订阅设置', en: 'Slow subscription settings' },
});

/** The clients, subscriptions, retained, alarms, topic metrics and slow subscriptions screens as one lazy chunk; the dashboard keeps its own */
const screen = (name: keyof typeof import('./screens.ts')) => fromFolder(() => import('./screens.ts'), name);

export const monitoring: Feature = {
  redirects: {
    '/dashboard': '/dashboard/overview',
    '/subscriptions': '/subscriptions/subscription',
    '/alarm': '/alarm/current-alarm',
  },
  screens: [
    {
      path: '/dashboard/overview', title: 'monitoring.overview', load: fromFolder(() => import('./dashboard/screens.ts'), 'Overview'), menu: { group: 'monitoring', order: 10 },
      // Its cards, charts at their first range (RANGES[0], dashboard/monitor.ts), node list and
      // license, in the order they are shown: the broker answers them in that order, and the
      // charts, the most work to draw, come before the short list.
      requests: () => [['/monitor_current'], ['/monitor', { latest: 3600 }], ['/nodes'], ...(has('license') ? [['/license'] as [string]] : [])],
    },
    { path: '/dashboard/nodes', title: 'monitoring.nodes', load: fromFolder(() => import('./dashboard/screens.ts'), 'NodesPage'), menu: { group: 'system', order: 80 }, tabOf: '/dashboard/overview' },
    { path: '/dashboard/nodes/:node', title: 'monitoring.nodeDetail', load: fromFolder(() => import('./dashboard/screens.ts'), 'NodeDetail'), parent: '/dashboard/nodes' },
    { path: '/dashboard/metrics', title: 'monitoring.metrics', load: fromFolder(() => import('./dashboard/screens.ts'), 'MetricsPage'), parent: '/dashboard/overview' },
    { path: '/clients', title: 'monitoring.clients', load: screen('ClientsPage'), menu: { group: 'monitoring', order: 20 } },
    { path: '/clients/detail/:clientId', title: 'monitoring.clientDetail', load: screen('ClientDetail'), parent: '/clients' },
    { path: '/subscriptions/subscription', title: 'monitoring.subscriptions', load: screen('SubscriptionsPage'), menu: { group: 'monitoring', order: 30 } },
    { path: '/subscriptions/topics', title: 'monitoring.topics', load: screen('TopicsPage'), menu: { group: 'monitoring', order: 40 } },
    { path: '/retained', title: 'monitoring.retained', load: screen('RetainedPage'), menu: { group: 'monitoring', order: 50 } },
    { path: '/alarm/current-alarm', title: 'monitoring.alarms', load: screen('AlarmsPage'), menu: { group: 'monitoring', order: 60 } },
    { path: '/topic-metrics', title: 'monitoring.topicMetrics', load: screen('TopicMetricsPage'), menu: { group: 'monitoring', order: 70 } },
    { path: '/slow-sub', title: 'monitoring.slowSubscriptions', load: screen('SlowSubsPage'), menu: { group: 'monitoring', order: 80 } },
    { path: '/slow-sub/config', title: 'monitoring.slowSubSettings', load: screen('SlowSubsSettings'), parent: '/slow-sub' },
    { path: '/alarm/history-alarm', title: 'monitoring.historyAlarms', load: screen('AlarmsPage'), parent: '/alarm/current-alarm' },
  ],
};
