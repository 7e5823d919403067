/** Monitoring settings: alarm and system-monitor thresholds, and the Prometheus / OpenTelemetry integration. */
import { useLocation } from 'wouter';
import { ConfigPage } from '../../../ui/ConfigPage.tsx';
import { monitoringPages } from './pages.ts';

export default function MonitoringPage() {
  const [path] = useLocation();
  const decl = monitoringPages[path] ?? monitoringPages['/monitoring/alarm-settings'];
  return <ConfigPage key={path} decl={decl} />;
}
