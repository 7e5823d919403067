/**
 * The backup screen: the declared list, and an upload drawer (opened by `?upload=1`) that sends
 * an exported archive as the multipart field `filename` to `POST /data/files` with a progress bar.
 */
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { touch } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { upload } from '../../../lib/upload.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { UploadProgress } from '../../../ui/UploadProgress.tsx';
import { backups } from './backup.tsx';

export default function BackupPage() {
  const [query, setQuery] = useQuery();
  const close = () => setQuery({ upload: undefined });
  const done = () => {
    close();
    toast(t('backup.uploaded'));
    touch('backup');
  };
  return (
    <>
      <ResourcePage decl={backups} />
      {query.upload === '1' && (
        <Drawer title={t('backup.upload')} onClose={close} test="backup-upload-drawer">
          <p class="muted">{t('backup.uploadTip')}</p>
          <UploadProgress extensions={['tar.gz']} submitText="backup.upload" test="backup-file" onDone={done}
            upload={(file, onProgress, signal) => upload('/data/files', 'filename', file, { onProgress, signal })} />
        </Drawer>
      )}
    </>
  );
}
