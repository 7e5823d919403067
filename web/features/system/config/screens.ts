/** The System screens as one lazy chunk (see `fromFolder` in lib/feature.ts): configuration, and Enterprise's license and audit log. */
export { default as BasicConfigPage } from './BasicConfigPage.tsx';
export { default as LimiterPage } from './LimiterPage.tsx';
export { default as ListenerDetail } from './ListenerDetail.tsx';
export { default as ListenersPage } from './ListenersPage.tsx';
export { default as LogPage } from './LogPage.tsx';
export { default as MonitoringPage } from './MonitoringPage.tsx';
export { default as MqttPage } from './MqttPage.tsx';
export { default as ClusterPage } from './ClusterPage.tsx';
export { default as LicensePage } from '../license/LicensePage.tsx';
export { default as AuditPage } from '../audit.tsx';
