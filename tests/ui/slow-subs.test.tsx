import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { restoreSession } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0, hasnext: false } } };
const settings = { enable: true, threshold: '500ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole' };
const record = (clientid: string, timespan: number, topic = 't/1') => ({ clientid, topic, timespan, node: 'emqx@node1', last_update_time: Date.UTC(2026, 4, 1, 10, 0, 0) });

async function loggedIn(path = '/slow-sub') {
  reset(path);
  await saveUser({ username: 'admin', token: 'tok-s' });
  await restoreSession();
}
const rows = () => [...document.querySelectorAll('[data-test=slow-subscriptions-row]')];
const calls = (api: { calls: Call[] }, method: string, path: string) => api.calls.filter((c) => c.method === method && c.path === path);

async function choose(el: Element | null, value: string) {
  await act(async () => {
    (el as HTMLSelectElement).value = value;
    el!.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

test.after.each(() => cleanup());

test('the ranking lists client, topic, duration, node and time from GET /slow_subscriptions, without paging params', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /slow_subscriptions': { body: { data: [record('slow-1', 1312), record('<b>c</b>', 640, 'x/y')] } },
    'GET /slow_subscriptions/settings': { body: settings },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows().length === 2);
  const cells = [...rows()[0].querySelectorAll('td')].map((td) => td.textContent);
  assert.equal(cells.slice(0, 5), ['1', 'slow-1', 't/1', '1,312 ms', 'emqx@node1']);
  assert.match(cells[5]!, /^2026-05-01 \d\d:00:00$/);
  assert.is(rows()[0].querySelector('a')!.getAttribute('href'), '#/clients/detail/slow-1');
  assert.is(rows()[1].querySelector('b'), null, 'client ids are text');
  assert.equal([...calls(api, 'GET', '/slow_subscriptions')[0].query], [], 'envelope F: no page or limit');
  assert.is(byTest('slow-subs-summary')!.textContent, 'Subscriptions whose whole delivery time exceeds 500ms are recorded; the slowest 10 are kept, each for 5m after its last update.');
  api.restore();
});

test('disabled statistics say so and link to the settings; the empty ranking says so', async () => {
  await loggedIn();
  const api = fakeApi({
    'GET /slow_subscriptions': { body: { data: [] } },
    'GET /slow_subscriptions/settings': { body: { ...settings, enable: false } },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('slow-subs-disabled'));
  assert.ok(text().includes('Slow subscription statistics are disabled'));
  assert.ok(byTest('state-empty')!.textContent!.includes('No slow subscriptions'));
  await click(byTest('slow-subs-disabled')!.querySelector('a'));
  await waitFor(() => byTest('slow-subs-form'));
  assert.is(route(), '/slow-sub/config');
  api.restore();
});

test('clearing asks first, deletes the records and says the statistics restarted', async () => {
  await loggedIn();
  let data = [record('slow-1', 900)];
  const api = fakeApi({
    'GET /slow_subscriptions': () => ({ body: { data } }),
    'DELETE /slow_subscriptions': () => ((data = []), { status: 204 }),
    'GET /slow_subscriptions/settings': { body: settings },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows().length === 1);
  await click(byTest('slow-subscriptions-clear'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Clear the slow subscription records? The statistics start again from now.'));
  await click(byTest('confirm-cancel'));
  assert.is(calls(api, 'DELETE', '/slow_subscriptions').length, 0);
  await click(byTest('slow-subscriptions-clear'));
  await click(byTest('confirm-ok'));
  await waitFor(() => rows().length === 0);
  assert.ok(text().includes('Records cleared; the statistics restarted'));
  api.restore();
});

test('settings: the form shows the server values, refuses a threshold under 100 ms, and puts the whole object', async () => {
  await loggedIn('/slow-sub/config');
  const api = fakeApi({
    'GET /slow_subscriptions/settings': { body: { ...settings, threshold: '1s', expire_interval: '1500ms' } },
    'PUT /slow_subscriptions/settings': (call) => ({ body: call.body }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('slow-subs-form'));
  const field = (name: string) => byTest('slow-subs-form')!.querySelector<HTMLInputElement>(`[name=${name}]`)!;
  assert.equal(
    ['enable', 'threshold', 'top_k_num', 'expire_interval', 'expire_unit', 'stats_type'].map((n) => (n === 'enable' ? field(n).checked : field(n).value)),
    [true, '1000', '10', '1500', 'ms', 'whole'],
  );
  await type(field('threshold'), '99');
  await submit(byTest('slow-subs-form'));
  assert.is(byTest('error-threshold')!.textContent, 'The threshold must be at least 100 ms');
  await type(field('top_k_num'), '0');
  await submit(byTest('slow-subs-form'));
  assert.is(byTest('error-top_k_num')!.textContent, 'the number range is 1 - 1000');
  assert.is(calls(api, 'PUT', '/slow_subscriptions/settings').length, 0);
  await type(field('threshold'), '100');
  await type(field('top_k_num'), '25');
  await type(field('expire_interval'), '600');
  await choose(field('expire_unit'), 's');
  await choose(field('stats_type'), 'response');
  await submit(byTest('slow-subs-form'));
  await waitFor(() => text().includes('Slow subscription settings saved'));
  assert.equal(calls(api, 'PUT', '/slow_subscriptions/settings')[0].body, {
    enable: true, threshold: '100ms', expire_interval: '600s', top_k_num: 25, stats_type: 'response',
  });
  assert.is(field('expire_unit').value, 's', 'the form starts again from the answer');
  api.restore();
});

test('settings: a failed load offers a retry', async () => {
  await loggedIn('/slow-sub/config');
  let fail = true;
  const api = fakeApi({
    'GET /slow_subscriptions/settings': () => (fail ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'down' } } : { body: settings }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('slow-subs-form'));
  api.restore();
});

test.run();
