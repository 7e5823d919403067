// Hot upgrade (emqx_mgmt_api_relup, v5.8.9) as a broker with no package installed answers it: each
// running node idle with no history, its live connections counted from real MQTT clients; no
// package; an upgrade refused; a misnamed upload refused. 5.5.1 has no such API.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, connectMqtt, endMqtt, login, request, startSimulator } from '../helpers/simulator.ts';
import { buildMultipart } from '../helpers/multipart.ts';

test('relup status reports every node idle with its live connections; package and upgrade say none is installed', async () => {
  const sim = await startSimulator({ nodes: 2, app: { emqxVersion: '5.8.9', edition: 'ce' } });
  try {
    const token = await login(sim.baseUrl);
    const call = (method: string, path: string) => request(sim.baseUrl, method, `/api/v5${path}`, { token });
    const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'relup-probe' });
    const [self, other] = sim.app.store.cluster.names();
    const status = (await call('GET', '/relup/status')).json;
    assert.equal(status[0], { node: self, role: 'core', live_connections: 1, current_vsn: '5.8.9', status: 'idle', upgrade_history: [] });
    assert.equal(status.map((s: { node: string }) => s.node), [self, other]);
    await endMqtt(client);
    assert.is((await call('GET', `/relup/status/${self}`)).json.live_connections, 0);
    assert.equal((await call('GET', '/relup/status/nobody@nowhere')).json, { code: 'NOT_FOUND', message: 'Node not found: nobody@nowhere' });
    assert.equal((await call('GET', '/relup/package')).json, { code: 'NOT_FOUND', message: 'No relup package is installed' });
    assert.is((await call('DELETE', '/relup/package')).status, 204);
    for (const path of ['/relup/upgrade', `/relup/upgrade/${self}`, '/relup/upgrade/nobody@nowhere']) {
      const res = await call('POST', path);
      assert.equal([res.status, res.json], [400, { code: 'BAD_REQUEST', message: 'No relup package is installed' }], path);
    }
    const form = buildMultipart({ plugin: { filename: 'other-1.0.tar.gz', data: Buffer.from('x') } });
    const upload = await sim.app.inject({ method: 'POST', url: '/api/v5/relup/package/upload', headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType }, payload: form.body });
    assert.equal([upload.statusCode, upload.json()], [400, { code: 'BAD_REQUEST', message: 'Invalid relup package name: other-1.0.tar.gz' }]);
  } finally {
    await sim.close();
  }
});

test('5.5.1 has no relup API', async () => {
  const app = await buildTestApp({ emqxVersion: '5.5.1', seed: 'empty' });
  const token = await login(app);
  assert.is((await api(app, 'GET', '/api/v5/relup/status', { token })).statusCode, 404);
  await app.close();
});

test.run();
