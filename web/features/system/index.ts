/** System and Configuration: dashboard users and the user's settings. */
import type { Feature } from '../../lib/feature.ts';
import './messages.ts';

export const system: Feature = {
  screens: [
    { path: '/users', title: 'users.title', load: () => import('./UsersPage.tsx'), menu: { group: 'system', order: 90 } },
    { path: '/settings', title: 'settings.title', load: () => import('./SettingsPage.tsx'), menu: { group: 'system', order: 95 } },
  ],
};
