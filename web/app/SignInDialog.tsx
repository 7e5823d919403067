/**
 * Signing in again over the screen (lib/reauth.ts): the password of the same user, with the
 * sentence that says why the broker asks (the session expired, or the password changed); where the
 * broker asks for one (5.9 on), the MFA code step of the login page (LoginSteps.tsx, loaded when
 * asked); then, when writes were refused meanwhile, whether to send them again. A lock is told
 * with its duration, as on the login page. Signing out goes to the login page instead. Escape does
 * not close it: the screen behind it cannot be used without a session.
 */
import { useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { t } from '../lib/i18n.ts';
import { answerResend, giveUp, reauth, signedInAgain } from '../lib/reauth.ts';
import { login, session, type MfaPrompt } from '../lib/session.ts';
import { Form } from '../ui/Form.tsx';
import { useModal } from '../ui/useModal.ts';
import { loginFields, refusal, type Steps } from './Login.tsx';

const fields = loginFields.map((field) => (field.name === 'username' ? { ...field, disabled: true } : field));

function Panel({ phase }: { phase: 'signin' | 'resend' }) {
  const { reason, writes } = useSnapshot(reauth);
  const { username } = useSnapshot(session);
  const [problem, setProblem] = useState('');
  // The code step: the password it goes with, the broker's prompt, the lazily loaded step.
  const [entered, setEntered] = useState('');
  const [mfa, setMfa] = useState<MfaPrompt | null>(null);
  const [Steps, setSteps] = useState<Steps | null>(null);
  const box = useRef<HTMLElement>(null);
  useModal(box, () => {}, phase === 'signin' ? 'input[name=password]' : '[data-test=reauth-resend]');

  const signIn = async (secret: string, code?: string) => {
    setProblem('');
    try {
      await login(username, secret, code);
    } catch (error) {
      const refused = await refusal(error, code === undefined ? null : mfa);
      if (refused?.mfa) {
        setSteps(refused.steps!);
        setMfa(refused.mfa);
      }
      return refused && setProblem(refused.problem);
    }
    signedInAgain();
  };

  const onSignIn = (values: Record<string, unknown>) => {
    setEntered(String(values.password));
    return signIn(String(values.password));
  };
  const signOut = <button type="button" class="secondary outline" data-test="reauth-sign-out" onClick={giveUp}>{t('header.logout')}</button>;

  return (
    <article ref={box}>
      <h3 id="reauth-title">{t(phase === 'signin' ? 'reauth.title' : 'reauth.resendTitle')}</h3>
      {phase === 'signin' && Steps && mfa ? (
        <Steps.MfaStep mfa={mfa} username={username} problem={problem} onCode={(code) => signIn(entered, code)}
          onBack={() => (setMfa(null), setProblem(''))} actions={signOut} />
      ) : phase === 'signin' ? (
        <>
          <p data-test="reauth-reason">{t(reason === 'passwordChanged' ? 'reauth.passwordChanged' : 'reauth.expired')}</p>
          <Form fields={fields} initial={{ username }} anyRole submitText={t('login.submit')} onSubmit={onSignIn} test="reauth-form" actions={signOut}>
            {problem && <p class="field-error" role="alert" data-test="reauth-error">{problem}</p>}
          </Form>
        </>
      ) : (
        <>
          <p>{t('reauth.resendText', { count: writes.length })}</p>
          <ul data-test="reauth-writes">{writes.map((w, i) => <li key={i}><code>{w}</code></li>)}</ul>
          <footer>
            <button type="button" class="secondary" data-test="reauth-discard" onClick={() => answerResend(false)}>{t('reauth.discard')}</button>
            <button type="button" data-test="reauth-resend" onClick={() => answerResend(true)}>{t('reauth.resend')}</button>
          </footer>
        </>
      )}
    </article>
  );
}

export function SignInDialog() {
  const { phase } = useSnapshot(reauth);
  if (!phase) return null;
  return (
    <dialog open class="confirm sign-in" aria-modal="true" aria-labelledby="reauth-title" data-test="reauth-dialog">
      <Panel key={phase} phase={phase} />
    </dialog>
  );
}
