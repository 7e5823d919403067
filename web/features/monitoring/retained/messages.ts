/** Texts of the retained messages screen. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'retained.topic': { zh: '主题', en: 'Topic' },
  'retained.topicFilter': { zh: '主题过滤器，如 t/#', en: 'Topic filter, e.g. t/#' },
  'retained.qos': { zh: 'QoS', en: 'QoS' },
  'retained.fromClientid': { zh: '来源客户端 ID', en: 'From client ID' },
  'retained.fromUsername': { zh: '来源用户名', en: 'From username' },
  'retained.publishAt': { zh: '发布时间', en: 'Published at' },
  'retained.msgid': { zh: '消息 ID', en: 'Message ID' },
  'retained.payloadSize': { zh: '消息体大小', en: 'Payload size' },
  'retained.payload': { zh: '消息体', en: 'Payload' },
  'retained.view': { zh: '查看消息', en: 'View payload' },
  'retained.viewTitle': { zh: '保留消息详情', en: 'Retained message' },
  'retained.payloadOmitted': {
    zh: '消息体超过 1 MB，服务器未返回内容，不予显示',
    en: 'The payload is over 1 MB: the broker does not send it and it is not shown',
  },
  'retained.confirmDelete': { zh: '确认删除主题 {{key}} 的保留消息？', en: 'Delete the retained message of topic {{key}}?' },
  'retained.deleted': { zh: '保留消息已删除', en: 'Retained message deleted' },
  'retained.confirmClear': {
    zh: '确认清除全部保留消息？所有主题的保留消息都将被删除，且不可恢复。',
    en: 'Clear all retained messages? The retained message of every topic is deleted; this cannot be undone.',
  },
  'retained.cleared': { zh: '保留消息已全部清除', en: 'All retained messages cleared' },
  'retained.settings': { zh: '保留消息设置', en: 'Retainer settings' },
  'retained.empty': { zh: '暂无保留消息', en: 'No retained messages' },
});
