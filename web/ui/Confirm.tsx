/**
 * The confirmation dialog behind `lib/confirm.ts`. Cancel has the focus, so Enter (or Escape)
 * answers no and a destructive action needs a deliberate move to its button; Tab stays inside
 * the dialog, and the focus goes back to whatever opened it.
 */
import { useLayoutEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { answer, confirmState } from '../lib/confirm.ts';
import { t } from '../lib/i18n.ts';

export function Confirm() {
  const { current } = useSnapshot(confirmState);
  const box = useRef<HTMLElement>(null);
  // A layout effect: the focus moves with the render, leaving no moment on the page's body.
  useLayoutEffect(() => {
    if (!current) return;
    const opener = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>('[data-test=confirm-cancel]')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopImmediatePropagation();
        answer(false);
      } else if (event.key === 'Tab') {
        const buttons = [...(box.current?.querySelectorAll<HTMLElement>('button') ?? [])];
        const at = buttons.indexOf(document.activeElement as HTMLElement);
        event.preventDefault();
        buttons[(at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length]?.focus();
      }
    };
    // Capture: Escape here must not also close a drawer underneath.
    addEventListener('keydown', onKey, true);
    return () => {
      removeEventListener('keydown', onKey, true);
      if (opener?.isConnected && !box.current?.contains(opener)) opener.focus();
    };
  }, [current]);
  if (!current) return null;
  return (
    <dialog open class="confirm" aria-modal="true" aria-labelledby="confirm-text" data-test="confirm-dialog">
      <article ref={box}>
        <p id="confirm-text">{current.text}</p>
        <footer>
          <button type="button" class="secondary" data-test="confirm-cancel" onClick={() => answer(false)}>
            {t('common.cancel')}
          </button>
          <button type="button" class={current.danger ? 'danger' : ''} data-test="confirm-ok" onClick={() => answer(true)}>
            {current.okText ?? t('common.confirm')}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
