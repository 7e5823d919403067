// The cluster page: name and members from GET /cluster with each node's status from /nodes,
// inviting a node (the broker's refusal shown at the field), the invitation progress, force
// leave only after a confirmation, loading/error states and the Chinese texts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const cluster = { body: { name: 'emqxcl', nodes: ['emqx@node1', 'emqx@node2'], self: 'emqx@node1' } };
const nodes = {
  body: [
    { node: 'emqx@node1', node_status: 'running', role: 'core', version: '5.5.1', uptime: 3_600_000 },
    { node: 'emqx@node2', node_status: 'running', role: 'replicant', version: '5.5.1', uptime: 60_000 },
    { node: 'emqx@node3', node_status: 'stopped', role: 'core' },
  ],
};
const noInvitations = { body: { succeed: [], in_progress: [], failed: [] } };

async function login(locale: 'en' | 'zh' = 'en') {
  reset('/cluster');
  setLocale(locale);
  await saveUser({ username: 'admin', token: 'tok' });
  await restoreSession();
}
const nodeRow = (node: string) => document.querySelector<HTMLElement>(`[data-test=cluster-node][data-key="${node}"]`);

test.after.each(() => {
  cleanup();
  setLocale('en');
});

test('shows the cluster name and every member with its status; self cannot be forced out', async () => {
  await login();
  const api = fakeApi({ 'GET /cluster': cluster, 'GET /nodes': nodes, 'GET /cluster/invitation': noInvitations, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => nodeRow('emqx@node3'));
  assert.match(byTest('cluster-info')!.textContent!, /Cluster Name\s*emqxcl.*Current Node\s*emqx@node1.*Nodes\s*3/);
  assert.match(nodeRow('emqx@node1')!.textContent!, /emqx@node1 \(this node\)core.*Running.*5\.5\.1/);
  assert.match(nodeRow('emqx@node3')!.textContent!, /Stopped/);
  assert.not.ok(nodeRow('emqx@node1')!.querySelector('[data-test=cluster-force-leave]'));
  assert.ok(nodeRow('emqx@node2')!.querySelector('[data-test=cluster-force-leave]'));
  assert.ok(byTest('cluster-page')!.querySelector('[data-test=state-empty]'), 'no invitations yet');
  assert.ok(text().includes('No invitations yet'));
  assert.equal(api.calls.filter((c) => c.method === 'GET').map((c) => c.path).sort(), ['/alarms', '/cluster', '/cluster/invitation', '/nodes'].sort());
  api.restore();
});

test('invite checks name@host, PUTs /cluster/{node}/invite; "Cannot invite self" is shown under the field', async () => {
  await login();
  const api = fakeApi({
    'GET /cluster': cluster, 'GET /nodes': nodes, 'GET /cluster/invitation': noInvitations, 'GET /alarms': alarms,
    'PUT /cluster/emqx%40node1/invite': { status: 400, body: { code: 'BAD_REQUEST', message: 'Cannot invite self' } },
    'PUT /cluster/emqx%40node3/invite': { status: 200 },
  });
  await mount(<App />);
  await waitFor(() => byTest('cluster-invite-form'));
  await submit(byTest('cluster-invite-form'));
  assert.is(byTest('cluster-invite-error')!.textContent, 'Node name is required');
  for (const bad of ['emqx @node3', 'emqx', 'emqx@node3@x', '@node3']) {
    await type(byTest('cluster-invite-node'), bad);
    await submit(byTest('cluster-invite-form'));
    assert.is(byTest('cluster-invite-error')!.textContent, 'The node name must be name@host without spaces', bad);
  }
  setLocale('zh');
  await submit(byTest('cluster-invite-form'));
  assert.is(byTest('cluster-invite-error')!.textContent, '节点名称格式应为 name@host，且不能包含空格');
  setLocale('en');
  assert.not.ok(api.calls.some((c) => c.method === 'PUT'));
  await type(byTest('cluster-invite-node'), 'emqx@node1');
  await submit(byTest('cluster-invite-form'));
  // The broker's 'Cannot invite self' is shown in words through the error catalogue.
  await waitFor(() => byTest('cluster-invite-error')?.textContent === 'A node cannot invite itself');
  await type(byTest('cluster-invite-node'), 'emqx@node3');
  await submit(byTest('cluster-invite-form'));
  await waitFor(() => text().includes('Invite Successfully'));
  const puts = api.calls.filter((c) => c.method === 'PUT');
  assert.equal(puts.map((c) => [c.path, c.body]), [['/cluster/emqx%40node1/invite', {}], ['/cluster/emqx%40node3/invite', {}]]);
  assert.not.ok(byTest('cluster-invite-error'));
  assert.is(byTest<HTMLInputElement>('cluster-invite-node')!.value, '');
  api.restore();
});

test('the invitation progress lists running, finished and failed tasks with the reason', async () => {
  await login();
  const api = fakeApi({
    'GET /cluster': cluster, 'GET /nodes': nodes, 'GET /alarms': alarms,
    'GET /cluster/invitation': { body: {
      succeed: [{ node: 'emqx@node2', started_at: '2026-01-01T08:00:00.000+00:00', finished_at: '2026-01-01T08:00:01.000+00:00' }],
      in_progress: [{ node: 'emqx@node4', started_at: '2026-01-01T08:01:00.000+00:00' }],
      failed: [{ node: 'emqx@node5', started_at: '2026-01-01T08:02:00.000+00:00', finished_at: '2026-01-01T08:02:01.000+00:00', reason: '{badrpc,nodedown}' }],
    } },
  });
  await mount(<App />);
  await waitFor(() => byTest('cluster-invitations'));
  const rows = [...document.querySelectorAll('[data-test=cluster-invitation]')].map((r) => r.textContent);
  assert.is(rows.length, 3);
  assert.match(rows[0]!, /emqx@node4In Progress/);
  assert.match(rows[1]!, /emqx@node2Succeeded/);
  assert.match(rows[2]!, /emqx@node5Failed.*\{badrpc,nodedown\}/);
  api.restore();
});

test('force leave asks first, then DELETEs /cluster/{node}/force_leave and reloads the members', async () => {
  await login();
  let left = false;
  const api = fakeApi({
    'GET /cluster': () => ({ body: { ...cluster.body, nodes: left ? ['emqx@node1'] : cluster.body.nodes } }),
    'GET /nodes': () => ({ body: left ? nodes.body.filter((n) => n.node === 'emqx@node1') : nodes.body.slice(0, 2) }),
    'GET /cluster/invitation': noInvitations, 'GET /alarms': alarms,
    'DELETE /cluster/emqx%40node2/force_leave': () => {
      left = true;
      return { status: 204 };
    },
  });
  await mount(<App />);
  await waitFor(() => nodeRow('emqx@node2'));
  await click(nodeRow('emqx@node2')!.querySelector('[data-test=cluster-force-leave]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Force node emqx@node2 to leave the cluster?'));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
  await click(nodeRow('emqx@node2')!.querySelector('[data-test=cluster-force-leave]'));
  await waitFor(() => byTest('confirm-dialog'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !nodeRow('emqx@node2'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/cluster/emqx%40node2/force_leave']);
  assert.ok(text().includes('Node left the cluster'));
  api.restore();
});

test('a failed load shows the error with a retry; the page speaks Chinese', async () => {
  await login();
  let fail = true;
  const api = fakeApi({
    'GET /cluster': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } } : cluster),
    'GET /nodes': nodes, 'GET /cluster/invitation': noInvitations, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => nodeRow('emqx@node2'));
  cleanup();
  api.restore();

  await login('zh');
  const zh = fakeApi({ 'GET /cluster': cluster, 'GET /nodes': nodes, 'GET /cluster/invitation': noInvitations, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => nodeRow('emqx@node2'));
  assert.ok(text().includes('集群名称'));
  assert.ok(text().includes('邀请节点'));
  assert.ok(text().includes('强制离开'));
  zh.restore();
});

test.run();
