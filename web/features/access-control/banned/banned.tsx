/**
 * Management > Banned clients as one declaration over `/banned` (emqx-api-part1 §14): paged
 * list (envelope B), add, delete one (`DELETE /banned/{as}/{who}`), clear all, and a link to
 * flapping detection, which bans clients itself.
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { isEmpty, type Rule } from '../../../lib/validators.ts';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import './messages.ts';

export interface Ban {
  as: string;
  who: string;
  by?: string;
  reason?: string;
  at?: string;
  until?: string;
}

const AS = ['clientid', 'username', 'peerhost'];
const notPast: Rule = (value) => (isEmpty(value) || new Date(String(value)).getTime() > Date.now() ? undefined : t('banned.untilPast'));
const asText = (as: string) => (AS.includes(as) ? t(`banned.asOpt.${as}`) : as);

export const banned: ResourceDecl<Ban> = {
  name: 'banned',
  title: 'accessControl.banned',
  rowKey: (b) => `${b.as}:${b.who}`,
  list: pageList<Ban>('/banned'),
  empty: 'banned.empty',
  columns: [
    { key: 'as', title: 'banned.as', text: (b) => asText(b.as) },
    { key: 'who', title: 'banned.who' },
    { key: 'reason', title: 'banned.reason' },
    { key: 'by', title: 'banned.by', optional: true, hidden: true },
    { key: 'at', title: 'banned.at', optional: true, text: (b) => formatDateTime(b.at, '—') },
    { key: 'until', title: 'banned.until', text: (b) => (b.until === 'infinity' ? t('banned.never') : formatDateTime(b.until, '—')) },
  ],
  createLabel: 'banned.create',
  create: {
    title: 'banned.createTitle', success: 'banned.created',
    fields: [
      { name: 'as', label: 'banned.as', kind: 'select', options: AS.map((value) => ({ value, label: `banned.asOpt.${value}` })) },
      { name: 'who', label: 'banned.who', required: true, requiredMessage: 'banned.valueRequired' },
      { name: 'reason', label: 'banned.reason', kind: 'textarea' },
      { name: 'until', label: 'banned.until', kind: 'datetime', rules: [notPast], help: 'banned.untilHelp' },
    ],
    submit: (v) => api.post('/banned', { as: v.as, who: String(v.who).trim(), reason: v.reason ?? '', ...(v.until ? { until: v.until } : {}) }),
  },
  actions: [
    { key: 'delete', label: 'common.delete', danger: true, confirm: 'banned.confirmDelete', success: 'banned.deleted',
      run: (b) => api.del(`/banned/${encodeURIComponent(b.as)}/${encodeURIComponent(b.who)}`) },
  ],
  tools: [
    { key: 'flapping', label: 'banned.flapping', href: '/flapping-detect', run: async () => undefined },
    { key: 'clear', label: 'common.clearAll', danger: true, confirm: 'banned.confirmClear', success: 'banned.cleared', run: () => api.del('/banned') },
  ],
};
