/**
 * /connector/:id: overview, configuration (the schema form, with the warning that an update
 * interrupts the connection), statistics (the actions and sources it carries — connectors have
 * no metrics endpoint in 5.x, so its rate trend adds up theirs) and node status; reconnect,
 * duplicate and delete in the header.
 */
import { api } from '../../../lib/api.ts';
import { Link } from 'wouter';
import { defineMessages, t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { useQuery } from '../../../lib/query.ts';
import { perform, touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { RateChart } from '../../../ui/RateChart.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { apiPath, encodeId, bridgeId, isWebhook, type Bridge, type NodeStatus } from './bridge.ts';
import { BridgeStatus, BridgeSwitch, TypeBadge } from './BridgeCells.tsx';
import { BridgeForm } from './BridgeForm.tsx';
import { deleteConnector } from './ConnectorsPage.tsx';
import { readBridgeCounters, TREND } from '../actions/BridgeMetrics.tsx';
import './messages.ts';

defineMessages({
  'connectors.rateSum': { zh: '使用此连接器的动作与 Source 的速率之和', en: 'Rates of the actions and sources using this connector, added up' },
});

/** The summed counters of the actions and sources `c` carries. */
function readCarried(c: Bridge) {
  const reads = [
    ...(c.actions ?? []).map((name) => readBridgeCounters('actions', bridgeId({ type: c.type, name }))),
    ...(c.sources ?? []).map((name) => readBridgeCounters('sources', bridgeId({ type: c.type, name }))),
  ];
  return async (signal: AbortSignal) => {
    const sum: Record<string, number> = {};
    for (const counters of await Promise.all(reads.map((read) => read(signal)))) {
      for (const [key, n] of Object.entries(counters)) sum[key] = (sum[key] ?? 0) + n;
    }
    return sum;
  };
}

const TABS = [
  { key: 'overview', title: 'connectors.overview' },
  { key: 'configuration', title: 'connectors.configuration' },
  { key: 'statistics', title: 'connectors.statistics' },
  { key: 'nodes', title: 'connectors.nodeStatus' },
];

/** Node rows shared with the action and source pages. */
export function NodeTable({ nodes }: { nodes: NodeStatus[] | undefined }) {
  return (
    <table data-test="node-status">
      <thead><tr><th>{t('connectors.node')}</th><th>{t('connectors.status')}</th><th>{t('connectors.reason')}</th></tr></thead>
      <tbody>
        {(nodes ?? []).map((n) => <tr key={n.node}><td>{n.node}</td><td><StatusTag status={n.status} /></td><td>{n.status_reason || '—'}</td></tr>)}
      </tbody>
    </table>
  );
}

export default function ConnectorDetail({ id }: { id: string }) {
  const connectorId = decodeURIComponent(id);
  const [query, setQuery] = useQuery();
  const tab = query.tab ?? 'overview';
  const remote = useRemote('connectors', (signal) => api.get<Bridge>(apiPath('connectors', connectorId), { signal }), connectorId);
  if (remote.error && !remote.data) {
    return <Failed error={remote.error} retry={remote.reload} missing={{ text: t('connectors.notFound', { id: connectorId }), back: '/connector', backTitle: 'integration.connectors' }} />;
  }
  if (!remote.data) return <Loading />;
  const c = remote.data;
  const owned = isWebhook(c.name);
  const remove = async () => {
    if (await perform({ resource: 'connectors', run: () => deleteConnector(c), confirm: 'connectors.confirmDelete', danger: true, params: { key: c.name }, success: 'connectors.deleted' })) {
      void navigate('/connector');
    }
  };
  return (
    <section class="bridge-page" data-test="connector-detail">
      <header class="page-head">
        <h2>{c.name}</h2>
        <div class="toolbar">
          <Writable>
          <BridgeSwitch row={c} kind="connectors" confirm="connectors.confirmDisable" />
          <button type="button" class="secondary outline" data-test="connector-reconnect" disabled={!c.enable}
            onClick={() => perform({ resource: 'connectors', run: () => api.post(apiPath('connectors', connectorId, '/start')), success: 'connectors.reconnected' })}>
            {t('connectors.reconnect')}
          </button>
          {!owned && <button type="button" class="secondary outline" data-test="connector-duplicate"
            onClick={() => navigate(`/connector/create?from=${encodeId(connectorId)}`)}>{t('connectors.duplicate')}</button>}
          {!owned && <button type="button" class="secondary outline danger" data-test="connector-delete" onClick={remove}>{t('common.delete')}</button>}
          </Writable>
        </div>
      </header>
      <Tabs tabs={TABS} active={tab} onChange={(key) => setQuery({ tab: key })} />
      {tab === 'overview' && (
        <Descriptions test="connector-overview" items={[
          ['connectors.name', c.name],
          ['connectors.type', <TypeBadge type={c.type} />],
          ['connectors.status', <BridgeStatus row={c} />],
          ['connectors.description', c.description],
          ['connectors.actions', (c.actions ?? []).join(', ')],
          ['connectors.sources', (c.sources ?? []).join(', ')],
        ]} />
      )}
      {tab === 'configuration' && (owned ? <p class="notice-warning" data-test="webhook-owned">{t('connectors.webhookOwned')}</p> : (
        <>
          <p class="notice-warning" role="note" data-test="update-warning">{t('connectors.updateWarning')}</p>
          <BridgeForm kind="connectors" type={c.type} value={c} create={false} confirmUpdate="connectors.confirmUpdate"
            onSaved={() => (toast(t('connectors.updated')), touch('connectors'))} />
        </>
      ))}
      {tab === 'statistics' && (
        <div data-test="connector-statistics">
          <p class="muted">{t('connectors.noMetrics')}</p>
          {(c.actions?.length || c.sources?.length) ? (
            <RateChart source={`connector:${connectorId}:${[...(c.actions ?? []), '|', ...(c.sources ?? [])].join(',')}`} load={readCarried(c)}
              title="connectors.rateSum" test="connector-rate-chart"
              series={[...(c.actions?.length ? TREND.actions : []), ...(c.sources?.length ? TREND.sources : [])]} />
          ) : null}
          <Descriptions items={[['connectors.actions', (c.actions ?? []).length], ['connectors.sources', (c.sources ?? []).length]]} />
          <ul>{(c.actions ?? []).map((name) => <li key={name}><Link href={`/rule/actions/${encodeId(bridgeId({ type: c.type, name }))}`}>{name}</Link></li>)}</ul>
        </div>
      )}
      {tab === 'nodes' && <NodeTable nodes={c.node_status} />}
    </section>
  );
}
