/** The loading, empty and error states every screen shows (DESIGN.md §7). */
import { Link } from 'wouter';
import { isNotFound } from '../lib/api.ts';
import { errorDetail, errorText } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';

export function Loading() {
  return <p class="state" aria-busy="true" data-test="state-loading">{t('common.loading')}</p>;
}

export function Empty({ text }: { text?: string }) {
  return <p class="state muted" data-test="state-empty">{text ?? t('common.noData')}</p>;
}

/**
 * What a detail screen says when its object does not exist (any more, e.g. a bookmark to one
 * deleted since): that, and the way back to its list. A retry could not help.
 */
export interface Missing {
  text: string;
  /** The list's route and its i18n title. */
  back: string;
  backTitle: string;
  /** `data-test` of the state; `state-not-found` unless given. */
  test?: string;
}

export function NotFound({ text, back, backTitle, test }: Missing) {
  return (
    <section class="state" data-test={test ?? 'state-not-found'}>
      <p>{text}</p>
      <Link href={back} data-test="state-back">{t('common.backTo', { page: t(backTitle) })}</Link>
    </section>
  );
}

/** The raw error as the server sent it, folded under "Details" (nothing for a failure without an answer). */
export function ErrorDetail({ error }: { error: unknown }) {
  const detail = errorDetail(error);
  return detail ? <details class="toast-detail" data-test="error-detail"><summary>{t('common.detail')}</summary><code>{detail}</code></details> : null;
}

/** A failed load with its retry; with `missing`, a 404 shows NotFound instead. */
export function Failed({ error, retry, missing }: { error: unknown; retry?: () => void; missing?: Missing }) {
  if (missing && isNotFound(error)) return <NotFound {...missing} />;
  return (
    <div class="state state-error" role="alert" data-test="state-error">
      <p>{t('common.loadFailed')}: {errorText(error)}</p>
      <ErrorDetail error={error} />
      {retry && <button type="button" class="secondary" onClick={retry} data-test="state-retry">{t('common.retry')}</button>}
    </div>
  );
}
