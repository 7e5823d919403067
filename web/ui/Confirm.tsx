/** The confirmation dialog behind `lib/confirm.ts`; Escape or Cancel answers no. */
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { answer, confirmState } from '../lib/confirm.ts';
import { t } from '../lib/i18n.ts';

export function Confirm() {
  const { current } = useSnapshot(confirmState);
  const okRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!current) return;
    okRef.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && answer(false);
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [current]);
  if (!current) return null;
  return (
    <dialog open class="confirm" aria-modal="true" data-test="confirm-dialog">
      <article>
        <p>{current.text}</p>
        <footer>
          <button type="button" class="secondary" data-test="confirm-cancel" onClick={() => answer(false)}>
            {t('common.cancel')}
          </button>
          <button type="button" ref={okRef} class={current.danger ? 'danger' : ''} data-test="confirm-ok" onClick={() => answer(true)}>
            {current.okText ?? t('common.confirm')}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
