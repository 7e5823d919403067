/** The authorization sources screen: the declaration, and a note on how the order is used. */
import { t } from '../../../lib/i18n.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { authorization } from './authorization.tsx';

export default function AuthorizationPage() {
  return (
    <>
      <ResourcePage decl={authorization} />
      <p class="muted page-note">{t('authz.orderNote')}</p>
    </>
  );
}
