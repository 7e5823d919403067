/**
 * Words for MQTT result codes: MQTT 3.1.1 CONNACK return codes and MQTT 5 reason codes, so the
 * console never shows a bare number. It only labels codes; deciding what to do with them is the caller's.
 */
import { defineMessages, hasMessage, t } from './i18n';

defineMessages({
  // MQTT 3.1.1 §3.2.2.3, table 3.1.
  'mqtt.connack.0': { zh: '连接已接受', en: 'Connection accepted' },
  'mqtt.connack.1': { zh: '连接被拒绝：不支持的协议版本', en: 'Connection refused: unacceptable protocol version' },
  'mqtt.connack.2': { zh: '连接被拒绝：客户端标识符不合格', en: 'Connection refused: identifier rejected' },
  'mqtt.connack.3': { zh: '连接被拒绝：服务端不可用', en: 'Connection refused: server unavailable' },
  'mqtt.connack.4': { zh: '连接被拒绝：用户名或密码错误', en: 'Connection refused: bad username or password' },
  'mqtt.connack.5': { zh: '连接被拒绝：未授权', en: 'Connection refused: not authorized' },
  'mqtt.connack.unknown': { zh: '未知的连接返回码 {{code}}', en: 'Unknown connect return code {{code}}' },

  // MQTT 5 §2.4, table 2-6. 0x00 reads differently per packet, see reasonCodeLabel.
  'mqtt.reason.0x00': { zh: '成功', en: 'Success' },
  'mqtt.reason.normalDisconnection': { zh: '正常断开连接', en: 'Normal disconnection' },
  'mqtt.reason.grantedQos0': { zh: '授予 QoS 0', en: 'Granted QoS 0' },
  'mqtt.reason.0x01': { zh: '授予 QoS 1', en: 'Granted QoS 1' },
  'mqtt.reason.0x02': { zh: '授予 QoS 2', en: 'Granted QoS 2' },
  'mqtt.reason.0x04': { zh: '断开连接并发送遗嘱消息', en: 'Disconnect with Will Message' },
  'mqtt.reason.0x10': { zh: '没有匹配的订阅者', en: 'No matching subscribers' },
  'mqtt.reason.0x11': { zh: '订阅不存在', en: 'No subscription existed' },
  'mqtt.reason.0x18': { zh: '继续认证', en: 'Continue authentication' },
  'mqtt.reason.0x19': { zh: '重新认证', en: 'Re-authenticate' },
  'mqtt.reason.0x80': { zh: '未指明的错误', en: 'Unspecified error' },
  'mqtt.reason.0x81': { zh: '报文格式错误', en: 'Malformed Packet' },
  'mqtt.reason.0x82': { zh: '协议错误', en: 'Protocol Error' },
  'mqtt.reason.0x83': { zh: '实现特定的错误', en: 'Implementation specific error' },
  'mqtt.reason.0x84': { zh: '不支持的协议版本', en: 'Unsupported Protocol Version' },
  'mqtt.reason.0x85': { zh: '客户端标识符无效', en: 'Client Identifier not valid' },
  'mqtt.reason.0x86': { zh: '用户名或密码错误', en: 'Bad User Name or Password' },
  'mqtt.reason.0x87': { zh: '未授权', en: 'Not authorized' },
  'mqtt.reason.0x88': { zh: '服务端不可用', en: 'Server unavailable' },
  'mqtt.reason.0x89': { zh: '服务端繁忙', en: 'Server busy' },
  'mqtt.reason.0x8A': { zh: '已被禁止', en: 'Banned' },
  'mqtt.reason.0x8B': { zh: '服务端正在关闭', en: 'Server shutting down' },
  'mqtt.reason.0x8C': { zh: '认证方法错误', en: 'Bad authentication method' },
  'mqtt.reason.0x8D': { zh: '保活超时', en: 'Keep Alive timeout' },
  'mqtt.reason.0x8E': { zh: '会话被接管', en: 'Session taken over' },
  'mqtt.reason.0x8F': { zh: '主题过滤器无效', en: 'Topic Filter invalid' },
  'mqtt.reason.0x90': { zh: '主题名无效', en: 'Topic Name invalid' },
  'mqtt.reason.0x91': { zh: '报文标识符已被占用', en: 'Packet Identifier in use' },
  'mqtt.reason.0x92': { zh: '报文标识符不存在', en: 'Packet Identifier not found' },
  'mqtt.reason.0x93': { zh: '超出接收最大值', en: 'Receive Maximum exceeded' },
  'mqtt.reason.0x94': { zh: '主题别名无效', en: 'Topic Alias invalid' },
  'mqtt.reason.0x95': { zh: '报文过长', en: 'Packet too large' },
  'mqtt.reason.0x96': { zh: '消息速率过高', en: 'Message rate too high' },
  'mqtt.reason.0x97': { zh: '超出配额', en: 'Quota exceeded' },
  'mqtt.reason.0x98': { zh: '管理操作', en: 'Administrative action' },
  'mqtt.reason.0x99': { zh: '载荷格式无效', en: 'Payload format invalid' },
  'mqtt.reason.0x9A': { zh: '不支持保留消息', en: 'Retain not supported' },
  'mqtt.reason.0x9B': { zh: '不支持该 QoS', en: 'QoS not supported' },
  'mqtt.reason.0x9C': { zh: '请使用其他服务端', en: 'Use another server' },
  'mqtt.reason.0x9D': { zh: '服务端已迁移', en: 'Server moved' },
  'mqtt.reason.0x9E': { zh: '不支持共享订阅', en: 'Shared Subscriptions not supported' },
  'mqtt.reason.0x9F': { zh: '超出连接速率限制', en: 'Connection rate exceeded' },
  'mqtt.reason.0xA0': { zh: '超出最大连接时间', en: 'Maximum connect time' },
  'mqtt.reason.0xA1': { zh: '不支持订阅标识符', en: 'Subscription Identifiers not supported' },
  'mqtt.reason.0xA2': { zh: '不支持通配符订阅', en: 'Wildcard Subscriptions not supported' },
  'mqtt.reason.unknown': { zh: '未知的原因码 0x{{hex}}', en: 'Unknown reason code 0x{{hex}}' },
});

/** The message key of an MQTT 5 reason code: `mqtt.reason.0x8A` (two upper-case hex digits). */
export function reasonCodeKey(code: number): string {
  return `mqtt.reason.0x${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** The label of an MQTT 3.1.1 CONNACK return code (0–5), or a generic one for any other number. */
export function connackLabel(code: number): string {
  return Number.isInteger(code) && code >= 0 && code <= 5 ? t(`mqtt.connack.${code}`) : t('mqtt.connack.unknown', { code });
}

/**
 * The label of an MQTT 5 reason code; `packet` picks the meaning of 0x00, which is 'Granted QoS 0'
 * in SUBACK and 'Normal disconnection' in DISCONNECT (MQTT 5 §2.4).
 */
export function reasonCodeLabel(code: number, packet?: 'suback' | 'disconnect'): string {
  if (code === 0 && packet === 'suback') return t('mqtt.reason.grantedQos0');
  if (code === 0 && packet === 'disconnect') return t('mqtt.reason.normalDisconnection');
  const valid = Number.isInteger(code) && code >= 0 && code <= 0xff;
  if (valid && hasMessage(reasonCodeKey(code))) return t(reasonCodeKey(code));
  const hex = valid ? code.toString(16).toUpperCase().padStart(2, '0') : String(code);
  return t('mqtt.reason.unknown', { hex });
}
