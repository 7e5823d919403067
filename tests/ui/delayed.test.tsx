import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { formatDateTime } from '../../web/lib/format.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const ID = '0000019A2B3C4D5E0001A1B2C3D4E5F6';
const message = (over: Record<string, unknown> = {}) => ({
  msgid: ID, node: 'emqx@node1', publish_at: '2026-01-01T08:00:00.000+00:00', delayed_interval: 60, delayed_remaining: 45,
  expected_at: '2026-01-01T08:01:00.000+00:00', topic: 'd/t', qos: 1, from_clientid: 'sensor<1>', from_username: 'ann', ...over,
});
const page = (data: object[]) => ({ body: { data, meta: { page: 1, limit: 20, hasnext: false, count: data.length } } });

async function open(path = '/delayed-pub') {
  await signedInAt(path);
}

const rows = () => [...document.querySelectorAll('[data-test=delayed-messages-row]')];
const cells = (r: Element) => [...r.querySelectorAll('td')].map((td) => td.textContent);
const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.path === '/mqtt/delayed/messages');

test('lists delayed messages: original and destination topic, delay, remaining, publish time, client', async () => {
  await open();
  const api = fakeApi({ 'GET /mqtt/delayed/messages': page([message()]), 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => rows().length === 1);
  assert.equal(cells(rows()[0]).slice(0, 6), ['$delayed/60/d/t', 'd/t', '1m', '45s', formatDateTime('2026-01-01T08:00:00.000+00:00'), 'sensor<1>']);
  const call = lists(api.calls)[0];
  assert.equal([call.query.get('page'), call.query.get('limit')], ['1', '20']);
  assert.ok(byTest('delayed-messages-settings'), 'a link to the settings');
  api.restore();
});

test('the remaining time counts down every second and the list reloads once it reaches zero', async () => {
  await open();
  let served = [message({ delayed_remaining: 2 })];
  const api = fakeApi({ 'GET /mqtt/delayed/messages': () => page(served), 'GET /alarms': alarms });
  await mount(<App />);
  const remaining = () => byTest('delayed-remaining')?.textContent;
  await waitFor(() => remaining() === '2s');
  await waitFor(() => remaining() === '1s', 1500);
  await waitFor(() => remaining() === 'Publishing…', 1500);
  served = [];
  await waitFor(() => byTest('state-empty'), 2000);
  assert.is(lists(api.calls).length, 2, 'one reload once it was due');
  api.restore();
});

test('the countdown shows the nearest second: a tick that lands just before the due time shows the message due, not "1s" for one more second', async () => {
  // Timers may run a little early (and the list's figure is whole seconds): with the seconds left
  // rounded up, such a tick showed "1s" for a second more, and then "Publishing…" a second late.
  await open();
  const api = fakeApi({ 'GET /mqtt/delayed/messages': page([message({ delayed_remaining: 2 })]), 'GET /alarms': alarms });
  const realNow = Date.now;
  let shift = 0;
  Date.now = () => realNow() + shift;
  try {
    await mount(<App />);
    const remaining = () => byTest('delayed-remaining')?.textContent;
    await waitFor(() => remaining() === '2s');
    // The first tick, a second after the list came, reads a clock 200 ms short of the due time.
    shift = 800;
    await waitFor(() => remaining() !== '2s', 1500);
    assert.is(remaining(), 'Publishing…');
  } finally {
    Date.now = realNow;
    api.restore();
  }
});

test('the countdown pauses in a hidden tab; coming back reloads the list', async () => {
  await open();
  let served = [message({ delayed_remaining: 30 })];
  const api = fakeApi({ 'GET /mqtt/delayed/messages': () => page(served), 'GET /alarms': alarms });
  try {
    await mount(<App />);
    const remaining = () => byTest('delayed-remaining')?.textContent;
    await waitFor(() => remaining() === '30s');
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    await new Promise((r) => setTimeout(r, 1300));
    await waitFor(() => true);
    assert.is(remaining(), '30s', 'no ticks while hidden');
    served = [message({ delayed_remaining: 20 })];
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => remaining() === '20s');
    assert.is(lists(api.calls).length, 2);
  } finally {
    delete (document as { hidden?: boolean }).hidden;
    api.restore();
  }
});

test('the empty state explains $delayed topics; a failed load offers a retry', async () => {
  await open();
  let fail = true;
  const api = fakeApi({
    'GET /mqtt/delayed/messages': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } : page([])),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('Messages published to $delayed/{seconds}/{topic} wait here until they are due.'));
  api.restore();
});

test('the payload opens in a drawer from GET …/{node}/{msgid}; PAYLOAD_TOO_LARGE is said, not shown', async () => {
  await open();
  const one = `/mqtt/delayed/messages/emqx%40node1/${ID}`;
  let payload = btoa('{"t":21}');
  const api = fakeApi({
    'GET /mqtt/delayed/messages': page([message()]),
    [`GET ${one}`]: () => ({ body: { ...message(), payload } }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows().length === 1);
  await click(rows()[0].querySelector('[data-test=delayed-messages-view]'));
  await waitFor(() => byTest('payload-text'));
  assert.is(byTest('payload-text')!.textContent, '{"t":21}');
  await click(byTest('payload-json'));
  assert.is(byTest('payload-text')!.textContent, '{\n  "t": 21\n}');
  assert.ok(byTest('delayed-message')!.textContent!.includes(ID));
  await click(document.querySelector('.drawer [aria-label=Close]'));
  payload = 'PAYLOAD_TOO_LARGE';
  await click(rows()[0].querySelector('[data-test=delayed-messages-view]'));
  await waitFor(() => byTest('payload-too-large'));
  assert.ok(text().includes('The payload is larger than 2 KB: the broker does not return it'));
  assert.is(api.calls.filter((c) => c.path === one).length, 2);
  api.restore();
});

test('deleting asks first and sends DELETE /mqtt/delayed/messages/{node}/{msgid}', async () => {
  await open();
  let data = [message()];
  const api = fakeApi({
    'GET /mqtt/delayed/messages': () => page(data),
    [`DELETE /mqtt/delayed/messages/emqx%40node1/${ID}`]: () => ((data = []), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows().length === 1);
  await click(rows()[0].querySelector('[data-test=delayed-messages-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Delete this delayed message? It will not be published.'));
  await click(byTest('confirm-cancel'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
  await click(rows()[0].querySelector('[data-test=delayed-messages-delete]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('Delayed message deleted'));
  api.restore();
});

// ---- settings ----

const form = () => byTest('delayed-settings-form')!;
const field = (name: string) => form().querySelector<HTMLInputElement>(`[name=${name}]`)!;

test('the settings link leads to the settings, which show GET /mqtt/delayed', async () => {
  await open();
  const api = fakeApi({ 'GET /mqtt/delayed/messages': page([]), 'GET /mqtt/delayed': { body: { enable: true, max_delayed_messages: 0 } }, 'GET /alarms': alarms });
  await mount(<App />);
  await click(await waitFor(() => byTest('delayed-messages-settings')));
  await waitFor(() => byTest('delayed-settings-form'));
  assert.is(route().split('?')[0], '/delayed-pub-configuration');
  assert.is(field('enable').checked, true);
  assert.is(field('max_delayed_messages').value, '0');
  assert.ok(text().includes('0 means unlimited'));
  api.restore();
});

test('saving checks the limit, then PUTs both settings and toasts', async () => {
  await open('/delayed-pub-configuration');
  let config = { enable: true, max_delayed_messages: 0 };
  const api = fakeApi({
    'GET /mqtt/delayed': () => ({ body: config }),
    'PUT /mqtt/delayed': (call) => ((config = call.body as typeof config), { body: config }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('delayed-settings-form'));
  await type(field('max_delayed_messages'), '-1');
  await submit(form());
  assert.is(byTest('error-max_delayed_messages')!.textContent, 'Enter a whole number, 0 or more');
  await type(field('max_delayed_messages'), '');
  await submit(form());
  // One wording for required (issue #34): '<label> is required', as the specification words it.
  assert.is(byTest('error-max_delayed_messages')!.textContent, 'Max Delayed Messages is required');
  assert.not.ok(api.calls.some((c) => c.method === 'PUT'));
  await type(field('max_delayed_messages'), '1000');
  await submit(form());
  await waitFor(() => text().includes('Settings saved'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { enable: true, max_delayed_messages: 1000 });
  assert.not.ok(byTest('confirm-dialog'), 'no question when it stays enabled');
  await waitFor(() => api.calls.filter((c) => c.path === '/mqtt/delayed' && c.method === 'GET').length === 2);
  assert.is(field('max_delayed_messages').value, '1000');
  api.restore();
});

test('disabling warns that the delayed list is deleted; cancel keeps it, OK PUTs enable false', async () => {
  await open('/delayed-pub-configuration');
  const api = fakeApi({
    'GET /mqtt/delayed': { body: { enable: true, max_delayed_messages: 5 } },
    'PUT /mqtt/delayed': (call) => ({ body: call.body }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('delayed-settings-form'));
  await click(field('enable'));
  await submit(form());
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Disabling delayed publish deletes every delayed message not yet published. Disable it?'));
  await click(byTest('confirm-cancel'));
  await waitFor(() => !byTest('confirm-dialog'));
  assert.not.ok(api.calls.some((c) => c.method === 'PUT'));
  await submit(form());
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => api.calls.some((c) => c.method === 'PUT'));
  assert.equal(api.calls.find((c) => c.method === 'PUT')!.body, { enable: false, max_delayed_messages: 5 });
  await waitFor(() => text().includes('Settings saved'));
  api.restore();
});

test('the settings show a failed load with a retry', async () => {
  await open('/delayed-pub-configuration');
  let fail = true;
  const api = fakeApi({
    'GET /mqtt/delayed': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'x' } } : { body: { enable: false, max_delayed_messages: 0 } }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('delayed-settings-form'));
  assert.is(field('enable').checked, false);
  api.restore();
});

test.after(cleanup);
test.run();
