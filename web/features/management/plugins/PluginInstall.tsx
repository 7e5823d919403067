/**
 * Installing a plugin: the package goes as the multipart field `plugin` to `POST /plugins/install`
 * (§21) with a progress bar; on success the list shows it (installed, not started).
 */
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { upload } from '../../../lib/upload.ts';
import { UploadProgress } from '../../../ui/UploadProgress.tsx';
import './messages.ts';

export default function PluginInstall() {
  const installed = () => {
    toast(t('plugins.installed'));
    touch('plugins');
    void navigate('/plugins');
  };
  return (
    <section data-test="plugin-install-page">
      <header class="page-head"><h2>{t('plugins.install')}</h2></header>
      <article class="settings-form">
        <p class="muted">{t('plugins.installTip')}</p>
        <UploadProgress extensions={['tar.gz']} submitText="plugins.install" test="plugin-upload" onDone={installed}
          upload={(file, onProgress, signal) => upload('/plugins/install', 'plugin', file, { onProgress, signal })} />
      </article>
    </section>
  );
}
