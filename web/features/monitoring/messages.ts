/** Texts of the monitoring screens. */
import { defineMessages } from '../../lib/i18n.ts';

export const messages = defineMessages({
  'monitoring.nodes': { zh: '节点', en: 'Nodes' },
  'monitoring.runningNodes': { zh: '运行中 {{running}} / 共 {{total}}', en: '{{running}} running of {{total}}' },
  'monitoring.connections': { zh: '连接数', en: 'Connections' },
  'monitoring.liveConnections': { zh: '活跃连接', en: 'Live connections' },
  'monitoring.subscriptions': { zh: '订阅数', en: 'Subscriptions' },
  'monitoring.topics': { zh: '主题数', en: 'Topics' },
  'monitoring.retained': { zh: '保留消息', en: 'Retained messages' },
});
