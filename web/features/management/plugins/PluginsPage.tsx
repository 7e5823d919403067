/** The plugin list: the declaration rendered by the kit, and a note that the order is the boot order. */
import { t } from '../../../lib/i18n.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { plugins } from './plugins.tsx';

export default function PluginsPage() {
  return (
    <>
      <ResourcePage decl={plugins} />
      <p class="muted page-note" data-test="plugins-note">{t('plugins.order')}</p>
    </>
  );
}
