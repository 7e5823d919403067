/** The authentication chain screen: the declaration, and a note on how the order is used. */
import { t } from '../../../lib/i18n.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { authentication } from './authentication.tsx';

export default function AuthenticationPage() {
  return (
    <>
      <ResourcePage decl={authentication} />
      <p class="muted page-note">{t('authn.orderNote')}</p>
    </>
  );
}
