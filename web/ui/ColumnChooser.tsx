/**
 * Lets the user hide or show optional columns; the choice is kept per list in local storage.
 * `useColumns` returns the visible columns and the chooser element.
 */
import { useState } from 'react';
import { t } from '../lib/i18n.ts';
import { usePopover } from './usePopover.ts';
import type { Column } from './resource.ts';

const key = (name: string) => `emqx-console.columns.${name}`;

function stored(name: string): string[] | null {
  try {
    const value = JSON.parse(localStorage.getItem(key(name)) ?? 'null');
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export function useColumns<Row>(name: string, columns: Column<Row>[]) {
  const [hidden, setHidden] = useState<string[]>(() => stored(name) ?? columns.filter((c) => c.hidden).map((c) => c.key));
  const { open, setOpen, container, trigger, onKeyDown } = usePopover();
  const optional = columns.filter((c) => c.optional || c.hidden);
  const toggle = (column: string) => {
    const next = hidden.includes(column) ? hidden.filter((k) => k !== column) : [...hidden, column];
    setHidden(next);
    localStorage.setItem(key(name), JSON.stringify(next));
  };
  const chooser = optional.length === 0 ? null : (
    <div class="column-chooser" ref={container} onKeyDown={onKeyDown}>
      <button type="button" ref={trigger} class="secondary outline" aria-expanded={open} onClick={() => setOpen(!open)} data-test={`${name}-columns`}>
        {t('common.columns')}
      </button>
      {open && (
        <fieldset class="dropdown">
          {optional.map((c) => (
            <label key={c.key}>
              <input type="checkbox" checked={!hidden.includes(c.key)} onChange={() => toggle(c.key)} data-test={`column-${c.key}`} />
              {t(c.title)}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
  return { visible: columns.filter((c) => !hidden.includes(c.key)), chooser };
}
