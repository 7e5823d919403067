/** Renders the console (or any node) into happy-dom and waits for what the user would see. */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { VNode } from 'preact';
import '../../web/lib/messages.ts';
import '../../web/app/messages.ts';
import '../../web/app/shellMessages.ts';
import { setLocale } from '../../web/lib/i18n.ts';
import { setReloader } from '../../web/lib/settings.ts';
import { clearSession, restoreSession, session } from '../../web/lib/session.ts';
import { saveUser } from '../../web/lib/storage.ts';
import { toasts } from '../../web/lib/toasts.ts';
import { confirmState } from '../../web/lib/confirm.ts';
import { dropWaiting } from '../../web/lib/reauth.ts';

let root: HTMLElement | undefined;
export const reloads: number[] = [];
setReloader(() => reloads.push(Date.now()));

/** Resets browser storage, session, toasts and dialogs, and goes to `path` (hash route). */
export function reset(path = '/') {
  if (root) render(null, root);
  localStorage.clear();
  sessionStorage.clear();
  clearSession();
  toasts.items.splice(0);
  confirmState.current = null;
  dropWaiting();
  setLocale('en');
  history.replaceState(null, '', `/#${path}`);
}

/**
 * `reset` at `to`, then logged in as admin (to the broker release of `broker`, as a login answer
 * names it, when given). A `?query` in `to` is kept before the hash, where the console's URL state
 * lives (web/lib/query.ts): `signedInAt('/authentication/detail/x?tab=users')`.
 */
export async function signedInAt(to: string, broker?: { version: string; edition: string }) {
  const [path, search] = to.split('?');
  reset(path);
  if (search) history.replaceState(null, '', `/?${search}#${path}`);
  await saveUser({ username: 'admin', token: 'tok', version: broker?.version });
  await restoreSession();
  if (broker) session.edition = broker.edition;
}

/** Unmounts whatever is mounted (stops its timers and requests); call from `test.after`. */
export function cleanup() {
  if (root) render(null, root);
  root?.remove();
  root = undefined;
}

/** Mounts `node` in a fresh container; what was mounted before is unmounted (its timers and watchers end). */
export async function mount(node: VNode) {
  if (root) await act(async () => render(null, root!));
  root?.remove();
  root = document.createElement('div');
  document.body.append(root);
  await act(async () => render(node, root!));
  return root;
}

/** Waits until `check` returns something truthy (polling), failing after `ms`. */
export async function waitFor<T>(check: () => T, ms = 3000): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - start > ms) throw new Error(`waitFor timed out: ${check.toString()}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
}

/** Text of the page. */
export const text = () => document.body.textContent ?? '';

/** The element with `data-test=name`. */
export const byTest = <E extends Element = HTMLElement>(name: string) => document.querySelector<E>(`[data-test="${name}"]`);

/** Types into an input as a user would (input event). */
export async function type(el: Element | null, value: string) {
  if (!el) throw new Error('no element to type into');
  await act(async () => {
    (el as HTMLInputElement).value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Clicks an element and lets effects run. */
export async function click(el: Element | null) {
  if (!el) throw new Error('no element to click');
  await act(async () => {
    (el as HTMLElement).click();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/**
 * Lets what an event dispatched outside act() did render: the microtasks preact's updates run
 * in, and no later frame or timer (where an effect, unlike a layout effect, runs).
 */
export async function microtasks() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** A key pressed on an element: keydown, bubbling (`init` adds modifiers); effects run. */
export async function press(el: Element | null, key: string, init: KeyboardEventInit = {}) {
  if (!el) throw new Error('no element for the key');
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** A pointer pressed on an element, as a click starts (a click outside a popover closes it). */
export async function pointerDown(el: Element | null) {
  if (!el) throw new Error('no element to press');
  await act(async () => {
    el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** Submits a form. */
export async function submit(form: Element | null) {
  if (!form) throw new Error('no form');
  await act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** The current hash route with its query (`/login?to=%2Fusers`). */
export const route = () => location.hash.replace(/^#/, '') + location.search;
