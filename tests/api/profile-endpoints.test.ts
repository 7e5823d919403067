// The endpoints that differ by broker profile: Enterprise extras (SSO, audit, file transfer,
// license keys), 5.5.1 endpoints (keepalive, Prometheus auth and data integration, bridges probe,
// gateway user imports) and 5.8 extras (client message queues, shared subscriptions in
// /monitor_current), each present where the release has it and 404 where it does not.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, buildTestApp, connectMqtt, endMqtt, login, request, startSimulator } from '../helpers/simulator.ts';
import type { Edition, EmqxVersion } from '../../simulator/store/profile.ts';

type Profile = [EmqxVersion, Edition];
const ALL: Profile[] = [['5.5.1', 'ee'], ['5.5.1', 'ce'], ['5.8.9', 'ee'], ['5.8.9', 'ce']];

async function withApp<T>(profile: Profile, run: (app: FastifyInstance, token: string) => Promise<T>): Promise<T> {
  const app = await buildTestApp({ emqxVersion: profile[0], edition: profile[1] });
  try {
    return await run(app, await login(app));
  } finally {
    await app.close();
  }
}

function basic(key: string, secret: string) {
  return { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
}

/** Which profiles answer `method url` with something other than 404 NOT_FOUND. */
async function servedOn(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<string[]> {
  const out: string[] = [];
  for (const profile of ALL) {
    await withApp(profile, async (app, token) => {
      const res = await api(app, method, url, { token, body, headers: { accept: 'application/json' } });
      if (!(res.statusCode === 404 && res.json().code === 'NOT_FOUND')) out.push(profile.join('-'));
    });
  }
  return out;
}

const EE = ['5.5.1-ee', '5.8.9-ee'];
const EVERYWHERE = ALL.map((p) => p.join('-'));

test('Enterprise-only endpoints exist on ee and answer 404 on ce', async () => {
  assert.equal(await servedOn('GET', '/api/v5/sso'), EE);
  assert.equal(await servedOn('GET', '/api/v5/sso/running'), EE);
  assert.equal(await servedOn('GET', '/api/v5/audit'), EE);
  assert.equal(await servedOn('GET', '/api/v5/file_transfer'), EE);
  assert.equal(await servedOn('GET', '/api/v5/file_transfer/files'), EE);
  assert.equal(await servedOn('POST', '/api/v5/license', { key: 'default' }), EE);
});

test('5.5.1 endpoints exist on every profile; 5.8 message queues only on 5.8.9', async () => {
  assert.equal(await servedOn('PUT', '/api/v5/clients/nobody/keepalive', { interval: 10 }), EVERYWHERE);
  assert.equal(await servedOn('GET', '/api/v5/prometheus/auth'), EVERYWHERE);
  assert.equal(await servedOn('GET', '/api/v5/prometheus/data_integration'), EVERYWHERE);
  assert.equal(await servedOn('GET', '/api/v5/clients/nobody/mqueue_messages'), ['5.8.9-ee', '5.8.9-ce']);
  assert.equal(await servedOn('GET', '/api/v5/clients/nobody/inflight_messages'), ['5.8.9-ee', '5.8.9-ce']);
});

test('SSO: nothing configured lists [] and 404s BACKEND_NOT_FOUND; a stored backend is listed not running', async () => {
  await withApp(['5.5.1', 'ee'], async (app, token) => {
    assert.equal((await api(app, 'GET', '/api/v5/sso', { token })).json(), []);
    assert.equal((await api(app, 'GET', '/api/v5/sso/running')).json(), []);
    for (const [method, url] of [['GET', '/api/v5/sso/ldap'], ['DELETE', '/api/v5/sso/ldap'], ['POST', '/api/v5/sso/login/ldap']] as const) {
      const res = await api(app, method, url, { token, ...(method === 'POST' ? { body: { backend: 'ldap', username: 'u', password: 'p' } } : {}) });
      assert.is(res.statusCode, 404, url);
      assert.equal(res.json(), { code: 'BACKEND_NOT_FOUND', message: 'Backend not found' });
    }
    // oidc is a 5.7.2 backend.
    assert.is((await api(app, 'GET', '/api/v5/sso/oidc', { token })).statusCode, 400);
    const conf = { backend: 'ldap', enable: false, server: '127.0.0.1:389', username: 'cn=admin', password: 'ldap-secret', base_dn: 'dc=example' };
    const put = await api(app, 'PUT', '/api/v5/sso/ldap', { token, body: conf });
    assert.is(put.statusCode, 200, put.body);
    assert.is(put.json().password, '******');
    assert.equal((await api(app, 'GET', '/api/v5/sso', { token })).json(), [{ backend: 'ldap', enable: false, running: false, last_error: '' }]);
    const got = (await api(app, 'GET', '/api/v5/sso/ldap', { token })).json();
    assert.is(got.server, '127.0.0.1:389');
    assert.is(got.password, '******');
    // Enabled: stored, but it cannot start here, as EMQX answers for a backend that fails to start.
    const on = await api(app, 'PUT', '/api/v5/sso/ldap', { token, body: { ...conf, enable: true, password: '******' } });
    assert.is(on.statusCode, 400);
    const [status] = (await api(app, 'GET', '/api/v5/sso', { token })).json();
    assert.is(status.enable, true);
    assert.is(status.running, false);
    assert.ok(status.last_error);
    assert.equal((await api(app, 'GET', '/api/v5/sso/running')).json(), []);
    assert.is((await api(app, 'DELETE', '/api/v5/sso/ldap', { token })).statusCode, 204);
    assert.equal((await api(app, 'GET', '/api/v5/sso', { token })).json(), []);
  });
  await withApp(['5.8.9', 'ee'], async (app, token) => {
    assert.is((await api(app, 'GET', '/api/v5/sso/oidc', { token })).json().code, 'BACKEND_NOT_FOUND');
  });
});

test('audit: disabled answers 400; enabled it records admin and API key changes without secrets', async () => {
  await withApp(['5.5.1', 'ee'], async (app, token) => {
    const off = await api(app, 'GET', '/api/v5/audit', { token });
    assert.is(off.statusCode, 400);
    assert.equal(off.json(), { code: 'BAD_REQUEST', message: 'Audit is disabled' });
    assert.is((await api(app, 'GET', '/api/v5/configs/log', { token })).json().audit.enable, false);

    const enable = await api(app, 'PUT', '/api/v5/configs/log', { token, body: { audit: { enable: true } } });
    assert.is(enable.statusCode, 200, enable.body);
    const key = (await api(app, 'POST', '/api/v5/api_key', { token, body: { name: 'ci-bot', enable: true } })).json();
    const change = await api(app, 'POST', '/api/v5/users/admin/change_pwd', { token, body: { old_pwd: 'public', new_pwd: 'Marker-Pass-42' } });
    assert.is(change.statusCode, 204, change.body);
    const token2 = await login(app, 'admin', 'Marker-Pass-42');
    const banned = await api(app, 'POST', '/api/v5/banned', { headers: basic(key.api_key, key.api_secret), body: { as: 'clientid', who: 'bad-one' } });
    assert.is(banned.statusCode, 200, banned.body);
    // GETs and the high-frequency publish are not recorded.
    await api(app, 'GET', '/api/v5/nodes', { token: token2 });
    await api(app, 'POST', '/api/v5/publish', { token: token2, body: { topic: 't/1', payload: 'x' } });

    const page = await api(app, 'GET', '/api/v5/audit?limit=50', { token: token2 });
    assert.is(page.statusCode, 200, page.body);
    const { data, meta } = page.json();
    assert.is(meta.count, data.length);
    const ops = data.map((e: { operation_id: string }) => e.operation_id);
    // Newest first; the GET and the high-frequency publish are not there.
    assert.equal(ops, ['/banned', '/login', '/users/:username/change_pwd', '/api_key', '/configs/log']);
    const loginEntry = data[1];
    assert.equal({ from: loginEntry.from, source: loginEntry.source, password: loginEntry.http_request.body.password }, { from: 'dashboard', source: 'admin', password: '******' });
    const byKey = data[0];
    assert.equal(
      { from: byKey.from, source: byKey.source, http_method: byKey.http_method, operation_type: byKey.operation_type, operation_result: byKey.operation_result, http_status_code: byKey.http_status_code },
      { from: 'rest_api', source: 'ci-bot', http_method: 'post', operation_type: 'banned', operation_result: 'success', http_status_code: 200 },
    );
    assert.equal(byKey.http_request.body, { as: 'clientid', who: 'bad-one' });
    assert.is(byKey.http_request.headers.authorization, '******');
    assert.match(byKey.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/);
    assert.equal(Object.keys(byKey).sort(), ['args', 'created_at', 'duration_ms', 'failure', 'from', 'http_method', 'http_request', 'http_status_code', 'node', 'operation_id', 'operation_result', 'operation_type', 'source', 'source_ip'].sort());
    const pwd = data.find((e: { operation_id: string }) => e.operation_id === '/users/:username/change_pwd');
    assert.equal({ from: pwd.from, source: pwd.source, result: pwd.operation_result, bindings: pwd.http_request.bindings }, { from: 'dashboard', source: 'admin', result: 'success', bindings: { username: 'admin' } });
    const text = page.body;
    for (const secret of ['Marker-Pass-42', 'public', key.api_secret, token, token2]) assert.not.ok(text.includes(secret), 'no secret in the audit log');

    const filtered = (await api(app, 'GET', '/api/v5/audit?from=rest_api&http_method=post', { token: token2 })).json();
    assert.equal(filtered.data.map((e: { operation_id: string }) => e.operation_id), ['/banned']);
  });
});

test('file transfer: defaults, a persisted PUT, an empty file list and FILES_NOT_FOUND', async () => {
  await withApp(['5.5.1', 'ee'], async (app, token) => {
    const conf = (await api(app, 'GET', '/api/v5/file_transfer', { token })).json();
    assert.equal({ enable: conf.enable, init_timeout: conf.init_timeout, store_segment_timeout: conf.store_segment_timeout, assemble_timeout: conf.assemble_timeout }, { enable: false, init_timeout: '10s', store_segment_timeout: '5m', assemble_timeout: '5m' });
    assert.ok(conf.storage.local);
    assert.equal((await api(app, 'GET', '/api/v5/file_transfer/files', { token })).json(), { files: [] });
    assert.is((await api(app, 'PUT', '/api/v5/file_transfer', { token, body: { enable: true, init_timeout: 'soon' } })).statusCode, 400);
    assert.is((await api(app, 'PUT', '/api/v5/file_transfer', { token, body: { enable: true, nonsense: 1 } })).statusCode, 400);
    const put = await api(app, 'PUT', '/api/v5/file_transfer', { token, body: { enable: true, init_timeout: '20s' } });
    assert.is(put.statusCode, 200, put.body);
    assert.is(app.store.state.file_transfer?.init_timeout, '20s');
    assert.is((await api(app, 'GET', '/api/v5/file_transfer', { token })).json().init_timeout, '20s');
    assert.equal((await api(app, 'GET', '/api/v5/file_transfer/files', { token })).json(), { files: [] });
    const one = await api(app, 'GET', '/api/v5/file_transfer/files/c1/f1', { token });
    assert.is(one.statusCode, 404);
    assert.is(one.json().code, 'FILES_NOT_FOUND');
  });
});

test('POST /license: a bad key is 400 Bad license key; default installs the evaluation license', async () => {
  await withApp(['5.5.1', 'ee'], async (app, token) => {
    const bad = await api(app, 'POST', '/api/v5/license', { token, body: { key: 'not-a-key' } });
    assert.is(bad.statusCode, 400);
    assert.equal(bad.json(), { code: 'BAD_REQUEST', message: 'Bad license key' });
    const forged = Buffer.from('220111\n1\n0\nMe\nme@example.com\nprod\n20240101\n3650\n1000000\n').toString('base64');
    assert.is((await api(app, 'POST', '/api/v5/license', { token, body: { key: `${forged}.MEUCIQ==` } })).statusCode, 400);
    const ok = await api(app, 'POST', '/api/v5/license', { token, body: { key: 'default' } });
    assert.is(ok.statusCode, 200, ok.body);
    assert.equal({ type: ok.json().type, max_connections: ok.json().max_connections, customer: ok.json().customer, start_at: ok.json().start_at }, { type: 'trial', max_connections: 25, customer: 'Evaluation', start_at: '2023-12-08' });
    assert.is((await api(app, 'GET', '/api/v5/license', { token })).json().max_connections, 25);
    assert.is(app.store.license.quota, 25);
  });
});

test('keepalive: PUT changes what GET /clients/{id} shows for a connected MQTT client', async () => {
  const sim = await startSimulator();
  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'ka-1', keepalive: 30 });
  try {
    const token = await login(sim.baseUrl);
    assert.is((await request(sim.baseUrl, 'GET', '/api/v5/clients/ka-1', { token })).json.keepalive, 30);
    const put = await request(sim.baseUrl, 'PUT', '/api/v5/clients/ka-1/keepalive', { token, body: { interval: 120 } });
    assert.is(put.status, 200, put.text);
    assert.is(put.json.clientid, 'ka-1');
    assert.is(put.json.keepalive, 120);
    assert.is((await request(sim.baseUrl, 'GET', '/api/v5/clients/ka-1', { token })).json.keepalive, 120);
    assert.is((await request(sim.baseUrl, 'PUT', '/api/v5/clients/ka-1/keepalive', { token, body: { interval: 65536 } })).status, 400);
    assert.is((await request(sim.baseUrl, 'PUT', '/api/v5/clients/ka-1/keepalive', { token, body: {} })).status, 400);
    const missing = await request(sim.baseUrl, 'PUT', '/api/v5/clients/nobody/keepalive', { token, body: { interval: 5 } });
    assert.is(missing.status, 404);
    assert.is(missing.json.code, 'CLIENTID_NOT_FOUND');
  } finally {
    await endMqtt(client);
    await sim.close();
  }
});

test('5.8.9 mqueue and inflight messages: an empty cursor page for a connected client, 404 otherwise', async () => {
  const sim = await startSimulator({ app: { emqxVersion: '5.8.9' } });
  const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: 'q-1' });
  try {
    const token = await login(sim.baseUrl);
    for (const kind of ['mqueue_messages', 'inflight_messages']) {
      const res = await request(sim.baseUrl, 'GET', `/api/v5/clients/q-1/${kind}`, { token });
      assert.is(res.status, 200, res.text);
      assert.equal(res.json, { data: [], meta: { start: 'none', position: 'none' } });
      assert.is((await request(sim.baseUrl, 'GET', `/api/v5/clients/nobody/${kind}`, { token })).json.code, 'CLIENTID_NOT_FOUND');
      assert.is((await request(sim.baseUrl, 'GET', `/api/v5/clients/q-1/${kind}?position=x_y`, { token })).status, 400);
    }
  } finally {
    await endMqtt(client);
    await sim.close();
  }
});

test('shared_subscriptions in /monitor_current counts real shared subscriptions on 5.8.9 only', async () => {
  for (const version of ['5.8.9', '5.5.1'] as const) {
    const sim = await startSimulator({ nodes: 1, app: { emqxVersion: version } });
    const client = await connectMqtt(`mqtt://127.0.0.1:${sim.mqtt}`, { clientId: `s-${version}` });
    try {
      await client.subscribeAsync(['$share/g/a/#', '$share/g/b']);
      const token = await login(sim.baseUrl);
      const all = (await request(sim.baseUrl, 'GET', '/api/v5/monitor_current', { token })).json;
      const node = (await request(sim.baseUrl, 'GET', `/api/v5/monitor_current/nodes/${encodeURIComponent(sim.app.store.cluster.self)}`, { token })).json;
      if (version === '5.8.9') {
        assert.is(all.shared_subscriptions, 2);
        assert.is(node.shared_subscriptions, 2);
      } else {
        assert.not.ok('shared_subscriptions' in all);
        assert.not.ok('shared_subscriptions' in node);
      }
    } finally {
      await endMqtt(client);
      await sim.close();
    }
  }
});

test('Prometheus auth and data integration: text by default, JSON on request', async () => {
  await withApp(['5.5.1', 'ee'], async (app, token) => {
    await api(app, 'POST', '/api/v5/authentication', { token, body: { mechanism: 'password_based', backend: 'built_in_database' } });
    await api(app, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'x' } });
    const text = await api(app, 'GET', '/api/v5/prometheus/auth');
    assert.is(text.statusCode, 200);
    assert.match(text.headers['content-type'] as string, /^text\/plain/);
    assert.match(text.body, /^emqx_authn_enable\{id="password_based:built_in_database"\} 1$/m);
    assert.match(text.body, /^emqx_banned_count 1$/m);
    const json = (await api(app, 'GET', '/api/v5/prometheus/auth', { headers: { accept: 'application/json' } })).json();
    assert.equal(json.emqx_banned, { emqx_banned_count: 1 });
    assert.is(json.emqx_authn[0].id, 'password_based:built_in_database');
    assert.is(json.emqx_authn[0].emqx_authn_users_count, 0);
    const di = await api(app, 'GET', '/api/v5/prometheus/data_integration?mode=all_nodes_unaggregated');
    assert.is(di.statusCode, 200);
    assert.match(di.body, /^emqx_rules_count 0$/m);
    const diJson = (await api(app, 'GET', '/api/v5/prometheus/data_integration', { headers: { accept: 'application/json' } })).json();
    assert.equal(Object.keys(diJson).sort(), ['actions', 'connectors', 'data_integration_overview', 'rules']);
    assert.equal(diJson.data_integration_overview, { emqx_rules_count: 0, emqx_connectors_count: 0, emqx_schema_registrys_count: 0 });
  });
});

test('bridges_probe: 204 while the target port listens, 400 TEST_FAILED once it is closed', async () => {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await withApp(['5.5.1', 'ce'], async (app, token) => {
    const body = { type: 'webhook', name: 'probe1', url: `http://127.0.0.1:${port}/hook`, method: 'post' };
    const ok = await api(app, 'POST', '/api/v5/bridges_probe', { token, body });
    assert.is(ok.statusCode, 204, ok.body);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const down = await api(app, 'POST', '/api/v5/bridges_probe', { token, body });
    assert.is(down.statusCode, 400);
    assert.is(down.json().code, 'TEST_FAILED');
  });
});

test('bridges_probe: each release checks the v1 struct of the type, with the fields 5.8 added to the MQTT bridge', async () => {
  const mqtt = { type: 'mqtt', name: 'probe', server: '127.0.0.1:9', connect_timeout: '1s', static_clientids: [] };
  for (const version of ['5.5.1', '5.8.9', '5.10.4'] as const) {
    await withApp([version, 'ee'], async (app, token) => {
      const typo = await api(app, 'POST', '/api/v5/bridges_probe', { token, body: { type: 'webhook', name: 'p', url: 'http://127.0.0.1:9/', methd: 'post' } });
      assert.is(typo.statusCode, 400, `${version}: ${typo.body}`);
      assert.is(typo.json().code, 'BAD_REQUEST');
      assert.match(typo.json().message, /unknown_fields.*methd/);
      const mysql = await api(app, 'POST', '/api/v5/bridges_probe', { token, body: { type: 'mysql', name: 'p', server: '127.0.0.1:9', database: 'd', parameters: { sql: 'x' } } });
      assert.is(mysql.json().code, 'BAD_REQUEST', `${version}: ${mysql.body}`);
      assert.match(mysql.json().message, /unknown_fields.*parameters/, 'parameters is the v2 action\'s field, not a v1 one');
      // static_clientids and connect_timeout came after 5.5 (emqx_bridge_mqtt_connector_schema.erl
      // fields("server_configs") at e5.8.9): refused there, taken from 5.8 and then the probe runs.
      const res = await api(app, 'POST', '/api/v5/bridges_probe', { token, body: mqtt });
      const json = res.json();
      if (version === '5.5.1') {
        assert.equal([res.statusCode, json.code], [400, 'BAD_REQUEST'], res.body);
        assert.match(json.message, /unknown_fields.*connect_timeout,static_clientids/);
      } else {
        assert.equal([res.statusCode, json.code], [400, 'TEST_FAILED'], `${version}: ${res.body}`);
      }
    });
  }
});

test('the MQTT connector takes static_clientids and connect_timeout from 5.8.9 (after the 5.8.1 dump), refuses them on 5.5.1', async () => {
  for (const [version, taken] of [['5.5.1', false], ['5.8.9', true], ['5.10.4', true], ['6.2.2', true]] as const) {
    await withApp([version, 'ee'], async (app, token) => {
      const body = { type: 'mqtt', name: 'mq', server: '127.0.0.1:9', connect_timeout: '5s', static_clientids: [{ node: 'emqx@node1', ids: ['c1'] }] };
      const res = await api(app, 'POST', '/api/v5/connectors', { token, body });
      if (taken) assert.ok(res.statusCode < 300, `${version}: ${res.body}`);
      else assert.match(res.json().message, /unknown_fields.*connect_timeout,static_clientids/, res.body);
    });
  }
});

test('bridges_probe: a type that is no bridge type is a 400, also one named after an Object property', async () => {
  await withApp(['5.5.1', 'ee'], async (app, token) => {
    for (const type of ['constructor', 'toString', '__proto__', 'no_such_type']) {
      const res = await api(app, 'POST', '/api/v5/bridges_probe', { token, body: { type, name: '' } });
      assert.is(res.statusCode, 400, `${type}: ${res.body}`);
      assert.is(res.json().code, 'BAD_REQUEST');
    }
  });
});

test('gateway user import: a hash file imports users, 204 on 5.5.1 and counts on 5.8.9', async () => {
  const file = 'user_id,password_hash,salt,is_superuser\nu1,abc,s1,false\nu2,def,s2,true\n';
  const boundary = '----sim-boundary';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="filename"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  for (const [version, expected] of [['5.5.1', 204], ['5.8.9', 200]] as const) {
    await withApp([version, 'ee'], async (app, token) => {
      const gw = await api(app, 'PUT', '/api/v5/gateways/stomp', { token, body: { name: 'stomp', enable: true } });
      assert.ok(gw.statusCode < 300, gw.body);
      const authn = await api(app, 'POST', '/api/v5/gateways/stomp/authentication', { token, body: { mechanism: 'password_based', backend: 'built_in_database' } });
      assert.ok(authn.statusCode < 300, authn.body);
      const res = await app.inject({
        method: 'POST', url: '/api/v5/gateways/stomp/authentication/import_users', payload,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      assert.is(res.statusCode, expected, res.body);
      if (expected === 200) assert.equal(res.json(), { total: 2, success: 2, override: 0, skipped: 0, failed: 0 });
      const users = (await api(app, 'GET', '/api/v5/gateways/stomp/authentication/users', { token })).json();
      assert.equal(users.data.map((u: { user_id: string }) => u.user_id).sort(), ['u1', 'u2']);
    });
  }
});

test('5.8.9: POST /rules/{id}/test applies the stored rule to a test context: 404, 412 and counted as live data; 404 route on 5.5.1', async () => {
  assert.equal(await servedOn('POST', '/api/v5/rules/r1/test', { context: {} }), ['5.8.9-ee', '5.8.9-ce']);
  await withApp(['5.8.9', 'ee'], async (app, token) => {
    const missing = await api(app, 'POST', '/api/v5/rules/nope/test', { token, body: { context: { event_type: 'message_publish', topic: 't/1' } } });
    assert.equal([missing.statusCode, missing.json().code], [404, 'RULE_NOT_FOUND']);
    const created = await api(app, 'POST', '/api/v5/rules', { token, body: {
      id: 'r1', sql: 'SELECT payload.v as v FROM "t/#" WHERE payload.v > 1',
      actions: [{ function: 'console' }, { function: 'republish', args: { topic: 'out/${v}', qos: 0, payload: '${v}' } }],
    } });
    assert.is(created.statusCode, 201, created.body);
    const context = (v: number, topic = 't/1') => ({ context: { event_type: 'message_publish', topic, payload: JSON.stringify({ v }) } });
    const otherTopic = await api(app, 'POST', '/api/v5/rules/r1/test', { token, body: context(5, 'x/1') });
    assert.equal([otherTopic.statusCode, otherTopic.json()], [412, { code: 'NOT_MATCH', message: 'SQL Not Match' }]);
    const refused = await api(app, 'POST', '/api/v5/rules/r1/test', { token, body: context(0) });
    assert.is(refused.statusCode, 412);
    const applied = await api(app, 'POST', '/api/v5/rules/r1/test', { token, body: context(5) });
    assert.equal([applied.statusCode, applied.json()], [200, ['ok', 'ok']]);
    const unknown = await api(app, 'POST', '/api/v5/rules/r1/test', { token, body: { ...context(5), extra: 1 } });
    assert.is(unknown.statusCode, 400);
    const m = (await api(app, 'GET', '/api/v5/rules/r1/metrics', { token })).json().metrics;
    // The topic miss is not counted; the WHERE refusal is matched + failed.no_result; the applied
    // test is matched + passed, the console ran, the republish stopped after rendering.
    assert.equal([m.matched, m.passed, m['failed.no_result'], m['actions.total'], m['actions.success'], m['actions.failed.unknown']], [2, 1, 1, 2, 1, 1]);
  });
});

test('audit: the entries outlive a restart (EMQX keeps them in a disc table); a torn last line is skipped', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
  let app: FastifyInstance | null = null;
  try {
    app = await buildTestApp({ dataDir: dir, emqxVersion: '5.5.1', edition: 'ee' });
    let token = await login(app);
    await api(app, 'PUT', '/api/v5/configs/log', { token, body: { audit: { enable: true } } });
    for (const who of ['one', 'two']) await api(app, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who } });
    const before = (await api(app, 'GET', '/api/v5/audit?limit=50', { token })).json().data as { operation_id: string; created_at: string }[];
    assert.is(before.filter((e) => e.operation_id === '/banned').length, 2);
    await app.close();
    app = null;
    // A crash in the middle of a write leaves half a line.
    appendFileSync(path.join(dir, 'audit.jsonl'), '{"created_at": 17');
    app = await buildTestApp({ dataDir: dir, emqxVersion: '5.5.1', edition: 'ee' });
    token = await login(app);
    // Newest first: the entries from before the restart, below this login's own entry.
    const after = (await api(app, 'GET', '/api/v5/audit?limit=50', { token })).json().data as { operation_id: string; created_at: string }[];
    assert.equal(after.slice(-before.length).map((e) => [e.operation_id, e.created_at]), before.map((e) => [e.operation_id, e.created_at]));
    assert.equal(after.slice(0, -before.length).map((e) => e.operation_id), ['/login']);
    await api(app, 'POST', '/api/v5/banned', { token, body: { as: 'clientid', who: 'three' } });
    const third = (await api(app, 'GET', '/api/v5/audit?limit=50', { token })).json().data as { operation_id: string }[];
    assert.is(third.length, after.length + 1);
  } finally {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('zone defaults as each release has them: retry_interval 30s up to 5.7, infinity from 5.8 (emqx_schema.erl)', async () => {
  for (const [profile, expected] of [[['5.5.1', 'ee'], '30s'], [['5.8.9', 'ce'], 'infinity']] as const) {
    await withApp([...profile], async (app, token) => {
      const zone = (await api(app, 'GET', '/api/v5/configs/global_zone', { token })).json();
      assert.is(zone.mqtt.retry_interval, expected, profile.join('-'));
    });
  }
});

test.run();
