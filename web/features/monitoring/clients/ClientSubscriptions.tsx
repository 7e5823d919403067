/**
 * One client's subscriptions (`GET /clients/{clientid}/subscriptions`, a bare array) declared for
 * the kit: subscribe with MQTT 5 options (`POST …/subscribe`), unsubscribe (`POST …/unsubscribe`).
 */
import { useMemo } from 'react';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { touch } from '../../../lib/resources.ts';
import { topicFilter } from '../../../lib/validators.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { clientPath } from './clients.ts';

export interface Subscription {
  topic: string;
  qos: number;
  nl?: number;
  rap?: number;
  rh?: number;
  node?: string;
}

const yesNo = (flag: unknown) => t(flag ? 'common.yes' : 'common.no');
const numbered = (values: string[]) => values.map((value) => ({ value, label: value }));

function declare(clientid: string): ResourceDecl<Subscription> {
  const base = clientPath(clientid);
  return {
    name: 'client-subscriptions',
    title: 'clients.subscriptions',
    rowKey: (s) => s.topic,
    list: arrayList<Subscription>(`${base}/subscriptions`),
    empty: 'clients.noSubscriptions',
    columns: [
      { key: 'topic', title: 'clients.topic' },
      { key: 'qos', title: 'clients.qos' },
      { key: 'nl', title: 'clients.nl', text: (s) => yesNo(s.nl) },
      { key: 'rap', title: 'clients.rap', text: (s) => yesNo(s.rap) },
      { key: 'rh', title: 'clients.rh' },
    ],
    createLabel: 'clients.addSubscription',
    create: {
      title: 'clients.addSubscription',
      success: 'clients.subscribed',
      fields: [
        { name: 'topic', label: 'clients.topic', rules: [topicFilter], placeholder: 't/#' },
        { name: 'qos', label: 'clients.qos', kind: 'select', options: numbered(['0', '1', '2']) },
        { name: 'nl', label: 'clients.nl', kind: 'switch' },
        { name: 'rap', label: 'clients.rap', kind: 'switch' },
        { name: 'rh', label: 'clients.rh', kind: 'select', options: ['0', '1', '2'].map((v) => ({ value: v, label: `clients.rh${v}` })) },
      ],
      // EMQX takes the MQTT 5 options as integers: nl and rap 0/1, rh 0-2.
      submit: ({ topic, qos, nl, rap, rh }) => api.post(`${base}/subscribe`, { topic, qos: Number(qos), nl: nl ? 1 : 0, rap: rap ? 1 : 0, rh: Number(rh) }),
      after: () => touch('client'),
    },
    actions: [
      {
        key: 'unsubscribe', label: 'clients.unsubscribe', danger: true, confirm: 'clients.confirmUnsubscribe', success: 'clients.unsubscribed',
        run: async (s) => {
          await api.post(`${base}/unsubscribe`, { topic: s.topic });
          touch('client');
        },
      },
    ],
  };
}

export function ClientSubscriptions({ clientid }: { clientid: string }) {
  const decl = useMemo(() => declare(clientid), [clientid]);
  return <ResourcePage decl={decl} />;
}
