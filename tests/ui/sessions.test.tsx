import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { App } from '../../web/app/App.tsx';
import { restoreSession, session } from '../../web/lib/session.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { saveUser, writeSettings } from '../../web/lib/storage.ts';
import { fakeApi, type Call } from '../helpers/fakeApi.ts';
import { byTest, cleanup, click, mount, reset, route, submit, text, type, waitFor } from '../helpers/render.tsx';

const alarms = { body: { data: [], meta: { page: 1, limit: 1, count: 0 } } };
const expired = { status: 401, body: { code: 'TOKEN_TIME_OUT', message: 'Token expired' } };

async function signedIn(path: string, username = 'ops', settings: { edition?: string; role?: string } = {}) {
  reset(path);
  writeSettings(settings);
  await saveUser({ username, token: 'old-token' });
  await restoreSession();
}

/** A reload: the page goes (its components run no clean-up, so session storage stays as it was) and the console starts again. */
async function reload() {
  const kept = { ...sessionStorage };
  cleanup();
  for (const [key, value] of Object.entries(kept)) sessionStorage.setItem(key, value);
  await mount(<App />);
}

const bearer = (call: Call) => call.headers.get('authorization');

test.after.each(cleanup);

test('a write refused for an expired login keeps the screen and the form; after signing in in the dialog it is offered again and sent', async () => {
  await signedIn('/users');
  const posted: unknown[] = [];
  const api = fakeApi({
    'GET /users': (call) => (bearer(call) === 'Bearer old-token' || bearer(call) === 'Bearer new-token' ? { body: [{ username: 'admin' }] } : expired),
    'GET /alarms': alarms,
    'POST /users': (call) => {
      if (bearer(call) !== 'Bearer new-token') return expired;
      posted.push(call.body);
      return { body: { username: 'carol' } };
    },
    'POST /login': (call) => ((call.body as { password: string }).password === 'right-one1'
      ? { body: { token: 'new-token', version: '5.8.9', license: { edition: 'ee' } } }
      : { status: 401, body: { code: 'BAD_USERNAME_OR_PWD', message: 'Auth failed' } }),
  });
  await mount(<App />);
  await waitFor(() => byTest('users-create'));
  await click(byTest('users-create'));
  const form = () => byTest('users-create-form')!.querySelector('form')!;
  await type(form().querySelector('[name=username]'), 'carol');
  await type(form().querySelector('[name=password]'), 'secret-1234');
  await type(form().querySelector('[name=confirm]'), 'secret-1234');
  await submit(form());
  await waitFor(() => byTest('reauth-dialog'));
  assert.is(route(), '/users', 'the screen stays');
  assert.is((form().querySelector('[name=username]') as HTMLInputElement).value, 'carol', 'the form keeps its values');
  assert.ok(byTest('reauth-reason')!.textContent!.startsWith('Login has expired, please login again'));
  const dialogForm = () => byTest('reauth-form')!.querySelector('form') ?? byTest('reauth-form')!;
  assert.is((byTest('reauth-dialog')!.querySelector('[name=username]') as HTMLInputElement).value, 'ops');
  // A wrong password is said in the dialog; nothing is sent meanwhile.
  await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'wrong-one1');
  await submit(dialogForm());
  await waitFor(() => byTest('reauth-error'));
  assert.ok(text().includes('Incorrect username or password'));
  await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'right-one1');
  await submit(dialogForm());
  await waitFor(() => byTest('reauth-resend'));
  assert.is(session.token, 'new-token');
  assert.ok(byTest('reauth-writes')!.textContent!.includes('POST /users'));
  assert.is(posted.length, 0, 'nothing is sent again before the operator says so');
  await click(byTest('reauth-resend'));
  await waitFor(() => !byTest('users-create-form'));
  assert.is(posted.length, 1);
  assert.equal((posted[0] as { username: string }).username, 'carol');
  assert.ok(text().includes('User created'));
  assert.not.ok(byTest('reauth-dialog'));
  api.restore();
});

test('declining to send again keeps the form as it was, and nothing is sent', async () => {
  await signedIn('/users');
  let posts = 0;
  const api = fakeApi({
    'GET /users': { body: [{ username: 'admin' }] },
    'GET /alarms': alarms,
    'POST /users': () => (posts++, expired),
    'POST /login': { body: { token: 'new-token', version: '5.8.9' } },
  });
  await mount(<App />);
  await waitFor(() => byTest('users-create'));
  await click(byTest('users-create'));
  const form = () => byTest('users-create-form')!.querySelector('form')!;
  await type(form().querySelector('[name=username]'), 'dave');
  await type(form().querySelector('[name=password]'), 'secret-1234');
  await type(form().querySelector('[name=confirm]'), 'secret-1234');
  await submit(form());
  await waitFor(() => byTest('reauth-dialog'));
  await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'secret-9999');
  await submit(byTest('reauth-form')!.querySelector('form') ?? byTest('reauth-form'));
  await waitFor(() => byTest('reauth-discard'));
  await click(byTest('reauth-discard'));
  await waitFor(() => !byTest('reauth-dialog'));
  assert.is(posts, 1);
  assert.is((form().querySelector('[name=username]') as HTMLInputElement).value, 'dave');
  assert.not.ok((byTest('users-create-form')!.querySelector('[data-test=form-submit]') as HTMLButtonElement).disabled, 'Save can be pressed again');
  api.restore();
});

test('reads refused for an expired login are sent again by themselves once signed in; signing out goes to the login page', async () => {
  await signedIn('/users');
  let token = 'old-token';
  const api = fakeApi({
    'GET /users': (call) => (bearer(call) === `Bearer ${token}` && token !== 'old-token' ? { body: [{ username: 'eve' }] } : expired),
    'GET /alarms': alarms,
    'POST /login': () => ((token = 'fresh'), { body: { token: 'fresh', version: '5.8.9' } }),
  });
  await mount(<App />);
  await waitFor(() => byTest('reauth-dialog'));
  assert.is(route(), '/users');
  await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'secret-9999');
  await submit(byTest('reauth-form')!.querySelector('form') ?? byTest('reauth-form'));
  await waitFor(() => document.querySelector('[data-test=users-row][data-key=eve]'));
  assert.not.ok(byTest('reauth-dialog'), 'no write waited: the dialog closes');
  // Expired again: this time the operator signs out.
  token = 'old-token';
  session.token = 'old-token';
  await click(byTest('users-refresh'));
  await waitFor(() => byTest('reauth-sign-out'));
  await click(byTest('reauth-sign-out'));
  await waitFor(() => route().startsWith('/login'));
  assert.is(route(), '/login?to=%2Fusers');
  assert.is(session.token, '');
  api.restore();
});

/** A 401 BAD_MFA_TOKEN of emqx_dashboard_mfa.erl: the broker wants a (right) code. */
const askCode = (error: string) => ({ status: 401, body: { code: 'BAD_MFA_TOKEN', message: { mechanism: 'totp', error } } });

test('a user with MFA signs in again in the dialog: the code step (a viewer too), a wrong code refused in words, a pasted one sent as six digits; the screen stays', async () => {
  await signedIn('/users', 'ops', { edition: 'ee', role: 'viewer' });
  let token = 'old-token';
  const logins: unknown[] = [];
  const api = fakeApi({
    'GET /users': (call) => (bearer(call) === `Bearer ${token}` && token !== 'old-token' ? { body: [{ username: 'ops' }] } : expired),
    'GET /alarms': alarms,
    'POST /login': (call) => {
      const body = call.body as { password: string; mfa_token?: string };
      logins.push(body);
      if (body.mfa_token === undefined) return askCode('missing_mfa_token');
      if (body.mfa_token !== '123456') return askCode('bad_mfa_token');
      token = 'fresh';
      return { body: { token: 'fresh', version: '6.2.2', role: 'viewer' } };
    },
  });
  await mount(<App />);
  await waitFor(() => byTest('reauth-dialog'));
  await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'secret-9999');
  await submit(byTest('reauth-form')!.querySelector('form') ?? byTest('reauth-form'));
  await waitFor(() => byTest('reauth-dialog')!.querySelector('[data-test=mfa-form]'));
  const dialog = () => byTest('reauth-dialog')!;
  const code = () => dialog().querySelector<HTMLInputElement>('[data-test=mfa-form] input[name=code]')!;
  assert.is(byTest('mfa-hint')!.textContent, 'Enter the 6-digit code your authenticator app shows.');
  assert.is(code().getAttribute('inputmode'), 'numeric');
  assert.is(document.activeElement, code(), 'typing starts in the code');
  assert.not.ok(code().disabled, 'a viewer may answer too');
  assert.ok(dialog().querySelector('[data-test=reauth-sign-out]'), 'signing out stays offered');
  await type(code(), '654321');
  await submit(dialog().querySelector('[data-test=mfa-form] form') ?? dialog().querySelector('[data-test=mfa-form]'));
  await waitFor(() => dialog().querySelector('[data-test=login-error]'));
  assert.is(dialog().querySelector('[data-test=login-error]')!.textContent, 'The code is wrong or has expired: enter the one your app shows now');
  assert.is(session.token, 'old-token', 'not signed in');
  await type(code(), '123 456');
  await submit(dialog().querySelector('[data-test=mfa-form] form') ?? dialog().querySelector('[data-test=mfa-form]'));
  await waitFor(() => document.querySelector('[data-test=users-row][data-key=ops]'));
  assert.not.ok(byTest('reauth-dialog'));
  assert.is(route(), '/users', 'the screen stays');
  assert.equal(logins, [
    { username: 'ops', password: 'secret-9999' },
    { username: 'ops', password: 'secret-9999', mfa_token: '654321' },
    { username: 'ops', password: 'secret-9999', mfa_token: '123456' },
  ]);
  api.restore();
});

for (const [locale, words] of [['en', 'this account is locked for 10 minutes'], ['zh', '此账户已被锁定 10 分钟']] as const) {
  test(`a locked account is told in the dialog with the lock's duration, in ${locale}; Back from the code step returns to the password`, async () => {
    await signedIn('/users');
    let locked = false;
    const api = fakeApi({
      'GET /users': expired,
      'GET /alarms': alarms,
      'POST /login': () => (locked ? { status: 401, body: { code: 'LOGIN_LOCKED', message: 'Login locked' } } : askCode('missing_mfa_token')),
    });
    setLocale(locale);
    await mount(<App />);
    await waitFor(() => byTest('reauth-dialog'));
    await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'secret-9999');
    await submit(byTest('reauth-form')!.querySelector('form') ?? byTest('reauth-form'));
    await waitFor(() => byTest('mfa-back'));
    await click(byTest('mfa-back'));
    await waitFor(() => byTest('reauth-form'));
    locked = true;
    await type(byTest('reauth-dialog')!.querySelector('[name=password]'), 'secret-9999');
    await submit(byTest('reauth-form')!.querySelector('form') ?? byTest('reauth-form'));
    await waitFor(() => byTest('reauth-error'));
    assert.ok(byTest('reauth-error')!.textContent!.includes(words), byTest('reauth-error')!.textContent!);
    api.restore();
  });
}

test('when the broker stops answering the console asks /status by itself, says when it is back and reloads the screen', async () => {
  await signedIn('/users');
  let down = true;
  let listed = 0;
  const api = fakeApi({
    'GET /users': () => (listed++, { body: [{ username: 'after' }] }),
    'GET /alarms': alarms,
    'GET /status': { body: 'Node emqx@127.0.0.1 is started\nemqx is running' },
  });
  const fake = globalThis.fetch;
  const statusAsked: number[] = [];
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).includes('/status')) statusAsked.push(Date.now());
    return down ? Promise.reject(new TypeError('Failed to fetch')) : fake(input, init);
  }) as typeof fetch;
  await mount(<App />);
  await waitFor(() => byTest('connection-lost'));
  assert.ok(text().includes('The broker has not answered since'));
  await waitFor(() => statusAsked.length >= 1, 2500);
  down = false;
  await waitFor(() => !byTest('connection-lost'), 6000);
  assert.ok(text().includes('The broker answers again'));
  await waitFor(() => document.querySelector('[data-test=users-row][data-key=after]'));
  assert.ok(api.calls.some((c) => c.path === '/status'), 'the server was asked at /status');
  globalThis.fetch = fake;
  api.restore();
});

test('a form drawer and what was typed in it come back after a reload, but never a password; saving forgets the draft', async () => {
  await signedIn('/users');
  const api = fakeApi({ 'GET /users': { body: [{ username: 'admin' }] }, 'GET /alarms': alarms, 'POST /users': { body: { username: 'frank' } } });
  await mount(<App />);
  await waitFor(() => byTest('users-create'));
  await click(byTest('users-create'));
  const form = () => byTest('users-create-form')!.querySelector('form')!;
  await type(form().querySelector('[name=username]'), 'frank');
  await type(form().querySelector('[name=description]'), 'night shift');
  await type(form().querySelector('[name=password]'), 'secret-1234');
  const kept = JSON.stringify({ ...sessionStorage });
  assert.ok(kept.includes('night shift'));
  assert.not.ok(kept.includes('secret-1234'), 'a password is never kept');
  await reload();
  await waitFor(() => byTest('users-create-form'));
  assert.is((form().querySelector('[name=username]') as HTMLInputElement).value, 'frank');
  assert.is((form().querySelector('[name=description]') as HTMLTextAreaElement).value, 'night shift');
  assert.is((form().querySelector('[name=password]') as HTMLInputElement).value, '');
  await type(form().querySelector('[name=password]'), 'secret-1234');
  await type(form().querySelector('[name=confirm]'), 'secret-1234');
  await submit(form());
  await waitFor(() => !byTest('users-create-form'));
  assert.not.ok(JSON.stringify({ ...sessionStorage }).includes('frank'), 'saved: the draft is gone');
  await reload();
  await waitFor(() => byTest('users-create'));
  assert.not.ok(byTest('users-create-form'));
  api.restore();
});

test('the user menu changes the password in a dialog; the broker ended the login, so the sign-in dialog says why; a wrong current password is said at its field', async () => {
  await signedIn('/users');
  let tries = 0;
  const api = fakeApi({
    'GET /users': { body: [{ username: 'ops' }] },
    'GET /alarms': alarms,
    'POST /users/ops/change_pwd': (call) => ((tries += 1), (call.body as { old_pwd: string }).old_pwd === 'Current#1'
      ? { status: 204 } : { status: 400, body: { code: 'ERROR_PWD_NOT_MATCH', message: 'Old password not match' } }),
  });
  await mount(<App />);
  await click(await waitFor(() => byTest('user-menu')));
  await click(byTest('menu-password'));
  const form = () => byTest('password-form')!;
  await type(form().querySelector('[name=old_pwd]'), 'Wrong#123');
  await type(form().querySelector('[name=new_pwd]'), 'Brand#new2');
  await type(form().querySelector('[name=confirm_pwd]'), 'Brand#new2');
  await submit(form());
  await waitFor(() => byTest('error-old_pwd'));
  assert.is(byTest('error-old_pwd')!.textContent, 'The old password is not correct');
  const toastText = byTest('toast-error')!.textContent!;
  const detail = byTest('toast-detail')!.textContent!;
  assert.match(detail, /Old password not match/, 'the raw text under Details');
  assert.is(toastText.replace(detail, ''), 'The old password is not correct', 'and only there');
  await type(form().querySelector('[name=old_pwd]'), 'Current#1');
  await submit(form());
  await waitFor(() => byTest('reauth-dialog'));
  assert.not.ok(byTest('password-dialog'));
  assert.is(route(), '/users', 'the screen stays');
  assert.match(byTest('reauth-reason')!.textContent!, /The password was changed, so the broker ended every login of this user/);
  assert.is(tries, 2);
  api.restore();
});

test.run();
