/**
 * Alarms with Active | History tabs; the route says which (`/alarm/current-alarm`,
 * `/alarm/history-alarm`), so a reload or a link keeps the tab.
 */
import { useLocation } from 'wouter';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { activeAlarms, historyAlarms } from './alarms.tsx';

const TABS = [
  { key: 'current-alarm', title: 'monitoring.activeAlarms' },
  { key: 'history-alarm', title: 'monitoring.historyAlarms' },
];

export default function AlarmsPage() {
  const [path] = useLocation();
  const tab = path.endsWith('/history-alarm') ? 'history-alarm' : 'current-alarm';
  return (
    <section data-test="alarms-screen">
      <header class="page-head"><h2>{t('monitoring.alarms')}</h2></header>
      <Tabs tabs={TABS} active={tab} onChange={(key) => void navigate(`/alarm/${key}`)} />
      <ResourcePage key={tab} decl={tab === 'history-alarm' ? historyAlarms : activeAlarms} title={false} />
    </section>
  );
}
