/** Monitoring: the cluster overview (clients, subscriptions, alarms and metrics come with their screens). */
import type { Feature } from '../../lib/feature.ts';
import './messages.ts';

export const monitoring: Feature = {
  redirects: { '/dashboard': '/dashboard/overview' },
  screens: [
    { path: '/dashboard/overview', title: 'monitoring.overview', load: () => import('./Overview.tsx'), menu: { group: 'monitoring', order: 10 } },
  ],
};
