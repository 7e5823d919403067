import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { setLocale } from '../../web/lib/i18n.ts';
import { session } from '../../web/lib/session.ts';
import { fakeApi } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor } from '../helpers/render.tsx';

const LOGIN_OK = { status: 200, body: { token: 'tok-1', version: '5.5.1', license: { edition: 'ce' } } };
const stats = { status: 200, body: { 'connections.count': 3, 'subscriptions.count': 2, 'topics.count': 1 } };
const common = {
  'GET /nodes': { body: [{ node: 'emqx@node1', node_status: 'running' }] },
  'GET /stats': stats,
  'GET /alarms': { body: { data: [], meta: { page: 1, limit: 1, count: 0, hasnext: false } } },
};

/** A sign-in that goes on to the overview: its figures and an empty trend. */
const signInToOverview = {
  'POST /login': LOGIN_OK, ...common,
  'GET /monitor_current': { body: { connections: 7 } },
  'GET /monitor': { body: [] },
};

async function fillLogin(username: string, password: string) {
  await type(document.querySelector('input[name=username]'), username);
  await type(document.querySelector('input[name=password]'), password);
  await submit(byTest('login-form'));
}

test('an empty login form says which fields are required and sends nothing', async () => {
  reset('/login');
  const api = fakeApi({});
  await mount(<App />);
  await submit(byTest('login-form'));
  assert.ok(text().includes('Username is required'));
  assert.ok(text().includes('Password is required'));
  assert.is(api.calls.length, 0);
  api.restore();
});

test('wrong credentials show "Incorrect username or password" and keep the user on login', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': { status: 401, body: { code: 'BAD_USERNAME_OR_PWD', message: 'Auth failed' } } });
  await mount(<App />);
  await fillLogin('admin', 'nope');
  await waitFor(() => byTest('login-error'));
  assert.is(byTest('login-error')!.textContent, 'Incorrect username or password');
  assert.equal(api.calls[0].body, { username: 'admin', password: 'nope' });
  assert.ok(route().startsWith('/login'));
  api.restore();
});

test('a locked account shows the locked message', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': { status: 401, body: { code: 'LOGIN_LOCKED', message: 'Login locked' } } });
  await mount(<App />);
  await fillLogin('admin', 'whatever1');
  await waitFor(() => byTest('login-error'));
  assert.match(byTest('login-error')!.textContent!, /locked/);
  api.restore();
});

test('admin with the default password is prompted; Skip goes on to the overview', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': LOGIN_OK, ...common });
  await mount(<App />);
  await fillLogin('admin', 'public');
  await waitFor(() => byTest('change-password-form'));
  assert.is(session.token, 'tok-1');
  // Users sits in the Management menu group, and the hint says so (and, since issue #34, names the user menu too).
  assert.ok(text().includes('change it later from the user menu or under Management > Users.'));
  assert.not.ok(text().includes('System > Users'));
  await click(byTest('login-skip'));
  await waitFor(() => byTest('overview-page'));
  assert.is(route().split('?')[0], '/dashboard/overview');
  api.restore();
});

test('the new password must follow the rule, differ from the old one and be confirmed', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': LOGIN_OK, ...common });
  await mount(<App />);
  await fillLogin('admin', 'public');
  await waitFor(() => byTest('change-password-form'));
  await type(document.querySelector('input[name=new_pwd]'), 'public');
  await type(document.querySelector('input[name=confirm_pwd]'), 'other');
  await submit(byTest('change-password-form'));
  assert.ok(text().includes("Two inputs don't match!"));
  assert.ok(byTest('error-new_pwd'), 'the new password field shows a problem');
  await type(document.querySelector('input[name=new_pwd]'), 'public123');
  await type(document.querySelector('input[name=confirm_pwd]'), 'public123');
  const before = api.calls.length;
  await submit(byTest('change-password-form'));
  await waitFor(() => api.calls.some((c) => c.path === '/users/admin/change_pwd'));
  const change = api.calls.slice(before).find((c) => c.path === '/users/admin/change_pwd')!;
  assert.equal(change.body, { old_pwd: 'public', new_pwd: 'public123' });
  api.restore();
});

// Changed with issue #34: the prompt no longer signs in by itself with the new password; it says
// why the broker ended the login, as the user menu and the Users page do.
test('after changing the default password the login form shows again with the username, saying why', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': LOGIN_OK, 'POST /users/admin/change_pwd': { status: 204 }, ...common });
  await mount(<App />);
  await fillLogin('admin', 'public');
  await waitFor(() => byTest('change-password-form'));
  await type(document.querySelector('input[name=new_pwd]'), 'public123');
  await type(document.querySelector('input[name=confirm_pwd]'), 'public123');
  await submit(byTest('change-password-form'));
  await waitFor(() => byTest('login-notice'));
  assert.match(byTest('login-notice')!.textContent!, /The password was changed, so the broker ended every login of this user: sign in with the new password/);
  assert.is(document.querySelector<HTMLInputElement>('[data-test=login-form] input[name=username]')!.value, 'admin');
  assert.is(session.token, '');
  assert.is(api.calls.filter((c) => c.path === '/login').length, 1, 'no login with the new password behind the user\'s back');
  api.restore();
});

/** A 6.2.2 login answer with `dashboard.password_expired_time` set (emqx_dashboard_api.erl at 6.2.2). */
const expiring = (seconds: number) => ({ body: { token: 'tok-1', version: '6.2.2', license: { edition: 'ee' }, role: 'administrator', password_expire_in_seconds: seconds } });

for (const [locale, words] of [
  ['en', { days: 'Days left before your password must change: 3. Change it now, or later under Management > Users.', title: 'Change your password', expired: 'Your password has expired: change it now.' }],
  ['zh', { days: '距密码必须修改还剩 3 天。请现在修改，或稍后在 管理 > 用户 中修改。', title: '修改密码', expired: '您的密码已过期，请修改密码。' }],
] as const) {
  test(`a password that expires within a week is told in days (${locale}) with the form to change it, which posts change_pwd; Skip goes on`, async () => {
    reset('/login');
    setLocale(locale);
    const api = fakeApi({ 'POST /login': expiring(2 * 86_400 + 60), 'POST /users/ops/change_pwd': { status: 204 }, ...common });
    await mount(<App />);
    await fillLogin('ops', 'Secret#123');
    await waitFor(() => byTest('change-password-form'));
    assert.is(byTest('login-subtitle')!.textContent, words.days);
    assert.ok(text().includes(words.title));
    assert.ok(byTest('login-skip'));
    await type(document.querySelector('input[name=new_pwd]'), 'Fresh#4567');
    await type(document.querySelector('input[name=confirm_pwd]'), 'Fresh#4567');
    await submit(byTest('change-password-form'));
    await waitFor(() => api.calls.some((c) => c.path === '/users/ops/change_pwd'));
    assert.equal(api.calls.find((c) => c.path === '/users/ops/change_pwd')!.body, { old_pwd: 'Secret#123', new_pwd: 'Fresh#4567' });
    await waitFor(() => byTest('login-notice'));
    api.restore();
  });

  test(`an expired password says so (${locale}); Skip still goes on; one with more than a week left is not mentioned`, async () => {
    reset('/login');
    setLocale(locale);
    let left = -3600;
    const api = fakeApi({ 'POST /login': () => expiring(left), ...common });
    await mount(<App />);
    await fillLogin('ops', 'Secret#123');
    await waitFor(() => byTest('change-password-form'));
    assert.is(byTest('login-subtitle')!.textContent, words.expired);
    await click(byTest('login-skip'));
    await waitFor(() => byTest('overview-page'));
    reset('/login');
    setLocale(locale);
    left = 8 * 86_400;
    await mount(<App />);
    await fillLogin('ops', 'Secret#123');
    await waitFor(() => byTest('overview-page'));
    assert.not.ok(byTest('change-password-form'));
    api.restore();
  });
}

test('the same password as before is refused with the specification text', async () => {
  reset('/login');
  const api = fakeApi({ 'POST /login': LOGIN_OK, ...common });
  await mount(<App />);
  await fillLogin('admin', 'public');
  await waitFor(() => byTest('change-password-form'));
  // `public` breaks the strength rule first; the old-password check applies to rule-abiding input.
  const old = document.querySelector<HTMLInputElement>('input[name=new_pwd]');
  await type(old, 'public');
  await submit(byTest('change-password-form'));
  assert.ok(byTest('error-new_pwd'));
  api.restore();
});

test('a non-default login goes straight back to the page in ?to=', async () => {
  reset('/login');
  history.replaceState(null, '', '/?to=%2Fusers#/login');
  const api = fakeApi({
    'POST /login': LOGIN_OK, ...common,
    'GET /users': { body: [{ username: 'admin', description: 'administrator' }] },
  });
  await mount(<App />);
  await fillLogin('ops', 'Secret123');
  await waitFor(() => byTest('users-page'));
  assert.is(route().split('?')[0], '/users');
  api.restore();
});

test('signing in from `/` draws the shell and the overview in one pass: no shell around a loading screen, no redirect after it', async () => {
  // A cold load of `/` sends the user to /login?to=%2F; the way back is `/`, which the shell redirects.
  reset('/login?to=%2F');
  const api = fakeApi(signInToOverview);
  await mount(<App />);
  // What each commit of the tree showed, in the order the DOM changed.
  const seen: string[] = [];
  const look = () => {
    const shell = !!document.querySelector('.content');
    const screen = byTest('overview-page') ? 'overview' : document.querySelector('.content [data-test=state-loading]') ? 'loading' : 'nothing';
    const last = shell ? `shell+${screen}` : 'login';
    if (seen[seen.length - 1] !== last) seen.push(last);
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, { childList: true, subtree: true });
  const replaced: string[] = [];
  const replaceState = history.replaceState;
  history.replaceState = function (this: History, ...args: Parameters<History['replaceState']>) {
    replaced.push(String(args[2]));
    return replaceState.apply(this, args);
  };
  try {
    await fillLogin('ops', 'Secret123');
    await waitFor(() => byTest('overview-connections')?.textContent?.includes('7'));
  } finally {
    history.replaceState = replaceState;
    observer.disconnect();
  }
  assert.equal(seen.filter((s) => s !== 'login'), ['shell+overview'], seen.join(' → '));
  assert.equal(replaced.map((url) => url.replace(/^[^#]*/, '')), ['#/dashboard/overview'], 'one step from the login page to the overview');
  api.restore();
});

test('signing in to the overview sends its first requests before the shell renders, each once', async () => {
  reset('/login');
  const api = fakeApi(signInToOverview);
  await mount(<App />);
  await fillLogin('ops', 'Secret123');
  await waitFor(() => byTest('overview-connections')?.textContent?.includes('7'));
  await waitFor(() => byTest('monitor-charts') && !byTest('monitor-charts')!.querySelector('[data-test=state-loading]'));
  const asked = api.calls.map((c) => `${c.method} ${c.path}${c.path === '/monitor' ? `?${c.query}` : ''}`);
  const login = asked.indexOf('POST /login');
  // Right after the sign-in answer, ahead of what the shell asks when it shows (the alarms banner).
  assert.equal(asked.slice(login + 1, login + 4).sort(), ['GET /monitor?latest=3600', 'GET /monitor_current', 'GET /nodes'], asked.join(', '));
  assert.ok(asked.indexOf('GET /alarms') > login + 3, asked.join(', '));
  for (const once of ['GET /monitor_current', 'GET /nodes', 'GET /monitor?latest=3600']) assert.is(asked.filter((a) => a === once).length, 1, once);
  api.restore();
});

test.after(cleanup);
test.run();
