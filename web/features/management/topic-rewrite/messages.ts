/** Texts of the Topic rewrite screen. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'topicRewrite.action': { zh: '动作', en: 'Action' },
  'topicRewrite.actionPublish': { zh: '发布', en: 'Publish' },
  'topicRewrite.actionSubscribe': { zh: '订阅', en: 'Subscribe' },
  'topicRewrite.actionAll': { zh: '全部', en: 'All' },
  'topicRewrite.sourceTopic': { zh: '源主题', en: 'Source Topic' },
  'topicRewrite.destTopic': { zh: '目标主题', en: 'Destination Topic' },
  'topicRewrite.re': { zh: '正则表达式', en: 'Regex' },
  'topicRewrite.sourceHelp': { zh: '主题过滤器，可使用通配符 + 和 #', en: 'A topic filter; the wildcards + and # are allowed' },
  'topicRewrite.reHelp': { zh: '对整个主题匹配，捕获组依次为 $1、$2 …', en: 'Matched against the whole topic; its groups are $1, $2 …' },
  'topicRewrite.destHelp': {
    zh: '可使用 $1、$2 …（正则捕获组）以及 ${clientid}、${username}',
    en: 'May use $1, $2 … (the regex groups), ${clientid} and ${username}',
  },
  'topicRewrite.badRegex': { zh: '正则表达式无效：{{reason}}', en: 'The regex does not compile: {{reason}}' },
  'topicRewrite.destWildcard': {
    zh: "发布或全部动作的目标主题不能包含 '#' 或 '+'",
    en: "The destination of a publish or all rule cannot contain '#' or '+'",
  },
  'topicRewrite.create': { zh: '添加规则', en: 'Add Rule' },
  'topicRewrite.edit': { zh: '编辑规则', en: 'Edit Rule' },
  'topicRewrite.created': { zh: '规则已添加', en: 'Rule added' },
  'topicRewrite.updated': { zh: '规则已更新', en: 'Rule updated' },
  'topicRewrite.deleted': { zh: '规则已删除', en: 'Rule deleted' },
  'topicRewrite.confirmDelete': { zh: '确定删除这条主题重写规则吗？', en: 'Delete this topic rewrite rule?' },
  'topicRewrite.empty': { zh: '暂无主题重写规则', en: 'No topic rewrite rules yet' },
  'topicRewrite.order': {
    zh: '多条规则的源主题都匹配时，使用列表中靠后的那一条；若其正则表达式不匹配，主题保持不变。授权检查使用重写前的主题。',
    en: 'When several source topics match, the rule lowest in the list is used; if its regex does not match, the topic stays as it is. Authorization checks the topic before rewriting.',
  },
});
