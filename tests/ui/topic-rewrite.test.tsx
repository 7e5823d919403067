import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, submit, text, type, waitFor, signedInAt } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const R1 = { action: 'publish', source_topic: 'x/#', dest_topic: 'y/$1', re: '^x/(.+)$' };
const R2 = { action: 'subscribe', source_topic: 'a/+', dest_topic: 'b/#', re: '^a/(\\w+)$' };
const R3 = { action: 'all', source_topic: 'c/#', dest_topic: '<b>c</b>/$1', re: '^c/(.+)$' };

async function open() {
  await signedInAt('/topic-rewrite');
}

/** A broker holding `start` that replaces its list on PUT. */
function broker(start: object[], extra: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) {
  let list = start;
  const api = fakeApi({
    'GET /mqtt/topic_rewrite': () => ({ body: list }),
    'PUT /mqtt/topic_rewrite': (call: Call) => ((list = call.body as object[]), { body: list }),
    'GET /alarms': alarms,
    ...extra,
  });
  return { api, puts: () => api.calls.filter((c) => c.method === 'PUT').map((c) => c.body) };
}

const rows = () => [...document.querySelectorAll('[data-test=topic-rewrite-row]')];
const form = () => byTest('topic-rewrite-create-form')?.querySelector('form') ?? byTest('topic-rewrite-edit-form')!.querySelector('form')!;
const field = (name: string) => form().querySelector<HTMLInputElement>(`[name=${name}]`)!;
async function choose(name: string, value: string) {
  const select = field(name) as unknown as HTMLSelectElement;
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => true);
}

test('lists the rules with their action, source, regex and destination, as text', async () => {
  await open();
  const { api } = broker([R1, R2, R3]);
  await mount(<App />);
  await waitFor(() => rows().length === 3);
  assert.equal(rows().map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent)), [
    ['Publish', 'x/#', '^x/(.+)$', 'y/$1'],
    ['Subscribe', 'a/+', '^a/(\\w+)$', 'b/#'],
    ['All', 'c/#', '^c/(.+)$', '<b>c</b>/$1'],
  ]);
  assert.is(rows()[2].querySelector('b'), null, 'server text is never markup');
  assert.ok(text().includes('the rule lowest in the list is used'));
  assert.equal(api.calls.filter((c) => c.path === '/mqtt/topic_rewrite').map((c) => c.method), ['GET']);
  api.restore();
});

test('shows the empty state, and a failed load with a retry that works', async () => {
  await open();
  let fail = true;
  const api = fakeApi({
    'GET /mqtt/topic_rewrite': () => (fail ? { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } } : { body: [] }),
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  fail = false;
  await click(byTest('state-retry'));
  await waitFor(() => byTest('state-empty'));
  assert.ok(text().includes('No topic rewrite rules yet'));
  api.restore();
});

test('adding checks topics and the regex, then reads the list and PUTs it whole with the new rule last', async () => {
  await open();
  const { api, puts } = broker([R1, R2]);
  await mount(<App />);
  await waitFor(() => rows().length === 2);
  await click(byTest('topic-rewrite-create'));
  await submit(form());
  // One wording for required (issue #34): '<label> is required', as the specification words it.
  assert.is(byTest('error-source_topic')!.textContent, 'Source Topic is required');
  assert.is(byTest('error-re')!.textContent, 'Regex is required');
  assert.is(byTest('error-dest_topic')!.textContent, 'Destination Topic is required');
  await type(field('source_topic'), 'x/#/y');
  await type(field('re'), '^x/(.+$');
  await type(field('dest_topic'), 'z/#');
  await submit(form());
  assert.is(byTest('error-source_topic')!.textContent, "Invalid use of '#': it must stand alone in the last level");
  assert.match(byTest('error-re')!.textContent!, /^The regex does not compile: /);
  assert.is(byTest('error-dest_topic')!.textContent, "The destination of a publish or all rule cannot contain '#' or '+'");
  assert.equal(puts(), [], 'nothing sent while invalid');
  // A subscribe rule may rewrite to a filter.
  await choose('action', 'subscribe');
  await type(field('source_topic'), 'q/#');
  await type(field('re'), '^q/(.+)$');
  await submit(form());
  await waitFor(() => puts().length === 1);
  assert.equal(puts()[0], [R1, R2, { action: 'subscribe', source_topic: 'q/#', dest_topic: 'z/#', re: '^q/(.+)$' }]);
  const calls = api.calls.filter((c) => c.path === '/mqtt/topic_rewrite').map((c) => c.method);
  assert.equal(calls.slice(-3), ['GET', 'PUT', 'GET'], 'fresh read, whole-list write, reload');
  await waitFor(() => rows().length === 3);
  assert.ok(text().includes('Rule added'));
  assert.not.ok(byTest('topic-rewrite-create-form'), 'the drawer closed');
  api.restore();
});

test('editing replaces that rule in place and keeps the others', async () => {
  await open();
  const { api, puts } = broker([R1, R2, R3]);
  await mount(<App />);
  await waitFor(() => rows().length === 3);
  await click(rows()[1].querySelector('[data-test=topic-rewrite-edit]'));
  await waitFor(() => byTest('topic-rewrite-edit-form'));
  assert.is(field('source_topic').value, 'a/+');
  assert.is((field('action') as unknown as HTMLSelectElement).value, 'subscribe');
  await type(field('dest_topic'), 'b/$1');
  await choose('action', 'all');
  await submit(form());
  await waitFor(() => puts().length === 1);
  assert.equal(puts()[0], [R1, { ...R2, action: 'all', dest_topic: 'b/$1' }, R3]);
  await waitFor(() => text().includes('Rule updated'));
  api.restore();
});

test('deleting asks first; cancel sends nothing, OK PUTs the list without the rule', async () => {
  await open();
  const { api, puts } = broker([R1, R2, R3]);
  await mount(<App />);
  await waitFor(() => rows().length === 3);
  await click(rows()[0].querySelector('[data-test=topic-rewrite-delete]'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Delete this topic rewrite rule?'));
  await click(byTest('confirm-cancel'));
  assert.equal(puts(), []);
  await click(rows()[0].querySelector('[data-test=topic-rewrite-delete]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => rows().length === 2);
  assert.equal(puts(), [[R2, R3]]);
  assert.ok(text().includes('Rule deleted'));
  api.restore();
});

test('a rule changed elsewhere meanwhile is not overwritten', async () => {
  await open();
  let reads = 0;
  const api = fakeApi({
    // The second read (the one before the write) no longer has R1.
    'GET /mqtt/topic_rewrite': () => ({ body: ++reads === 1 ? [R1, R2] : [R2] }),
    'PUT /mqtt/topic_rewrite': { body: [] },
    'GET /alarms': alarms,
  });
  await mount(<App />);
  await waitFor(() => rows().length === 2);
  await click(rows()[0].querySelector('[data-test=topic-rewrite-delete]'));
  await click(await waitFor(() => byTest('confirm-ok')));
  await waitFor(() => text().includes('This entry was changed elsewhere: reload the list and try again'));
  assert.not.ok(api.calls.some((c) => c.method === 'PUT'));
  api.restore();
});

test('the broker refusing a 20th rule is shown and the form stays open', async () => {
  await open();
  const many = Array.from({ length: 19 }, (_, i) => ({ ...R1, source_topic: `t${i}/#` }));
  const { api } = broker(many, {
    'PUT /mqtt/topic_rewrite': { status: 413, body: { code: 'EXCEED_LIMIT', message: 'Max rewrite rules count is 20' } },
  });
  await mount(<App />);
  await waitFor(() => rows().length === 19);
  await click(byTest('topic-rewrite-create'));
  await type(field('source_topic'), 'n/#');
  await type(field('re'), '^n/(.+)$');
  await type(field('dest_topic'), 'm/$1');
  await submit(form());
  await waitFor(() => text().includes('EXCEED_LIMIT: Max rewrite rules count is 20'));
  assert.equal((api.calls.find((c) => c.method === 'PUT')!.body as unknown[]).length, 20);
  assert.ok(byTest('topic-rewrite-create-form'));
  api.restore();
});

test.after(cleanup);
test.run();
