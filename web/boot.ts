/**
 * The boot script: a classic script at the top of index.html's head, so it runs before the page
 * is first drawn. It puts the stored language and theme on <html> and, when no user is stored,
 * shows the login form the build drew into index.html in that language (lib/bootForm.ts), then
 * starts the console (the module index.html preloads as `data-entry`). With a drawn form shown,
 * the console starts after the frame that paints it, so the form is on screen before the
 * console's modules run; otherwise at once. It stays a few hundred bytes.
 */
import { showBootFailure, watchBootForm } from './lib/bootForm.ts';
import { afterPaint } from './lib/frames.ts';
import { htmlLang, shownTheme, withDefaults } from './lib/prefs.ts';
import { hasStoredUser, readSettings } from './lib/storage.ts';

const root = document.documentElement;
try {
  const prefs = withDefaults(readSettings());
  root.lang = htmlLang(prefs.lang);
  root.dataset.theme = shownTheme(prefs);
  if (!hasStoredUser()) {
    root.dataset.boot = prefs.lang;
    watchBootForm();
  }
} catch {
  // Storage refused (a privacy setting): no drawn form; the console starts as it would without one.
}

// The entry is named below this script: known once the document is parsed. With the drawn form
// shown, the console starts after the frame that paints it; a hidden tab paints no frame until
// it is shown, so there and without the form it starts at once. A module that fails to load
// leaves the drawn form saying so, not silently dead.
const start = () => void import(document.querySelector<HTMLLinkElement>('link[data-entry]')!.href).catch(showBootFailure);
document.addEventListener('DOMContentLoaded', () => {
  if (root.dataset.boot && document.visibilityState === 'visible') afterPaint(start);
  else start();
}, { once: true });
