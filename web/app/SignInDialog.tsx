/**
 * Signing in again over the screen (lib/reauth.ts): the password of the same user, with the
 * sentence that says why the broker asks (the session expired, or the password changed); then,
 * when writes were refused meanwhile, whether to send them again. Signing out goes to the login
 * page instead. Escape does not close it: the screen behind it cannot be used without a session.
 */
import { useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { handleError } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';
import { answerResend, giveUp, reauth, signedInAgain } from '../lib/reauth.ts';
import { login, session } from '../lib/session.ts';
import { Form } from '../ui/Form.tsx';
import { useModal } from '../ui/useModal.ts';
import { loginFields, loginProblem } from './Login.tsx';

const fields = loginFields.map((field) => (field.name === 'username' ? { ...field, disabled: true } : field));

function Panel({ phase }: { phase: 'signin' | 'resend' }) {
  const { reason, writes } = useSnapshot(reauth);
  const { username } = useSnapshot(session);
  const [problem, setProblem] = useState('');
  const box = useRef<HTMLElement>(null);
  useModal(box, () => {}, phase === 'signin' ? 'input[name=password]' : '[data-test=reauth-resend]');

  const onSignIn = async (values: Record<string, unknown>) => {
    setProblem('');
    try {
      await login(username, String(values.password));
    } catch (error) {
      const known = loginProblem(error);
      if (!known) return handleError(error);
      return setProblem(known);
    }
    signedInAgain();
  };

  return (
    <article ref={box}>
      <h3 id="reauth-title">{t(phase === 'signin' ? 'reauth.title' : 'reauth.resendTitle')}</h3>
      {phase === 'signin' ? (
        <>
          <p data-test="reauth-reason">{t(reason === 'passwordChanged' ? 'reauth.passwordChanged' : 'reauth.expired')}</p>
          <Form fields={fields} initial={{ username }} anyRole submitText={t('login.submit')} onSubmit={onSignIn} test="reauth-form"
            actions={<button type="button" class="secondary outline" data-test="reauth-sign-out" onClick={giveUp}>{t('header.logout')}</button>}>
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
