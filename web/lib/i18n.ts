/**
 * Translation on top of rosetta: features declare messages as `{ key: { zh, en } }` side by side,
 * and `t()` falls back to English, then to the key itself. It does not switch language live:
 * changing the language reloads the page (specification §4), so the locale is fixed at start.
 * In the build, the Chinese texts of the lazily loaded chunks travel apart, in one catalogue that
 * only a console in Chinese loads, with the shell (loadCatalogue).
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

/** The catalogue's Chinese texts once loaded (loadCatalogue), and the calls that wait for them. */
let catalogue: Record<string, string[]> | undefined;
const waiting: { messages: Messages; at: string }[] = [];

function putChinese(messages: Messages, texts: string[] = []) {
  const keys = Object.keys(messages);
  texts.forEach((text, i) => put(trees.zh, keys[i], text));
}

/**
 * Registers an area's messages and returns them unchanged, so a feature can write
 * `export const messages = defineMessages({ 'users.title': { zh: '用户', en: 'Users' } })`.
 * In the build, a lazily loaded chunk's calls keep only their English texts (`{ key: 'text' }`)
 * and name their place in the catalogue (`zhAt`, build/messages.mjs): the Chinese texts arrive
 * with loadCatalogue.
 */
export function defineMessages<M extends Messages>(messages: M, zhAt?: string): M {
  for (const [key, pair] of Object.entries(messages) as [string, Messages[string] | string][]) {
    if (typeof pair === 'string') put(trees.en, key, pair);
    else for (const locale of LOCALES) put(trees[locale], key, pair[locale]);
  }
  if (zhAt !== undefined) {
    if (catalogue) putChinese(messages, catalogue[zhAt]);
    else waiting.push({ messages, at: zhAt });
  }
  for (const locale of LOCALES) i18n.set(locale, trees[locale]);
  return messages;
}

let loading: Promise<void> | undefined;

/**
 * In Chinese, loads the Chinese texts of the lazily loaded chunks (lib/catalogue.ts, as the build
 * fills it) and registers them; in English there is nothing to load. The shell waits for it
 * before it renders, and the chunks it and its screens load register their English texts as they
 * evaluate: `t()` is called when rendering, never while a module is imported, so every text is
 * there in both languages when it is first asked for.
 */
export function loadCatalogue(load: () => Promise<{ zh: Record<string, string[]> }> = () => import('./catalogue.ts')): Promise<void> {
  if (current !== 'zh') return Promise.resolve();
  loading ??= load().then(({ zh }) => {
    catalogue = zh;
    for (const { messages, at } of waiting.splice(0)) putChinese(messages, zh[at]);
    i18n.set('zh', trees.zh);
  }, (error: unknown) => {
    // A retry starts over.
    loading = undefined;
    throw error;
  });
  return loading;
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
