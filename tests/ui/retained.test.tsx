import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0, hasnext: false } } };
const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const msg = (topic: string, extra: Record<string, unknown> = {}) => ({
  msgid: `0006${topic.length}`, topic, qos: 1, publish_at: '2024-05-01T10:20:30.000+00:00', from_clientid: 'sensor-1', from_username: 'plant', ...extra,
});
const rows = [msg('sensors/1/temp'), msg('a/<b>x</b>', { qos: 2, from_username: '' }), msg('bin/blob')];
const page = (data: unknown[], meta: Record<string, unknown> = { page: 1, limit: 20, hasnext: false, count: data.length }) => ({ body: { data, meta } });

async function loggedIn(path = '/retained') {
  const [hash, search] = path.split('?');
  reset(hash);
  if (search) history.replaceState(null, '', `/?${search}#${hash}`);
  await saveUser({ username: 'admin', token: 'tok-r' });
  await restoreSession();
}
const row = (topic: string) => document.querySelector(`[data-test=retained-row][data-key="${topic}"]`);
const lists = (api: { calls: Call[] }) => api.calls.filter((c) => c.method === 'GET' && c.path === '/mqtt/retainer/messages');

test('the list asks page 1 of /mqtt/retainer/messages and shows topic, QoS, sender and time as text', async () => {
  await loggedIn();
  const api = fakeApi({ 'GET /mqtt/retainer/messages': page(rows), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('sensors/1/temp'));
  assert.equal(Object.fromEntries(lists(api)[0].query), { page: '1', limit: '20' });
  const first = row('sensors/1/temp')!.textContent!;
  for (const s of ['sensors/1/temp', '1', 'sensor-1', 'plant', '2024-05-01']) assert.ok(first.includes(s), s);
  // Topics from MQTT clients are text, never markup.
  assert.ok(row('a/<b>x</b>')!.textContent!.includes('a/<b>x</b>'));
  assert.is(row('a/<b>x</b>')!.querySelector('b'), null);
  // The retainer settings screen exists (system/config, /mqtt/retainer), so the list links to it.
  assert.ok(byTest('retained-settings')?.getAttribute('href')?.endsWith('/mqtt/retainer'), 'links to the retainer settings');
  api.restore();
});

test('filtering by topic sends ?topic= and keeps it in the URL; without a count the pager pages by hasnext', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /mqtt/retainer/messages': (call) => (call.query.get('topic')
      ? page([rows[0]], { page: Number(call.query.get('page')), limit: 20, hasnext: call.query.get('page') === '1' })
      : page(rows)),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('bin/blob'));
  await type(document.querySelector('[name=topic]'), 'sensors/#');
  await submit(document.querySelector('form.filters'));
  await waitFor(() => !row('bin/blob'));
  assert.equal(Object.fromEntries(lists(api).at(-1)!.query), { topic: 'sensors/#', page: '1', limit: '20' });
  assert.is(route(), '/retained?topic=sensors%2F%23');
  assert.ok(byTest('pager'), 'hasnext shows the pager');
  assert.not.match(byTest('pager')!.textContent!, /in total/, 'no total without count');
  await click(byTest('pager-next'));
  await waitFor(() => lists(api).at(-1)!.query.get('page') === '2');
  assert.is(lists(api).at(-1)!.query.get('topic'), 'sensors/#');
  api.restore();
});

test('viewing a JSON payload fetches the message by encoded topic and pretty-prints it', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /mqtt/retainer/messages': page(rows),
    'GET /mqtt/retainer/message/sensors%2F1%2Ftemp': { body: { ...rows[0], payload: b64('{"temp":21.5,"unit":"C"}') } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('sensors/1/temp'));
  await click(row('sensors/1/temp')!.querySelector('[data-test=retained-view]'));
  await waitFor(() => byTest('payload-text'));
  assert.ok(byTest('retained-view-view'), 'in a drawer');
  assert.is(byTest('payload-text')!.textContent, '{"temp":21.5,"unit":"C"}');
  assert.match(byTest('payload-view')!.textContent!, /24 Byte/);
  assert.match(byTest('retained-message')!.textContent!, /Message ID0006/);
  await click(byTest('payload-json'));
  assert.is(byTest('payload-text')!.textContent, '{\n  "temp": 21.5,\n  "unit": "C"\n}');
  api.restore();
});

test('S13: a binary payload opens as hex; over 1 MB only the size shows; an omitted payload says why', async () => {
  await loggedIn();
  const big = 'A'.repeat(1_500_000);
  const api = fakeApi({
    'GET /mqtt/retainer/messages': page(rows),
    'GET /mqtt/retainer/message/bin%2Fblob': { body: { ...rows[2], payload: btoa(String.fromCharCode(0xde, 0xad, 0xbe, 0xef, 0x00)) } },
    'GET /mqtt/retainer/message/sensors%2F1%2Ftemp': { body: { ...rows[0], payload: big } },
    'GET /mqtt/retainer/message/a%2F%3Cb%3Ex%3C%2Fb%3E': { body: rows[1] },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('bin/blob'));
  await click(row('bin/blob')!.querySelector('[data-test=retained-view]'));
  await waitFor(() => byTest('payload-text'));
  assert.is(byTest('payload-text')!.textContent, 'de ad be ef 00');
  assert.ok(byTest('payload-hex')!.getAttribute('aria-pressed') === 'true');
  await click(document.querySelector('[aria-label=Close]'));
  await click(row('sensors/1/temp')!.querySelector('[data-test=retained-view]'));
  await waitFor(() => byTest('payload-too-large'));
  assert.match(byTest('payload-too-large')!.textContent!, /1\.07 MB/);
  assert.is(byTest('payload-text'), null);
  await click(document.querySelector('[aria-label=Close]'));
  await click(row('a/<b>x</b>')!.querySelector('[data-test=retained-view]'));
  await waitFor(() => byTest('retained-message'));
  assert.match(byTest('payload-too-large')!.textContent!, /over 1 MB/);
  assert.match(byTest('retained-message')!.textContent!, /Payload size> 1 MB/);
  assert.ok(api.calls.some((c) => c.path === '/mqtt/retainer/message/a%2F%3Cb%3Ex%3C%2Fb%3E'));
  api.restore();
});

test('deleting one asks first, sends DELETE with the encoded topic, toasts and reloads', async () => {
  await loggedIn();
  let list = rows;
  const api = fakeApi({
    'GET /mqtt/retainer/messages': () => page(list),
    'DELETE /mqtt/retainer/message/sensors%2F1%2Ftemp': () => ((list = rows.slice(1)), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('sensors/1/temp'));
  await click(row('sensors/1/temp')!.querySelector('[data-test=retained-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.match(text(), /Delete the retained message of topic sensors\/1\/temp\?/);
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
  await click(row('sensors/1/temp')!.querySelector('[data-test=retained-delete]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => !row('sensors/1/temp'));
  assert.ok(text().includes('Retained message deleted'));
  assert.is(lists(api).length, 2);
  api.restore();
});

test('clear all asks first, sends DELETE /mqtt/retainer/messages, toasts and shows the empty list', async () => {
  await loggedIn();
  let list = rows;
  const api = fakeApi({
    'GET /mqtt/retainer/messages': () => page(list),
    'DELETE /mqtt/retainer/messages': () => ((list = []), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('bin/blob'));
  await click(byTest('retained-clear'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.match(text(), /Clear all retained messages\?/);
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
  await click(byTest('retained-clear'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => text().includes('No retained messages'));
  assert.ok(text().includes('All retained messages cleared'));
  assert.equal(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path), ['/mqtt/retainer/messages']);
  assert.ok(byTest<HTMLButtonElement>('retained-clear')!.disabled, 'nothing left to clear');
  api.restore();
});

test('the list shows loading, then an error with retry; a broker with an external backend says so', async () => {
  await loggedIn();
  let reply: { status?: number; body: unknown; delay?: number } = {
    status: 400, body: { code: 'BAD_REQUEST', message: 'This API only support built in database' }, delay: 40,
  };
  const api = fakeApi({ 'GET /mqtt/retainer/messages': () => reply, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => byTest('retained-page')?.querySelector('[data-test=state-loading]'));
  await waitFor(() => byTest('state-error'));
  assert.match(byTest('state-error')!.textContent!, /This API only support built in database/);
  reply = page([]);
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No retained messages'));
  api.restore();
});

test.after(cleanup);
test.run();
