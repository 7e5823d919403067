/**
 * Management > Auto subscribe as one declaration over `GET /mqtt/auto_subscribe`, a bare list
 * that `PUT /mqtt/auto_subscribe` replaces whole (emqx-api-part1 §17): every write re-reads the
 * list, changes one topic and puts the list back. Topics may hold per-client placeholders.
 */
import { t } from '../../../lib/i18n.ts';
import { topicFilter, type Rule } from '../../../lib/validators.ts';
import type { FieldDecl, ResourceDecl } from '../../../ui/resource.ts';
import { wholeList } from '../../../ui/wholeList.ts';
import './messages.ts';

export interface AutoSubscribeTopic {
  topic: string;
  qos: number;
  rh: number;
  rap: number;
  nl: number;
}

const topics = wholeList<AutoSubscribeTopic>('/mqtt/auto_subscribe');
const yesNo = (flag: number) => t(flag ? 'common.yes' : 'common.no');

// `was` is the topic being edited (kept in the form's values by `initial`), which may stay.
const notRepeated: Rule = (value, values) =>
  value !== values.was && topics.latest().some((s) => s.topic === value) ? t('autoSubscribe.repeated') : undefined;

const fields: FieldDecl[] = [
  { name: 'topic', label: 'autoSubscribe.topic', required: true, rules: [topicFilter, notRepeated], placeholder: 'client/${clientid}/cmd', help: 'autoSubscribe.topicHelp' },
  { name: 'qos', label: 'autoSubscribe.qos', kind: 'select', options: ['0', '1', '2'].map((v) => ({ value: v, label: v })) },
  { name: 'nl', label: 'autoSubscribe.nl', kind: 'switch' },
  { name: 'rap', label: 'autoSubscribe.rap', kind: 'switch' },
  { name: 'rh', label: 'autoSubscribe.rh', kind: 'select', options: ['0', '1', '2'].map((v) => ({ value: v, label: `autoSubscribe.rh${v}` })) },
];

// EMQX takes the options as integers: qos and rh 0–2, rap and nl 0/1.
const topicOf = (v: Record<string, unknown>): AutoSubscribeTopic =>
  ({ topic: String(v.topic), qos: Number(v.qos), rh: Number(v.rh), rap: v.rap ? 1 : 0, nl: v.nl ? 1 : 0 });

export const autoSubscribe: ResourceDecl<AutoSubscribeTopic> = {
  name: 'auto-subscribe',
  title: 'management.autoSubscribe',
  rowKey: (s) => s.topic,
  list: topics.list,
  empty: 'autoSubscribe.empty',
  columns: [
    { key: 'topic', title: 'autoSubscribe.topic' },
    { key: 'qos', title: 'autoSubscribe.qos' },
    { key: 'nl', title: 'autoSubscribe.nl', text: (s) => yesNo(s.nl) },
    { key: 'rap', title: 'autoSubscribe.rap', text: (s) => yesNo(s.rap) },
    { key: 'rh', title: 'autoSubscribe.rh' },
  ],
  createLabel: 'autoSubscribe.create',
  create: { title: 'autoSubscribe.create', success: 'autoSubscribe.created', fields, submit: (v) => topics.add(topicOf(v)) },
  actions: [
    {
      key: 'edit', label: 'common.edit',
      form: {
        title: 'autoSubscribe.edit', success: 'autoSubscribe.updated', fields,
        initial: (s) => ({ topic: s!.topic, qos: String(s!.qos), rh: String(s!.rh), rap: s!.rap === 1, nl: s!.nl === 1, was: s!.topic }),
        submit: (v, s) => topics.replace(s!, topicOf(v)),
      },
    },
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'autoSubscribe.confirmDelete', success: 'autoSubscribe.deleted', run: (s) => topics.remove(s) },
  ],
};
