/**
 * What a modal panel does with the keyboard (a drawer, a dialog): it takes the focus when it
 * opens (its first field, else its first button), Escape calls `onEscape`, Tab and Shift+Tab go
 * round its own controls, and when it closes, however it closes, the focus goes back to the
 * control that opened it. Of panels open over each other only the top one does this. It draws
 * nothing.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';

/** The panels open now, the newest last: only the newest hears the keys (a dialog over a drawer). */
const stack: object[] = [];

const TABBABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** Keeps the focus inside `panel` while it is mounted (see the module comment). */
export function useModal(panel: RefObject<HTMLElement | null>, onEscape: () => void, first = ':is(input, select, textarea)') {
  const escape = useRef(onEscape);
  escape.current = onEscape;
  // A layout effect: the focus moves and Escape is heard in the update that shows the panel. An
  // effect runs after the next frame, and a key pressed before it went to the opener, or nowhere.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const self = {};
    stack.push(self);
    (panel.current?.querySelector<HTMLElement>(first) ?? panel.current?.querySelector<HTMLElement>('button'))?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== self) return;
      if (event.key === 'Escape') escape.current();
      if (event.key !== 'Tab' || event.defaultPrevented || !panel.current) return;
      // aria-modal: Tab and Shift+Tab go round the panel's own controls.
      const all = [...panel.current.querySelectorAll<HTMLElement>(TABBABLE)];
      const edge = event.shiftKey ? all[0] : all[all.length - 1];
      if (document.activeElement === edge || !panel.current.contains(document.activeElement)) {
        event.preventDefault();
        (event.shiftKey ? all[all.length - 1] : all[0])?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      stack.splice(stack.indexOf(self), 1);
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
}
