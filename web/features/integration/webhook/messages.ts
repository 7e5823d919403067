/** Texts of the webhook screens (emqx-api-part2 §7). */
import { defineMessages } from '../../../lib/i18n.ts';

defineMessages({
  'webhook.name': { zh: '名称', en: 'Name' },
  'webhook.triggers': { zh: '触发器（主题或 $events/ 事件，每行一个）', en: 'Triggers (topics or $events/ events, one per line)' },
  'webhook.triggerList': { zh: '触发器', en: 'Triggers' },
  'webhook.url': { zh: '请求 URL', en: 'URL' },
  'webhook.method': { zh: '请求方法', en: 'Method' },
  'webhook.headers': { zh: '请求头（JSON）', en: 'Headers (JSON)' },
  'webhook.body': { zh: '请求体（模板，留空发送全部字段）', en: 'Body (template; empty sends every selected field)' },
  'webhook.description': { zh: '描述', en: 'Description' },
  'webhook.status': { zh: '状态', en: 'Status' },
  'webhook.enable': { zh: '启用', en: 'Enable' },
  'webhook.empty': { zh: '暂无 Webhook', en: 'No webhooks yet' },
  'webhook.created': { zh: 'Webhook 已创建', en: 'Webhook created' },
  'webhook.updated': { zh: 'Webhook 已更新', en: 'Webhook updated' },
  'webhook.deleted': { zh: 'Webhook 已删除', en: 'Webhook deleted' },
  'webhook.confirmDelete': { zh: '确定删除 Webhook {{key}}？其规则、动作与连接器将一并删除。', en: 'Delete the webhook {{key}}? Its rule, action and connector are deleted with it.' },
  'webhook.confirmDisable': { zh: '确定禁用 Webhook {{key}}？', en: 'Disable the webhook {{key}}?' },
  'webhook.notFound': { zh: '没有名为 {{name}} 的 Webhook', en: 'There is no webhook named {{name}}' },
});
