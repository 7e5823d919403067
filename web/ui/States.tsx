/** The loading, empty and error states every screen shows (DESIGN.md §7). */
import { errorText } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';

export function Loading() {
  return <p class="state" aria-busy="true" data-test="state-loading">{t('common.loading')}</p>;
}

export function Empty({ text }: { text?: string }) {
  return <p class="state muted" data-test="state-empty">{text ?? t('common.noData')}</p>;
}

export function Failed({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="state state-error" role="alert" data-test="state-error">
      <p>{t('common.loadFailed')}: {errorText(error)}</p>
      {retry && <button type="button" class="secondary" onClick={retry} data-test="state-retry">{t('common.retry')}</button>}
    </div>
  );
}
