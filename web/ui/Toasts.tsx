/** Renders the notices of `lib/toasts.ts` in a live region at the top of the page. */
import { useSnapshot } from 'valtio';
import { dismiss, toasts } from '../lib/toasts.ts';
import { t } from '../lib/i18n.ts';
import { Icon } from './Icon.tsx';

export function Toasts() {
  const snap = useSnapshot(toasts);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {snap.items.map((item) => (
        <div key={item.id} class={`toast toast-${item.kind}`} data-test={`toast-${item.kind}`}>
          <span>
            {item.text}
            {item.detail && (
              <details class="toast-detail" data-test="toast-detail">
                <summary>{t('common.detail')}</summary>
                <code>{item.detail}</code>
              </details>
            )}
          </span>
          <button type="button" class="icon-button" aria-label={t('common.close')} onClick={() => dismiss(item.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
