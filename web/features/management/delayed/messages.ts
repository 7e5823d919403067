/** Texts of the Delayed publish screens (messages and settings). */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'delayed.originalTopic': { zh: '原始主题', en: 'Original Topic' },
  'delayed.destTopic': { zh: '目标主题', en: 'Destination Topic' },
  'delayed.qos': { zh: 'QoS', en: 'QoS' },
  'delayed.interval': { zh: '延迟时间', en: 'Delay' },
  'delayed.remaining': { zh: '剩余时间', en: 'Remaining Time' },
  'delayed.publishAt': { zh: '发布时间', en: 'Publish Time' },
  'delayed.expectedAt': { zh: '预计发布时间', en: 'Expected At' },
  'delayed.fromClientid': { zh: '来源客户端 ID', en: 'From Client ID' },
  'delayed.fromUsername': { zh: '来源用户名', en: 'From Username' },
  'delayed.node': { zh: '节点', en: 'Node' },
  'delayed.msgid': { zh: '消息 ID', en: 'Message ID' },
  'delayed.payload': { zh: '消息内容', en: 'Payload' },
  'delayed.viewPayload': { zh: '查看消息', en: 'View Payload' },
  'delayed.payloadTooLarge': {
    zh: '消息内容超过 2 KB，Broker 不返回其内容',
    en: 'The payload is larger than 2 KB: the broker does not return it',
  },
  'delayed.due': { zh: '发布中…', en: 'Publishing…' },
  'delayed.deleted': { zh: '延迟消息已删除', en: 'Delayed message deleted' },
  'delayed.confirmDelete': { zh: '确定删除这条延迟消息吗？它将不会被发布。', en: 'Delete this delayed message? It will not be published.' },
  'delayed.empty': {
    zh: '暂无延迟消息。发布到 $delayed/{秒数}/{主题} 的消息会在此等待发布。',
    en: 'No delayed messages. Messages published to $delayed/{seconds}/{topic} wait here until they are due.',
  },
  'delayed.settings': { zh: '设置', en: 'Settings' },
  'delayed.enable': { zh: '启用延迟发布', en: 'Enable delayed publish' },
  'delayed.enableHelp': { zh: '禁用时将删除所有延迟消息', en: 'Disabling deletes every delayed message' },
  'delayed.max': { zh: '最大延迟消息数', en: 'Max Delayed Messages' },
  'delayed.maxHelp': { zh: '0 表示不限；达到上限后新的延迟消息将被丢弃', en: '0 means unlimited; once reached, new delayed messages are dropped' },
  'delayed.maxInvalid': { zh: '请输入大于或等于 0 的整数', en: 'Enter a whole number, 0 or more' },
  'delayed.confirmDisable': {
    zh: '禁用延迟发布将删除所有尚未发布的延迟消息，确定禁用吗？',
    en: 'Disabling delayed publish deletes every delayed message not yet published. Disable it?',
  },
  'delayed.saved': { zh: '设置已保存', en: 'Settings saved' },
});
