/**
 * A side panel for forms and details; Escape and the close button call `onClose`. It takes the
 * focus when it opens and gives it back to the control that opened it when it closes, however
 * it closes (Escape, the button, the backdrop, or the screen closing it after a save): useModal.
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'react';
import { t } from '../lib/i18n.ts';
import { Icon } from './Icon.tsx';
import { useModal } from './useModal.ts';

export function Drawer(props: { title: string; onClose: () => void; children: ComponentChildren; test?: string }) {
  const panel = useRef<HTMLElement>(null);
  useModal(panel, () => props.onClose(), '.drawer-body :is(input, select, textarea)');
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
