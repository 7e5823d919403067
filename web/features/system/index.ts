/** System and Configuration: dashboard users and the user's settings. */
import type { Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the first chunk); screen texts are in
// messages.ts, which the screens import, so they load with the screen.
defineMessages({
  'users.title': { zh: '用户', en: 'Users' },
  'settings.title': { zh: '设置', en: 'Settings' },
});

export const system: Feature = {
  screens: [
    { path: '/users', title: 'users.title', load: () => import('./UsersPage.tsx'), menu: { group: 'system', order: 90 } },
    { path: '/settings', title: 'settings.title', load: () => import('./SettingsPage.tsx'), menu: { group: 'system', order: 95 } },
  ],
};
