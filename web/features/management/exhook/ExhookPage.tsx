/** The ExHook list: the declaration rendered by the kit, and a note that the order is the call order. */
import { t } from '../../../lib/i18n.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { exhooks } from './exhook.tsx';

export default function ExhookPage() {
  return (
    <>
      <ResourcePage decl={exhooks} />
      <p class="muted page-note" data-test="exhooks-note">{t('exhook.order')}</p>
    </>
  );
}
