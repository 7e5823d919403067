/**
 * Monitoring > Topics as one declaration: the routing table, `GET /topics` (envelope A) of
 * `{topic, node}`, searched by `topic` (EMQX looks the route up exactly) and `node`.
 */
import { pageList, type ResourceDecl } from '../../../ui/resource.ts';
import { nodeOptions } from '../clients/nodeOptions.ts';
import './messages.ts';

export interface Route {
  topic: string;
  node?: string;
  session?: string;
}

export const topics: ResourceDecl<Route> = {
  name: 'topics',
  title: 'monitoring.topics',
  rowKey: (r) => JSON.stringify([r.topic, r.node ?? r.session]),
  list: pageList<Route>('/topics'),
  empty: 'subscription.noTopics',
  columns: [
    { key: 'topic', title: 'subscription.topic' },
    { key: 'node', title: 'subscription.node', text: (r) => r.node ?? r.session ?? '—' },
  ],
  filters: [
    { name: 'topic', label: 'subscription.exactTopic' },
    { name: 'node', label: 'subscription.node', kind: 'select', options: [{ value: '', label: 'subscription.allNodes' }], loadOptions: nodeOptions },
  ],
};
