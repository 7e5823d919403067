/**
 * Hash navigation for the whole console, wrapping wouter's hash location so that leaving a page
 * with unsaved edits asks first ('Changes that you made may not be saved.') and so that a path
 * without a query clears the previous page's query (wouter keeps it otherwise).
 */
import { navigate as hashNavigate, useHashLocation } from 'wouter/use-hash-location';
import { useLayoutEffect } from 'react';
import { confirm } from './confirm.ts';
import { t } from './i18n.ts';

const dirty = new Set<symbol>();

/** The current route path with its query, e.g. `/users?page=2`. */
export function currentPath(): string {
  const path = '/' + location.hash.replace(/^#?\/?/, '');
  return path + location.search;
}

/** Whether some page has unsaved edits. */
export function hasUnsavedEdits() {
  return dirty.size > 0;
}

/**
 * Goes to `to` (`/users?page=2`); when edits are unsaved, asks first and resolves false if the
 * user stays. `force` skips the question (after saving, or when the session expired).
 */
export async function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): Promise<boolean> {
  if (!options.force && dirty.size > 0 && to !== currentPath()) {
    if (!(await confirm(t('common.unsavedChanges')))) return false;
    dirty.clear();
  }
  if (options.force) dirty.clear();
  hashNavigate(to.includes('?') ? to : `${to}?`, { replace: options.replace });
  return true;
}

/** wouter location hook with the guarded navigate, for `<Router hook={…}>`. */
export function useGuardedLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const [location] = useHashLocation();
  return [location, (to, options) => void navigate(to, options)];
}
useGuardedLocation.hrefs = (href: string) => '#' + href;

/**
 * Marks the calling page as having unsaved edits while `isDirty` holds: in-app navigation asks
 * first and closing the tab triggers the browser's own warning.
 */
export function useUnsavedGuard(isDirty: boolean) {
  // A layout effect: the guard follows the render at once, so a reload right after Save or Reset
  // (before the next frame) is not asked about changes that are gone.
  useLayoutEffect(() => {
    if (!isDirty) return;
    const id = Symbol('dirty');
    dirty.add(id);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = t('common.unsavedChanges');
    };
    addEventListener('beforeunload', onBeforeUnload);
    return () => {
      dirty.delete(id);
      removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [isDirty]);
}
