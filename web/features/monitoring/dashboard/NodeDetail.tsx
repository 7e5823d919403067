/**
 * One node: its nodeInfo (`GET /nodes/{node}`), listeners, stats (`/nodes/{node}/stats`), trend
 * charts (`GET /monitor/nodes/{node}?latest=`) and metrics (`/nodes/{node}/metrics`). An unknown
 * node (404) shows a 'node not found' state. Live parts refresh every 10 s while visible.
 */
import type { ComponentChild } from 'preact';
import { Link } from 'wouter';
import { api, isNotFound } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote, type Remote } from '../../../lib/resources.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { MetricsPanel } from '../../../ui/MetricsPanel.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { DashboardTabs } from './DashboardTabs.tsx';
import { METRIC_GROUPS, STATS_GROUPS } from './metricGroups.ts';
import { MonitorCharts } from './MonitorCharts.tsx';
import { count, load, pair, uptime, type NodeInfo } from './nodeInfo.ts';
import { NodeListeners } from './NodeListeners.tsx';
import './messages.ts';

const REFRESH_MS = 10_000;
type Counters = Record<string, unknown>;

function Counters({ remote, groups, test }: { remote: Remote<Counters>; groups: typeof METRIC_GROUPS; test: string }) {
  if (!remote.data) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  return <div data-test={test}><MetricsPanel metrics={remote.data} groups={groups} /></div>;
}

function facts(n: NodeInfo) {
  return [
    ['dashboard.version', n.version],
    ['dashboard.edition', n.edition],
    ['dashboard.role', n.role],
    ['dashboard.uptime', uptime(n)],
    ['dashboard.connections', count(n.connections)],
    ['dashboard.liveConnections', count(n.live_connections)],
    ['dashboard.vmMemory', pair(n.memory_used, n.memory_total)],
    ['dashboard.maxFds', count(n.max_fds)],
    ['dashboard.processes', pair(n.process_used, n.process_available)],
    ['dashboard.load', load(n)],
    ['dashboard.otpRelease', n.otp_release],
    ['dashboard.logPath', n.log_path],
    ['dashboard.sysPath', n.sys_path],
  ] as [string, ComponentChild][];
}

export default function NodeDetail({ node: param = '' }: { node?: string }) {
  const node = decodeURIComponent(param);
  const base = `/nodes/${encodeURIComponent(node)}`;
  const info = useRemote('nodes', (signal) => api.get<NodeInfo>(base, { signal }), node, REFRESH_MS);
  const stats = useRemote('node-stats', (signal) => api.get<Counters>(`${base}/stats`, { signal }), node, REFRESH_MS);
  const metrics = useRemote('node-metrics', (signal) => api.get<Counters>(`${base}/metrics`, { signal }), node, REFRESH_MS);
  const back = <Link href="/dashboard/nodes" data-test="node-back">{t('dashboard.backToNodes')}</Link>;

  if (isNotFound(info.error)) {
    return (
      <section class="dashboard" data-test="node-not-found">
        <DashboardTabs />
        <div class="state">
          <p class="muted">{t('dashboard.nodeNotFound', { node })}</p>
          {back}
        </div>
      </section>
    );
  }
  const n = info.data;
  return (
    <section class="dashboard" data-test="node-detail">
      <DashboardTabs />
      <header class="page-head">
        <h2 class="node-title">{node} {n && <StatusTag status={n.node_status} test="node-status" />}</h2>
        {back}
      </header>
      {!n ? (info.error ? <Failed error={info.error} retry={info.reload} /> : <Loading />) : (
        <>
          {info.error ? <Failed error={info.error} retry={info.reload} /> : null}
          <Descriptions test="node-info" items={facts(n)} />
        </>
      )}
      <h3 class="section-title">{t('dashboard.listeners')}</h3>
      <NodeListeners node={node} />
      <h3 class="section-title">{t('dashboard.stats')}</h3>
      <Counters remote={stats} groups={STATS_GROUPS} test="node-stats" />
      <MonitorCharts path={`/monitor/nodes/${encodeURIComponent(node)}`} />
      <h3 class="section-title">{t('dashboard.nodeMetrics')}</h3>
      <Counters remote={metrics} groups={METRIC_GROUPS} test="node-metrics" />
    </section>
  );
}
