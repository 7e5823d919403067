/**
 * The login page: username and password, the forgot-password hint, inline errors for bad
 * credentials and lockout, then the default-password prompt with Skip (spec part1 §2) for a
 * reserved user logged in with `public`. Returns to the page in `?to=` afterwards.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ApiError } from '../lib/api.ts';
import { continueBootForm, dropBootForm, readBootForm } from '../lib/bootForm.ts';
import { handleError } from '../lib/errors.ts';
import { t, type Locale } from '../lib/i18n.ts';
import { currentSearch, navigate } from '../lib/navigation.ts';
import { changePassword, clearSession, DEFAULT_PASSWORD, login, session } from '../lib/session.ts';
import { settings, updateSettings } from '../lib/settings.ts';
import { notSameAs, password, passwordRequired, sameAs, usernameRequired } from '../lib/rules.ts';
import { Form } from '../ui/Form.tsx';
import { Icon } from '../ui/Icon.tsx';
import { loadShellStyles } from './shellStyles.ts';
import type { FieldDecl } from '../ui/resource.ts';

export const loginFields: FieldDecl[] = [
  { name: 'username', label: 'login.username', rules: [usernameRequired], autoComplete: 'username' },
  { name: 'password', label: 'login.password', kind: 'password', rules: [passwordRequired], autoComplete: 'current-password' },
];

/** New password and its confirmation, as the first-login prompt and the user menu ask them. */
export const changeFields: FieldDecl[] = [
  { name: 'new_pwd', label: 'login.newPassword', kind: 'password', rules: [passwordRequired, password, notSameAs('old_pwd')], help: 'validation.password' },
  { name: 'confirm_pwd', label: 'login.confirmPassword', kind: 'password', rules: [passwordRequired, sameAs('new_pwd')] },
];

/** The sentence shown in the form for a refused sign-in the user can act on, else undefined. */
export function loginProblem(error: unknown): string | undefined {
  return error instanceof ApiError && ['BAD_USERNAME_OR_PWD', 'LOGIN_LOCKED', 'TOO_MANY_REQUESTS'].includes(error.code) ? t(`errors.${error.code}`) : undefined;
}

/** Where to go after login: `?to=` when it is an in-app path, else the overview. */
function target(): string {
  const to = new URLSearchParams(currentSearch()).get('to') ?? '';
  return to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/login') ? to : '/dashboard/overview';
}

export function Login() {
  const { token, username } = useSnapshot(session);
  const { lang } = useSnapshot(settings);
  const [phase, setPhase] = useState<'login' | 'change'>('login');
  const [problem, setProblem] = useState('');
  // Why the form shows again: the password was just changed, and the broker ended the login.
  const [notice, setNotice] = useState<{ text: string; username: string } | null>(null);
  // The form drawn into index.html, shown until now: this one takes its values, focus and submit.
  const [drawn] = useState(readBootForm);
  const page = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    dropBootForm();
    continueBootForm(page.current, drawn);
    // Without a drawn form's focus to take over, typing starts in the username.
    const active = document.activeElement;
    if (!active || active === document.body) page.current?.querySelector<HTMLInputElement>('input[name=username]')?.focus();
  }, []);

  useEffect(() => {
    if (token && phase === 'login') void navigate(target(), { replace: true });
    // Once the form is painted and the page idle, the shell and the screen sign-in leads to are
    // fetched and evaluated while the operator types.
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    idle(() => void import('./Shell.tsx').then((shell) => shell.warm(target()), () => undefined));
  }, []);

  const onLogin = async (values: Record<string, unknown>) => {
    setProblem('');
    // The shell's stylesheet applies while the broker checks the password: it leaves the login
    // page as it looks (tests/e2e/login-load.test.ts), and the shell need not wait for it after.
    void loadShellStyles().catch(() => undefined);
    try {
      const { promptPassword } = await login(String(values.username), String(values.password));
      if (promptPassword) setPhase('change');
      else {
        // The screen's requests start before its chunk is in (it was fetched while the form waited).
        await import('./Shell.tsx').then((shell) => shell.primeScreen(target()), () => undefined);
        await navigate(target(), { replace: true, force: true });
      }
    } catch (error) {
      const known = loginProblem(error);
      if (known) setProblem(known);
      else handleError(error);
    }
  };

  const onChange = async (values: Record<string, unknown>) => {
    await changePassword(username, DEFAULT_PASSWORD, String(values.new_pwd));
    // The broker ends every login of a user whose password changes (emqx_dashboard_admin.erl
    // change_password_hash/2): sign in again, with the sentence that says why, as from every path.
    clearSession();
    setNotice({ text: t('reauth.passwordChanged'), username });
    setPhase('login');
  };

  return (
    <main class="login-page" ref={page}>
      <div class="login-lang-box">
        <select class="login-lang" aria-label="Language / 语言" value={lang}
          onChange={(e) => updateSettings({ lang: (e.target as HTMLSelectElement).value as Locale })}>
          <option value="zh">中文</option>
          <option value="en">English</option>
        </select>
        <Icon name="chevronDown" />
      </div>
      <article class="login-card">
        <header>
          <h1>EMQX</h1>
          <p class="muted">{t(phase === 'login' ? 'login.subtitle' : 'login.changeHint')}</p>
        </header>
        {phase === 'login' ? (
          <Form key={notice?.text} fields={loginFields} initial={notice ? { username: notice.username } : drawn?.values} submitText={t('login.submit')} onSubmit={onLogin} test="login-form">
            {notice && !problem && <p role="status" data-test="login-notice">{notice.text}</p>}
            {problem && <p class="field-error" role="alert" data-test="login-error">{problem}</p>}
            <details class="forgot">
              <summary>{t('login.forgot')}<Icon name="chevron" /></summary>
              <small>{t('login.forgotHint')}</small>
            </details>
          </Form>
        ) : (
          <>
            <h2>{t('login.changeTitle')}</h2>
            <Form fields={changeFields} initial={{ old_pwd: DEFAULT_PASSWORD }} submitText={t('common.confirm')}
              onSubmit={onChange} test="change-password-form">
              <button type="button" class="secondary outline skip" data-test="login-skip"
                onClick={() => navigate(target(), { replace: true, force: true })}>
                {t('login.skip')}
              </button>
            </Form>
          </>
        )}
      </article>
    </main>
  );
}
