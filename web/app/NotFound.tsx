/** The page for any unknown path. */
import { Link } from 'wouter';
import { t } from '../lib/i18n.ts';

export function NotFound() {
  return (
    <section class="not-found" data-test="not-found">
      <h2>404</h2>
      <p>{t('notFound.title')}</p>
      <Link href="/dashboard/overview">{t('notFound.back')}</Link>
    </section>
  );
}
