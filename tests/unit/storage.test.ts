import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clearUser, hasStoredUser, loadUser, readSettings, saveUser, SETTINGS_KEY } from '../../web/lib/storage.ts';
import { defineMessages, setLocale, t } from '../../web/lib/i18n.ts';
import { browserLocale, shownTheme, withDefaults } from '../../web/lib/prefs.ts';
import { withTimeout } from '../../web/lib/navigation.ts';
import { failure } from '../helpers/fakeApi.ts';

test('the user record is stored encrypted under a random four-character key', async () => {
  localStorage.clear();
  await saveUser({ username: 'admin', token: 'secret-token-value' });
  const keys = Object.keys(localStorage).filter((k) => k !== SETTINGS_KEY);
  assert.is(keys.length, 1);
  assert.match(keys[0], /^[A-Za-z0-9]{4}$/);
  const everything = Object.keys(localStorage).map((k) => localStorage.getItem(k)).join('');
  assert.not.ok(everything.includes('secret-token-value'), 'the token never appears in plain text');
  assert.equal(await loadUser(), { username: 'admin', token: 'secret-token-value' });
});

test('saving again moves the record to a new key and removes the old one', async () => {
  localStorage.clear();
  await saveUser({ username: 'a', token: 'one' });
  const first = readSettings().userKey!;
  await saveUser({ username: 'a', token: 'two' });
  const second = readSettings().userKey!;
  if (second !== first) assert.is(localStorage.getItem(first), null);
  assert.is(Object.keys(localStorage).filter((k) => k !== SETTINGS_KEY).length, 1, 'exactly one record is left');
  assert.is((await loadUser())!.token, 'two');
});

test('a tampered record reads as logged out; clearUser removes it', async () => {
  localStorage.clear();
  assert.is(hasStoredUser(), false);
  await saveUser({ username: 'a', token: 'one' });
  assert.is(hasStoredUser(), true);
  const key = readSettings().userKey!;
  const [iv, data] = localStorage.getItem(key)!.split('.');
  localStorage.setItem(key, `${iv}.${data.slice(0, -4)}AAAA`);
  assert.is(await loadUser(), null);
  clearUser();
  assert.is(localStorage.getItem(key), null);
  assert.is(readSettings().userKey, undefined);
  assert.is(hasStoredUser(), false);
});

test('translation falls back to English, then to the key; placeholders are filled', () => {
  defineMessages({ 'test.both': { zh: '你好 {{name}}', en: 'Hello {{name}}' }, 'test.enOnly': { zh: '', en: 'Only English' } });
  setLocale('zh');
  assert.is(t('test.both', { name: 'ops' }), '你好 ops');
  assert.is(t('test.enOnly'), 'Only English');
  assert.is(t('test.missing'), 'test.missing');
  setLocale('en');
  assert.is(t('test.both', { name: 'ops' }), 'Hello ops');
});

test('the default language is Chinese only for a zh browser language', () => {
  assert.is(browserLocale('zh-CN'), 'zh');
  assert.is(browserLocale('zh-TW'), 'zh');
  assert.is(browserLocale('en-US'), 'en');
  assert.is(browserLocale('de'), 'en');
  assert.is(browserLocale(''), 'en');
});

test('a screen chunk that does not load in time fails with CHUNK_TIMEOUT', async () => {
  const error = await failure<{ code?: string }>(withTimeout(() => new Promise(() => {}), 20));
  assert.is(error.code, 'CHUNK_TIMEOUT');
  assert.is(await withTimeout(() => Promise.resolve(7), 20), 7);
});

test('settings defaults: the browser language, light, follow the OS theme, left bar collapsed; the shown theme', () => {
  assert.equal(withDefaults({}), { lang: browserLocale(), theme: 'light', syncOsTheme: true, leftBarCollapse: true });
  assert.equal(withDefaults({ lang: 'zh', theme: 'dark', syncOsTheme: false, leftBarCollapse: false }),
    { lang: 'zh', theme: 'dark', syncOsTheme: false, leftBarCollapse: false });
  assert.is(shownTheme({ syncOsTheme: false, theme: 'dark' }), 'dark');
  const os = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  assert.is(shownTheme({ syncOsTheme: true, theme: os === 'dark' ? 'light' : 'dark' }), os);
});

test.run();
