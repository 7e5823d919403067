// GET /listeners: the listeners main.ts really opened, with connections counted per listener and
// node from real MQTT clients (TCP and WebSocket) and the fixture clients of the other nodes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectMqtt, endMqtt, login, request, startSimulator, waitFor, type RunningSimulator } from '../helpers/simulator.ts';

let sim: RunningSimulator;
let token = '';

test.before(async () => {
  sim = await startSimulator({ nodes: 2 });
  token = await login(sim.baseUrl);
});

test.after(async () => {
  await sim.close();
});

type Listener = { id: string; bind: string; status: { current_connections: number }; node_status: { node: string; status: { current_connections: number; running: boolean } }[] };
const listeners = async (query = '') => (await request(sim.baseUrl, 'GET', `/api/v5/listeners${query}`, { token })).json as Listener[];

test('the tcp and ws listeners report the ports really listened on', async () => {
  const all = await listeners();
  assert.equal(all.map((l) => l.id), ['tcp:default', 'ws:default']);
  assert.is(all[0].bind, `127.0.0.1:${sim.mqtt}`);
  assert.is(all[1].bind, `127.0.0.1:${sim.ws}`);
  assert.equal(all[0].node_status.map((n) => n.node), ['emqx@node1', 'emqx@node2']);
  assert.equal((await listeners('?type=ws')).map((l) => l.id), ['ws:default']);
});

test('connections are counted on the listener and node they came through', async () => {
  const tcp = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'l-tcp' });
  const ws = await connectMqtt(`ws://127.0.0.1:${sim.ws}/mqtt`, { clientId: 'l-ws' });
  await waitFor(async () => (await listeners())[1].node_status[0].status.current_connections === 1, 1000, 'ws count');
  const [t, w] = await listeners();
  assert.is(t.node_status[0].status.current_connections, 1);
  assert.is(w.node_status[0].status.current_connections, 1);
  await endMqtt(tcp);
  await endMqtt(ws);
  await waitFor(async () => (await listeners())[0].node_status[0].status.current_connections === 0, 1000, 'tcp count back to 0');
});

test('an unknown listener type is a 400 naming the field', async () => {
  const res = await request(sim.baseUrl, 'GET', '/api/v5/listeners?type=udp', { token });
  assert.is(res.status, 400);
  assert.match((res.json as { message: string }).message, /type/);
});

test.run();
