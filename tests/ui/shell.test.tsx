import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { breadcrumbs, isSubGroup, menu } from '../../web/app/routes.ts';
import { pendingCount } from '../../web/lib/api.ts';
import { session } from '../../web/lib/session.ts';
import { readSettings, saveUser, writeSettings } from '../../web/lib/storage.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { failure, fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reloads, reset, route, text, waitFor } from '../helpers/render.tsx';

const alarms = (count: number) => ({ body: { data: [], meta: { page: 1, limit: 1, count, hasnext: false } } });
const cluster = {
  'GET /nodes': { body: [{ node: 'emqx@node1', node_status: 'running' }, { node: 'emqx@node2', node_status: 'stopped' }] },
  'GET /monitor_current': { body: { connections: 7, live_connections: 6, subscriptions: 4, topics: 2, retained_msg_count: 0, received_msg_rate: 0, sent_msg_rate: 0, dropped_msg_rate: 0 } },
  'GET /alarms': alarms(0),
};

async function loggedIn(path: string) {
  reset(path);
  writeSettings({ edition: 'ce' });
  await saveUser({ username: 'admin', token: 'tok-9' });
  await restoreSession();
}

test('the menu shows groups in specification order with only existing screens', () => {
  // A Community broker: no Enterprise entries (license, audit) in System.
  session.edition = 'ce';
  const sections = menu();
  assert.equal(sections.map((s) => s.group), ['monitoring', 'management', 'integration', 'diagnose', 'system']);
  assert.equal(sections[4].items.map((s) => s.path), ['/basic-config', '/mqtt/general', '/listener', '/log', '/limiter', '/monitoring/alarm-settings', '/cluster', '/dashboard/nodes', '/settings']);
  // Spec part1 §2 lists Users under Management.
  assert.equal(breadcrumbs('/users').map((c) => c.title), ['menu.management', 'users.title']);
});

test('Management gathers Access Control, Extensions and Advanced MQTT as titled sub-lists', async () => {
  session.edition = 'ee';
  const management = menu().find((s) => s.group === 'management')!;
  assert.equal(management.entries.map((e) => (isSubGroup(e) ? `${e.sub}: ${e.items.map((i) => i.path).join(' ')}` : e.path)), [
    'accessControl: /authentication /authorization', 'extensions: /gateway /exhook /plugins', '/schema-registry',
    '/banned-clients', '/flapping-detect', 'advancedMqtt: /topic-rewrite /auto-sub /delayed-pub', '/backup', '/api-key', '/users',
  ]);
  assert.equal(breadcrumbs('/auto-sub').map((c) => c.title), ['menu.management', 'management.autoSubscribe']);

  // On /authorization its sub-list is open and marks the page; the others start folded.
  await loggedIn('/authorization');
  const api = fakeApi({ ...cluster, 'GET /authorization/sources': { body: { sources: [] } } });
  await mount(<App />);
  await waitFor(() => byTest('menu-sub-accessControl'));
  assert.is(byTest('menu-sub-accessControl')!.tagName, 'BUTTON');
  assert.is(byTest('menu-sub-accessControl')!.getAttribute('aria-expanded'), 'true');
  assert.is(byTest('menu-authorization')!.getAttribute('aria-current'), 'page');
  assert.is(byTest('menu-sub-advancedMqtt')!.textContent, 'Advanced MQTT');
  assert.is(byTest('menu-sub-advancedMqtt')!.getAttribute('aria-expanded'), 'false');
  assert.is(byTest('menu-topic-rewrite'), null);
  await click(byTest('menu-sub-advancedMqtt'));
  assert.is(byTest('menu-sub-advancedMqtt')!.getAttribute('aria-expanded'), 'true');
  assert.ok(byTest('menu-topic-rewrite') && byTest('menu-auto-sub') && byTest('menu-delayed-pub'));
  await click(byTest('menu-sub-accessControl'));
  assert.is(byTest('menu-authentication'), null);
  assert.is(byTest('menu-sub-extensions')!.textContent, 'Extensions');
  api.restore();
});

test('without a stored token a protected route clears user and edition, cancels requests and goes to login with ?to=', async () => {
  reset('/users');
  writeSettings({ edition: 'ee' });
  const api = fakeApi({ 'GET /slow': { delay: 5000, body: {} } });
  const { api: client } = await import('../../web/lib/api.ts');
  const slow = failure(client.get('/slow'));
  assert.is(pendingCount(), 1);
  await mount(<App />);
  await waitFor(() => route().startsWith('/login'));
  assert.is(route(), '/login?to=%2Fusers');
  assert.is(readSettings().edition, undefined);
  assert.is(pendingCount(), 0);
  assert.is((await slow).code, 'ECONNABORTED');
  api.restore();
});

test('/ redirects to the overview, which shows the cluster figures', async () => {
  await loggedIn('/');
  const api = fakeApi(cluster);
  await mount(<App />);
  await waitFor(() => byTest('overview-page'));
  assert.is(route().split('?')[0], '/dashboard/overview');
  await waitFor(() => byTest('overview-nodes') && byTest('overview-connections')!.textContent!.includes('7'));
  assert.match(byTest('overview-nodes')!.textContent!, /1 running of 2/);
  assert.match(byTest('overview-connections')!.textContent!, /7/);
  assert.ok(api.calls.some((c) => c.path === '/monitor_current'));
  assert.is(api.calls[0].headers.get('authorization'), 'Bearer tok-9');
  api.restore();
});

test('the alarm banner says "No alarm" or the number of active alarms', async () => {
  await loggedIn('/dashboard/overview');
  let api = fakeApi(cluster);
  await mount(<App />);
  await waitFor(() => byTest('alarm-banner'));
  assert.is(byTest('alarm-banner')!.textContent!.trim(), 'No alarm');
  assert.is(api.calls.find((c) => c.path === '/alarms')!.query.get('activated'), 'true');
  api.restore();
  cleanup();
  api = fakeApi({ ...cluster, 'GET /alarms': alarms(3) });
  await mount(<App />);
  await waitFor(() => byTest('alarm-banner')?.textContent?.includes('3'));
  assert.is(byTest('alarm-banner')!.textContent!.trim(), '3 active alarms');
  api.restore();
});

test('an unknown path shows "Page not found" inside the layout', async () => {
  await loggedIn('/no/such/page');
  const api = fakeApi(cluster);
  await mount(<App />);
  await waitFor(() => byTest('not-found'));
  assert.ok(text().includes('Page not found'));
  api.restore();
});

test('a 401 from the API ends the session with "Login has expired, please login again"', async () => {
  await loggedIn('/users');
  const api = fakeApi({ ...cluster, 'GET /users': { status: 401, body: { code: 'TOKEN_TIME_OUT', message: 'Token expired' } } });
  await mount(<App />);
  await waitFor(() => route().startsWith('/login'));
  assert.is(route(), '/login?to=%2Fusers');
  assert.ok(text().includes('Login has expired, please login again'));
  assert.is(session.token, '');
  api.restore();
});

test('an unreachable server shows "Network Error" with a retry', async () => {
  await loggedIn('/users');
  const original = globalThis.fetch;
  globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
  await mount(<App />);
  await waitFor(() => byTest('state-error'));
  assert.match(byTest('state-error')!.textContent!, /Network Error/);
  assert.ok(byTest('state-retry'));
  globalThis.fetch = original;
});

test('logout asks "Confirm to logout", calls the API and says "Logged out"', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi({ ...cluster, 'POST /logout': { status: 204 } });
  await mount(<App />);
  await waitFor(() => byTest('overview-page'));
  await click(byTest('user-menu'));
  await click(byTest('menu-logout'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.ok(text().includes('Confirm to logout'));
  await click(byTest('confirm-ok'));
  await waitFor(() => route().startsWith('/login'));
  assert.ok(text().includes('Logged out'));
  assert.equal(api.calls.find((c) => c.path === '/logout')!.body, { username: 'admin' });
  assert.is(session.token, '');
  api.restore();
});

test('changing the language in Settings stores it and reloads the page', async () => {
  await loggedIn('/settings');
  const api = fakeApi(cluster);
  await mount(<App />);
  const select = await waitFor(() => byTest<HTMLSelectElement>('settings-lang'));
  const before = reloads.length;
  select.value = 'zh';
  select.dispatchEvent(new Event('change', { bubbles: true }));
  assert.is(reloads.length, before + 1);
  assert.is(readSettings().lang, 'zh');
  const theme = byTest<HTMLSelectElement>('settings-theme')!;
  theme.value = 'dark';
  theme.dispatchEvent(new Event('change', { bubbles: true }));
  assert.is(readSettings().theme, 'dark');
  assert.is(readSettings().syncOsTheme, false, 'choosing a theme stops following the OS');
  assert.is(reloads.length, before + 2);
  api.restore();
});

test.after(cleanup);
test.run();
