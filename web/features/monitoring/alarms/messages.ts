/** Texts of the alarms screen (active and history). */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'alarms.name': { zh: '告警名称', en: 'Name' },
  'alarms.node': { zh: '节点', en: 'Node' },
  'alarms.message': { zh: '告警信息', en: 'Message' },
  'alarms.level': { zh: '级别', en: 'Level' },
  'alarms.activateAt': { zh: '触发时间', en: 'Activated at' },
  'alarms.duration': { zh: '持续时间', en: 'Duration' },
  'alarms.deactivateAt': { zh: '解除时间', en: 'Deactivated at' },
  'alarms.details': { zh: '详情', en: 'Details' },
  'alarms.detailsTitle': { zh: '告警详情', en: 'Alarm details' },
  'alarms.noActive': { zh: '暂无活跃告警', en: 'No active alarms' },
  'alarms.noHistory': { zh: '暂无历史告警', en: 'No history alarms' },
  'alarms.clearHistory': { zh: '清除历史告警', en: 'Clear history' },
  'alarms.confirmClear': { zh: '确认清除全部历史告警？此操作不可恢复。', en: 'Clear all history alarms? This cannot be undone.' },
  'alarms.cleared': { zh: '历史告警已清除', en: 'History alarms cleared' },
});
