/** Texts of the Auto subscribe screen. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'autoSubscribe.topic': { zh: '主题', en: 'Topic' },
  'autoSubscribe.qos': { zh: 'QoS', en: 'QoS' },
  'autoSubscribe.nl': { zh: 'No Local', en: 'No Local' },
  'autoSubscribe.rap': { zh: 'Retain as Published', en: 'Retain as Published' },
  'autoSubscribe.rh': { zh: 'Retain Handling', en: 'Retain Handling' },
  'autoSubscribe.rh0': { zh: '0 - 订阅时发送保留消息', en: '0 - send retained messages on subscribe' },
  'autoSubscribe.rh1': { zh: '1 - 仅新订阅时发送保留消息', en: '1 - send them only for a new subscription' },
  'autoSubscribe.rh2': { zh: '2 - 不发送保留消息', en: '2 - do not send retained messages' },
  'autoSubscribe.topicHelp': {
    zh: '可使用占位符 ${clientid}、${username}、${host}、${port}；需要用户名而客户端未提供时跳过该主题',
    en: 'Placeholders ${clientid}, ${username}, ${host} and ${port} are filled in per client; a topic needing a username the client did not give is skipped',
  },
  'autoSubscribe.repeated': { zh: '该主题已存在', en: 'Topic already exists' },
  'autoSubscribe.create': { zh: '添加主题', en: 'Add Topic' },
  'autoSubscribe.edit': { zh: '编辑主题', en: 'Edit Topic' },
  'autoSubscribe.created': { zh: '主题已添加', en: 'Topic added' },
  'autoSubscribe.updated': { zh: '主题已更新', en: 'Topic updated' },
  'autoSubscribe.deleted': { zh: '主题已删除', en: 'Topic deleted' },
  'autoSubscribe.confirmDelete': { zh: '确定删除自动订阅主题 {{key}} 吗？', en: 'Delete the auto subscribe topic {{key}}?' },
  'autoSubscribe.empty': { zh: '暂无自动订阅主题', en: 'No auto subscribe topics yet' },
  'autoSubscribe.note': {
    zh: '客户端连接成功后自动订阅以下主题，不经过授权检查，最多 20 个。修改只对之后连接的客户端生效。',
    en: 'Clients are subscribed to these topics once they have connected, without authorization checks; at most 20 topics. Changes apply to clients that connect afterwards.',
  },
});
