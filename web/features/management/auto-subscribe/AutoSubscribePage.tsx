/** The Auto subscribe screen: the declaration rendered by the kit, and when topics apply. */
import { t } from '../../../lib/i18n.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { autoSubscribe } from './autoSubscribe.ts';

export default function AutoSubscribePage() {
  return (
    <>
      <ResourcePage decl={autoSubscribe} />
      <p class="muted page-note" data-test="auto-subscribe-note">{t('autoSubscribe.note')}</p>
    </>
  );
}
