import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const T1 = { topic: 'cmd/${clientid}', qos: 1, rh: 0, rap: 0, nl: 0 };
const T2 = { topic: 'news/#', qos: 0, rh: 2, rap: 1, nl: 1 };

async function open() {
  await signedInAt('/auto-sub');
}

function broker(start: object[], extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) {
  let list = start;
  const api = fakeApi({
    'GET /mqtt/auto_subscribe': () => ({ body: list }),
    'PUT /mqtt/auto_subscribe': (call: Call) => ((list = call.body as object[]), { body: list }),
    'GET /alarms': alarms,
    ...extra,
  });
  return { api, puts: () => api.calls.filter((c) => c.method === 'PUT').map((c) => c.body) };
}

const row = (topic: string) => document.querySelector(`[data-test=auto-subscribe-row][data-key="${topic}"]`);
const rows = () => [...document.querySelectorAll('[data-test=auto-subscribe-row]')];
const form = () => (byTest('auto-subscribe-create-form') ?? byTest('auto-subscribe-edit-form'))!.querySelector('form')!;
const field = <E extends Element = HTMLInputElement>(name: string) => form().querySelector<E>(`[name=${name}]`)!;
async function choose(name: string, value: string) {
  const select = field<HTMLSelectElement>(name);
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => true);
}

test('lists topics with qos, no local, retain as published and retain handling', async () => {
  await open();
  const { api } = broker([T1, T2]);
  await mount(<App />);
  await waitFor(() => rows().length === 2);
  assert.equal([...row('news/#')!.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent), ['news/#', '0', 'Yes', 'Yes', '2']);
  assert.equal([...row('cmd/${clientid}')!.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent), ['cmd/${clientid}', '1', 'No', 'No', '0']);
  assert.ok(text().includes('without authorization checks'));
  api.restore();
});

test('the empty state and a failed load with retry', async () => {
  await open();
  let fail = true;
  const api = fakeApi({
    'GET /mqtt/auto_subscribe': () => (fail ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'down' } } : { body: [] }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
// Changed with issue #34: the catalogue's sentence, not the server's words.
  assert.ok(text().includes('The service is not available right now'));
  assert.match(byTest('error-detail')!.textContent!, /503 SERVICE_UNAVAILABLE: down/);
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => text().includes('No auto subscribe topics yet'));
  api.restore();
});

test('adding a placeholder topic with options PUTs the whole list with integers; a repeated topic is refused', async () => {
  await open();
  const { api, puts } = broker([T1]);
  await mount(<App />);
  await waitFor(() => rows().length === 1);
  await click(byTest('auto-subscribe-create'));
  await submit(form());
  // One wording for required (issue #34): '<label> is required', as the specification words it.
  assert.is(byTest('error-topic')!.textContent, 'Topic is required');
  await type(field('topic'), 'a/+b');
  await submit(form());
  assert.is(byTest('error-topic')!.textContent, "Invalid use of '+': it must fill a whole level");
  await type(field('topic'), 'cmd/${clientid}');
  await submit(form());
  assert.is(byTest('error-topic')!.textContent, 'Topic already exists');
  assert.equal(puts(), []);
  await type(field('topic'), 'user/${username}/#');
  await choose('qos', '2');
  await choose('rh', '1');
  await click(field('nl'));
  await click(field('rap'));
  await submit(form());
  await waitFor(() => puts().length === 1);
  assert.equal(puts()[0], [T1, { topic: 'user/${username}/#', qos: 2, rh: 1, rap: 1, nl: 1 }]);
  assert.equal(api.calls.filter((c) => c.path === '/mqtt/auto_subscribe').map((c) => c.method), ['GET', 'GET', 'PUT', 'GET']);
  await waitFor(() => row('user/${username}/#'));
  assert.ok(text().includes('Topic added'));
  api.restore();
});

test('editing keeps its own topic allowed and replaces the entry in place', async () => {
  await open();
  const { api, puts } = broker([T1, T2]);
  await mount(<App />);
  await waitFor(() => rows().length === 2);
  await click(row('cmd/${clientid}')!.querySelector('[data-test=auto-subscribe-edit]'));
  await waitFor(() => byTest('auto-subscribe-edit-form'));
  assert.is(field<HTMLSelectElement>('qos').value, '1');
  assert.is(field('nl').checked, false);
  await type(field('topic'), 'news/#');
  await submit(form());
  assert.is(byTest('error-topic')!.textContent, 'Topic already exists', 'another entry\'s topic');
  await type(field('topic'), 'cmd/${clientid}');
  await choose('qos', '0');
  await submit(form());
  await waitFor(() => puts().length === 1);
  assert.equal(puts()[0], [{ ...T1, qos: 0 }, T2]);
  await waitFor(() => text().includes('Topic updated'));
  api.restore();
});

test('deleting asks with the topic and PUTs the list without it', async () => {
  await open();
  const { api, puts } = broker([T1, T2]);
  await mount(<App />);
  await waitFor(() => rows().length === 2);
  await click(row('news/#')!.querySelector('[data-test=auto-subscribe-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Delete the auto subscribe topic news/#?'));
  await click(byTest('confirm-cancel'));
  assert.equal(puts(), []);
  await click(row('news/#')!.querySelector('[data-test=auto-subscribe-delete]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => !row('news/#'));
  assert.equal(puts(), [[T1]]);
  assert.ok(text().includes('Topic deleted'));
  api.restore();
});

test('the broker refusing a 21st topic is shown', async () => {
  await open();
  const many = Array.from({ length: 20 }, (_, i) => ({ ...T1, topic: `t/${i}` }));
  const { api } = broker(many, {
    'PUT /mqtt/auto_subscribe': { status: 409, body: { code: 'EXCEED_LIMIT', message: 'Max auto subscribe topic count is  20' } },
  });
  await mount(<App />);
  await waitFor(() => rows().length === 20);
  await click(byTest('auto-subscribe-create'));
  await type(field('topic'), 'extra');
  await submit(form());
  await waitFor(() => text().includes('EXCEED_LIMIT: Max auto subscribe topic count is  20'));
  assert.ok(byTest('auto-subscribe-create-form'));
  api.restore();
});

test.after(cleanup);
test.run();
