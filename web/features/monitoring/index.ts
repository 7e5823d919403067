/** Monitoring: the cluster overview (clients, subscriptions, alarms and metrics come with their screens). */
import type { Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the first chunk); screen texts are in
// messages.ts, which the screens import, so they load with the screen.
defineMessages({
  'monitoring.overview': { zh: '集群概览', en: 'Cluster Overview' },
});

export const monitoring: Feature = {
  redirects: { '/dashboard': '/dashboard/overview' },
  screens: [
    { path: '/dashboard/overview', title: 'monitoring.overview', load: () => import('./Overview.tsx'), menu: { group: 'monitoring', order: 10 } },
  ],
};
