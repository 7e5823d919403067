/** Texts of the access check. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'accessCheck.intro': {
    zh: '以该客户端身份经 WebSocket 监听器（MQTT 5）连接 Broker，读取 Broker 的回答；短暂的日志追踪给出做出决定的来源，随后删除。',
    en: 'Connects as this client through the broker\'s WebSocket listener (MQTT 5) and reads its answers; a short log trace, deleted afterwards, names the deciding source.',
  },
  'accessCheck.existing': { zh: '已连接的客户端', en: 'As an existing client' },
  'accessCheck.clientid': { zh: '客户端 ID', en: 'Client ID' },
  'accessCheck.topic': { zh: '主题', en: 'Topic' },
  'accessCheck.subscribe': { zh: '检查订阅', en: 'Check subscribe' },
  'accessCheck.publish': { zh: '检查发布（真实发布一条 QoS 1 消息）', en: 'Check publish (sends a real QoS 1 message)' },
  'accessCheck.run': { zh: '开始检查', en: 'Run check' },
  'accessCheck.topicRequired': { zh: '请输入主题', en: 'Topic is required' },
  'accessCheck.confirmTakeover': {
    zh: '{{clientid}} 当前在线。检查会以同一客户端 ID 连接，Broker 会断开该客户端并丢弃其会话。继续吗？',
    en: '{{clientid}} is connected now. The check connects with the same client ID, so the broker disconnects that client and discards its session. Go on?',
  },
  'accessCheck.confirmPublish': {
    zh: '将以 {{clientid}} 的身份向 {{topic}} 真实发布一条 QoS 1 消息，订阅者会收到。继续吗？',
    en: 'A real QoS 1 message is published to {{topic}} as {{clientid}}; subscribers receive it. Go on?',
  },
  'accessCheck.noListener': { zh: 'Broker 没有启用的 ws 或 wss 监听器。', en: 'The broker has no enabled ws or wss listener.' },
  'accessCheck.details': { zh: '详情：原因码与追踪日志', en: 'Details: reason codes and trace lines' },
  'accessCheck.connected': { zh: '连接：认证通过（{{source}}）', en: 'Connect: authentication passed ({{source}})' },
  'accessCheck.authnFailed': { zh: '连接：认证失败，用户名或密码错误（{{source}}）', en: 'Connect: authentication failed, bad username or password ({{source}})' },
  'accessCheck.refused': { zh: '{{step}}：{{reason}}', en: '{{step}}: {{reason}}' },
  'accessCheck.noAnswer': { zh: '未及时回答', en: 'no answer in time' },
  'accessCheck.allowed': { zh: '{{step}} {{topic}}：允许，来源：{{source}}', en: '{{step}} {{topic}}: allowed by {{source}}' },
  'accessCheck.denied': { zh: '{{step}} {{topic}}：拒绝，来源：{{source}}', en: '{{step}} {{topic}}: denied by {{source}}' },
  'accessCheck.disconnected': { zh: 'Broker 断开了连接：{{reason}}', en: 'The broker closed the connection: {{reason}}' },
  'accessCheck.step.connect': { zh: '连接', en: 'Connect' },
  'accessCheck.step.subscribe': { zh: '订阅', en: 'Subscribe' },
  'accessCheck.step.publish': { zh: '发布', en: 'Publish' },
  'accessCheck.rule': { zh: '内置数据库规则“{{rule}}”（{{who}}）', en: 'built-in database rule \'{{rule}}\' for {{who}}' },
  'accessCheck.source.built_in_database': { zh: '内置数据库', en: 'built-in database' },
  'accessCheck.source.file': { zh: 'ACL 文件', en: 'the ACL file' },
  'accessCheck.source.http': { zh: 'HTTP 服务', en: 'the HTTP server' },
  'accessCheck.source.superuser': { zh: '超级用户', en: 'superuser' },
  'accessCheck.source.noMatch': { zh: '未匹配时的默认设置', en: 'the no-match setting' },
  'accessCheck.source.none': { zh: '匿名（无认证器决定）', en: 'anonymous, no authenticator decided' },
});
