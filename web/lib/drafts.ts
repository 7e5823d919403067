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

/**
 * The storage key of the draft `name` on the current screen (its route without the query). Taken
 * once, when the form mounts: when it unmounts the route may already be the next screen's.
 */
export const draftKey = (name: string) => `${PREFIX}${currentPath().split('?')[0]}:${name}`;

function storage(): Storage | undefined {
  try {
    return sessionStorage;
  } catch {
    // Storage refused (a privacy setting): forms work without drafts.
    return undefined;
  }
}

/** The draft under `key` (`draftKey`), if one is kept. */
export function readDraft<T = Record<string, unknown>>(key: string): T | undefined {
  try {
    const text = storage()?.getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `value` as the draft under `key`; `undefined` forgets it. */
export function writeDraft(key: string, value: unknown) {
  const store = storage();
  if (!store) return;
  try {
    if (value === undefined) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
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
  const [key] = useState(() => draftKey(name));
  const [value, setValue] = useState<T>(() => readDraft<{ v: T }>(key)?.v ?? initial);
  useLayoutEffect(() => writeDraft(key, { v: value }), [value]);
  useLayoutEffect(() => () => writeDraft(key, undefined), []);
  return [value, setValue];
}
