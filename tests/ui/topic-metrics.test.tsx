import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0, hasnext: false } } };
const metrics = (n: number) => ({
  'messages.in.count': n * 3, 'messages.out.count': n * 6, 'messages.dropped.count': n,
  'messages.qos0.in.count': n, 'messages.qos1.in.count': n, 'messages.qos2.in.count': n,
  'messages.qos0.out.count': n * 4, 'messages.qos1.out.count': n, 'messages.qos2.out.count': n,
  'messages.in.rate': 1.5, 'messages.out.rate': 3.25, 'messages.dropped.rate': 0,
  'messages.qos0.in.rate': 0.5, 'messages.qos1.in.rate': 0.5, 'messages.qos2.in.rate': 0.5,
  'messages.qos0.out.rate': 2.25, 'messages.qos1.out.rate': 0.5, 'messages.qos2.out.rate': 0.5,
});
const metric = (topic: string, n: number) => ({ topic, create_time: '2026-05-01T10:00:00+00:00', metrics: metrics(n) });

async function loggedIn(path = '/topic-metrics') {
  reset(path);
  await saveUser({ username: 'admin', token: 'tok-m' });
  await restoreSession();
}
const row = (topic: string) => document.querySelector(`[data-test=topic-metrics-row][data-key="${topic}"]`);
const calls = (api: { calls: Call[] }, method: string, path = '/mqtt/topic_metrics') => api.calls.filter((c) => c.method === method && c.path === path);

test.after.each(() => cleanup());

test('the list shows each topic with in, out and dropped counts and rates; topics are text', async () => {
  await loggedIn();
  const api = fakeApi({ 'GET /mqtt/topic_metrics': { body: [metric('sensors/1', 1000), metric('a/<i>x</i>', 0)] }, 'GET /alarms': alarms });
  await mount(<App />);
  await waitFor(() => row('sensors/1'));
  const cells = [...row('sensors/1')!.querySelectorAll('td')].map((td) => td.textContent);
  assert.equal(cells.slice(0, 6), ['sensors/1', '3,000', '6,000', '1,000', '1.5/s', '3.25/s']);
  assert.is(row('a/<i>x</i>')!.querySelector('i'), null);
  api.restore();
});

test('adding refuses wildcards with EMQX\'s own words, then posts the topic', async () => {
  await loggedIn();
  let list = [metric('sensors/1', 1)];
  const api = fakeApi({
    'GET /mqtt/topic_metrics': () => ({ body: list }),
    'POST /mqtt/topic_metrics': (call) => ((list = [...list, metric((call.body as { topic: string }).topic, 0)]), { body: list.at(-1) }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('sensors/1'));
  await click(byTest('topic-metrics-create'));
  const form = () => byTest('topic-metrics-create-form')!.querySelector('form')!;
  await submit(form());
  assert.is(byTest('error-topic')!.textContent, 'This field is required');
  for (const wildcard of ['sensors/+', 'sensors/#', '#']) {
    await type(form().querySelector('[name=topic]'), wildcard);
    await submit(form());
    assert.is(byTest('error-topic')!.textContent, 'Wildcard topic is not supported', wildcard);
  }
  assert.is(calls(api, 'POST').length, 0);
  await type(form().querySelector('[name=topic]'), 'plant/7/temp');
  await submit(form());
  await waitFor(() => row('plant/7/temp'));
  assert.equal(calls(api, 'POST')[0].body, { topic: 'plant/7/temp' });
  assert.ok(text().includes('Topic added'));
  api.restore();
});

test('a server refusal (already registered, over 512) is shown at the field', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /mqtt/topic_metrics': { body: [] },
    'POST /mqtt/topic_metrics': { status: 409, body: { code: 'EXCEED_LIMIT', message: 'Max topic metrics count is 512' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No topics are counted yet'));
  await click(byTest('topic-metrics-create'));
  await type(byTest('topic-metrics-create-form')!.querySelector('[name=topic]'), 'one/more');
  await submit(byTest('topic-metrics-create-form')!.querySelector('form'));
  await waitFor(() => text().includes('Max topic metrics count is 512'));
  api.restore();
});

test('the details drawer shows in and out per QoS with rates, and reloads the one topic', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /mqtt/topic_metrics': { body: [metric('t/1', 2)] },
    'GET /mqtt/topic_metrics/t%2F1': { body: { ...metric('t/1', 2), reset_time: '2026-05-02T11:00:00+00:00' } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('t/1'));
  await click(row('t/1')!.querySelector('[data-test=topic-metrics-view]'));
  await waitFor(() => byTest('topic-metric-detail'));
  await waitFor(() => document.querySelectorAll('[data-test=topic-metric-row]').length === 4);
  const rows = [...document.querySelectorAll('[data-test=topic-metric-row]')].map((r) => [...r.children].map((c) => c.textContent));
  assert.equal(rows, [
    ['QoS 0', '2', '0.5/s', '8', '2.25/s'],
    ['QoS 1', '2', '0.5/s', '2', '0.5/s'],
    ['QoS 2', '2', '0.5/s', '2', '0.5/s'],
    ['Total', '6', '1.5/s', '12', '3.25/s'],
  ]);
  assert.ok(byTest('topic-metric-detail')!.textContent!.includes('2026-05-02'), 'reset time');
  // The counters and the rate trend both read it.
  assert.ok(calls(api, 'GET', '/mqtt/topic_metrics/t%2F1').length >= 1, 'the topic is encoded as one path segment');
  api.restore();
});

test('reset one, reset all and delete ask first and call the API', async () => {
  await loggedIn();
  let list = [metric('t/1', 2), metric('t/2', 3)];
  const api = fakeApi({
    'GET /mqtt/topic_metrics': () => ({ body: list }),
    'PUT /mqtt/topic_metrics': (call) => ({ body: (call.body as { topic?: string }).topic ? metric('t/1', 0) : list }),
    'DELETE /mqtt/topic_metrics/t%2F2': () => ((list = [list[0]]), { status: 204 }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => row('t/2'));
  await click(row('t/1')!.querySelector('[data-test=topic-metrics-reset]'));
  await waitFor(() => text().includes('Reset the counters of topic t/1?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => text().includes('Reset successful'));
  await click(byTest('topic-metrics-reset-all'));
  await waitFor(() => text().includes('Reset the counters of every topic?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => calls(api, 'PUT').length === 2);
  assert.equal(calls(api, 'PUT').map((c) => c.body), [{ action: 'reset', topic: 't/1' }, { action: 'reset' }]);
  await click(row('t/2')!.querySelector('[data-test=topic-metrics-delete]'));
  await waitFor(() => text().includes('Stop counting topic t/2?'));
  await click(byTest('confirm-ok'));
  await waitFor(() => !row('t/2'));
  api.restore();
});

test('the list refreshes every 5 s while visible', async () => {
  await loggedIn();
  const timers: (() => void)[] = [];
  const interval0 = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void, ms?: number) => (ms === 5000 && timers.push(fn), interval0(() => {}, 60_000))) as typeof setInterval;
  let n = 1;
  const api = fakeApi({ 'GET /mqtt/topic_metrics': () => ({ body: [metric('t/1', n)] }), 'GET /alarms': alarms });
  try {
    await mount(<App />);
    await waitFor(() => row('t/1')?.textContent?.includes('3'));
    n = 100;
    timers.forEach((fn) => fn());
    await waitFor(() => row('t/1')!.textContent!.includes('300'));
  } finally {
    globalThis.setInterval = interval0;
    api.restore();
  }
});

test.run();
