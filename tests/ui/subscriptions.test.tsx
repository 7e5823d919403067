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
const page = (data: unknown[], meta: Record<string, unknown> = {}) => ({ body: { data, meta: { page: 1, limit: 20, hasnext: false, count: data.length, ...meta } } });
const sub = (clientid: string, topic: string, extra: Record<string, unknown> = {}) => ({ clientid, topic, qos: 1, node: 'emqx@n1', nl: 0, rap: 0, rh: 0, ...extra });

/** Logs in at `path`; wouter's hash location keeps the query before the hash (`/?page=2#/topics`). */
async function login(path: string) {
  const [hash, search] = path.split('?');
  reset(hash);
  if (search) history.replaceState(null, '', `/?${search}#${hash}`);
  await saveUser({ username: 'admin', token: 'tok-1' });
  await restoreSession();
}

const gets = (calls: Call[], path: string) => calls.filter((c) => c.method === 'GET' && c.path === path);
const query = (call: Call) => Object.fromEntries(call.query);
const rows = (name: string) => [...document.querySelectorAll<HTMLElement>(`[data-test=${name}-row]`)];
const cells = (el: Element) => [...el.querySelectorAll('td')].map((td) => td.textContent);
const headers = (name: string) => [...document.querySelectorAll(`[data-test=${name}-table] th`)].map((th) => th.textContent);

async function choose(name: string, value: string) {
  const select = await waitFor(() => document.querySelector<HTMLSelectElement>(`select[name=${name}]`));
  await waitFor(() => [...select.options].some((o) => o.value === value));
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => true);
}

test('subscriptions: GET /subscriptions page 1 of 20, with every column and the client linked to its detail', async () => {
  await login('/subscriptions/subscription');
  const api = fakeApi({
    'GET /subscriptions': page([sub('plant/1 a', 't/#', { nl: 1, rap: 1, rh: 2, qos: 2 }), sub('dev-2', '$share/g1/s/+', { node: 'emqx@n2' }), sub(XSS, XSS)]),
    'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows('subscriptions').length === 3);
  assert.equal(query(gets(api.calls, '/subscriptions')[0]), { page: '1', limit: '20' });
  assert.equal(headers('subscriptions'), ['Client ID', 'Topic', 'QoS', 'Node', 'No Local', 'Retain as Published', 'Retain Handling', 'Share name']);
  const [first, shared, hostile] = rows('subscriptions');
  assert.equal(cells(first), ['plant/1 a', 't/#', '2', 'emqx@n1', 'Yes', 'Yes', '2', '—']);
  assert.equal(cells(shared), ['dev-2', '$share/g1/s/+', '1', 'emqx@n2', 'No', 'No', '0', 'g1']);
  assert.is(first.querySelector('a')!.getAttribute('href'), '#/clients/detail/plant%2F1%20a');
  assert.equal(cells(hostile).slice(0, 2), [XSS, XSS]);
  assert.is(document.querySelector('img'), null);
  assert.is(byTest('tab-subscription')!.getAttribute('aria-selected'), 'true');
  api.restore();
});

test('subscriptions: every filter goes into the URL and the request with EMQX names, and a reload keeps them', async () => {
  await login('/subscriptions/subscription');
  const api = fakeApi({ 'GET /subscriptions': page([sub('a', 't')]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => rows('subscriptions').length === 1);
  await type(document.querySelector('input[name=clientid]'), 'a b');
  await type(document.querySelector('input[name=topic]'), '$share/g/t/1');
  await type(document.querySelector('input[name=match_topic]'), 't/+');
  await type(document.querySelector('input[name=share_group]'), 'g');
  await submit(document.querySelector('form.filters'));
  await choose('qos', '1');
  await choose('node', 'emqx@n2');
  const expected = { clientid: 'a b', topic: '$share/g/t/1', match_topic: 't/+', share_group: 'g', qos: '1', node: 'emqx@n2' };
  await waitFor(() => query(gets(api.calls, '/subscriptions').at(-1)!).node === 'emqx@n2');
  assert.equal(query(gets(api.calls, '/subscriptions').at(-1)!), { ...expected, page: '1', limit: '20' });
  assert.equal(Object.fromEntries(new URLSearchParams(route().split('?')[1])), expected);
  cleanup();
  const before = gets(api.calls, '/subscriptions').length;
  await mount(<App />);
  await waitFor(() => gets(api.calls, '/subscriptions').length > before);
  assert.equal(query(gets(api.calls, '/subscriptions').at(-1)!), { ...expected, page: '1', limit: '20' });
  assert.is(document.querySelector<HTMLInputElement>('input[name=match_topic]')!.value, 't/+');
  assert.equal([...document.querySelector<HTMLSelectElement>('select[name=qos]')!.options].map((o) => o.value), ['', '0', '1', '2']);
  api.restore();
});

test('subscriptions: pages by number with a total, and the page lives in the URL', async () => {
  await login('/subscriptions/subscription?page=2');
  const api = fakeApi({
    'GET /subscriptions': (call) => page([sub(`c${call.query.get('page')}`, 't')], { count: 41, page: Number(call.query.get('page')), hasnext: true }),
    'GET /nodes': nodes, 'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows('subscriptions')[0]?.dataset.key?.startsWith('["c2"'));
  assert.ok(text().includes('41 in total'));
  await click([...byTest('pager')!.querySelectorAll('button')].find((b) => b.textContent === '3')!);
  await waitFor(() => rows('subscriptions')[0]?.dataset.key?.startsWith('["c3"'));
  assert.equal(query(gets(api.calls, '/subscriptions').at(-1)!), { page: '3', limit: '20' });
  assert.is(route(), '/subscriptions/subscription?page=3');
  api.restore();
});

test('subscriptions: loading, then empty; an error offers a retry that loads again', async () => {
  await login('/subscriptions/subscription');
  let reply: { status?: number; body?: unknown; delay?: number } = { delay: 200, ...page([]) };
  const api = fakeApi({ 'GET /subscriptions': () => reply, 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-loading'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No subscriptions'));
  reply = { status: 400, body: { code: 'INVALID_PARAMETER', message: 'match_topic_invalid' } };
  await click(byTest('subscriptions-refresh'));
  await waitFor(() => byTest('state-error'));
  assert.ok(byTest('state-error')!.textContent!.includes('The topic filter does not follow the MQTT rules'));
  reply = page([sub('back', 't')]);
  await click(byTest('state-retry'));
  await waitFor(() => rows('subscriptions').length === 1);
  assert.not.ok(byTest('state-error'));
  api.restore();
});

test('subscriptions: optional columns can be hidden and stay hidden', async () => {
  await login('/subscriptions/subscription');
  const api = fakeApi({ 'GET /subscriptions': page([sub('a', 't')]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => rows('subscriptions').length === 1);
  await click(byTest('subscriptions-columns'));
  await click(byTest('column-rap'));
  assert.not.ok(headers('subscriptions').includes('Retain as Published'));
  cleanup();
  await mount(<App />);
  await waitFor(() => rows('subscriptions').length === 1);
  assert.not.ok(headers('subscriptions').includes('Retain as Published'));
  assert.ok(headers('subscriptions').includes('No Local'));
  api.restore();
});

test('topics: GET /topics page 1 of 20 with topic and node; the topic search and node go to the request and the URL', async () => {
  await login('/subscriptions/topics');
  const api = fakeApi({ 'GET /topics': page([{ topic: 't/1', node: 'emqx@n1' }, { topic: XSS, node: 'emqx@n2' }]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => rows('topics').length === 2);
  assert.equal(query(gets(api.calls, '/topics')[0]), { page: '1', limit: '20' });
  assert.equal(headers('topics'), ['Topic', 'Node']);
  assert.equal(rows('topics').map(cells), [['t/1', 'emqx@n1'], [XSS, 'emqx@n2']]);
  assert.is(document.querySelector('img'), null);
  assert.is(byTest('tab-topics')!.getAttribute('aria-selected'), 'true');
  await type(document.querySelector('input[name=topic]'), 'a/b c');
  await submit(document.querySelector('form.filters'));
  await choose('node', 'emqx@n1');
  await waitFor(() => query(gets(api.calls, '/topics').at(-1)!).node === 'emqx@n1');
  assert.equal(query(gets(api.calls, '/topics').at(-1)!), { topic: 'a/b c', node: 'emqx@n1', page: '1', limit: '20' });
  assert.is(route(), '/subscriptions/topics?topic=a%2Fb+c&node=emqx%40n1');
  cleanup();
  await mount(<App />);
  await waitFor(() => document.querySelector<HTMLInputElement>('input[name=topic]')?.value === 'a/b c');
  assert.equal(query(gets(api.calls, '/topics').at(-1)!), { topic: 'a/b c', node: 'emqx@n1', page: '1', limit: '20' });
  api.restore();
});

test('topics: loading, then empty; an error offers a retry; a filtered scan without count pages by previous/next', async () => {
  await login('/subscriptions/topics');
  let reply: { status?: number; body?: unknown; delay?: number } = { delay: 200, ...page([]) };
  const api = fakeApi({ 'GET /topics': () => reply, 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('state-loading'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No topics'));
  reply = { status: 500, body: { code: 'NODE_DOWN', message: 'bad rpc call' } };
  await click(byTest('topics-refresh'));
  await waitFor(() => byTest('state-error'));
  reply = { body: { data: Array.from({ length: 20 }, (_, i) => ({ topic: `t/${i}`, node: 'emqx@n1' })), meta: { page: 1, limit: 20, hasnext: true } } };
  await click(byTest('state-retry'));
  await waitFor(() => rows('topics').length === 20);
  assert.equal([...byTest('pager')!.querySelectorAll('button')].map((b) => b.textContent), ['Previous', 'Next']);
  api.restore();
});

test('the Subscriptions and Topics tabs lead to each other and drop the other list\'s filters', async () => {
  await login('/subscriptions/subscription?clientid=a');
  const api = fakeApi({ 'GET /subscriptions': page([sub('a', 't')]), 'GET /topics': page([{ topic: 't', node: 'emqx@n1' }]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => rows('subscriptions').length === 1);
  await click(byTest('tab-topics'));
  await waitFor(() => rows('topics').length === 1);
  assert.is(route(), '/subscriptions/topics');
  assert.equal(query(gets(api.calls, '/topics')[0]), { page: '1', limit: '20' });
  await click(byTest('tab-subscription'));
  await waitFor(() => byTest('subscriptions-page'));
  assert.is(route(), '/subscriptions/subscription');
  api.restore();
});

test('/subscriptions redirects to the subscription list', async () => {
  await login('/subscriptions');
  const api = fakeApi({ 'GET /subscriptions': page([]), 'GET /nodes': nodes, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('subscriptions-page'));
  assert.is(route().split('?')[0], '/subscriptions/subscription');
  api.restore();
});

test.after(cleanup);
test.run();
