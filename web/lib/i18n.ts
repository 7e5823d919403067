/**
 * Translation on top of rosetta: features declare messages as `{ key: { zh, en } }` side by side,
 * and `t()` falls back to English, then to the key itself. It does not switch language live:
 * changing the language reloads the page (specification §4), so the locale is fixed at start.
 */
import rosetta from 'rosetta';
import { htmlLang, type Locale } from './prefs.ts';

export type { Locale } from './prefs.ts';
export const LOCALES: readonly Locale[] = ['zh', 'en'];
/** Messages of one area: each key holds both languages side by side. */
export type Messages = Record<string, { zh: string; en: string }>;

const i18n = rosetta<Record<string, unknown>>();
const trees: Record<Locale, Record<string, unknown>> = { zh: {}, en: {} };
let current: Locale = 'en';

/** rosetta looks keys up by dotted path, so `users.title` is stored as `{ users: { title } }`. */
function put(tree: Record<string, unknown>, key: string, value: string) {
  const parts = key.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

/**
 * Registers an area's messages and returns them unchanged, so a feature can write
 * `export const messages = defineMessages({ 'users.title': { zh: '用户', en: 'Users' } })`.
 */
export function defineMessages<M extends Messages>(messages: M): M {
  for (const [key, pair] of Object.entries(messages)) {
    for (const locale of LOCALES) put(trees[locale], key, pair[locale]);
  }
  for (const locale of LOCALES) i18n.set(locale, trees[locale]);
  return messages;
}

/** Sets the language used by `t()`; call once at start-up (changing it later needs a reload). */
export function setLocale(locale: Locale) {
  current = locale;
  i18n.locale(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(locale);
}

export function getLocale(): Locale {
  return current;
}

/** Whether a translation exists for the key in the current language or in English. */
export function hasMessage(key: string): boolean {
  return i18n.t(key, {}, current) !== '' || i18n.t(key, {}, 'en') !== '';
}

/** Languages in which `key` has no text (empty when fully translated). */
export function missingLocales(key: string): Locale[] {
  return LOCALES.filter((locale) => !i18n.t(key, {}, locale));
}

/** Translates `key`, filling `{{name}}` placeholders from `params`; English, then the key, when missing. */
export function t(key: string, params: Record<string, unknown> = {}): string {
  return i18n.t(key, params, current) || i18n.t(key, params, 'en') || key;
}
