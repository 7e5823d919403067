/**
 * The open state of a popover (a menu or panel under its button): a press anywhere outside its
 * container closes it, and so does Escape inside it, which puts the focus back on its trigger,
 * as the WAI-ARIA menu button pattern asks. Attach `container` and `onKeyDown` to the element
 * holding the trigger and the popover, and `trigger` to the button.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * While `active`, a pointer press anywhere outside `ref`'s element calls `onOutside`. Listening
 * from the update that makes it active (a layout effect): an effect would start after the next
 * frame, and miss a press that comes sooner.
 */
export function usePressOutside(ref: RefObject<Element | null>, active: boolean, onOutside: () => void) {
  useLayoutEffect(() => {
    if (!active) return;
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) onOutside();
    };
    addEventListener('pointerdown', onPointer, true);
    return () => removeEventListener('pointerdown', onPointer, true);
  }, [active]);
}

export function usePopover() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  usePressOutside(container, open, () => setOpen(false));
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open || event.key !== 'Escape') return;
    // The popover answers this Escape; a drawer or dialog under it stays.
    event.stopPropagation();
    setOpen(false);
    trigger.current?.focus();
  };
  return { open, setOpen, container, trigger, onKeyDown };
}
