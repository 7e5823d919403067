import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { breadcrumbs, isSubGroup, menu } from '../../web/app/routes.ts';
import { api as client, pendingCount, prime } from '../../web/lib/api.ts';
import { useRemote, type Remote } from '../../web/lib/resources.ts';
import { primeScreen } from '../../web/app/Shell.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { session } from '../../web/lib/session.ts';
import { readSettings, saveUser, writeSettings } from '../../web/lib/storage.ts';
import { restoreSession } from '../../web/lib/session.ts';
import { failure, fakeApi } from '../helpers/fakeApi.ts';
import { act } from 'preact/test-utils';
import { byTest, cleanup, click, mount, pointerDown, press, reloads, reset, route, text, waitFor } from '../helpers/render.tsx';

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
  assert.equal(sections[4].items.map((s) => s.path), ['/basic-config', '/mqtt/general', '/listener', '/log', '/limiter', '/monitoring/alarm-settings', '/cluster', '/dashboard/nodes', '/config-history', '/settings']);
  // Spec part1 §2 lists Users under Management.
  assert.equal(breadcrumbs('/users').map((c) => c.title), ['menu.management', 'users.title']);
});

test('the menu is built once per broker profile: the same sections while it stays, new ones when it changes', () => {
  Object.assign(session, { version: '5.8.9', edition: 'ee' });
  const enterprise = menu();
  assert.is(menu(), enterprise, 'a screen change asks again and gets the same sections');
  assert.ok(enterprise.some((s) => s.items.some((i) => i.path === '/license')));
  session.edition = 'ce';
  const community = menu();
  assert.is.not(community, enterprise);
  assert.not.ok(community.some((s) => s.items.some((i) => i.path === '/license')));
  session.version = '5.5.1';
  assert.is.not(menu(), community, 'another version is another profile');
  session.version = '';
});

test('Management gathers Access Control, Extensions and Advanced MQTT as titled sub-lists', async () => {
  session.edition = 'ee';
  const management = menu().find((s) => s.group === 'management')!;
  assert.equal(management.entries.map((e) => (isSubGroup(e) ? `${e.sub}: ${e.items.map((i) => i.path).join(' ')}` : e.path)), [
    'accessControl: /authentication /authorization /access-check', 'extensions: /gateway /exhook /plugins', '/schema-registry',
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

test('the Nodes tab of Cluster Overview keeps the menu and breadcrumbs there; the System menu\'s Nodes stays in System', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi({ ...cluster, 'GET /monitor': { body: [] }, 'GET /nodes/emqx@node1': { body: { node: 'emqx@node1', node_status: 'running' } } });
  await mount(<App />);
  await waitFor(() => byTest('overview-page'));
  const crumbs = () => [...document.querySelectorAll('.crumbs li')].map((li) => li.textContent);
  const lit = () => document.querySelector('.sidebar [aria-current=page]')?.getAttribute('data-test');
  const activeGroup = () => document.querySelector('.menu-group.active .menu-group-title')?.getAttribute('data-test');
  assert.equal([lit(), activeGroup()], ['menu-dashboard-overview', 'menu-group-monitoring']);
  await waitFor(() => byTest('dashboard-tab-nodes'));
  await click(byTest('dashboard-tab-nodes'));
  await waitFor(() => route() === '/dashboard/nodes');
  assert.equal(crumbs(), ['Monitoring', 'Cluster Overview', 'Nodes']);
  assert.equal([lit(), activeGroup()], ['menu-dashboard-overview', 'menu-group-monitoring']);
  // A node's detail opened from there stays under Cluster Overview too.
  await act(() => void (location.hash = '#/dashboard/nodes/emqx@node1'));
  await waitFor(() => route() === '/dashboard/nodes/emqx@node1');
  assert.equal(crumbs().slice(0, 3), ['Monitoring', 'Cluster Overview', 'Nodes']);
  assert.is(lit(), 'menu-dashboard-overview');
  // Entered from the System menu (here: after another System screen), Nodes is a System screen.
  await act(() => void (location.hash = '#/listener'));
  await waitFor(() => route() === '/listener');
  await waitFor(() => byTest('menu-dashboard-nodes'));
  await click(byTest('menu-dashboard-nodes'));
  await waitFor(() => route() === '/dashboard/nodes');
  assert.equal(crumbs(), ['System and Configuration', 'Nodes']);
  assert.equal([lit(), activeGroup()], ['menu-dashboard-nodes', 'menu-group-system']);
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

// Changed with the sign-in dialog (issue #34): the screen stays and the session is renewed over it;
// signing out from the dialog is what still leads to the login page.
test('a 401 from the API says "Login has expired, please login again" over the screen; signing out goes to login', async () => {
  await loggedIn('/users');
  const api = fakeApi({ ...cluster, 'GET /users': { status: 401, body: { code: 'TOKEN_TIME_OUT', message: 'Token expired' } } });
  await mount(<App />);
  await waitFor(() => byTest('reauth-dialog'));
  assert.is(route(), '/users');
  assert.ok(text().includes('Login has expired, please login again'));
  await click(byTest('reauth-sign-out'));
  await waitFor(() => route().startsWith('/login'));
  assert.is(route(), '/login?to=%2Fusers');
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

const bans = { body: { data: [{ as: 'clientid', who: 'bad1', by: 'mgmt_api', reason: 'spam', at: '2026-01-01T00:00:00Z', until: 'infinity' }], meta: { page: 1, limit: 20, count: 1 } } };
const focused = () => document.activeElement as HTMLElement | null;
const focusable = () => [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')];

test('the page opens with "Skip to main content", then the header, the menu and the screen, and the link moves the focus to the screen', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi(cluster);
  await mount(<App />);
  await waitFor(() => byTest('overview-page'));
  assert.is(focusable()[0], byTest('skip-link'));
  assert.is(byTest('skip-link')!.textContent, 'Skip to main content');
  const layout = byTest('layout')!;
  assert.equal([...layout.children].map((el) => el.tagName), ['A', 'HEADER', 'ASIDE', 'MAIN']);
  await click(byTest('skip-link'));
  assert.is(focused(), document.querySelector('main.content'));
  assert.is(route(), '/dashboard/overview', 'the skip link does not change the route');
  api.restore();
  cleanup();
  setLocale('zh');
  await mount(<App />);
  await waitFor(() => byTest('skip-link'));
  assert.is(byTest('skip-link')!.textContent, '跳到主要内容');
});

test('the menu shrinks to an icon rail with named icons, remembers it, opens a group beside the rail and expands again', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi(cluster);
  await mount(<App />);
  await waitFor(() => byTest('menu-rail'));
  // Expanded: every group shows its icon and its title.
  for (const group of ['monitoring', 'management', 'integration', 'diagnose', 'system']) {
    assert.is(byTest(`menu-group-${group}`)!.querySelectorAll('svg').length, 2, `${group}: icon and chevron`);
  }
  assert.is(byTest('menu-group-management')!.getAttribute('title'), null);
  assert.is(byTest('menu-rail')!.getAttribute('aria-label'), 'Collapse the menu to icons');
  await click(byTest('menu-rail'));
  assert.ok(byTest('layout')!.classList.contains('rail'));
  assert.is(byTest('menu-rail')!.getAttribute('aria-pressed'), 'true');
  assert.is(byTest('menu-rail')!.getAttribute('aria-label'), 'Expand the full menu');
  assert.is(readSettings().menuRail, true);
  assert.is(byTest('menu-group-management')!.getAttribute('aria-label'), 'Management');
  assert.is(byTest('menu-group-management')!.getAttribute('title'), 'Management');
  // No group is open in the rail, not even the current one.
  assert.is(byTest('menu-dashboard-overview'), null);
  await click(byTest('menu-group-management'));
  assert.is(byTest('menu-group-management')!.getAttribute('aria-expanded'), 'true');
  assert.ok(byTest('menu-banned-clients')?.closest('.menu-flyout'));
  // Escape closes it and puts the focus back on the group's icon.
  byTest('menu-banned-clients')!.focus();
  await press(byTest('menu-banned-clients')!, 'Escape');
  assert.is(byTest('menu-banned-clients'), null);
  assert.is(focused(), byTest('menu-group-management'));
  // A press inside the menu keeps it open; one on the page closes it.
  await click(byTest('menu-group-management'));
  await pointerDown(byTest('menu-banned-clients'));
  assert.ok(byTest('menu-banned-clients'));
  await pointerDown(document.querySelector('main.content'));
  assert.is(byTest('menu-banned-clients'), null);
  // Choosing a screen closes the flyout.
  await click(byTest('menu-group-monitoring'));
  await click(byTest('menu-clients'));
  await waitFor(() => route().startsWith('/clients'));
  assert.is(byTest('menu-clients'), null);
  api.restore();
  cleanup();

  // Remembered across a reload.
  const again = fakeApi({ ...cluster, 'GET /clients': { body: { data: [], meta: { page: 1, limit: 20, count: 0 } } } });
  await mount(<App />);
  await waitFor(() => byTest('menu-rail'));
  assert.ok(byTest('layout')!.classList.contains('rail'));
  await click(byTest('menu-rail'));
  assert.not.ok(byTest('layout')!.classList.contains('rail'));
  assert.is(readSettings().menuRail, false);
  assert.is(byTest('menu-group-management')!.getAttribute('aria-label'), null);
  assert.ok(byTest('menu-clients'), 'the current group is open again');
  again.restore();
});

test('a delete confirmation has Cancel focused, and closing it gives the focus back to the row action', async () => {
  await loggedIn('/banned-clients');
  const api = fakeApi({ ...cluster, 'GET /banned': bans, 'DELETE /banned/clientid/bad1': { status: 204 } });
  await mount(<App />);
  const del = await waitFor(() => byTest('banned-delete'));
  del.focus();
  await click(del);
  await waitFor(() => byTest('confirm-dialog'));
  assert.is(focused(), byTest('confirm-cancel'));
  // Tab stays inside the dialog.
  await press(byTest('confirm-cancel')!, 'Tab');
  assert.is(focused(), byTest('confirm-ok'));
  await press(byTest('confirm-ok')!, 'Tab');
  assert.is(focused(), byTest('confirm-cancel'));
  await click(byTest('confirm-cancel'));
  assert.is(byTest('confirm-dialog'), null);
  assert.is(focused(), byTest('banned-delete'));
  assert.not.ok(api.calls.some((c) => c.method === 'DELETE'));
  api.restore();
});

test('cancelling the logout question puts the focus back on the user menu', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi({ ...cluster, 'POST /logout': { status: 204 } });
  await mount(<App />);
  await click(await waitFor(() => byTest('user-menu')));
  await click(byTest('menu-logout'));
  await waitFor(() => byTest('confirm-dialog'));
  assert.is(focused(), byTest('confirm-cancel'));
  await click(byTest('confirm-cancel'));
  assert.is(focused(), byTest('user-menu'));
  assert.is(session.token, 'tok-9');
  assert.not.ok(api.calls.some((c) => c.path === '/logout'));
  api.restore();
});

test('the user menu closes on a press outside it and on Escape at its button', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi(cluster);
  await mount(<App />);
  const page = await waitFor(() => byTest('overview-page'));
  const button = byTest('user-menu')!;
  await click(button);
  await pointerDown(byTest('menu-logout'));
  assert.ok(byTest('menu-logout'), 'a press inside keeps it open');
  await pointerDown(page);
  assert.is(byTest('menu-logout'), null, 'a press outside closes it');
  assert.is(button.getAttribute('aria-expanded'), 'false');
  button.focus();
  await click(button);
  await press(button, 'Escape');
  assert.is(byTest('menu-logout'), null, 'Escape at the button closes it');
  assert.is(document.activeElement, button);
  api.restore();
});

test('Escape closes a drawer and gives the focus back to the button that opened it', async () => {
  await loggedIn('/banned-clients');
  const api = fakeApi({ ...cluster, 'GET /banned': bans });
  await mount(<App />);
  const create = await waitFor(() => byTest('banned-create'));
  create.focus();
  await click(create);
  const drawer = await waitFor(() => byTest('banned-create-form'));
  assert.ok(drawer.contains(focused()), 'the drawer takes the focus');
  // Tab from its last control comes round to its first, Shift+Tab back.
  const controls = [...drawer.querySelectorAll<HTMLElement>('button:not(:disabled), input, select, textarea')];
  controls.at(-1)!.focus();
  await press(controls.at(-1)!, 'Tab');
  assert.is(focused(), byTest('drawer-close'));
  await press(focused()!, 'Tab', { shiftKey: true });
  assert.is(focused(), controls.at(-1));
  await press(focused()!, 'Escape');
  assert.is(byTest('banned-create-form'), null);
  assert.is(focused(), byTest('banned-create'));
  // The close button does the same.
  await click(byTest('banned-create'));
  await waitFor(() => byTest('banned-create-form'));
  await click(byTest('drawer-close'));
  assert.is(byTest('banned-create-form'), null);
  assert.is(focused(), byTest('banned-create'));
  api.restore();
});

test('the alarm banner says the server cannot be reached instead of "No alarm"', async () => {
  await loggedIn('/dashboard/overview');
  const api = fakeApi(cluster);
  const fetchOk = globalThis.fetch;
  await mount(<App />);
  await waitFor(() => byTest('alarm-banner')?.textContent?.includes('No alarm'));
  // The server goes away; the next refresh (the tab becoming visible again) finds nobody.
  globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
  await act(async () => { document.dispatchEvent(new Event('visibilitychange')); });
  await waitFor(() => byTest('alarm-banner')?.textContent?.includes('Cannot reach the server'));
  assert.not.match(byTest('alarm-banner')!.textContent!, /No alarm/);
  assert.is(byTest('alarm-banner')!.getAttribute('role'), 'status');
  globalThis.fetch = fetchOk;
  api.restore();
  cleanup();
  setLocale('zh');
  globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
  await mount(<App />);
  await waitFor(() => byTest('alarm-banner'));
  assert.is(byTest('alarm-banner')!.textContent!.trim(), '无法连接到服务器');
  globalThis.fetch = fetchOk;
});

test('a query before the hash moves into the hash route at start, and navigation never writes one', async () => {
  await loggedIn('/clients');
  history.replaceState(null, '', '/?like_clientid=abc#/clients');
  const api = fakeApi({ ...cluster, 'GET /clients': { body: { data: [], meta: { page: 1, limit: 20, count: 0 } } } });
  await mount(<App />);
  await waitFor(() => api.calls.some((c) => c.path === '/clients'));
  assert.is(location.search, '');
  assert.is(location.hash, '#/clients?like_clientid=abc');
  assert.is(api.calls.find((c) => c.path === '/clients')!.query.get('like_clientid'), 'abc', 'the screen still reads its filter');
  await click(byTest('menu-group-management'));
  await click(byTest('menu-banned-clients'));
  await waitFor(() => route().startsWith('/banned-clients'));
  assert.is(location.search, '');
  assert.is(location.hash, '#/banned-clients');
  history.back();
  await waitFor(() => location.hash === '#/clients?like_clientid=abc');
  assert.is(location.search, '');
  api.restore();
});

test('after sign-in the first screen\'s answers reach it one frame apart, in the order it declares them, the first before any frame', async () => {
  Object.assign(session, { token: 'tok-9', edition: 'ee', version: '5.8.9' });
  const fake = fakeApi({ ...cluster, 'GET /monitor': { body: [] }, 'GET /license': { body: { customer: 'x' } } });
  // Frames by hand: each `frame()` runs the callbacks asked for so far, then the tasks after them.
  const original = globalThis.requestAnimationFrame;
  let callbacks: FrameRequestCallback[] = [];
  globalThis.requestAnimationFrame = (callback) => callbacks.push(callback);
  const frame = async () => {
    const due = callbacks;
    callbacks = [];
    for (const callback of due) callback(performance.now());
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  try {
    const { ready } = primeScreen('/');
    assert.equal(fake.calls.map((c) => c.path), ['/monitor_current', '/monitor', '/nodes', '/license'], 'all four leave at once');
    const seen: string[] = [];
    for (const [path, params] of [['/monitor_current'], ['/monitor', { latest: 3600 }], ['/nodes'], ['/license']] as const) {
      void client.get(path, { params }).then(() => seen.push(path));
    }
    await ready;
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(seen, ['/monitor_current']);
    await frame();
    assert.equal(seen, ['/monitor_current', '/monitor'], 'the charts in the task after the frame that drew the cards');
    await frame();
    assert.equal(seen, ['/monitor_current', '/monitor', '/nodes'], 'the node list after the frame that drew the charts');
    await frame();
    assert.equal(seen, ['/monitor_current', '/monitor', '/nodes', '/license']);
    assert.equal(fake.calls.length, 4, 'the screen took the primed answers');
  } finally {
    globalThis.requestAnimationFrame = original;
    fake.restore();
    Object.assign(session, { token: '', edition: '', version: '' });
  }
});

test('a screen drawn after its primed answer came shows it in its first render; a reload asks again', async () => {
  Object.assign(session, { token: 'tok-9' });
  const fake = fakeApi({ 'GET /nodes': { body: [{ node: 'emqx@node1' }] } });
  try {
    void prime('/nodes');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const renders: unknown[] = [];
    let nodes!: Remote<unknown>;
    function Probe() {
      nodes = useRemote('nodes', (signal) => client.get('/nodes', { signal }));
      renders.push(nodes.loading ? 'loading' : nodes.data);
      return null;
    }
    await mount(<Probe />);
    assert.equal(renders, [[{ node: 'emqx@node1' }]], 'one render, with the answer');
    assert.is(fake.calls.length, 1, 'the primed answer, not a second request');
    await act(async () => nodes.reload());
    await waitFor(() => fake.calls.length === 2 && !nodes.loading);
    assert.equal(nodes.data, [{ node: 'emqx@node1' }]);
    assert.is(fake.calls.length, 2);
  } finally {
    fake.restore();
    session.token = '';
  }
});

test.after(cleanup);
test.run();
