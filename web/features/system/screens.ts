/** The users, settings and configuration history screens as one lazy chunk; the configuration screens keep theirs (config/screens.ts). */
export { default as UsersPage } from './UsersPage.tsx';
export { default as SettingsPage } from './SettingsPage.tsx';
export { default as ConfigHistoryPage } from './history/ConfigHistoryPage.tsx';
