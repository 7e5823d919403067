/**
 * The login form the build draws into index.html, once per language (build/prerender.mjs), of
 * which the boot script (web/boot.ts) shows the page language's when no user is stored: a form
 * is visible before any module has loaded. When the console's login page first renders, its own
 * form takes the drawn one's place with what was typed and where the caret was; with a user
 * stored, the console removes the drawn forms unseen.
 */

/** The class of each drawn form's wrapper; its `data-lang` is its language. */
export const BOOT_FORM_CLASS = 'boot-login';

/** The class of each drawn form's notice that the console failed to load (hidden until then). */
export const BOOT_FAILED_CLASS = 'boot-failed';

/** The boot script's, when the console's entry module failed to load: shows the drawn forms' notice. */
export function showBootFailure() {
  for (const notice of document.querySelectorAll<HTMLElement>(`.${BOOT_FAILED_CLASS}`)) notice.hidden = false;
}

/** Set on <html> by the boot script when a drawn form was submitted (Enter, its button). */
const SUBMITTED = 'data-boot-submit';

export interface BootFormState {
  /** Each named input's value. */
  values: Record<string, string>;
  /** The input that had the focus, and its selection. */
  focus?: { name: string; start: number | null; end: number | null };
  /** Whether it was submitted: the console's form submits these values once it shows. */
  submitted: boolean;
}

/**
 * The boot script's: keeps a submit of a drawn form from going anywhere (its `method="dialog"`
 * already does) and notes it, for the console's form to submit when it takes over.
 */
export function noteBootSubmit() {
  document.addEventListener('submit', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest(`.${BOOT_FORM_CLASS}`)) return;
    event.preventDefault();
    document.documentElement.setAttribute(SUBMITTED, '');
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
  const focus = active instanceof HTMLInputElement && active.name && shown.contains(active)
    ? { name: active.name, start: active.selectionStart, end: active.selectionEnd }
    : undefined;
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
 * Carries on in the console's form inside `container` where the drawn one was: the focus and
 * selection on the same-named input, and a submit that was asked for.
 */
export function continueBootForm(container: HTMLElement | null, state: BootFormState | null) {
  const focus = state?.focus;
  const input = focus && container?.querySelector<HTMLInputElement>(`input[name="${CSS.escape(focus.name)}"]`);
  if (focus && input) {
    input.focus();
    if (focus.start !== null && focus.end !== null) input.setSelectionRange(focus.start, focus.end);
  }
  if (state?.submitted) container?.querySelector('form')?.requestSubmit();
}
