/**
 * Drafts of open forms, kept in session storage per screen so that a reload (the tab's, or one the
 * console asks for) brings back what was typed: a form names its draft, the screen's route makes
 * it unique, and the draft goes when the form is saved, cancelled or closed. Session storage ends
 * with the tab and stays in it. Secrets never go there: the form leaves out every field of a
 * secret kind (`SECRET_KINDS`), so a password is typed again after a reload.
 */
import { useLayoutEffect, useState } from 'react';
import { currentPath } from './navigation.ts';

const PREFIX = 'emqx-draft:';

/** Field kinds whose values are never written to a draft. */
export const SECRET_KINDS = ['password', 'secret', 'cert'];

/** The storage key of the draft `name` on the current screen (its route without the query). */
const keyOf = (name: string) => `${PREFIX}${currentPath().split('?')[0]}:${name}`;

function storage(): Storage | undefined {
  try {
    return sessionStorage;
  } catch {
    // Storage refused (a privacy setting): forms work without drafts.
    return undefined;
  }
}

/** The draft `name` of the current screen, if one is kept. */
export function readDraft<T = Record<string, unknown>>(name: string): T | undefined {
  try {
    const text = storage()?.getItem(keyOf(name));
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `value` as the draft `name` of the current screen; `undefined` forgets it. */
export function writeDraft(name: string, value: unknown) {
  const store = storage();
  if (!store) return;
  try {
    if (value === undefined) store.removeItem(keyOf(name));
    else store.setItem(keyOf(name), JSON.stringify(value));
  } catch {
    // Quota exceeded: the draft is not kept, the form goes on.
  }
}

/**
 * `useState` kept as the draft `name` of the screen while the component is mounted (a wizard's
 * step and choices), so a reload comes back to it; it is forgotten when the component goes.
 * Example: `const [step, setStep] = useDraftState('authn-step', 0)`.
 */
export function useDraftState<T>(name: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readDraft<{ v: T }>(name)?.v ?? initial);
  useLayoutEffect(() => writeDraft(name, { v: value }), [value]);
  useLayoutEffect(() => () => writeDraft(name, undefined), []);
  return [value, setValue];
}
