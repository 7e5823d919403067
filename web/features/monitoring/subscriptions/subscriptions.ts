/**
 * Monitoring > Subscriptions as one declaration: `GET /subscriptions` (envelope A) filtered by
 * node, clientid, topic, match_topic, qos and share_group, EMQX's own parameter names.
 */
import { t } from '../../../lib/i18n.ts';
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { nodeOptions } from '../clients/nodeOptions.ts';
import './messages.ts';

export interface Subscription {
  clientid: string;
  topic: string;
  qos: number;
  node: string | null;
  nl?: number;
  rap?: number;
  rh?: number;
}

/** The group of a shared subscription, which EMQX reports as `$share/<group>/<filter>`. */
export const shareName = (topic: string) => /^\$share\/([^/]+)\//.exec(topic)?.[1] ?? '';
const yesNo = (flag: unknown) => t(flag ? 'common.yes' : 'common.no');

export const subscriptions: ResourceDecl<Subscription> = {
  name: 'subscriptions',
  title: 'monitoring.subscriptions',
  // A client holds one subscription per topic filter.
  rowKey: (s) => JSON.stringify([s.clientid, s.topic]),
  list: pageList<Subscription>('/subscriptions'),
  empty: 'subscription.empty',
  columns: [
    { key: 'clientid', title: 'subscription.clientid', link: (s) => `/clients/detail/${encodeURIComponent(s.clientid)}` },
    { key: 'topic', title: 'subscription.topic' },
    { key: 'qos', title: 'subscription.qos' },
    { key: 'node', title: 'subscription.node', optional: true },
    { key: 'nl', title: 'subscription.nl', text: (s) => yesNo(s.nl), optional: true },
    { key: 'rap', title: 'subscription.rap', text: (s) => yesNo(s.rap), optional: true },
    { key: 'rh', title: 'subscription.rh', optional: true },
    { key: 'share', title: 'subscription.shareGroup', text: (s) => shareName(s.topic) || '—', optional: true },
  ],
  filters: [
    { name: 'node', label: 'subscription.node', kind: 'select', options: [{ value: '', label: 'subscription.allNodes' }], loadOptions: nodeOptions },
    { name: 'clientid', label: 'subscription.clientid' },
    { name: 'topic', label: 'subscription.topic' },
    { name: 'match_topic', label: 'subscription.matchTopic' },
    {
      name: 'qos', label: 'subscription.qos', kind: 'select',
      options: [{ value: '', label: 'subscription.allQos' }, ...['0', '1', '2'].map((q) => ({ value: q, label: `QoS ${q}` }))],
    },
    { name: 'share_group', label: 'subscription.shareGroup' },
  ],
};
