/** Texts of the banned clients screen. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'banned.as': { zh: '封禁对象类型', en: 'Ban By' },
  'banned.asOpt.clientid': { zh: '客户端 ID', en: 'Client ID' },
  'banned.asOpt.username': { zh: '用户名', en: 'Username' },
  'banned.asOpt.peerhost': { zh: 'IP 地址', en: 'IP Address' },
  'banned.who': { zh: '封禁对象', en: 'Value' },
  'banned.valueRequired': { zh: '请输入封禁对象', en: 'Value is required' },
  'banned.reason': { zh: '原因', en: 'Reason' },
  'banned.at': { zh: '开始时间', en: 'Start Time' },
  'banned.until': { zh: '结束时间', en: 'End Time' },
  'banned.untilHelp': { zh: '留空则使用 Broker 默认值', en: "Leave empty for the broker's default" },
  'banned.by': { zh: '操作者', en: 'By' },
  'banned.never': { zh: '永不过期', en: 'Never' },
  'banned.untilPast': { zh: '封禁结束时间不能早于当前时间', en: 'Ban end time cannot be earlier than now' },
  'banned.create': { zh: '添加', en: 'Add' },
  'banned.createTitle': { zh: '添加到黑名单', en: 'Add a Banned Client' },
  'banned.created': { zh: '客户端已封禁', en: 'Client banned' },
  'banned.deleted': { zh: '已解除封禁', en: 'Ban removed' },
  'banned.confirmDelete': { zh: '确定解除对 {{key}} 的封禁？', en: 'Remove the ban on {{key}}?' },
  'banned.confirmClear': { zh: '确定清除全部黑名单？', en: 'Clear every ban?' },
  'banned.cleared': { zh: '黑名单已清空', en: 'All bans cleared' },
  'banned.empty': { zh: '黑名单为空', en: 'No banned clients' },
  'banned.flapping': { zh: '连接抖动检测', en: 'Flapping Detect' },
});
