/** A side panel for forms and details; Escape and the close button call `onClose`. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'react';
import { t } from '../lib/i18n.ts';
import { Icon } from './Icon.tsx';

export function Drawer(props: { title: string; onClose: () => void; children: ComponentChildren; test?: string }) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    // The first field of the body, else the close button, so typing can start at once.
    const first = panel.current?.querySelector<HTMLElement>('.drawer-body :is(input, select, textarea)');
    (first ?? panel.current?.querySelector<HTMLElement>('button'))?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && props.onClose();
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="drawer-backdrop" onClick={(event) => event.target === event.currentTarget && props.onClose()}>
      <section class="drawer" role="dialog" aria-modal="true" aria-label={props.title} ref={panel} data-test={props.test}>
        <header>
          <h3>{props.title}</h3>
          <button type="button" class="icon-button" aria-label={t('common.close')} onClick={props.onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div class="drawer-body">{props.children}</div>
      </section>
    </div>
  );
}
