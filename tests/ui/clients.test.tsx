import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const nodes = { body: [{ node: 'emqx@n1', node_status: 'running' }, { node: 'emqx@n2', node_status: 'running' }] };
const XSS = '"><img src=x onerror=alert(1)>';

function client(clientid: string, extra: Record<string, unknown> = {}) {
  return {
    clientid, username: 'u-' + clientid, node: 'emqx@n1', ip_address: '10.0.0.7', port: 52011, proto_name: 'MQTT', proto_ver: 5,
    connected: true, clean_start: true, keepalive: 60, expiry_interval: 7200, created_at: '2024-05-01T10:00:00.000+00:00',
    connected_at: '2024-05-01T10:00:01.000+00:00', subscriptions_cnt: 1, subscriptions_max: 'infinity', inflight_cnt: 3, inflight_max: 32,
    mqueue_len: 4, mqueue_max: 1000, mqueue_dropped: 2, awaiting_rel_cnt: 0, awaiting_rel_max: 100, heap_size: 610, reductions: 123456,
    mailbox_len: 0, is_bridge: false, listener: 'ssl:default', recv_oct: 2048, send_oct: 1024, recv_pkt: 12, send_pkt: 9, recv_cnt: 12,
    send_cnt: 9, recv_msg: 5, 'recv_msg.qos0': 1, 'recv_msg.qos1': 3, 'recv_msg.qos2': 1, 'recv_msg.dropped': 0, send_msg: 7,
    'send_msg.qos1': 7, 'send_msg.dropped': 1, 'send_msg.dropped.queue_full': 1,
    ...extra,
  };
}
const page = (data: unknown[], meta: Record<string, unknown> = {}) => ({ body: { data, meta: { page: 1, limit: 20, hasnext: false, count: data.length, ...meta } } });

/** Logs in at `path`; wouter's hash location keeps the query before the hash (`/?page=2#/clients`). */
async function login(path: string, version?: string) {
  const [hash, search] = path.split('?');
  reset(hash);
  if (search) history.replaceState(null, '', `/?${search}#${hash}`);
  await saveUser({ username: 'admin', token: 'tok-1', version });
  await restoreSession();
}

const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.path === '/clients');
const query = (call: Call) => Object.fromEntries(call.query);
const row = (id: string) => [...document.querySelectorAll<HTMLElement>('[data-test=clients-row]')].find((r) => r.dataset.key === id);
const cells = (id: string) => [...row(id)!.querySelectorAll('td')].map((td) => td.textContent);
const headers = () => [...document.querySelectorAll('[data-test=clients-table] th')].map((th) => th.textContent);

async function choose(name: string, value: string) {
  const select = await waitFor(() => document.querySelector<HTMLSelectElement>(`select[name=${name}]`));
  await waitFor(() => [...select.options].some((o) => o.value === value));
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => true);
}

test('the list asks GET /clients for page 1 of 20 and shows the default columns as text', async () => {
  await login('/clients');
  const api = fakeApi({ 'GET /clients': page([client('dev-1'), client(XSS, { connected: false, proto_ver: 4 })]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('dev-1'));
  assert.equal(query(lists(api.calls)[0]), { page: '1', limit: '20' });
  assert.equal(headers(), ['', 'Client ID', 'Username', 'Status', 'IP address', 'Keepalive (s)', 'Clean Session', 'Protocol', 'Connected At', 'Access Node', 'Actions']);
  const [, id, username, status, address, keepalive, clean, proto, , node] = cells('dev-1');
  assert.equal([id, username, status, address, keepalive, clean, proto, node], ['dev-1', 'u-dev-1', 'Connected', '10.0.0.7:52011', '60', 'Yes', 'MQTT v5.0', 'emqx@n1']);
  assert.match(cells('dev-1')[8]!, /^2024-05-01 \d\d:00:01$/);
  assert.is(row('dev-1')!.querySelector('a')!.getAttribute('href'), '#/clients/detail/dev-1');
  // A hostile client id is text, and its link is encoded (security.md S12).
  assert.is(cells(XSS)[1], XSS);
  assert.is(document.querySelector('img'), null);
  assert.is(row(XSS)!.querySelector('a')!.getAttribute('href'), `#/clients/detail/${encodeURIComponent(XSS)}`);
  assert.equal([cells(XSS)[3], cells(XSS)[7]], ['Disconnected', 'MQTT v3.1.1']);
  // Connected clients are kicked; a disconnected one's kept session is cleared.
  assert.ok(row('dev-1')!.querySelector('[data-test=clients-kick]'));
  assert.not.ok(row('dev-1')!.querySelector('[data-test=clients-clear]'));
  assert.ok(row(XSS)!.querySelector('[data-test=clients-clear]'));
  api.restore();
});

test('every filter goes into the URL and the request with EMQX names, and a reload keeps them', async () => {
  await login('/clients');
  const api = fakeApi({ 'GET /clients': page([client('dev-1')]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('dev-1'));
  await type(document.querySelector('input[name=like_clientid]'), 'dev');
  await type(document.querySelector('input[name=like_username]'), 'ops');
  // Changed with issue #34: address, state, version and times wait behind "More filters".
  assert.not.ok(document.querySelector('input[name=ip_address]'));
  await click(byTest('filter-more'));
  await type(document.querySelector('input[name=ip_address]'), '10.0.0.7');
  await submit(document.querySelector('form.filters'));
  await waitFor(() => lists(api.calls).length === 2);
  assert.equal(query(lists(api.calls)[1]), { like_clientid: 'dev', like_username: 'ops', ip_address: '10.0.0.7', page: '1', limit: '20' });
  await choose('node', 'emqx@n2');
  await choose('conn_state', 'disconnected');
  assert.equal([...document.querySelector<HTMLSelectElement>('select[name=proto_ver]')!.options].map((o) => [o.value, o.textContent]),
    [['', 'All versions'], ['3', 'MQTT v3.1'], ['4', 'MQTT v3.1.1'], ['5', 'MQTT v5.0']]);
  await choose('proto_ver', '4');
  // A time is one text field (one Tab stop), typed as YYYY-MM-DD HH:mm:ss and applied with Enter like text.
  await type(document.querySelector('input[name=gte_connected_at]'), '2024-05-01 10:00');
  await type(document.querySelector('input[name=lte_connected_at]'), '2024-05-02 18:30:00');
  await submit(document.querySelector('form.filters'));
  const from = new Date('2024-05-01T10:00').toISOString();
  const to = new Date('2024-05-02T18:30').toISOString();
  const expected = {
    node: 'emqx@n2', like_clientid: 'dev', like_username: 'ops', ip_address: '10.0.0.7', conn_state: 'disconnected', proto_ver: '4',
    gte_connected_at: from, lte_connected_at: to,
  };
  await waitFor(() => query(lists(api.calls).at(-1)!).lte_connected_at === to);
  assert.equal(query(lists(api.calls).at(-1)!), { ...expected, page: '1', limit: '20' });
  assert.equal(Object.fromEntries(new URLSearchParams(route().split('?')[1])), expected);
  // A reload of the same URL sends the same request and fills the filters back in.
  cleanup();
  const before = lists(api.calls).length;
  await mount(<App />);
  await waitFor(() => lists(api.calls).length > before);
  assert.equal(query(lists(api.calls).at(-1)!), { ...expected, page: '1', limit: '20' });
  assert.is(document.querySelector<HTMLInputElement>('input[name=like_clientid]')!.value, 'dev');
  assert.is(document.querySelector<HTMLSelectElement>('select[name=conn_state]')!.value, 'disconnected', 'a set filter behind More shows at once');
  assert.is(document.querySelector<HTMLInputElement>('input[name=gte_connected_at]')!.value, '2024-05-01 10:00:00');
  await waitFor(() => document.querySelector<HTMLSelectElement>('select[name=node]')!.value === 'emqx@n2');
  api.restore();
});

test('a fuzzy search answers without count: the pager offers previous and next only, and keeps the filter', async () => {
  await login('/clients?like_clientid=dev');
  const rows = Array.from({ length: 20 }, (_, i) => client(`dev-${i}`));
  const api = fakeApi({
    'GET /clients': (call) => ({ body: { data: call.query.get('page') === '2' ? [client('dev-20')] : rows, meta: { page: Number(call.query.get('page')), limit: 20, hasnext: call.query.get('page') !== '2' } } }),
    'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('dev-0'));
  assert.equal([...byTest('pager')!.querySelectorAll('button')].map((b) => b.textContent), ['Previous', 'Next']);
  assert.ok(byTest('pager')!.textContent!.includes('Page 1'));
  assert.not.ok(text().includes('in total'));
  await click(byTest('pager-next'));
  await waitFor(() => row('dev-20'));
  assert.equal(query(lists(api.calls).at(-1)!), { like_clientid: 'dev', page: '2', limit: '20' });
  assert.is(byTest<HTMLButtonElement>('pager-next')!.disabled, true);
  api.restore();
});

test('with a total the pager shows page numbers and the page size goes to the request', async () => {
  await login('/clients');
  const api = fakeApi({
    'GET /clients': (call) => page(Array.from({ length: 20 }, (_, i) => client(`c${call.query.get('page')}-${i}`)), { count: 95, hasnext: true, page: Number(call.query.get('page')), limit: Number(call.query.get('limit')) }),
    'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('c1-0'));
  assert.ok(text().includes('95 in total'));
  await click([...byTest('pager')!.querySelectorAll('button')].find((b) => b.textContent === '5')!);
  await waitFor(() => row('c5-0'));
  assert.equal(query(lists(api.calls).at(-1)!), { page: '5', limit: '20' });
  const size = byTest('pager')!.querySelector('select')!;
  size.value = '50';
  size.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => query(lists(api.calls).at(-1)!).limit === '50');
  assert.equal(query(lists(api.calls).at(-1)!), { limit: '50', page: '1' });
  api.restore();
});

test('kick out asks first, sends DELETE with the encoded id, toasts and reloads', async () => {
  await login('/clients');
  const id = 'plant/line 1#a';
  let list = [client(id), client('other')];
  const api = fakeApi({
    'GET /clients': () => page(list),
    [`DELETE /clients/${encodeURIComponent(id)}`]: () => ((list = [client('other')]), { status: 204 }),
    'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row(id));
  await click(row(id)!.querySelector('[data-test=clients-kick]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes(`Kick out the client ${id}?`));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'), 'cancel kicks nobody');
  await click(row(id)!.querySelector('[data-test=clients-kick]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => !row(id));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/clients/plant%2Fline%201%23a']);
  assert.ok(text().includes('Kicked out successfully'));
  assert.is(lists(api.calls).length, 2);
  api.restore();
});

test('clearing a disconnected client\'s session is the same DELETE with its own words', async () => {
  await login('/clients');
  const api = fakeApi({
    'GET /clients': page([client('sleepy', { connected: false, disconnected_at: '2024-05-01T11:00:00.000+00:00' })]),
    'DELETE /clients/sleepy': { status: 204 }, 'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('sleepy'));
  await click(row('sleepy')!.querySelector('[data-test=clients-clear]'));
  await waitFor(() => text().includes('Clear the session of the client sleepy?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Session cleared successfully'));
  assert.is(api.calls.filter((c) => c.method === 'DELETE').length, 1);
  api.restore();
});

test('bulk kick names the count, then sends one DELETE per selected client', async () => {
  await login('/clients');
  const api = fakeApi({
    'GET /clients': page([client('a'), client('b c'), client('d/e')]),
    'DELETE /clients/a': { status: 204 }, 'DELETE /clients/b%20c': { status: 204 }, 'DELETE /clients/d%2Fe': { status: 204 },
    'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('a'));
  assert.not.ok(byTest('clients-bulk'), 'nothing selected, no bulk bar');
  await click(row('b c')!.querySelector('[data-test=clients-select]'));
  await click(row('d/e')!.querySelector('[data-test=clients-select]'));
  await click(byTest('clients-bulk-kick'));
  await waitFor(() => text().includes('Kick out the 2 selected clients?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Kicked out successfully'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path).sort(), ['/clients/b%20c', '/clients/d%2Fe']);
  await waitFor(() => !byTest('clients-bulk'));
  api.restore();
});

test('the column chooser hides a column and the choice survives a reload; hidden columns can be shown', async () => {
  await login('/clients');
  const api = fakeApi({ 'GET /clients': page([client('dev-1')]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('dev-1'));
  assert.not.ok(headers().includes('Created At'), 'created at starts hidden');
  await click(byTest('clients-columns'));
  await click(byTest('column-keepalive'));
  await click(byTest('column-created_at'));
  assert.not.ok(headers().includes('Keepalive (s)'));
  assert.ok(headers().includes('Created At'));
  cleanup();
  await mount(<App />);
  await waitFor(() => row('dev-1'));
  assert.not.ok(headers().includes('Keepalive (s)'), 'still hidden after a reload');
  assert.ok(headers().includes('Created At'));
  api.restore();
});

test('the list shows loading, then empty; a failure shows an error whose retry loads again', async () => {
  await login('/clients');
  let reply: { status?: number; body?: unknown; delay?: number } = { delay: 200, ...page([]) };
  const api = fakeApi({ 'GET /clients': () => reply, 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-loading'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(byTest('state-empty')!.textContent!.includes('No clients'));
  reply = { status: 500, body: { code: 'NODE_DOWN', message: 'bad rpc call' } };
  await click(byTest('clients-refresh'));
  await waitFor(() => byTest('state-error'));
  assert.ok(byTest('state-error')!.textContent!.includes('The node cannot be reached: check its name and the network'));
  reply = page([client('back')]);
  await click(byTest('state-retry'));
  await waitFor(() => row('back'));
  assert.not.ok(byTest('state-error'));
  api.restore();
});

test('the list refreshes every 5 s while the tab is visible and pauses while it is hidden', async () => {
  await login('/clients');
  const timers: (() => void)[] = [];
  const original = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void, ms?: number) => (ms === 5000 && timers.push(fn), original(() => {}, 60_000))) as typeof setInterval;
  const api = fakeApi({ 'GET /clients': page([client('dev-1')]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  try {
    await mount(<App />);
    await waitFor(() => row('dev-1'));
    assert.is(timers.length, 1);
    timers[0]();
    await waitFor(() => lists(api.calls).length === 2);
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    timers[0]();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(lists(api.calls).length, 2, 'no request while hidden');
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => lists(api.calls).length === 3);
  } finally {
    globalThis.setInterval = original;
    delete (document as { hidden?: boolean }).hidden;
    api.restore();
  }
});

// ---- detail ----

const detailPath = (id: string) => `/clients/detail/${encodeURIComponent(id)}`;
const subsOf = (id: string) => `/clients/${encodeURIComponent(id)}/subscriptions`;
const dl = (test: string) => Object.fromEntries([...byTest(test)!.querySelectorAll('.description')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));

test('the detail shows connection, session and every counter group of GET /clients/{id}', async () => {
  const id = 'plant/line 1';
  await login(detailPath(id));
  const api = fakeApi({
    [`GET /clients/${encodeURIComponent(id)}`]: { body: client(id) },
    [`GET ${subsOf(id)}`]: { body: [{ topic: 'a/#', qos: 1, nl: 0, rap: 1, rh: 0, node: 'emqx@n1', clientid: id }] },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('client-detail'));
  assert.is(byTest('client-id')!.textContent, id);
  assert.is(byTest('client-status')!.textContent, 'Connected');
  const connection = dl('client-connection');
  assert.equal(
    [connection['Client ID'], connection.Username, connection['IP address'], connection.Port, connection.Protocol, connection['Keepalive (s)'],
      connection['Clean Session'], connection['Access Node'], connection.Bridge, connection.Listener, connection.SSL],
    [id, `u-${id}`, '10.0.0.7', '52011', 'MQTT v5.0', '60', 'Yes', 'emqx@n1', 'No', 'ssl:default', 'Yes'],
  );
  assert.match(connection['Connected At'], /^2024-05-01 \d\d:00:01$/);
  assert.match(connection['Created At'], /^2024-05-01 \d\d:00:00$/);
  assert.not.ok('Disconnected At' in connection, 'a connected client has no disconnect time');
  assert.equal(dl('client-session'), {
    'Session Expiry Interval': '2h', Subscriptions: '1 / Unlimited', Inflight: '3 / 32', 'Message Queue': '4 / 1,000',
    'Message Queue Dropped': '2', 'Awaiting Release': '0 / 100', 'Heap Size': '610', Reductions: '123,456', Mailbox: '0',
  });
  const group = (title: string) => [...byTest(`metrics-${title}`)!.querySelectorAll('tr')].map((r) => r.textContent);
  assert.equal(group('clients.bytes'), ['recv_oct2,048', 'send_oct1,024']);
  assert.equal(group('clients.packets'), ['recv_cnt12', 'recv_pkt12', 'send_cnt9', 'send_pkt9']);
  assert.equal(group('clients.received'), ['recv_msg5', 'recv_msg.dropped0', 'recv_msg.qos01', 'recv_msg.qos13', 'recv_msg.qos21']);
  assert.equal(group('clients.sent'), ['send_msg7', 'send_msg.dropped1', 'send_msg.dropped.queue_full1', 'send_msg.qos17']);
  const sub = await waitFor(() => document.querySelector('[data-test=client-subscriptions-row]'));
  assert.equal([...sub.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent), ['a/#', '1', 'No', 'Yes', '0']);
  assert.ok(api.calls.some((c) => c.path === `/clients/${encodeURIComponent(id)}`), 'the id is encoded in the path');
  api.restore();
});

test('the detail asks for the client and its subscriptions at once, and shows the subscriptions with the client', async () => {
  await login(detailPath('slow'));
  const api = fakeApi({
    'GET /clients/slow': { body: client('slow'), delay: 150 },
    'GET /clients/slow/subscriptions': { body: [{ topic: 'b/+', qos: 2, nl: 1, rap: 0, rh: 1 }] },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  const subscriptions = () => api.calls.filter((c) => c.path === '/clients/slow/subscriptions');
  // Asked for while the client is still on its way, not after it arrived.
  await waitFor(() => subscriptions().length === 1);
  assert.ok(byTest('state-loading'), 'the client is still loading');
  assert.not.ok(byTest('client-detail'));
  const page = byTest('client-subscriptions-page');
  assert.ok(!page || page.closest('[hidden]'), 'no subscriptions shown before the client');
  await waitFor(() => byTest('client-detail'));
  const sub = await waitFor(() => document.querySelector('[data-test=client-subscriptions-row]'));
  assert.not.ok(sub.closest('[hidden]'));
  assert.ok(byTest('client-detail')!.contains(sub), 'the subscriptions are part of the detail');
  assert.is(sub.querySelector('td')!.textContent, 'b/+');
  assert.is(subscriptions().length, 1, 'asked for once');
  api.restore();
});

test('a client that is gone shows not found, without the error of its subscriptions', async () => {
  await login(detailPath('gone'));
  const api = fakeApi({
    'GET /clients/gone': { status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' }, delay: 50 },
    'GET /clients/gone/subscriptions': { status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => api.calls.some((c) => c.path === '/clients/gone/subscriptions'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const failed = byTest('state-error');
  assert.ok(!failed || failed.closest('[hidden]'), 'the subscriptions error is not shown');
  await waitFor(() => byTest('client-not-found'));
  assert.not.ok(byTest('state-error'));
  api.restore();
});

test('a disconnected client shows when it left and offers clear session, which toasts and goes back to the list', async () => {
  await login(detailPath('sleepy'));
  const api = fakeApi({
    'GET /clients/sleepy': { body: client('sleepy', { connected: false, disconnected_at: '2024-05-01T11:00:00.000+00:00', expiry_interval: 4294967295 }) },
    'GET /clients/sleepy/subscriptions': { body: [] },
    'DELETE /clients/sleepy': { status: 204 },
    'GET /clients': page([]), 'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('client-detail'));
  assert.match(dl('client-connection')['Disconnected At'], /^2024-05-01 \d\d:00:00$/);
  assert.is(dl('client-session')['Session Expiry Interval'], 'Never expire');
  assert.not.ok(byTest('client-kick'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(byTest('client-subscriptions-page')!.textContent!.includes('No subscriptions'));
  await click(byTest('client-clear-session'));
  await waitFor(() => text().includes('Clear the session of the client sleepy?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => route().startsWith('/clients?') || route() === '/clients');
  assert.ok(text().includes('Session cleared successfully'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/clients/sleepy']);
  api.restore();
});

test('an MQTT 5 session without queue limits reads Unlimited: mqueue_max 0 and awaiting_rel_max infinity, as EMQX reports them', async () => {
  await login(detailPath('v5-unlimited'));
  const api = fakeApi({
    'GET /clients/v5-unlimited': { body: client('v5-unlimited', { expiry_interval: 300, mqueue_len: 12, mqueue_max: 0, mqueue_dropped: 3, awaiting_rel_cnt: 2, awaiting_rel_max: 'infinity' }) },
    'GET /clients/v5-unlimited/subscriptions': { body: [] },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('client-detail'));
  assert.is(dl('client-connection').Protocol, 'MQTT v5.0');
  const session = dl('client-session');
  assert.equal([session['Session Expiry Interval'], session.Inflight, session['Message Queue'], session['Message Queue Dropped'], session['Awaiting Release']],
    ['5m', '3 / 32', '12 / Unlimited', '3', '2 / Unlimited']);
  api.restore();
});

const queued = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({
  msgid: `m${from + i}`, topic: `t/${from + i}`, qos: 1, publish_at: Date.UTC(2026, 0, 1), from_clientid: 'pub', inserted_at: String(from + i),
  mqueue_priority: 0, payload: btoa(from + i === 0 ? '{"v":1}' : String.fromCharCode(0xff, 0x00)),
}));

test('on 5.6+ the detail lists the queued and the inflight messages, following the broker\'s position for more', async () => {
  await login('/clients/detail/dev-1', '5.8.9');
  const api = fakeApi({
    'GET /clients/dev-1': { body: client('dev-1') },
    'GET /clients/dev-1/subscriptions': { body: [] },
    'GET /clients/dev-1/mqueue_messages': (call) => (call.query.get('position') === 'p20'
      ? { body: { data: queued(3, 20), meta: { start: 'p20', position: 'end_of_data' } } }
      : { body: { data: queued(20), meta: { start: 'none', position: 'p20' } } }),
    'GET /clients/dev-1/inflight_messages': { body: { data: [], meta: { start: 'none', position: 'none' } } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => document.querySelectorAll('[data-test=client-mqueue-row]').length === 20);
  const first = document.querySelector('[data-test=client-mqueue-row]')!;
  assert.match(first.textContent!, /t\/0.*\{"v":1\}/, 'a UTF-8 payload as text');
  assert.match(document.querySelectorAll('[data-test=client-mqueue-row]')[1].textContent!, /ff 00/, 'other bytes in hex');
  const asked = api.calls.find((c) => c.path === '/clients/dev-1/mqueue_messages')!.query;
  assert.equal(Object.fromEntries(asked), { limit: '20', payload: 'base64', max_payload_bytes: '256' });
  assert.ok(byTest('client-inflight')!.textContent!.includes('No message awaits its acknowledgement'));
  await click(byTest('client-mqueue-more'));
  await waitFor(() => document.querySelectorAll('[data-test=client-mqueue-row]').length === 23);
  assert.not.ok(byTest('client-mqueue-more'), 'the end of the queue');
  api.restore();
});

test('before 5.6 the detail asks for no queue list', async () => {
  await login('/clients/detail/dev-1', '5.5.1');
  const api = fakeApi({ 'GET /clients/dev-1': { body: client('dev-1') }, 'GET /clients/dev-1/subscriptions': { body: [] }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('client-detail'));
  assert.not.ok(byTest('client-mqueue'));
  assert.not.ok(api.calls.some((c) => c.path.endsWith('_messages')));
  api.restore();
});

test('kick out from the detail asks, deletes the encoded id, toasts and returns to the list', async () => {
  const id = 'a b/c';
  await login(detailPath(id));
  const api = fakeApi({
    'GET /clients/a%20b%2Fc': { body: client(id) }, 'GET /clients/a%20b%2Fc/subscriptions': { body: [] },
    'DELETE /clients/a%20b%2Fc': { status: 204 }, 'GET /clients': page([]), 'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await click(await waitFor(() => byTest('client-kick')));
  await waitFor(() => text().includes('Kick out the client a b/c?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => byTest('clients-page'));
  assert.ok(text().includes('Kicked out successfully'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/clients/a%20b%2Fc']);
  api.restore();
});

test('kicking from the detail returns to the list with the filter it was opened from', async () => {
  await login('/clients?like_clientid=dev');
  const api = fakeApi({
    'GET /clients': page([client('dev-1')]), 'GET /nodes': nodes, 'GET /alarms': alarms,
    'GET /clients/dev-1': { body: client('dev-1') }, 'GET /clients/dev-1/subscriptions': { body: [] }, 'DELETE /clients/dev-1': { status: 204 },
  });
  await mount(<App />);
  await click(await waitFor(() => row('dev-1')?.querySelector('a')));
  await click(await waitFor(() => byTest('client-kick')));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => byTest('clients-page'));
  assert.is(route(), '/clients?like_clientid=dev');
  assert.is(query(lists(api.calls).at(-1)!).like_clientid, 'dev');
  api.restore();
});

test('subscribing checks the topic filter, posts {topic, qos, nl, rap, rh} and reloads the subscriptions', async () => {
  await login(detailPath('dev-1'));
  let subs: unknown[] = [];
  const api = fakeApi({
    'GET /clients/dev-1': { body: client('dev-1') },
    'GET /clients/dev-1/subscriptions': () => ({ body: subs }),
    'POST /clients/dev-1/subscribe': (call) => ((subs = [{ ...(call.body as object), node: 'emqx@n1', clientid: 'dev-1' }]), { body: subs[0] }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  await click(byTest('client-subscriptions-create'));
  const form = (await waitFor(() => byTest('client-subscriptions-create-form')))!.querySelector('form')!;
  await submit(form);
  assert.is(byTest('error-topic')!.textContent, 'Topic is required');
  await type(form.querySelector('[name=topic]'), 'a/#/b');
  await submit(form);
  assert.match(byTest('error-topic')!.textContent!, /Invalid use of '#'/);
  assert.not.ok(api.calls.some((c) => c.method === 'POST'));
  await type(form.querySelector('[name=topic]'), 'sensors/+/temp');
  await choose('qos', '2');
  await click(form.querySelector('[name=nl]'));
  await choose('rh', '1');
  assert.equal([...form.querySelector<HTMLSelectElement>('[name=rh]')!.options].map((o) => o.value), ['0', '1', '2']);
  await submit(form);
  await waitFor(() => document.querySelector('[data-test=client-subscriptions-row]'));
  assert.equal(api.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]),
    [['/clients/dev-1/subscribe', { topic: 'sensors/+/temp', qos: 2, nl: 1, rap: 0, rh: 1 }]]);
  assert.ok(text().includes('Subscribed successfully'));
  assert.is(api.calls.filter((c) => c.path === '/clients/dev-1/subscriptions').length, 2);
  assert.is(api.calls.filter((c) => c.path === '/clients/dev-1').length, 2, 'the client (its subscription count) reloads too');
  api.restore();
});

test('unsubscribing confirms, then posts {topic} and the row goes away', async () => {
  await login(detailPath('dev-1'));
  let subs = [{ topic: 'x/<b>y</b>', qos: 0, nl: 0, rap: 0, rh: 0 }, { topic: 'keep', qos: 1, nl: 0, rap: 0, rh: 0 }];
  const api = fakeApi({
    'GET /clients/dev-1': { body: client('dev-1') },
    'GET /clients/dev-1/subscriptions': () => ({ body: subs }),
    'POST /clients/dev-1/unsubscribe': () => ((subs = subs.slice(1)), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  const first = await waitFor(() => document.querySelector('[data-test=client-subscriptions-row]'));
  assert.is(first.querySelector('td')!.textContent, 'x/<b>y</b>');
  await click(first.querySelector('[data-test=client-subscriptions-unsubscribe]'));
  await waitFor(() => text().includes('Unsubscribe from x/<b>y</b>?'));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'POST'));
  await click(first.querySelector('[data-test=client-subscriptions-unsubscribe]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => document.querySelectorAll('[data-test=client-subscriptions-row]').length === 1);
  assert.equal(api.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]), [['/clients/dev-1/unsubscribe', { topic: 'x/<b>y</b>' }]]);
  assert.ok(text().includes('Unsubscribed successfully'));
  api.restore();
});

test('an unknown client shows "The client does not exist"', async () => {
  await login(detailPath('ghost'));
  const api = fakeApi({
    'GET /clients/ghost': { status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('client-not-found'));
  assert.ok(text().includes('The client does not exist'));
  assert.not.ok(text().includes('errors occurred'));
  api.restore();
});

test('another failure shows the retrieval error; retry loads the client', async () => {
  await login(detailPath('dev-1'));
  let reply: { status?: number; body?: unknown; delay?: number } = { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } };
  const api = fakeApi({
    'GET /clients/dev-1': () => reply, 'GET /clients/dev-1/subscriptions': { body: [] }, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('client-error'));
  assert.ok(text().includes("There are some errors occurred in retrieving the client's detail"));
  assert.not.ok(text().includes('The client does not exist'));
  reply = { delay: 100, body: client('dev-1') };
  await click(byTest('client-retry'));
  await waitFor(() => byTest('state-loading'));
  await waitFor(() => byTest('client-detail'));
  assert.is(api.calls.filter((c) => c.path === '/clients/dev-1').length, 2);
  api.restore();
});

test('a hostile client id opens from the list link and shows as text on the detail page', async () => {
  await login('/clients');
  const enc = encodeURIComponent(XSS);
  const api = fakeApi({
    'GET /clients': page([client(XSS)]), [`GET /clients/${enc}`]: { body: client(XSS, { username: XSS }) },
    [`GET /clients/${enc}/subscriptions`]: { body: [{ topic: XSS, qos: 0 }] }, 'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await click((await waitFor(() => row(XSS)))!.querySelector('a'));
  await waitFor(() => byTest('client-detail'));
  assert.is(byTest('client-id')!.textContent, XSS);
  assert.is(dl('client-connection').Username, XSS);
  await waitFor(() => document.querySelector('[data-test=client-subscriptions-row]'));
  assert.is(document.querySelector('img'), null);
  assert.ok(api.calls.some((c) => c.path === `/clients/${enc}`));
  api.restore();
});

test('an id holding % survives the route: the request asks for exactly that id', async () => {
  await login(detailPath('100%/x%20y'));
  const api = fakeApi({ 'GET /clients/100%25%2Fx%2520y': { body: client('100%/x%20y') }, 'GET /clients/100%25%2Fx%2520y/subscriptions': { body: [] }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('client-detail'));
  assert.is(byTest('client-id')!.textContent, '100%/x%20y');
  api.restore();
});

test('going from one client to another starts afresh: no drawer or data carried over', async () => {
  await login(detailPath('one'));
  const api = fakeApi({
    'GET /clients/one': { body: client('one') }, 'GET /clients/one/subscriptions': { body: [] },
    'GET /clients/two': { delay: 100, body: client('two') }, 'GET /clients/two/subscriptions': { body: [] }, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await click(await waitFor(() => byTest('client-subscriptions-create')));
  assert.ok(byTest('client-subscriptions-create-form'));
  history.replaceState(null, '', `/#${detailPath('two')}`);
  await waitFor(() => (dispatchEvent(new HashChangeEvent('hashchange')), byTest('state-loading')));
  assert.not.ok(byTest('client-id'), 'the first client is not shown while the second loads');
  assert.not.ok(byTest('client-subscriptions-create-form'));
  await waitFor(() => byTest('client-id')?.textContent === 'two');
  api.restore();
});

test.after(cleanup);
test.run();
