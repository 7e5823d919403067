/**
 * The login form the build draws into index.html, once per language (build/prerender.mjs), of
 * which the boot script (web/boot.ts) shows the page language's when no user is stored: a form
 * is visible before any module has loaded. When the console's login page first renders, its own
 * form takes the drawn one's place with what was typed, the focus and the caret; with a user
 * stored, the console removes the drawn forms unseen.
 */
import { writeSettings } from './storage.ts';

/** The class of each drawn form's wrapper; its `data-lang` is its language. */
export const BOOT_FORM_CLASS = 'boot-login';

/** The class of each drawn form's notice that the console failed to load (hidden until then). */
export const BOOT_FAILED_CLASS = 'boot-failed';

/** The boot script's, when the console's entry module failed to load: shows the drawn forms' notice. */
export function showBootFailure() {
  for (const notice of document.querySelectorAll<HTMLElement>(`.${BOOT_FAILED_CLASS}`)) notice.hidden = false;
}

/** What can take the focus on the login page; the drawn page and the console's have the same, in the same order. */
const FOCUSABLE = 'a[href], button, input, select, summary, textarea';

/** Set on <html> by the boot script when a drawn form was submitted (Enter, its button). */
const SUBMITTED = 'data-boot-submit';

export interface BootFormState {
  /** Each named input's value. */
  values: Record<string, string>;
  /** Which of the form's focusable elements had the focus (by order), and an input's selection. */
  focus?: { index: number; start: number | null; end: number | null };
  /** Whether it was submitted: the console's form submits these values once it shows. */
  submitted: boolean;
}

/** The drawn page's element an event came from, if it came from one. */
const drawnTarget = (event: Event) =>
  event.target instanceof Element && event.target.closest(`.${BOOT_FORM_CLASS}`) ? event.target : null;

/**
 * The boot script's: what the drawn page does before the console takes over. A submit goes
 * nowhere (its `method="dialog"` already sees to that) and is noted, for the console's form to
 * submit when it takes over. A language chosen is saved and the page reloads in it, as the
 * console's language select does.
 */
export function watchBootForm() {
  document.addEventListener('submit', (event) => {
    if (!drawnTarget(event)) return;
    event.preventDefault();
    document.documentElement.setAttribute(SUBMITTED, '');
  }, true);
  document.addEventListener('change', (event) => {
    const select = drawnTarget(event);
    if (!(select instanceof HTMLSelectElement) || !select.classList.contains('login-lang')) return;
    writeSettings({ lang: select.value === 'zh' ? 'zh' : 'en' });
    location.reload();
  }, true);
}

/** What was typed into the shown drawn form (null when none is shown); reads only. */
export function readBootForm(): BootFormState | null {
  if (typeof document === 'undefined') return null;
  const lang = document.documentElement.getAttribute('data-boot');
  const shown = [...document.querySelectorAll<HTMLElement>(`.${BOOT_FORM_CLASS}`)].find((form) => form.getAttribute('data-lang') === lang);
  if (!shown) return null;
  const values: Record<string, string> = {};
  for (const input of shown.querySelectorAll<HTMLInputElement>('input[name]')) values[input.name] = input.value;
  const active = document.activeElement;
  const index = [...shown.querySelectorAll(FOCUSABLE)].findIndex((el) => el === active);
  const input = active instanceof HTMLInputElement ? active : null;
  const focus = index >= 0 ? { index, start: input?.selectionStart ?? null, end: input?.selectionEnd ?? null } : undefined;
  return { values, focus, submitted: document.documentElement.hasAttribute(SUBMITTED) };
}

/** Removes the drawn forms (the console's own is shown or about to be). */
export function dropBootForm() {
  if (typeof document === 'undefined') return;
  for (const form of document.querySelectorAll(`.${BOOT_FORM_CLASS}`)) form.remove();
  document.documentElement.removeAttribute('data-boot');
  document.documentElement.removeAttribute(SUBMITTED);
}

/**
 * Carries on in the console's login page (`container`) where the drawn one was: the focus on the
 * same element, an input's selection, and a submit that was asked for.
 */
export function continueBootForm(container: HTMLElement | null, state: BootFormState | null) {
  const focus = state?.focus;
  const target = focus && container?.querySelectorAll<HTMLElement>(FOCUSABLE)[focus.index];
  if (focus && target) {
    target.focus();
    if (target instanceof HTMLInputElement && focus.start !== null && focus.end !== null) target.setSelectionRange(focus.start, focus.end);
  }
  if (state?.submitted) container?.querySelector('form')?.requestSubmit();
}
