/**
 * Changing one's own password from the user menu: old, new and confirmation in a dialog, `POST
 * /users/{name}/change_pwd`. The broker then ends every login of the user (emqx_dashboard_admin.erl
 * change_password_hash/2 at v5.8.9), so the sign-in dialog follows at once with the sentence that
 * says why, as after a change on the Users page; the screen stays as it was.
 */
import { useRef } from 'react';
import { t } from '../lib/i18n.ts';
import { askSignIn } from '../lib/reauth.ts';
import { passwordRequired } from '../lib/rules.ts';
import { changePassword, session } from '../lib/session.ts';
import { Form } from '../ui/Form.tsx';
import { useModal } from '../ui/useModal.ts';
import type { FieldDecl } from '../ui/resource.ts';
import { changeFields } from './Login.tsx';

const fields: FieldDecl[] = [
  { name: 'old_pwd', label: 'header.oldPassword', kind: 'password', rules: [passwordRequired], autoComplete: 'current-password' },
  ...changeFields,
];

export function PasswordDialog({ onClose }: { onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  useModal(box, onClose);
  const submit = async (values: Record<string, unknown>) => {
    await changePassword(session.username, String(values.old_pwd), String(values.new_pwd));
    onClose();
    void askSignIn('passwordChanged');
  };
  return (
    <dialog open class="confirm" aria-modal="true" aria-labelledby="password-title" data-test="password-dialog">
      <article ref={box}>
        <h3 id="password-title">{t('header.changePassword')}</h3>
        <Form fields={fields} anyRole submitText={t('common.confirm')} onSubmit={submit} onCancel={onClose} test="password-form" />
      </article>
    </dialog>
  );
}
