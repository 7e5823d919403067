import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { formatDateTime } from '../../web/lib/format.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const overview = [
  { name: 'stomp', status: 'running', current_connections: 3, max_connections: 1024, listeners: [{ id: 'stomp:tcp:default', type: 'tcp', name: 'default', running: true }] },
  { name: 'mqttsn', status: 'unloaded' },
  { name: 'coap', status: 'stopped', current_connections: 0, max_connections: 'infinity', listeners: [] },
  { name: 'lwm2m', status: 'unloaded' },
  { name: 'exproto', status: 'unloaded' },
];
const stomp = {
  name: 'stomp', status: 'running', created_at: '2026-01-01T00:00:00.000+00:00', started_at: '2026-01-01T00:00:00.000+00:00',
  enable: true, enable_stats: true, idle_timeout: '30s', mountpoint: '', frame: { max_headers: 10, max_headers_length: 1024, max_body_length: 65536 },
  listeners: [{ id: 'stomp:tcp:default', type: 'tcp', name: 'default', bind: '0.0.0.0:61613', running: true }],
};
const listener = { id: 'stomp:tcp:default', type: 'tcp', name: 'default', enable: true, bind: '0.0.0.0:61613', max_connections: 1024, max_conn_rate: 1000, mountpoint: '', enable_authn: true, acceptors: 16, status: { running: true, current_connections: 2 } };

async function open(path: string) {
  await signedInAt(path);
}
const writes = (api: ReturnType<typeof fakeApi>) => api.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body]);
const row = (name: string, key: string) => document.querySelector(`[data-test=${name}-row][data-key="${key}"]`);
const cells = (name: string, key: string) => [...row(name, key)!.querySelectorAll('td')].map((td) => td.textContent);
const choose = (el: Element | null, value: string) => act(() => {
  (el as HTMLSelectElement).value = value;
  el!.dispatchEvent(new Event('change', { bubbles: true }));
});
const check = (el: Element | null, on: boolean) => act(() => {
  (el as HTMLInputElement).checked = on;
  el!.dispatchEvent(new Event('change', { bubbles: true }));
});

test('lists the five gateways with status, connections, listeners and an enable switch', async () => {
  await open('/gateway');
  const api = fakeApi({ 'GET /gateways': { body: overview }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('gateways', 'exproto'));
  assert.equal(cells('gateways', 'stomp').slice(0, 4), ['STOMP', 'Running', '3 / 1,024', 'tcp:default']);
  assert.equal(cells('gateways', 'coap').slice(0, 3), ['CoAP', 'Stopped', '0 / ∞']);
  assert.equal(cells('gateways', 'mqttsn').slice(0, 3), ['MQTT-SN', 'Not set up', '—']);
  assert.is(row('gateways', 'stomp')!.querySelector('a')!.getAttribute('href'), '#/gateway/detail/stomp/settings');
  assert.is(row('gateways', 'lwm2m')!.querySelector('a')!.getAttribute('href'), '#/gateway/create/lwm2m');
  assert.ok(row('gateways', 'stomp')!.querySelector<HTMLInputElement>('[data-test=gateways-enable]')!.checked);
  assert.not.ok(row('gateways', 'coap')!.querySelector<HTMLInputElement>('[data-test=gateways-enable]')!.checked);
  // Each row's action: Set up for one not loaded, Settings for a loaded one.
  assert.is(row('gateways', 'mqttsn')!.querySelector('[data-test=gateways-setup]')!.getAttribute('href'), '#/gateway/create/mqttsn');
  assert.is(row('gateways', 'mqttsn')!.querySelector('[data-test=gateways-setup]')!.textContent, 'Set up');
  assert.not.ok(row('gateways', 'stomp')!.querySelector('[data-test=gateways-setup]'));
  assert.is(row('gateways', 'stomp')!.querySelector('[data-test=gateways-settings]')!.getAttribute('href'), '#/gateway/detail/stomp/settings');
  api.restore();
});

test('the empty state, and a failed load with retry', async () => {
  await open('/gateway');
  let fail = true;
  const api = fakeApi({ 'GET /gateways': () => (fail ? { status: 500, body: { code: 'UNKNOWN_ERROR', message: 'x' } } : { body: [] }), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No gateways'));
  api.restore();
});

for (const [locale, ask] of [['en', 'Disable the STOMP gateway? All its connections will be closed.'], ['zh', '确定停用 STOMP 网关吗？它的所有连接都将被断开。']] as const) {
  test(`disabling asks first (${locale}); enabling does not; an unloaded gateway opens the wizard`, async () => {
    await open('/gateway');
    setLocale(locale);
    const api = fakeApi({ 'GET /gateways': { body: overview }, 'PUT /gateways/stomp/enable/false': { status: 204 }, 'PUT /gateways/coap/enable/true': { status: 204 }, 'GET /alarms': alarms, 'GET /gateways/mqttsn': { body: { name: 'mqttsn', status: 'unloaded' } } });
    await mount(<App />);
    await click(await waitFor(() => row('gateways', 'stomp')?.querySelector('[data-test=gateways-enable]')));
    await waitFor(() => text().includes(ask));
    await click(byTest('confirm-cancel'));
    assert.equal(writes(api), []);
    await click(row('gateways', 'stomp')!.querySelector('[data-test=gateways-enable]'));
    await click(await waitFor(() => byTest('confirm-ok')));
    await waitFor(() => writes(api).length === 1);
    await click(row('gateways', 'coap')!.querySelector('[data-test=gateways-enable]'));
    await waitFor(() => writes(api).length === 2);
    assert.not.ok(byTest('confirm-dialog'));
    assert.equal(writes(api), [['PUT', '/gateways/stomp/enable/false', {}], ['PUT', '/gateways/coap/enable/true', {}]]);
    await click(row('gateways', 'mqttsn')!.querySelector('[data-test=gateways-enable]'));
    await waitFor(() => route() === '/gateway/create/mqttsn');
    api.restore();
  });
}

test('the MQTT-SN wizard sends basic config, its listeners (udp/dtls only) and no authenticator in one PUT', async () => {
  await open('/gateway/create/mqttsn');
  const api = fakeApi({ 'GET /gateways/mqttsn': { body: { name: 'mqttsn', status: 'unloaded' } }, 'PUT /gateways/mqttsn': { status: 204 }, 'GET /gateways': { body: overview }, 'GET /alarms': alarms });
  await mount(<App />);
  const basic = await waitFor(() => byTest('gateway-basic-form'));
  assert.is(basic.querySelector<HTMLInputElement>('[name=gateway_id]')!.value, '1');
  await check(basic.querySelector('[name=broadcast]'), true);
  await type(basic.querySelector('[name=predefined]'), 'nope');
  await submit(basic);
  assert.ok(text().includes('Enter a valid JSON array'));
  await type(basic.querySelector('[name=predefined]'), '[{"id": 1, "topic": "t/1"}]');
  await submit(basic);
  await waitFor(() => byTest('gateway-wizard-listeners'));
  assert.equal([...document.querySelectorAll('[data-test=gateway-wizard-listener] td')].slice(0, 3).map((td) => td.textContent), ['default', 'udp', '0.0.0.0:1884']);
  await click(byTest('gateway-wizard-add'));
  const form = await waitFor(() => byTest('gateway-listener-form'));
  assert.equal([...form.querySelectorAll('[name=type] option')].map((o) => (o as HTMLOptionElement).value), ['udp', 'dtls']);
  await choose(form.querySelector('[name=type]'), 'dtls');
  await type(form.querySelector('[name=name]'), 'secure');
  await type(form.querySelector('[name=bind]'), 'not a bind');
  await submit(form);
  assert.ok(text().includes('Enter a port or IP:port'));
  await type(form.querySelector('[name=bind]'), '1885');
  await type(form.querySelector('[name="tls.certfile"]'), 'PEM-CERT');
  await submit(form);
  assert.ok(text().includes('Missing Cert or Key'), 'a DTLS listener needs its key too');
  await type(form.querySelector('[name="tls.keyfile"]'), 'PEM-KEY');
  await submit(form);
  await waitFor(() => document.querySelectorAll('[data-test=gateway-wizard-listener]').length === 2);
  await click(document.querySelector('[data-test=gateway-wizard-remove]'));
  await click(byTest('gateway-wizard-next'));
  const auth = await waitFor(() => byTest('gateway-auth-form'));
  assert.equal([...auth.querySelectorAll('[name=mechanism] option')].map((o) => (o as HTMLOptionElement).value), ['none', 'password_based', 'scram', 'jwt']);
  await submit(auth);
  await waitFor(() => route() === '/gateway');
  assert.ok(text().includes('Gateway enabled'));
  assert.equal(writes(api), [['PUT', '/gateways/mqttsn', {
    name: 'mqttsn', enable: true, idle_timeout: '30s', enable_stats: true, mountpoint: '', gateway_id: 1, broadcast: true, enable_qos3: true, subs_resume: false,
    predefined: [{ id: 1, topic: 't/1' }],
    listeners: [{ type: 'dtls', name: 'secure', enable: true, bind: '1885', max_connections: 1024, max_conn_rate: 1000, mountpoint: '', enable_authn: true, dtls_options: { certfile: 'PEM-CERT', keyfile: 'PEM-KEY', verify: 'verify_none' } }],
  }]]);
  api.restore();
});

test('the wizard with password authentication adds the authenticator; STOMP offers no JWT and no Redis', async () => {
  await open('/gateway/create/stomp');
  const api = fakeApi({ 'GET /gateways/stomp': { body: { name: 'stomp', status: 'unloaded' } }, 'PUT /gateways/stomp': { status: 204 }, 'GET /gateways': { body: overview }, 'GET /alarms': alarms });
  await mount(<App />);
  await submit(await waitFor(() => byTest('gateway-basic-form')));
  await click(await waitFor(() => byTest('gateway-wizard-next')));
  const auth = await waitFor(() => byTest('gateway-auth-form'));
  assert.equal([...auth.querySelectorAll('[name=mechanism] option')].map((o) => (o as HTMLOptionElement).value), ['none', 'password_based', 'scram']);
  await choose(auth.querySelector('[name=mechanism]'), 'password_based');
  assert.equal([...auth.querySelectorAll('[name=backend] option')].map((o) => (o as HTMLOptionElement).value), ['built_in_database', 'mysql', 'mongodb', 'postgresql']);
  assert.equal([...auth.querySelectorAll('[name="password_hash_algorithm.name"] option')].map((o) => (o as HTMLOptionElement).value), ['sha256', 'sha512', 'sha', 'md5', 'plain']);
  await choose(auth.querySelector('[name="password_hash_algorithm.name"]'), 'sha512');
  await submit(auth);
  await waitFor(() => route() === '/gateway');
  const body = writes(api)[0][2] as Record<string, unknown>;
  assert.equal(body.authentication, { mechanism: 'password_based', backend: 'built_in_database', password_hash_algorithm: { name: 'sha512', salt_position: 'suffix' }, user_id_type: 'username' });
  assert.equal(body.frame, { max_headers: 10, max_headers_length: 1024, max_body_length: 65536 });
  assert.equal(body.listeners, [{ type: 'tcp', name: 'default', bind: '0.0.0.0:61613', enable: true, max_connections: 1024, max_conn_rate: 1000 }]);
  api.restore();
});

test('a loaded gateway is not set up twice: "This gateway is already loaded"', async () => {
  await open('/gateway/create/stomp');
  const api = fakeApi({ 'GET /gateways/stomp': { body: stomp }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('gateway-already-loaded'));
  assert.ok(text().includes('This gateway is already loaded'));
  assert.not.ok(byTest('gateway-basic-form'));
  api.restore();
});

test('settings tab saves the basic config without listeners, authentication or state', async () => {
  await open('/gateway/detail/stomp/settings');
  const api = fakeApi({ 'GET /gateways/stomp': { body: { ...stomp, authentication: { mechanism: 'scram' } } }, 'PUT /gateways/stomp': { status: 204 }, 'GET /alarms': alarms });
  await mount(<App />);
  const form = await waitFor(() => byTest('gateway-settings-form'));
  assert.ok(byTest('gateway-status')!.textContent === 'Running');
  await type(form.querySelector('[name="frame.max_headers"]'), '20');
  await type(form.querySelector('[name=idle_timeout]'), '1m');
  await submit(form);
  await waitFor(() => text().includes('Gateway settings updated'));
  assert.equal(writes(api), [['PUT', '/gateways/stomp', {
    enable: true, enable_stats: true, idle_timeout: '1m', mountpoint: '', frame: { max_headers: 20, max_headers_length: 1024, max_body_length: 65536 },
  }]]);
  api.restore();
});

test('/gateway/detail/{name} without a tab opens the settings tab instead of a 404', async () => {
  await open('/gateway/detail/stomp');
  const api = fakeApi({ 'GET /gateways/stomp': { body: stomp }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('gateway-settings-form'));
  assert.ok(byTest('gateway-detail'));
  assert.not.ok(text().includes('404'));
  api.restore();
});

test('ExProto settings: the gRPC ConnectionAdapter needs both cert and key for TLS, in both languages', async () => {
  await open('/gateway/detail/exproto/settings');
  const exproto = {
    name: 'exproto', status: 'running', enable: true, enable_stats: true, idle_timeout: '30s', mountpoint: '',
    server: { bind: '0.0.0.0:9100' }, handler: { address: 'http://127.0.0.1:9001', service_name: 'ConnectionUnaryHandler' },
  };
  const api = fakeApi({ 'GET /gateways/exproto': { body: exproto }, 'PUT /gateways/exproto': { status: 204 }, 'GET /alarms': alarms });
  await mount(<App />);
  const form = await waitFor(() => byTest('gateway-settings-form'));
  await type(form.querySelector('[name="server.ssl_options.certfile"]'), 'PEM-CERT');
  await submit(form);
  assert.is(byTest('error-server.ssl_options.keyfile')!.textContent, 'Missing Cert or Key content for gRPC ConnectionAdapter');
  setLocale('zh');
  await submit(form);
  assert.is(byTest('error-server.ssl_options.keyfile')!.textContent, 'gRPC ConnectionAdapter 缺少证书或私钥内容');
  setLocale('en');
  assert.equal(writes(api), []);
  await type(form.querySelector('[name="server.ssl_options.certfile"]'), '');
  await submit(form);
  await waitFor(() => writes(api).length === 1);
  assert.equal((writes(api)[0][2] as { server: unknown }).server, { bind: '0.0.0.0:9100' }, 'no cert and no key: no TLS block');
  await type(form.querySelector('[name="server.ssl_options.certfile"]'), 'PEM-CERT');
  await type(form.querySelector('[name="server.ssl_options.keyfile"]'), 'PEM-KEY');
  await submit(form);
  await waitFor(() => writes(api).length === 2);
  assert.equal((writes(api)[1][2] as { server: unknown }).server, { bind: '0.0.0.0:9100', ssl_options: { certfile: 'PEM-CERT', keyfile: 'PEM-KEY' } });
  api.restore();
});

test('listeners tab: kinds by gateway, adding, and updating only after confirming', async () => {
  await open('/gateway/detail/stomp/listeners');
  const api = fakeApi({
    'GET /gateways/stomp': { body: stomp }, 'GET /gateways/stomp/listeners': { body: [listener] },
    'PUT /gateways/stomp/listeners/stomp%3Atcp%3Adefault': { body: listener }, 'POST /gateways/stomp/listeners': { status: 201, body: listener },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('gateway-listeners', 'stomp:tcp:default'));
  assert.equal(cells('gateway-listeners', 'stomp:tcp:default').slice(0, 5), ['default', 'tcp', '0.0.0.0:61613', 'Running', '2 / 1,024']);
  await click(byTest('gateway-listeners-create'));
  const create = (await waitFor(() => byTest('gateway-listeners-create-form')))!.querySelector('form')!;
  assert.equal([...create.querySelectorAll('[name=type] option')].map((o) => (o as HTMLOptionElement).value), ['tcp', 'ssl']);
  await choose(create.querySelector('[name=type]'), 'ssl');
  await type(create.querySelector('[name=name]'), 'tls');
  await type(create.querySelector('[name=bind]'), '0.0.0.0:61614');
  await type(create.querySelector('[name=max_connections]'), 'infinity');
  await type(create.querySelector('[name="tls.certfile"]'), 'CERT');
  await type(create.querySelector('[name="tls.keyfile"]'), 'KEY');
  await submit(create);
  await waitFor(() => text().includes('Listener added'));
  await click(row('gateway-listeners', 'stomp:tcp:default')!.querySelector('[data-test=gateway-listeners-edit]'));
  const edit = (await waitFor(() => byTest('gateway-listeners-edit-form')))!.querySelector('form')!;
  assert.not.ok(edit.querySelector('[name=type]'));
  await type(edit.querySelector('[name=bind]'), '61616');
  await submit(edit);
  await waitFor(() => text().includes('Updating the listener stomp:tcp:default disconnects its existing connections. Continue?'));
  await click(byTest('confirm-cancel'));
  assert.ok(byTest('gateway-listeners-edit-form'));
  await submit(edit);
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => text().includes('Listener updated'));
  assert.equal(writes(api), [
    ['POST', '/gateways/stomp/listeners', { type: 'ssl', name: 'tls', enable: true, bind: '0.0.0.0:61614', max_connections: 'infinity', max_conn_rate: 1000, mountpoint: '', enable_authn: true, ssl_options: { verify: 'verify_none', certfile: 'CERT', keyfile: 'KEY' } }],
    ['PUT', '/gateways/stomp/listeners/stomp%3Atcp%3Adefault', { id: 'stomp:tcp:default', type: 'tcp', name: 'default', enable: true, bind: '61616', max_connections: 1024, max_conn_rate: 1000, mountpoint: '', enable_authn: true, acceptors: 16 }],
  ]);
  api.restore();
});

test('listeners tab: disabling a listener asks first and says its connections close', async () => {
  await open('/gateway/detail/exproto/listeners');
  const l = { ...listener, id: 'exproto:udp:default', type: 'udp' };
  const api = fakeApi({
    'GET /gateways/exproto': { body: { ...stomp, name: 'exproto' } }, 'GET /gateways/exproto/listeners': { body: [l] },
    'PUT /gateways/exproto/listeners/exproto%3Audp%3Adefault': { body: l }, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await click(await waitFor(() => row('gateway-listeners', 'exproto:udp:default')?.querySelector('[data-test=gateway-listeners-disable]')));
  await waitFor(() => text().includes('Disable the listener exproto:udp:default? All its connections will be closed.'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Listener disabled'));
  assert.is((writes(api)[0][2] as { enable: boolean }).enable, false);
  await click(byTest('gateway-listeners-create'));
  const create = (await waitFor(() => byTest('gateway-listeners-create-form')))!.querySelector('form')!;
  assert.equal([...create.querySelectorAll('[name=type] option')].map((o) => (o as HTMLOptionElement).value), ['tcp', 'ssl', 'udp', 'dtls']);
  api.restore();
});

test('auth tab: none yet (204) creates with POST; an existing one updates with PUT and can be removed', async () => {
  await open('/gateway/detail/lwm2m/auth');
  let auth: unknown;
  const api = fakeApi({
    'GET /gateways/lwm2m': { body: { ...stomp, name: 'lwm2m' } },
    'GET /gateways/lwm2m/authentication': () => (auth ? { body: auth } : { status: 204 }),
    'POST /gateways/lwm2m/authentication': (call) => ((auth = call.body), { status: 201, body: auth }),
    'PUT /gateways/lwm2m/authentication': (call) => ((auth = call.body), { body: auth }),
    'DELETE /gateways/lwm2m/authentication': () => ((auth = undefined), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('gateway-auth-none'));
  let form = byTest('gateway-auth-form')!;
  await choose(form.querySelector('[name=mechanism]'), 'jwt');
  await type(form.querySelector('[name=secret]'), 's3cret');
  await submit(form);
  await waitFor(() => text().includes('Authentication saved'));
  await waitFor(() => byTest('gateway-auth-remove'));
  form = byTest('gateway-auth-form')!;
  await choose(form.querySelector('[name=from]'), 'username');
  await submit(form);
  await waitFor(() => writes(api).length === 2);
  await click(byTest('gateway-auth-remove'));
  await waitFor(() => text().includes('Remove the authentication of this gateway? Every client may connect afterwards.'));
  await click(byTest('confirm-ok'));
  await waitFor(() => byTest('gateway-auth-none'));
  const jwt = { mechanism: 'jwt', from: 'password', use_jwks: false, algorithm: 'hmac-based', secret: 's3cret', secret_base64_encoded: false, verify_claims: {} };
  assert.equal(writes(api), [
    ['POST', '/gateways/lwm2m/authentication', jwt],
    ['PUT', '/gateways/lwm2m/authentication', { ...jwt, from: 'username' }],
    ['DELETE', '/gateways/lwm2m/authentication', undefined],
  ]);
  api.restore();
});

for (const [locale, done] of [['en', 'Kicked out successfully'], ['zh', '踢除成功']] as const) {
  test(`clients tab (LwM2M, ${locale}): endpoint name, IP, registered at, lifetime; filters in the query; kick asks first`, async () => {
    await open('/gateway/detail/lwm2m/clients');
    setLocale(locale);
    let clients = [{ clientid: 'ep1', endpoint_name: 'ep1', ip_address: '10.0.0.5', port: 5683, created_at: '2026-02-01T00:00:00.000+00:00', lifetime: 86400 }];
    const api = fakeApi({
      'GET /gateways/lwm2m': { body: { ...stomp, name: 'lwm2m' } },
      'GET /gateways/lwm2m/clients': () => ({ body: { data: clients, meta: { page: 1, limit: 20, hasnext: false, count: clients.length } } }),
      'DELETE /gateways/lwm2m/clients/ep1': () => ((clients = []), { status: 204 }),
      'GET /alarms': alarms,
    });
    await mount(<App />);
    await waitFor(() => row('gateway-clients', 'ep1'));
    assert.equal(cells('gateway-clients', 'ep1').slice(0, 4), ['ep1', '10.0.0.5', formatDateTime('2026-02-01T00:00:00.000+00:00'), '86400 s']);
    assert.is(String(api.calls.find((c) => c.path === '/gateways/lwm2m/clients')!.query), 'page=1&limit=20');
    await type(document.querySelector('.filters [name=like_endpoint_name]'), 'ep');
    await submit(document.querySelector('form.filters'));
    await waitFor(() => api.calls.some((c) => c.query.get('like_endpoint_name') === 'ep'));
    await click(row('gateway-clients', 'ep1')!.querySelector('[data-test=gateway-clients-kick]'));
    await click(await waitFor(() => byTest('confirm-ok')));
    await waitFor(() => text().includes(done));
    assert.equal(writes(api), [['DELETE', '/gateways/lwm2m/clients/ep1', undefined]]);
    api.restore();
  });
}

test.after(cleanup);
test.run();
