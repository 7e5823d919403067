/**
 * User settings: language, theme and following the OS theme; each change reloads the page
 * (spec part1 §4). Picking a theme by hand stops following the OS theme.
 */
import { useSnapshot } from 'valtio';
import { t, type Locale } from '../../lib/i18n.ts';
import { settings, updateSettings, type Theme } from '../../lib/settings.ts';
import './messages.ts';

export default function SettingsPage() {
  const snap = useSnapshot(settings);
  return (
    <section data-test="settings-page">
      <header class="page-head"><h2>{t('settings.title')}</h2></header>
      <article class="settings">
        <label>
          {t('settings.language')}
          <select data-test="settings-lang" value={snap.lang} onChange={(e) => updateSettings({ lang: (e.target as HTMLSelectElement).value as Locale })}>
            <option value="zh">中文</option>
            <option value="en">English</option>
          </select>
        </label>
        <label>
          {t('settings.theme')}
          <select data-test="settings-theme" value={snap.theme}
            onChange={(e) => updateSettings({ theme: (e.target as HTMLSelectElement).value as Theme, syncOsTheme: false })}>
            <option value="light">{t('settings.light')}</option>
            <option value="dark">{t('settings.dark')}</option>
          </select>
        </label>
        <label>
          <input type="checkbox" role="switch" data-test="settings-sync" checked={snap.syncOsTheme}
            onChange={(e) => updateSettings({ syncOsTheme: (e.target as HTMLInputElement).checked })} />
          {t('settings.syncOsTheme')}
        </label>
        <small class="muted">{t('settings.reloadHint')}</small>
      </article>
    </section>
  );
}
