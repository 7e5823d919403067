// A simulated node that is down (security.md D3): `/nodes` lists it stopped as EMQX lists a
// member it cannot reach, the aggregate endpoints answer from the running nodes, per-node
// questions to it are refused without a 5xx, and it comes back when marked up again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login, request, startSimulator, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';
const get = (path: string) => request(sim.baseUrl, 'GET', `/api/v5${path}`, { token });

test.before(async () => {
  sim = await startSimulator({ nodes: 3, app: { downNodes: ['emqx@node2'], fixtureClients: true } });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

test('the down node is listed as stopped with its role only; the others run', async () => {
  const nodes = (await get('/nodes')).json as Record<string, unknown>[];
  assert.equal(nodes.map((n) => [n.node, n.node_status]), [['emqx@node1', 'running'], ['emqx@node2', 'stopped'], ['emqx@node3', 'running']]);
  assert.equal(Object.keys(nodes[1]).sort(), ['node', 'node_status', 'role']);
  const one = await get('/nodes/emqx%40node2');
  assert.is(one.status, 200);
  assert.is((one.json as { node_status: string }).node_status, 'stopped');
});

test('aggregates answer from the running nodes; the down node is asked nothing', async () => {
  for (const path of ['/stats?aggregate=true', '/metrics?aggregate=true', '/monitor_current', '/monitor?latest=300', '/clients?limit=1000', '/subscriptions?limit=1000']) {
    assert.is((await get(path)).status, 200, path);
  }
  const clients = (await get('/clients?limit=1000')).json as { data: { node: string }[] };
  assert.ok(clients.data.length > 0, 'the running nodes still have clients');
  assert.not.ok(clients.data.some((c) => c.node === 'emqx@node2'));
  const perNode = (await get('/stats')).json as { node: string }[];
  assert.equal(perNode.map((s) => s.node), ['emqx@node1', 'emqx@node3']);
  const refused = await get('/nodes/emqx%40node2/stats');
  assert.ok(refused.status >= 400 && refused.status < 500, `status ${refused.status}`);
  assert.is((await get('/clients?node=emqx%40node2')).status, 400);
});

test('marked up again, the node runs and its clients are back', async () => {
  const before = ((await get('/clients?limit=1000')).json as { meta: { count: number } }).meta.count;
  assert.ok(sim.app.store.cluster.markDown('emqx@node2', false));
  assert.not.ok(sim.app.store.cluster.markDown('emqx@node1'), 'node 1 is this process');
  const nodes = (await get('/nodes')).json as { node: string; node_status: string }[];
  assert.ok(nodes.every((n) => n.node_status === 'running'));
  const clients = (await get('/clients?limit=1000')).json as { data: { node: string }[]; meta: { count: number } };
  assert.ok(clients.data.some((c) => c.node === 'emqx@node2'));
  assert.ok(clients.meta.count > before);
});

test.run();
