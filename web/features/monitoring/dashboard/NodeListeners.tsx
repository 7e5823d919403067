/**
 * The listeners of one node, read from `GET /listeners` (emqx-api-part1 §22.1): each listener
 * carries `node_status: [{node, status: {running, current_connections, max_connections}}]`, and
 * this table keeps the entry of the node shown. A broker or simulator without the endpoint (404)
 * gets the empty state.
 */
import { api, isNotFound } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import './messages.ts';

interface ListenerStatus {
  running?: boolean | 'inconsistent';
  current_connections?: number;
  max_connections?: number | 'infinity';
}

interface Listener {
  id: string;
  type: string;
  bind?: string;
  status?: ListenerStatus;
  node_status?: ({ node: string; status?: ListenerStatus } & ListenerStatus)[];
}

const state = (s: ListenerStatus) => (s.running === true ? 'running' : s.running === false ? 'stopped' : s.running ?? '');
const max = (v: ListenerStatus['max_connections']) => (typeof v === 'number' ? formatNumber(v) : v ?? '—');

/** This node's status of each listener that runs there. */
export function listenersOf(list: Listener[], node: string) {
  return list.flatMap((l) => {
    const entry = l.node_status?.find((n) => n.node === node);
    return entry ? [{ ...l, status: entry.status ?? entry }] : [];
  });
}

export function NodeListeners({ node }: { node: string }) {
  const remote = useRemote('listeners', (signal) => api.get<Listener[]>('/listeners', { signal }), '', 10_000);
  const missing = isNotFound(remote.error);
  const rows = remote.data ? listenersOf(remote.data, node) : undefined;
  if (!rows) return missing ? <Empty text={t('dashboard.noListeners')} /> : remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;
  if (rows.length === 0) return <Empty text={t('dashboard.noListeners')} />;
  return (
    <div class="table-wrap">
      <table class="striped compact" data-test="node-listeners">
        <thead>
          <tr>
            {['dashboard.listenerId', 'dashboard.listenerType', 'dashboard.bind', 'dashboard.status', 'dashboard.currentConnections', 'dashboard.maxConnections']
              .map((k) => <th key={k} scope="col">{t(k)}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((l) => (
            <tr key={l.id} data-test="node-listener" data-key={l.id}>
              <td>{l.id}</td>
              <td>{l.type}</td>
              <td>{l.bind ?? '—'}</td>
              <td><StatusTag status={state(l.status)} /></td>
              <td class="num">{formatNumber(l.status.current_connections) || '—'}</td>
              <td class="num">{max(l.status.max_connections)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
