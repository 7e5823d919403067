/** The small Overview | Nodes | Metrics tabs above the three dashboard screens; each is a link. */
import { Link, useLocation } from 'wouter';
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

const TABS = [
  { path: '/dashboard/overview', title: 'dashboard.tabOverview' },
  { path: '/dashboard/nodes', title: 'monitoring.nodes' },
  { path: '/dashboard/metrics', title: 'monitoring.metrics' },
];

export function DashboardTabs() {
  const [path] = useLocation();
  return (
    <nav class="tabs" aria-label={t('monitoring.overview')} data-test="dashboard-tabs">
      {TABS.map((tab) => {
        const active = path === tab.path || path.startsWith(`${tab.path}/`);
        return (
          <Link key={tab.path} href={tab.path} class={active ? 'tab active' : 'tab'} aria-current={active ? 'page' : undefined}
            data-test={`dashboard-tab-${tab.path.split('/').pop()}`}>
            {t(tab.title)}
          </Link>
        );
      })}
    </nav>
  );
}
