/**
 * What only some sign-ins need, loaded by the login page when the broker first asks for it: the
 * MFA code step (the hint, the first-time setup with the secret as text and as a QR code drawn by
 * MfaQr.tsx, the code form, their styles) and the texts of the password-expiry prompt.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ComponentChildren, ComponentType } from 'preact';
import { defineMessages, t } from '../lib/i18n.ts';
import type { MfaPrompt } from '../lib/session.ts';
import { addStyleSheet } from '../lib/styles.ts';
import type { Rule } from '../lib/rules.ts';
import { Form } from '../ui/Form.tsx';
import type { FieldDecl } from '../ui/resource.ts';

export const messages = defineMessages({
  'login.mfaTitle': { zh: '双因素认证', en: 'Two-factor authentication' },
  'login.mfaHint': { zh: '请输入身份验证器应用中显示的 6 位验证码。', en: 'Enter the 6-digit code your authenticator app shows.' },
  'login.mfaSetupHint': {
    zh: '此账户需要双因素认证。请用身份验证器应用（如 Google Authenticator、Microsoft Authenticator）扫描二维码，或手动输入下面的密钥，然后输入应用显示的 6 位验证码。',
    en: 'This account needs two-factor authentication. Scan the QR code with an authenticator app (such as Google Authenticator or Microsoft Authenticator), or type in the key below, then enter the 6-digit code it shows.',
  },
  'login.mfaSecret': { zh: '密钥', en: 'Key' },
  'login.mfaQr': { zh: '用身份验证器应用扫描的二维码', en: 'QR code for an authenticator app' },
  'login.mfaCode': { zh: '验证码', en: 'Code' },
  'login.mfaCodeRule': { zh: '验证码为 6 位数字', en: 'The code is 6 digits' },
  'login.mfaWrong': { zh: '验证码错误或已过期，请输入应用当前显示的验证码', en: 'The code is wrong or has expired: enter the one your app shows now' },
  'login.expiresIn': {
    zh: '距密码必须修改还剩 {{days}} 天。请现在修改，或稍后在 管理 > 用户 中修改。',
    en: 'Days left before your password must change: {{days}}. Change it now, or later under Management > Users.',
  },
  'login.expired': { zh: '您的密码已过期，请修改密码。', en: 'Your password has expired: change it now.' },
  'login.expiryTitle': { zh: '修改密码', en: 'Change your password' },
});

/** The setup step: the QR code on its white quiet zone, the key to type in. */
const CSS = `.mfa-setup { display: flex; flex-direction: column; align-items: center; gap: 0.5rem; margin-bottom: 1rem; }
.mfa-qr { width: 176px; height: 176px; background: #fff; border-radius: var(--pico-border-radius); }
.mfa-secret { font-size: 0.95em; letter-spacing: 0.05em; word-break: break-all; user-select: all; }`;

/** Authenticator apps paste codes with spaces ("123 456"); only the digits count. */
const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
const sixDigits: Rule = (value) => (/^\d{6}$/.test(digits(value)) ? undefined : t('login.mfaCodeRule'));

const codeFields: FieldDecl[] = [
  { name: 'code', label: 'login.mfaCode', rules: [sixDigits], autoComplete: 'one-time-code', inputMode: 'numeric' },
];

/** The QR code of the setup step, loaded only when a setup secret arrives. */
function MfaQr(props: { uri: string }) {
  const [Drawn, setDrawn] = useState<ComponentType<{ uri: string }> | null>(null);
  useEffect(() => {
    void import('./MfaQr.tsx').then((m) => setDrawn(() => m.MfaQr), () => undefined);
  }, []);
  return <div class="mfa-qr" role="img" aria-label={t('login.mfaQr')} data-test="mfa-qr">{Drawn && <Drawn uri={props.uri} />}</div>;
}

/**
 * The code step, of the login page and of the re-login dialog: `onCode` gets the six digits;
 * `onBack` returns to the password; `actions` go beside Back in the action row (the dialog's Sign
 * out; on the page Back stands alone above the submit). Any role
 * submits it: a viewer signing in again over the screen too.
 */
export function MfaStep({ mfa, username, problem, onCode, onBack, actions }: {
  mfa: MfaPrompt | null; username: string; problem: string; onCode: (code: string) => Promise<void>; onBack: () => void; actions?: ComponentChildren;
}) {
  addStyleSheet('mfa-styles', CSS);
  // Typing starts in the code, on the page and in the dialog. A layout effect: the focus moves
  // with the render, so no frame shows the field without it (a key pressed then was lost).
  const hint = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => hint.current?.parentElement?.querySelector<HTMLInputElement>('input[name=code]')?.focus(), []);
  const back = <button type="button" class={actions ? 'secondary outline' : 'secondary outline skip'} data-test="mfa-back" onClick={onBack}>{t('common.back')}</button>;
  const setupUri = mfa?.secret ? `otpauth://totp/${encodeURIComponent(`EMQX:${username}`)}?secret=${mfa.secret}&issuer=EMQX` : '';
  return (
    <>
      <p data-test="mfa-hint" ref={hint}>{t(mfa?.secret ? 'login.mfaSetupHint' : 'login.mfaHint')}</p>
      {mfa?.secret && (
        <div class="mfa-setup">
          <MfaQr uri={setupUri} />
          <p>{t('login.mfaSecret')}: <code class="mfa-secret" data-test="mfa-secret">{mfa.secret.replace(/(.{4})(?=.)/g, '$1 ')}</code></p>
        </div>
      )}
      <Form fields={codeFields} anyRole submitText={t('login.submit')} onSubmit={(values) => onCode(digits(values.code))} test="mfa-form" actions={actions && <>{back}{actions}</>}>
        {problem && <p class="field-error" role="alert" data-test="login-error">{problem}</p>}
        {!actions && back}
      </Form>
    </>
  );
}
