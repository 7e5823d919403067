/**
 * A side panel for forms and details; Escape and the close button call `onClose`. It takes the
 * focus when it opens and gives it back to the control that opened it when it closes, however
 * it closes (Escape, the button, the backdrop, or the screen closing it after a save).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'react';
import { t } from '../lib/i18n.ts';
import { Icon } from './Icon.tsx';

export function Drawer(props: { title: string; onClose: () => void; children: ComponentChildren; test?: string }) {
  const panel = useRef<HTMLElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  // A layout effect: the focus moves and Escape is heard in the update that shows the panel. An
  // effect runs after the next frame, and a key pressed before it went to the opener, or nowhere.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    // The first field of the body, else the close button, so typing can start at once.
    const first = panel.current?.querySelector<HTMLElement>('.drawer-body :is(input, select, textarea)');
    (first ?? panel.current?.querySelector<HTMLElement>('button'))?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose.current();
      if (event.key !== 'Tab' || event.defaultPrevented || !panel.current) return;
      // aria-modal: Tab and Shift+Tab go round the panel's own controls.
      const all = [...panel.current.querySelectorAll<HTMLElement>('a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])')];
      const edge = event.shiftKey ? all[0] : all[all.length - 1];
      if (document.activeElement === edge || !panel.current.contains(document.activeElement)) {
        event.preventDefault();
        (event.shiftKey ? all[all.length - 1] : all[0])?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      // After the panel is gone; an opener that went with it (a deleted row) is skipped.
      const restore = () => {
        if (opener && opener !== document.body && opener.isConnected) opener.focus();
      };
      restore();
      // The screen may re-render as the panel goes (its toolbar, a reload) and drop the focus, or make
      // the opener focusable only then: once more after that, unless the focus went elsewhere on purpose.
      setTimeout(() => {
        if (!document.activeElement || document.activeElement === document.body) restore();
      }, 0);
    };
  }, []);
  return (
    <div class="drawer-backdrop" onClick={(event) => event.target === event.currentTarget && props.onClose()}>
      <section class="drawer" role="dialog" aria-modal="true" aria-label={props.title} ref={panel} data-test={props.test}>
        <header>
          <h3>{props.title}</h3>
          <button type="button" class="icon-button" aria-label={t('common.close')} data-test="drawer-close" onClick={props.onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div class="drawer-body">{props.children}</div>
      </section>
    </div>
  );
}
