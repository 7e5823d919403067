// The namespace picker of 6.x lists (ui/NamespacePicker.tsx, lib/namespace.ts): global by default
// with `only_global=true` on the list and a hint that other namespaces exist; a picked namespace
// goes into the URL and onto the list, the links and the writes of the screen; before 6.0 nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, route, signedInAt, text, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const rule = (id: string, namespace: string | null) => ({ id, name: '', sql: 'SELECT * FROM "t/#"', actions: [], enable: true, description: '', from: ['t/#'], namespace });
const routes = {
  'GET /alarms': alarms,
  'GET /mt/managed_ns_list': { body: ['ns1', 'ns2'] },
  'GET /rules': (call: { query: URLSearchParams }) => ({
    body: { data: [call.query.get('ns') ? rule('in-ns1', 'ns1') : rule('global-rule', null)], meta: { page: 1, limit: 20, count: 1 } },
  }),
  'DELETE /rules/in-ns1': { status: 204 },
};
const pick = async (value: string) => {
  const select = byTest<HTMLSelectElement>('namespace-select')!;
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
};
test.after.each(cleanup);

test('6.2.2: global by default with only_global, a hint naming how many others; a picked namespace is in the URL, the list, links and writes', async () => {
  await signedInAt('/rule/rules', { version: '6.2.2', edition: 'ee' });
  const api = fakeApi(routes);
  await mount(<App />);
  await waitFor(() => text().includes('global-rule'));
  const firstList = api.calls.find((c) => c.path === '/rules')!;
  assert.is(firstList.query.get('only_global'), 'true');
  assert.is(firstList.query.get('ns'), null);
  await waitFor(() => byTest('namespace-hint'));
  assert.ok(text().includes('Other namespaces: 2'));
  assert.equal([...byTest<HTMLSelectElement>('namespace-select')!.options].map((o) => o.textContent), ['Global', 'ns1', 'ns2']);

  await pick('ns1');
  await waitFor(() => text().includes('in-ns1'));
  assert.ok(route().includes('ns=ns1'), route());
  const lastList = api.calls.filter((c) => c.path === '/rules').at(-1)!;
  assert.is(lastList.query.get('ns'), 'ns1');
  assert.is(lastList.query.get('only_global'), null);
  assert.is(byTest('namespace-hint'), null);
  assert.ok(document.querySelector('a[href*="in-ns1"]')!.getAttribute('href')!.endsWith('?ns=ns1'));
  assert.ok(byTest('rules-create')!.getAttribute('href')!.endsWith('?ns=ns1'));

  await click(byTest('rules-delete'));
  await click(await waitFor(() => byTest('confirm-ok')));
  const deleted = await waitFor(() => api.calls.find((c) => c.method === 'DELETE'));
  assert.is(deleted.path, '/rules/in-ns1');
  assert.is(deleted.query.get('ns'), 'ns1');

  await pick('');
  await waitFor(() => text().includes('global-rule'));
  assert.not.ok(route().includes('ns='));
  api.restore();
});

test('a reload keeps the namespace of the URL, also one no longer listed; Chinese texts', async () => {
  await signedInAt('/connector?ns=gone', { version: '6.2.2', edition: 'ee' });
  const api = fakeApi({ ...routes, 'GET /connectors': { body: [] } });
  setLocale('zh');
  await mount(<App />);
  await waitFor(() => api.calls.some((c) => c.path === '/connectors'));
  assert.is(api.calls.find((c) => c.path === '/connectors')!.query.get('ns'), 'gone');
  await waitFor(() => byTest<HTMLSelectElement>('namespace-select')?.options.length === 4);
  assert.is(byTest<HTMLSelectElement>('namespace-select')!.value, 'gone');
  assert.ok(text().includes('命名空间'));
  api.restore();
});

test('the users of a built-in database: the picker on the users tab keeps the namespace of the URL and lists its users', async () => {
  const BI = '/authentication/password_based%3Abuilt_in_database';
  await signedInAt(`/authentication/detail/password_based%3Abuilt_in_database?tab=users&ns=ns2`, { version: '6.2.2', edition: 'ee' });
  const api = fakeApi({
    ...routes,
    [`GET ${BI}`]: { body: { id: 'password_based:built_in_database', mechanism: 'password_based', backend: 'built_in_database', enable: true } },
    [`GET ${BI}/users`]: { body: { data: [{ user_id: 'tenant-user', is_superuser: false }], meta: { page: 1, limit: 20, count: 1 } } },
  });
  await mount(<App />);
  await waitFor(() => text().includes('tenant-user'));
  assert.is(byTest<HTMLSelectElement>('namespace-select')!.value, 'ns2');
  assert.is(api.calls.find((c) => c.path.endsWith('/users'))!.query.get('ns'), 'ns2');
  api.restore();
});

test('before 6.0 there is no picker and no namespace on the requests', async () => {
  await signedInAt('/rule/rules', { version: '5.8.9', edition: 'ee' });
  const api = fakeApi(routes);
  await mount(<App />);
  await waitFor(() => text().includes('global-rule'));
  assert.is(byTest('namespace-picker'), null);
  const list = api.calls.find((c) => c.path === '/rules')!;
  assert.is(list.query.get('only_global'), null);
  assert.not.ok(api.calls.some((c) => c.path.startsWith('/mt/')));
  api.restore();
});

test.run();
