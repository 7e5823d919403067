/** Texts of the flapping detection settings. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'flapping.enable': { zh: '启用', en: 'Enable' },
  'flapping.enableHelp': { zh: '客户端在时间窗口内断开次数超过上限时，将被封禁一段时间', en: 'A client that disconnects more often than the limit within the window is banned for the ban time' },
  'flapping.windowTime': { zh: '时间窗口', en: 'Window Time' },
  'flapping.maxCount': { zh: '最大断开次数', en: 'Max Disconnections' },
  'flapping.maxCountHelp': { zh: '窗口内允许的最大断开次数', en: 'Disconnections allowed within the window' },
  'flapping.banTime': { zh: '封禁时长', en: 'Ban Time' },
  'flapping.backToBanned': { zh: '返回黑名单', en: 'Back to Banned Clients' },
  'flapping.saved': { zh: '设置已保存', en: 'Settings saved' },
});
