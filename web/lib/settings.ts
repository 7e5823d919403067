/**
 * User settings (language, theme, follow the OS theme, left bar collapse) as a valtio store
 * with verbs. Changing language or theme reloads the page (spec part1 §4), so nothing here
 * has to re-render live; `applyTheme` runs once at start.
 */
import { proxy } from 'valtio';
import { shownTheme, withDefaults, type Locale, type Theme } from './prefs.ts';
import { readSettings, writeSettings } from './storage.ts';

export type { Theme } from './prefs.ts';

/** The stored settings, with the defaults of spec part1 §9 (lib/prefs.ts). */
export const settings = proxy(withDefaults(readSettings()));

let reload = () => location.reload();
/** Replaces the page reload (tests observe it instead of reloading happy-dom). */
export function setReloader(fn: () => void) {
  reload = fn;
}

/** Puts the theme shown (lib/prefs.ts) on <html> for Pico's `data-theme`. */
export function applyTheme() {
  document.documentElement.dataset.theme = shownTheme(settings);
}

/** Saves language, theme or OS sync and reloads, as the specification requires. */
export function updateSettings(patch: Partial<{ lang: Locale; theme: Theme; syncOsTheme: boolean }>) {
  Object.assign(settings, patch);
  writeSettings(patch);
  reload();
}

/** Saves the left bar state; no reload needed. */
export function setLeftBarCollapse(collapsed: boolean) {
  settings.leftBarCollapse = collapsed;
  writeSettings({ leftBarCollapse: collapsed });
}
