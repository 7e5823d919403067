/**
 * The login page: username and password, the forgot-password hint, inline errors for bad
 * credentials and lockout (with how long it lasts), then, where the broker asks for it (5.9 on),
 * the MFA code step; then the password prompt with Skip (spec part1 §2) for a reserved user logged
 * in with `public` or a password that expires within a week. The code step and the expiry texts
 * are LoginSteps.tsx, loaded only when the broker asks for a code or the password expires. Returns
 * to the page in `?to=` afterwards.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ApiError } from '../lib/api.ts';
import { continueBootForm, dropBootForm, readBootForm } from '../lib/bootForm.ts';
import { handleError } from '../lib/errors.ts';
import { loadCatalogue, t, type Locale } from '../lib/i18n.ts';
import { currentSearch, navigate } from '../lib/navigation.ts';
import { changePassword, clearSession, login, session, type MfaPrompt, type SignedIn } from '../lib/session.ts';
import { settings, updateSettings } from '../lib/settings.ts';
import { notSameAs, password, passwordRequired, sameAs, usernameRequired } from '../lib/rules.ts';
import { Form } from '../ui/Form.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Shell } from './shellChunk.ts';
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
  if (error instanceof ApiError && error.code === 'LOGIN_LOCKED') return t('login.locked');
  return error instanceof ApiError && ['BAD_USERNAME_OR_PWD', 'TOO_MANY_REQUESTS'].includes(error.code) ? t(`errors.${error.code}`) : undefined;
}

/** A password with less than this left is offered for change at login. */
const EXPIRY_PROMPT_SECONDS = 7 * 86_400;

/** Whether a sign-in asks for a new password first (a reserved user's default, or one about to expire). */
const passwordStep = ({ promptPassword, expiresIn }: SignedIn) => promptPassword || (expiresIn !== undefined && expiresIn < EXPIRY_PROMPT_SECONDS);

/** Where to go after login: `?to=` when it is an in-app path, else the overview. */
function target(): string {
  const to = new URLSearchParams(currentSearch()).get('to') ?? '';
  return to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/login') ? to : '/dashboard/overview';
}

/** The shell's module once the login page has loaded it ahead (idle time). */
let shellModule: typeof import('./Shell.tsx') | undefined;

export type Steps = typeof import('./LoginSteps.tsx');
let steps: Promise<Steps> | undefined;

/** The code step and the expiry texts, with the Chinese texts when the console is in Chinese (they load with the shell then anyway). */
function loadSteps(): Promise<Steps> {
  steps ??= Promise.all([import('./LoginSteps.tsx'), loadCatalogue()]).then(([m]) => m, (error: unknown) => {
    // A retry starts over.
    steps = undefined;
    throw error;
  });
  return steps;
}

/**
 * The code step's prompt when the broker answers a sign-in with "send a code" (5.9 on), else
 * undefined; a setup secret given `before` (pass the prompt a code answered) stays on screen while
 * the user tries codes.
 */
function mfaPrompt(error: unknown, before: MfaPrompt | null): MfaPrompt | undefined {
  if (!(error instanceof ApiError) || error.code !== 'BAD_MFA_TOKEN' || !error.body || typeof error.body !== 'object') return undefined;
  const prompt = (error.body as { message?: MfaPrompt }).message;
  return prompt && typeof prompt === 'object' ? { ...prompt, secret: prompt.secret ?? before?.secret } : undefined;
}

/**
 * What a refused sign-in shows, on the page and in the re-login dialog: the code step (its prompt,
 * LoginSteps loaded) with the sentence for a wrong code, or the sentence for a problem the user
 * can act on; undefined once anything else has been told by `handleError`.
 */
export async function refusal(error: unknown, before: MfaPrompt | null): Promise<{ mfa?: MfaPrompt; steps?: Steps; problem: string } | undefined> {
  const prompt = mfaPrompt(error, before);
  const known = loginProblem(error);
  try {
    if (prompt) return { mfa: prompt, steps: await loadSteps(), problem: prompt.error === 'bad_mfa_token' ? t('login.mfaWrong') : '' };
    if (known) return { problem: known };
  } catch (loadError) {
    error = loadError;
  }
  handleError(error);
  return undefined;
}

export function Login() {
  // The session is read, not watched: the token that sign-in stores would render the page again
  // just as the first screen's answers are awaited, for nothing it shows.
  const { lang } = useSnapshot(settings);
  const [phase, setPhase] = useState<'login' | 'mfa' | 'change'>('login');
  const [problem, setProblem] = useState('');
  // What the code step and the password prompt need of the first step.
  const [entered, setEntered] = useState({ username: '', password: '' });
  const [mfa, setMfa] = useState<MfaPrompt | null>(null);
  const [Steps, setSteps] = useState<Steps | null>(null);
  const [hint, setHint] = useState('login.changeHint');
  const [expiresIn, setExpiresIn] = useState(0);
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
    if (session.token && phase === 'login') void navigate(target(), { replace: true });
    // Once the form is painted and the page idle, the shell and the screen sign-in leads to are
    // fetched and evaluated while the operator types.
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    idle(() => void import('./Shell.tsx').then((shell) => {
      shellModule = shell;
      shell.warm(target());
    }, () => undefined));
  }, []);

  const signIn = async (name: string, secret: string, code?: string) => {
    setProblem('');
    // Straight to the screen (no password step): its requests go out as soon as the token is in,
    // before their chunk is (it was fetched while the form waited) and while the token is stored.
    let going: Promise<{ to: string; ready?: Promise<void> }> | undefined;
    const onToken = (outcome: SignedIn) => {
      if (passwordStep(outcome)) return;
      // The focus leaves the form now, while the answers are awaited: a focused element removed
      // with the login page cost the render after sign-in a few milliseconds more.
      (document.activeElement as HTMLElement | null)?.blur?.();
      // With the shell loaded ahead, in this task: the requests leave before anything the token
      // changes is drawn.
      going = shellModule
        ? Promise.resolve(shellModule.primeScreen(target()))
        : import('./Shell.tsx').then((shell) => shell.primeScreen(target()), () => ({ to: target() }));
    };
    const checking = login(name, secret, code, onToken);
    // The shell's stylesheet applies while the form waits (Shell.tsx warm); signed in before
    // that, it applies while the broker checks the password (once the request has left), so the
    // shell need not wait for it after. It leaves the login page as it looks.
    void loadShellStyles().catch(() => undefined);
    try {
      const { promptPassword, expiresIn: left } = await checking;
      if (left !== undefined && left < EXPIRY_PROMPT_SECONDS) {
        setSteps(await loadSteps());
        setHint(left <= 0 ? 'login.expired' : 'login.expiresIn');
        setExpiresIn(Math.max(1, Math.ceil(left / 86_400)));
        setPhase('change');
      } else if (promptPassword) {
        setHint('login.changeHint');
        setPhase('change');
      } else {
        // Going there once the shell and the screen are in renders both in one pass, not the shell
        // around a loading state first; a part that failed to load shows its error there.
        const { to, ready } = await (going ?? { to: target() });
        await Promise.all([Shell.preload(), ready]).catch(() => undefined);
        await navigate(to, { replace: true, force: true });
      }
    } catch (error) {
      const refused = await refusal(error, code === undefined ? null : mfa);
      if (refused?.mfa) {
        setSteps(refused.steps!);
        setMfa(refused.mfa);
        setPhase('mfa');
      }
      if (refused) setProblem(refused.problem);
    }
  };

  const onLogin = async (values: Record<string, unknown>) => {
    const next = { username: String(values.username), password: String(values.password) };
    setEntered(next);
    setMfa(null);
    await signIn(next.username, next.password);
  };

  const onCode = (code: string) => signIn(entered.username, entered.password, code);

  const onChange = async (values: Record<string, unknown>) => {
    const { username } = session;
    await changePassword(username, entered.password, String(values.new_pwd));
    // The broker ends every login of a user whose password changes (emqx_dashboard_admin.erl
    // change_password_hash/2): sign in again (a user with MFA with a code too), with the sentence
    // that says why, as from every path.
    clearSession();
    setNotice({ text: t('reauth.passwordChanged'), username });
    setPhase('login');
  };

  const subtitle = phase === 'login' ? 'login.subtitle' : phase === 'mfa' ? 'login.mfaTitle' : hint;

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
          <p class="muted" data-test="login-subtitle">{t(subtitle, { days: expiresIn })}</p>
        </header>
        {phase === 'login' && (
          <Form key={notice?.text} fields={loginFields} initial={notice ? { username: notice.username } : drawn?.values} submitText={t('login.submit')} onSubmit={onLogin} test="login-form">
            {notice && !problem && <p role="status" data-test="login-notice">{notice.text}</p>}
            {problem && <p class="field-error" role="alert" data-test="login-error">{problem}</p>}
            <details class="forgot">
              <summary>{t('login.forgot')}<Icon name="chevron" /></summary>
              <small>{t('login.forgotHint')}</small>
            </details>
          </Form>
        )}
        {phase === 'mfa' && Steps && (
          <Steps.MfaStep mfa={mfa} username={entered.username} problem={problem} onCode={onCode}
            onBack={() => { setPhase('login'); setProblem(''); }} />
        )}
        {phase === 'change' && (
          <>
            <h2>{t(hint === 'login.changeHint' ? 'login.changeTitle' : 'login.expiryTitle')}</h2>
            <Form fields={changeFields} initial={{ old_pwd: entered.password }} submitText={t('common.confirm')}
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
