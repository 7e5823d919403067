/**
 * The stored settings with the defaults of spec part1 §9, and the theme they show. No store and
 * no framework: read by the settings store (lib/settings.ts) and by the boot script (web/boot.ts),
 * which applies language and theme before the page is first drawn.
 */
import type { StoredSettings } from './storage.ts';

export type Locale = 'zh' | 'en';
export type Theme = 'light' | 'dark';

/** The default language: Chinese when the browser's language starts with zh, else English (spec §9). */
export function browserLocale(language = typeof navigator === 'undefined' ? 'en' : navigator.language): Locale {
  return /^zh/i.test(language || '') ? 'zh' : 'en';
}

/** Language, theme, follow the OS theme, left bar collapse: stored, else zh for a zh browser, light, on, collapsed. */
export function withDefaults(stored: StoredSettings) {
  return {
    lang: (stored.lang ?? browserLocale()) as Locale,
    theme: (stored.theme ?? 'light') as Theme,
    syncOsTheme: stored.syncOsTheme ?? true,
    leftBarCollapse: stored.leftBarCollapse ?? true,
  };
}

/** The theme actually shown: the OS preference when syncing, else the chosen one. */
export function shownTheme(prefs: { syncOsTheme: boolean; theme: Theme }): Theme {
  if (prefs.syncOsTheme && typeof matchMedia === 'function') {
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  return prefs.theme;
}

/** The value of `<html lang>` for a language. */
export const htmlLang = (locale: Locale) => (locale === 'zh' ? 'zh-CN' : 'en');
