/** System > Nodes: the cluster's nodes as one declaration (`GET /nodes`, a bare array). */
import { arrayList, type ResourceDecl } from '../../../ui/resource.ts';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { count, load, nodePath, pair, uptime, type NodeInfo } from './nodeInfo.ts';
import './messages.ts';

export const nodes: ResourceDecl<NodeInfo> = {
  name: 'nodes',
  title: 'monitoring.nodes',
  rowKey: (n) => n.node,
  list: arrayList<NodeInfo>('/nodes'),
  refreshMs: 10_000,
  empty: 'dashboard.noNodes',
  columns: [
    { key: 'node', title: 'dashboard.node', link: (n) => nodePath(n.node) },
    { key: 'role', title: 'dashboard.role' },
    { key: 'node_status', title: 'dashboard.status', text: (n) => <StatusTag status={n.node_status} /> },
    { key: 'uptime', title: 'dashboard.uptime', text: uptime },
    { key: 'connections', title: 'dashboard.connections', text: (n) => count(n.connections) },
    { key: 'memory', title: 'dashboard.memory', text: (n) => pair(n.memory_used, n.memory_total), optional: true },
    { key: 'load', title: 'dashboard.load', text: load, optional: true },
    { key: 'version', title: 'dashboard.version', optional: true },
  ],
};
