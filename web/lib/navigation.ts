/**
 * Hash navigation for the whole console: the route and its query both live in the hash
 * (`/#/clients?page=2`), never in a query string before it, and leaving a page with unsaved edits
 * asks first ('Changes that you made may not be saved.'). wouter's own hash location keeps the
 * query before the hash (`/?page=2#/clients`), where it outlives the page it belongs to.
 */
import { createElement, lazy, useLayoutEffect, useSyncExternalStore, type ComponentType } from 'react';
import { confirm } from './confirm.ts';
import { t } from './i18n.ts';

const dirty = new Set<symbol>();
const HASH_PREFIX = /^#?\/?/;

/** The hash route split into path and query: `#/users?page=2` → `['/users', 'page=2']`. */
function hashRoute(): [string, string] {
  const raw = location.hash.replace(HASH_PREFIX, '');
  const at = raw.indexOf('?');
  const path = '/' + (at < 0 ? raw : raw.slice(0, at));
  // A query still standing before the hash (a link from outside) counts until `cleanUrl` moves it.
  const query = at < 0 ? location.search.replace(/^\?/, '') : raw.slice(at + 1);
  return [path, query];
}

/** The current route path with its query, e.g. `/users?page=2`. */
export function currentPath(): string {
  const [path, query] = hashRoute();
  return query ? `${path}?${query}` : path;
}

/** The current route's query, e.g. `page=2` for `/#/users?page=2`. */
export function currentSearch(): string {
  return hashRoute()[1];
}

/**
 * Moves a query string standing before the hash into the hash route
 * (`/?type=mqtt#/rule/source/create` → `/#/rule/source/create?type=mqtt`) without a history entry;
 * a query the hash route already has wins. Called once at start; `navigate` never writes one.
 */
export function cleanUrl() {
  if (!location.search) return;
  history.replaceState(history.state, '', location.pathname + '#' + currentPath());
}

/** Writes `to` into the hash (dropping any query before it) and tells the router. */
function go(to: string, replace = false) {
  const oldURL = location.href;
  const route = '/' + to.replace(HASH_PREFIX, '').replace(/\?$/, '');
  history[replace ? 'replaceState' : 'pushState'](null, '', location.pathname + '#' + route);
  const init = { oldURL, newURL: location.href };
  dispatchEvent(typeof HashChangeEvent === 'function' ? new HashChangeEvent('hashchange', init) : new Event('hashchange'));
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
  go(to, options.replace);
  return true;
}

/**
 * Who follows the location: every link and route of the page. One listener of the window tells
 * them all; a listener each put every navigation's event through hundreds of them.
 */
const followers = new Set<() => void>();
const moved = () => {
  for (const follower of [...followers]) follower();
};

function subscribe(onChange: () => void) {
  if (followers.size === 0) {
    addEventListener('hashchange', moved);
    addEventListener('popstate', moved);
  }
  followers.add(onChange);
  return () => {
    followers.delete(onChange);
    if (followers.size > 0) return;
    removeEventListener('hashchange', moved);
    removeEventListener('popstate', moved);
  };
}

/** wouter location hook with the guarded navigate and the hash's query, for `<Router hook={…}>`. */
export function useGuardedLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const path = useSyncExternalStore(subscribe, () => hashRoute()[0]);
  return [path, (to, options) => void navigate(to, options)];
}
useGuardedLocation.hrefs = (href: string) => '#' + href;
/** wouter's `useSearch` reads the query from the hash through this. */
useGuardedLocation.searchHook = () => useSyncExternalStore(subscribe, currentSearch);

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

/**
 * Loads a screen's chunk (or the shell's), failing after 120 s with code `CHUNK_TIMEOUT` (spec
 * part1 §9: chunk load time-out 120000 ms).
 */
export const CHUNK_TIMEOUT_MS = 120_000;
export function withTimeout<T>(load: () => Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error('chunk timeout'), { code: 'CHUNK_TIMEOUT' })), ms);
    load().then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}

/**
 * A lazy component whose chunk can be asked for ahead (`preload`, with the time-out above). Once
 * the chunk is in, the component renders in its parent's pass. `lazy` alone suspends on its first
 * render even then (a dynamic import resolves a task later), and the frame in between shows the
 * fallback: after sign-in, the shell painted once around a loading screen before the overview.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> & { preload(): Promise<void> } {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () => (loading ??= withTimeout(load).then((module) => {
    loaded = module.default;
  }, (error: unknown) => {
    // A later preload tries again; the lazy fallback below keeps its failure for the error boundary.
    loading = undefined;
    throw error;
  }));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded as ComponentType<P> })));
  const Component = (props: P) => createElement((loaded ?? Lazy) as ComponentType<P>, props);
  return Object.assign(Component, { preload });
}
