/**
 * Shows one screen's lazy chunk with a loading state, and an error with retry when the chunk
 * fails or times out (spec part1 §8: 120 s). The error boundary also catches render crashes.
 * A screen the broker does not have (`Screen.requires`) says so instead of loading.
 */
import { Suspense } from 'react';
import { useErrorBoundary } from 'preact/hooks';
import { t } from '../lib/i18n.ts';
import { Loading } from '../ui/States.tsx';
import { available, components } from './routes.ts';
import type { Screen } from '../lib/feature.ts';

export function ScreenHost({ screen, params }: { screen: Screen; params: Record<string, string | undefined> }) {
  const [error] = useErrorBoundary((e) => console.error(e));
  if (error) {
    const timeout = (error as { code?: string }).code === 'CHUNK_TIMEOUT';
    return (
      <div class="state state-error" role="alert" data-test="screen-error">
        <p>{t(timeout ? 'common.chunkTimeout' : 'common.chunkFailed')}</p>
        <button type="button" class="secondary" onClick={() => location.reload()}>{t('common.retry')}</button>
      </div>
    );
  }
  if (!available(screen)) {
    return (
      <div class="state" role="status" data-test="screen-unavailable">
        <p>{t('common.unavailable')}</p>
      </div>
    );
  }
  const Component = components.get(screen.path)!;
  return (
    <Suspense fallback={<Loading />}>
      <Component {...params} />
    </Suspense>
  );
}
