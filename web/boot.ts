/**
 * The boot script: a classic script at the top of index.html's head, so it runs before the page
 * is first drawn. It puts the stored language and theme on <html> and, when no user is stored,
 * shows the login form the build drew into index.html in that language (lib/bootForm.ts), then
 * starts the console: the modules index.html names in its inert `<template id="entry-modules">`,
 * entry first. With a drawn form shown, they are asked for after the frame that paints it, so
 * that their fetch and compile do not hold the form back (about 10 ms of a 90 ms cold load);
 * otherwise at once. It stays a few hundred bytes.
 */
import { showBootFailure, watchBootForm } from './lib/bootForm.ts';
import { afterPaint } from './lib/frames.ts';
import { htmlLang, shownTheme, withDefaults } from './lib/prefs.ts';
import { hasStoredUser, readSettings } from './lib/storage.ts';

const root = document.documentElement;

/** Moves the console's modules into the head, which asks for them all at once; the entry's URL. */
let entry = '';
function requestModules(): string {
  const modules = (document.getElementById('entry-modules') as HTMLTemplateElement).content;
  const first = modules.firstElementChild as HTMLLinkElement | null;
  if (first) {
    document.head.append(modules);
    entry = first.href;
  }
  return entry;
}

try {
  const prefs = withDefaults(readSettings());
  root.lang = htmlLang(prefs.lang);
  root.dataset.theme = shownTheme(prefs);
  if (!hasStoredUser()) {
    root.dataset.boot = prefs.lang;
    watchBootForm();
  } else requestModules();
} catch {
  // Storage refused (a privacy setting): no drawn form; the console starts as it would without one.
}

// The console starts once the document is parsed (it renders into the body). With the drawn form
// shown, after the frame that paints it; a hidden tab paints no frame until it is shown, so there
// and without the form at once. A module that fails to load leaves the drawn form saying so, not
// silently dead.
const start = () => void import(requestModules()).catch(showBootFailure);
document.addEventListener('DOMContentLoaded', () => {
  if (root.dataset.boot && document.visibilityState === 'visible') afterPaint(start);
  else start();
}, { once: true });
