/**
 * Cluster (emqx-api-part1 §22.3): the cluster's name and members from `GET /cluster`, each node's
 * status from `/nodes`, inviting a node (`PUT /cluster/{node}/invite`, the broker's refusal shown
 * under the field), the invitation progress and force-leave after a confirmation.
 */
import { useState } from 'react';
import { api } from '../../../lib/api.ts';
import { errorDetail, errorText } from '../../../lib/errors.ts';
import { canWrite } from '../../../lib/broker.ts';
import { formatDateTime, formatDuration } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { perform, touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Empty, Failed, Loading } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { nodePath } from '../../monitoring/dashboard/nodeInfo.ts';
import './messages.ts';

interface Cluster { name: string; nodes: string[]; self: string }
interface NodeInfo { node: string; node_status: string; role?: string; version?: string; uptime?: number }
interface Task { node: string; started_at: string; finished_at?: string; reason?: string }
interface Invitations { succeed: Task[]; in_progress: Task[]; failed: Task[] }

const seg = (node: string) => encodeURIComponent(node);

function InviteForm() {
  const [node, setNode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const invite = async (event: Event) => {
    event.preventDefault();
    const name = node.trim();
    if (!name) return setError(t('validation.nodeNameRequired'));
    // A node name is name@host (the broker's validate_node in emqx_mgmt_api_cluster.erl at v5.5.1
    // splits on '@'); Erlang node names hold no spaces, so those are refused here too.
    if (!/^[^\s@]+@[^\s@]+$/.test(name)) return setError(t('cluster.nodeFormat'));
    setBusy(true);
    setError('');
    try {
      await api.put(`/cluster/${seg(name)}/invite`, {});
      toast(t('cluster.invited', { node: name }));
      setNode('');
    } catch (err) {
      // The broker's reason in words (e.g. `{badrpc,nodedown}`), at the field and in a toast.
      setError(errorText(err));
      toast(errorText(err), 'error', errorDetail(err));
    } finally {
      setBusy(false);
      touch('cluster');
    }
  };
  return (
    <form class="cluster-invite" onSubmit={invite} noValidate data-test="cluster-invite-form">
      <Writable>
      <label for="cluster-invite-node">{t('cluster.inviteNode')}</label>
      <div role="group">
        <input id="cluster-invite-node" name="node" value={node} placeholder="emqx@192.168.0.2" autoComplete="off"
          aria-invalid={error ? 'true' : undefined} aria-describedby="cluster-invite-msg"
          onInput={(e) => setNode((e.target as HTMLInputElement).value)} data-test="cluster-invite-node" />
        <button type="submit" aria-busy={busy} disabled={busy} data-test="cluster-invite">{t('cluster.invite')}</button>
      </div>
      <small id="cluster-invite-msg" class={error ? 'field-error' : 'muted'} role={error ? 'alert' : undefined} data-test={error ? 'cluster-invite-error' : undefined}>
        {error || t('cluster.inviteHelp')}
      </small>
      </Writable>
    </form>
  );
}

function Progress() {
  const remote = useRemote('cluster', (signal) => api.get<Invitations>('/cluster/invitation', { signal }), '', 3000);
  if (remote.error && !remote.data) return <Failed error={remote.error} retry={remote.reload} />;
  if (!remote.data) return <Loading />;
  const rows = [
    ...remote.data.in_progress.map((task) => ({ ...task, state: 'in_progress' })),
    ...remote.data.succeed.map((task) => ({ ...task, state: 'succeed' })),
    ...remote.data.failed.map((task) => ({ ...task, state: 'failed' })),
  ];
  if (!rows.length) return <Empty text={t('cluster.noInvitations')} />;
  return (
    <table class="striped compact" data-test="cluster-invitations">
      <thead><tr><th>{t('cluster.node')}</th><th>{t('cluster.state')}</th><th>{t('cluster.startedAt')}</th><th>{t('cluster.finishedAt')}</th><th>{t('cluster.reason')}</th></tr></thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.state}-${row.node}`} data-test="cluster-invitation" data-key={row.node}>
            <td>{row.node}</td>
            <td><span class={`tag tag-${row.state === 'succeed' ? 'ok' : row.state === 'failed' ? 'bad' : 'warn'}`}>{t(`cluster.task.${row.state}`)}</span></td>
            <td>{formatDateTime(row.started_at)}</td>
            <td>{formatDateTime(row.finished_at, '—')}</td>
            <td>{row.reason ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ClusterPage() {
  const remote = useRemote('cluster', async (signal) => {
    const [cluster, nodes] = await Promise.all([api.get<Cluster>('/cluster', { signal }), api.get<NodeInfo[]>('/nodes', { signal })]);
    return { cluster, nodes };
  }, '', 10000);
  const forceLeave = (node: string) => perform({
    resource: 'cluster', confirm: 'cluster.confirmLeave', params: { node }, danger: true, success: 'cluster.left',
    run: () => api.del(`/cluster/${seg(node)}/force_leave`),
  });

  let body;
  if (remote.error && !remote.data) body = <Failed error={remote.error} retry={remote.reload} />;
  else if (!remote.data) body = <Loading />;
  else {
    const { cluster, nodes } = remote.data;
    const info = new Map(nodes.map((n) => [n.node, n]));
    // Members from /cluster, plus stopped members /nodes still reports.
    const members = [...new Set([...cluster.nodes, ...nodes.map((n) => n.node)])];
    body = (
      <>
        <Descriptions test="cluster-info" items={[
          [t('cluster.name'), cluster.name],
          [t('cluster.self'), cluster.self],
          [t('cluster.nodeCount'), String(members.length)],
        ]} />
        <h3>{t('cluster.nodes')}</h3>
        <table class="striped compact" data-test="cluster-nodes">
          <thead><tr><th>{t('cluster.node')}</th><th>{t('cluster.role')}</th><th>{t('cluster.status')}</th><th>{t('cluster.version')}</th><th>{t('cluster.uptime')}</th><th>{t('common.actions')}</th></tr></thead>
          <tbody>
            {members.map((node) => {
              const n = info.get(node);
              return (
                <tr key={node} data-test="cluster-node" data-key={node}>
                  <td><a href={`#${nodePath(node)}`}>{node}</a>{node === cluster.self && <small class="muted"> ({t('cluster.thisNode')})</small>}</td>
                  <td>{n?.role ?? '—'}</td>
                  <td><StatusTag status={n?.node_status ?? 'stopped'} test="cluster-node-status" /></td>
                  <td>{n?.version ?? '—'}</td>
                  <td>{n?.uptime !== undefined ? formatDuration(n.uptime) : '—'}</td>
                  <td>
                    {node !== cluster.self && canWrite() && (
                      <button type="button" class="secondary outline danger compact" onClick={() => void forceLeave(node)} data-test="cluster-force-leave">
                        {t('cluster.forceLeave')}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </>
    );
  }

  return (
    <section class="cluster-page" data-test="cluster-page">
      <header class="page-head"><h2>{t('cluster.title')}</h2></header>
      {body}
      <h3>{t('cluster.inviteTitle')}</h3>
      <InviteForm />
      <h3>{t('cluster.invitations')}</h3>
      <Progress />
    </section>
  );
}
