/**
 * Management > Topic rewrite as one declaration over `GET /mqtt/topic_rewrite`, a bare list that
 * `PUT /mqtt/topic_rewrite` replaces whole (emqx-api-part1 §17): every write re-reads the list,
 * changes one rule and puts the list back.
 */
import { t } from '../../../lib/i18n.ts';
import { isEmpty, topicFilter, topicName, type Rule } from '../../../lib/validators.ts';
import type { FieldDecl, ResourceDecl } from '../../../ui/resource.ts';
import { wholeList } from '../../../ui/wholeList.ts';
import './messages.ts';

export interface RewriteRule {
  action: 'publish' | 'subscribe' | 'all';
  source_topic: string;
  dest_topic: string;
  re: string;
}

const rules = wholeList<RewriteRule>('/mqtt/topic_rewrite');
const ACTIONS = { publish: 'topicRewrite.actionPublish', subscribe: 'topicRewrite.actionSubscribe', all: 'topicRewrite.actionAll' };

/** The regex must compile (EMQX refuses it otherwise); JavaScript's RegExp stands in for PCRE. */
export const compiles: Rule = (value) => {
  if (isEmpty(value)) return undefined;
  try {
    new RegExp(String(value));
    return undefined;
  } catch (error) {
    // V8 repeats the pattern ("Invalid regular expression: /…/: Unterminated group"); keep the reason.
    return t('topicRewrite.badRegex', { reason: (error as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /s, '') });
  }
};

/** Subscribe rules may rewrite to a filter; publish and all rules need a topic name. */
const destination: Rule = (value, values) => {
  if (values.action === 'subscribe') return topicFilter(value, values);
  const problem = topicName(value, values);
  return problem && /[#+]/.test(String(value)) ? t('topicRewrite.destWildcard') : problem;
};

const fields: FieldDecl[] = [
  { name: 'action', label: 'topicRewrite.action', kind: 'select', options: Object.entries(ACTIONS).map(([value, label]) => ({ value, label })) },
  { name: 'source_topic', label: 'topicRewrite.sourceTopic', required: true, rules: [topicFilter], placeholder: 'x/#', help: 'topicRewrite.sourceHelp' },
  { name: 're', label: 'topicRewrite.re', required: true, rules: [compiles], placeholder: '^x/(.+)$', help: 'topicRewrite.reHelp' },
  { name: 'dest_topic', label: 'topicRewrite.destTopic', required: true, rules: [destination], placeholder: 'y/$1', help: 'topicRewrite.destHelp' },
];

const ruleOf = (v: Record<string, unknown>): RewriteRule =>
  ({ action: v.action as RewriteRule['action'], source_topic: String(v.source_topic), dest_topic: String(v.dest_topic), re: String(v.re) });

export const topicRewrite: ResourceDecl<RewriteRule> = {
  name: 'topic-rewrite',
  title: 'management.topicRewrite',
  rowKey: (r) => `${r.action} ${r.source_topic} ${r.re} ${r.dest_topic}`,
  list: rules.list,
  empty: 'topicRewrite.empty',
  columns: [
    { key: 'action', title: 'topicRewrite.action', text: (r) => t(ACTIONS[r.action] ?? r.action) },
    { key: 'source_topic', title: 'topicRewrite.sourceTopic' },
    { key: 're', title: 'topicRewrite.re', text: (r) => <code>{r.re}</code> },
    { key: 'dest_topic', title: 'topicRewrite.destTopic' },
  ],
  createLabel: 'topicRewrite.create',
  create: { title: 'topicRewrite.create', success: 'topicRewrite.created', fields, submit: (v) => rules.add(ruleOf(v)) },
  actions: [
    {
      key: 'edit', label: 'common.edit',
      form: { title: 'topicRewrite.edit', success: 'topicRewrite.updated', fields, initial: (r) => ({ ...r }), submit: (v, r) => rules.replace(r!, ruleOf(v)) },
    },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'topicRewrite.confirmDelete', success: 'topicRewrite.deleted', run: (r) => rules.remove(r) },
  ],
};
