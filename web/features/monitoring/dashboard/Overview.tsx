/**
 * Cluster overview: figure cards from `GET /monitor_current`, the node list (`GET /nodes`), the
 * license (`GET /license`, Enterprise only, hidden on 404) and the trend charts (`GET /monitor?latest=`). The live
 * parts refresh every 10 s while the tab is visible.
 */
import { api } from '../../../lib/api.ts';
import { has } from '../../../lib/broker.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Freshness, useStale } from '../../../ui/Freshness.tsx';
import { Failed } from '../../../ui/States.tsx';
import { DashboardTabs } from './DashboardTabs.tsx';
import { LicenseCard, type License } from './LicenseCard.tsx';
import { MonitorCharts } from './MonitorCharts.tsx';
import { NodeList } from './NodeList.tsx';
import type { NodeInfo } from './nodeInfo.ts';
import { StatCards, type Current } from './StatCards.tsx';
import './messages.ts';

const REFRESH_MS = 10_000;

export default function Overview() {
  const current = useRemote('monitor_current', (signal) => api.get<Current>('/monitor_current', { signal }), '', REFRESH_MS);
  const nodes = useRemote('nodes', (signal) => api.get<NodeInfo[]>('/nodes', { signal }), '', REFRESH_MS);
  const licensed = has('license');
  // Community has no license endpoint: nothing is asked, and the card is not rendered.
  const license = useRemote('license', (signal) => (licensed ? api.get<License>('/license', { signal }) : Promise.resolve(undefined as unknown as License)));
  const staleCards = useStale(current.updatedAt, REFRESH_MS);
  const staleNodes = useStale(nodes.updatedAt, REFRESH_MS);
  return (
    <section class="dashboard" data-test="overview-page">
      <div class="page-head"><DashboardTabs /><Freshness at={current.updatedAt} every={REFRESH_MS} /></div>
      <h2 class="visually-hidden">{t('monitoring.overview')}</h2>
      {current.error ? <Failed error={current.error} retry={current.reload} /> : null}
      <StatCards current={current.data ?? (current.error ? {} : undefined)} stale={staleCards} />
      <div class="overview-row">
        <NodeList nodes={nodes} stale={staleNodes} />
        {licensed && <LicenseCard license={license} connections={current.data?.connections} />}
      </div>
      <MonitorCharts path="/monitor" />
    </section>
  );
}
