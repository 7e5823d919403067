/** Cluster overview: node count and the cluster's aggregate stats, refreshed every 10 s while visible. */
import { useEffect } from 'react';
import { api } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { t } from '../../lib/i18n.ts';
import { useRemote } from '../../lib/resources.ts';
import { Failed, Loading } from '../../ui/States.tsx';
import './messages.ts';

interface NodeInfo { node: string; node_status: string }
type Stats = Record<string, number>;

export default function Overview() {
  const data = useRemote('overview', async (signal) => {
    const [nodes, stats] = await Promise.all([
      api.get<NodeInfo[]>('/nodes', { signal }),
      api.get<Stats>('/stats', { params: { aggregate: true }, signal }),
    ]);
    return { nodes, stats };
  });
  useEffect(() => {
    const timer = setInterval(() => !document.hidden && data.reload(), 10_000);
    return () => clearInterval(timer);
  }, []);
  if (!data.data) return data.error ? <Failed error={data.error} retry={data.reload} /> : <Loading />;
  const { nodes, stats } = data.data;
  const running = nodes.filter((n) => n.node_status === 'running').length;
  const cards: [string, string, string][] = [
    ['nodes', t('monitoring.nodes'), t('monitoring.runningNodes', { running, total: nodes.length })],
    ['connections', t('monitoring.connections'), formatNumber(stats['connections.count'] ?? 0)],
    ['live-connections', t('monitoring.liveConnections'), formatNumber(stats['live_connections.count'] ?? 0)],
    ['subscriptions', t('monitoring.subscriptions'), formatNumber(stats['subscriptions.count'] ?? 0)],
    ['topics', t('monitoring.topics'), formatNumber(stats['topics.count'] ?? 0)],
    ['retained', t('monitoring.retained'), formatNumber(stats['retained.count'] ?? 0)],
  ];
  return (
    <section data-test="overview-page">
      <header class="page-head"><h2>{t('monitoring.overview')}</h2></header>
      {data.error ? <Failed error={data.error} retry={data.reload} /> : null}
      <div class="cards">
        {cards.map(([key, label, value]) => (
          <article class="card" key={key} data-test={`overview-${key}`}>
            <small class="muted">{label}</small>
            <strong>{value}</strong>
          </article>
        ))}
      </div>
    </section>
  );
}
