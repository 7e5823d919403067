/** The overview's compact node list: name (to its details), role, status, uptime, connections. */
import { Link } from 'wouter';
import { t } from '../../../lib/i18n.ts';
import type { Remote } from '../../../lib/resources.ts';
import { Freshness } from '../../../ui/Freshness.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { count, nodePath, uptime, type NodeInfo } from './nodeInfo.ts';
import './messages.ts';

export function NodeList({ nodes, stale }: { nodes: Remote<NodeInfo[]>; stale?: boolean }) {
  const list = nodes.data;
  const running = list?.filter((n) => n.node_status === 'running').length ?? 0;
  return (
    <article class={stale ? 'panel stale' : 'panel'} data-test="overview-node-list">
      <header class="panel-head">
        <h3>{t('dashboard.nodeList')}</h3>
        {list && <small class="muted" data-test="overview-nodes">{t('dashboard.runningNodes', { running, total: list.length })}</small>}
        {stale && <Freshness at={nodes.updatedAt} every={0} />}
      </header>
      {!list ? (nodes.error ? <Failed error={nodes.error} retry={nodes.reload} /> : <Loading />) : list.length === 0 ? <Empty text={t('dashboard.noNodes')} /> : (
        <div class="table-wrap">
          <table class="striped compact">
            <thead>
              <tr>
                {['dashboard.node', 'dashboard.role', 'dashboard.status', 'dashboard.uptime', 'dashboard.connections'].map((k) => <th key={k} scope="col">{t(k)}</th>)}
              </tr>
            </thead>
            <tbody>
              {list.map((n) => (
                <tr key={n.node} data-test="overview-node" data-key={n.node}>
                  <td><Link href={nodePath(n.node)}>{n.node}</Link></td>
                  <td>{n.role ?? '—'}</td>
                  <td><StatusTag status={n.node_status} /></td>
                  <td>{uptime(n)}</td>
                  <td class="num">{count(n.connections)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
