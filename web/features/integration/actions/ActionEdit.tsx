/**
 * Create and detail pages of an action (sink) or a source, told apart by the route. Create: the
 * type (from the served schema), then its form with `connector` chosen among connectors of that
 * type. Detail: overview, configuration (with the restart warning), metrics with reset, node status.
 */
import { Link, useLocation } from 'wouter';
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { useQuery } from '../../../lib/query.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { loadSchema } from '../../../lib/schemas.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { apiPath, encodeId, isWebhook, typesIn, type Bridge } from '../connectors/bridge.ts';
import { BridgeStatus, BridgeSwitch, TypeBadge } from '../connectors/BridgeCells.tsx';
import { BridgeForm } from '../connectors/BridgeForm.tsx';
import { NodeTable } from '../connectors/ConnectorDetail.tsx';
import { TypePicker } from '../connectors/ConnectorCreate.tsx';
import { ActionCreateForm, connectorField } from './ActionCreateForm.tsx';
import { BridgeMetrics } from './BridgeMetrics.tsx';
import { bridgeLink, deleteBridge, ROUTES, TITLES, type BridgeKind } from './bridgeList.tsx';
import './messages.ts';

const TABS = [
  { key: 'overview', title: 'connectors.overview' },
  { key: 'configuration', title: 'connectors.configuration' },
  { key: 'metrics', title: 'bridges.metrics' },
  { key: 'nodes', title: 'connectors.nodeStatus' },
];

function Create({ kind }: { kind: BridgeKind }) {
  const [query, setQuery] = useQuery();
  const schema = useRemote(`schema:${kind}`, () => loadSchema('actions'));
  const type = query.type;
  if (schema.error && !schema.data) return <Failed error={schema.error} retry={schema.reload} />;
  if (!schema.data) return <Loading />;
  if (!type) return <TypePicker types={typesIn(schema.data, kind)} onPick={(picked) => setQuery({ type: picked })} />;
  return (
    <ActionCreateForm kind={kind} type={type} connector={query.connector}
      onSaved={(saved) => (toast(t('bridges.created')), void navigate(bridgeLink(kind, saved), { force: true }))} />
  );
}

function Detail({ kind, id }: { kind: BridgeKind; id: string }) {
  const [query, setQuery] = useQuery();
  const tab = query.tab ?? 'overview';
  const remote = useRemote(kind, (signal) => api.get<Bridge>(apiPath(kind, id), { signal }), id);
  if (remote.error && !remote.data) {
    return <Failed error={remote.error} retry={remote.reload} missing={{ text: t(`bridges.notFound.${kind}`, { id }), back: ROUTES[kind], backTitle: TITLES[kind] }} />;
  }
  if (!remote.data) return <Loading />;
  const b = remote.data;
  const owned = isWebhook(b.name);
  const action = kind === 'actions';
  return (
    <>
      <header class="page-head">
        <h2>{b.name}</h2>
        <div class="toolbar">
          <Writable>
            <BridgeSwitch row={b} kind={kind} confirm="bridges.confirmDisable" />
            {!owned && <button type="button" class="secondary outline danger" data-test="bridge-delete"
              onClick={async () => (await deleteBridge(kind, b)) && void navigate(ROUTES[kind])}>{t('common.delete')}</button>}
          </Writable>
        </div>
      </header>
      <Tabs tabs={TABS} active={tab} onChange={(key) => setQuery({ tab: key })} />
      {tab === 'overview' && (
        <Descriptions test="bridge-overview" items={[
          ['connectors.type', <TypeBadge type={b.type} />],
          ['bridges.connector', <Link href={`/connector/${encodeId(`${b.type}:${b.connector}`)}`}>{b.connector}</Link>],
          ['connectors.status', <BridgeStatus row={b} />],
          ['bridges.rules', (b.rules ?? []).join(', ')],
          ['connectors.description', b.description],
          ['bridges.lastModified', formatDateTime(b.last_modified_at, '')],
        ]} />
      )}
      {tab === 'configuration' && (owned ? <p class="notice-warning" data-test="webhook-owned">{t('connectors.webhookOwned')}</p> : (
        <>
          <p class="notice-warning" role="note" data-test="update-warning">{t(action ? 'bridges.actionWarning' : 'bridges.sourceWarning')}</p>
          <BridgeForm kind={kind} type={b.type} value={b} create={false} overrides={connectorField(b.type)}
            confirmUpdate={action ? 'bridges.confirmActionUpdate' : 'bridges.confirmSourceUpdate'}
            onSaved={() => (toast(t('bridges.updated')), touch(kind))} />
        </>
      ))}
      {tab === 'metrics' && <BridgeMetrics kind={kind} id={id} name={b.name} />}
      {tab === 'nodes' && <NodeTable nodes={b.node_status} />}
    </>
  );
}

export default function ActionEdit({ id }: { id?: string }) {
  const [path] = useLocation();
  const kind: BridgeKind = path.startsWith(ROUTES.sources) ? 'sources' : 'actions';
  const create = !id || id === 'create';
  return (
    <section class="bridge-page" data-test={`${kind}-${create ? 'create' : 'detail'}`}>
      {create && <header class="page-head"><h2>{t(kind === 'actions' ? 'integration.actionCreate' : 'integration.sourceCreate')}</h2></header>}
      {create ? <Create kind={kind} /> : <Detail kind={kind} id={decodeURIComponent(id)} />}
    </section>
  );
}
