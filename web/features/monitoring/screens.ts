/** The clients, subscriptions, retained, alarms, topic metrics and slow subscriptions screens as one lazy chunk; the dashboard keeps its own (see `fromFolder` in lib/feature.ts). */
export { ClientsPage } from './clients/screens.ts';
export { ClientDetail } from './clients/screens.ts';
export { SubscriptionsPage } from './subscriptions/screens.ts';
export { TopicsPage } from './subscriptions/screens.ts';
export { default as RetainedPage } from './retained/RetainedPage.tsx';
export { default as AlarmsPage } from './alarms/AlarmsPage.tsx';
export { default as TopicMetricsPage } from './topic-metrics/TopicMetricsPage.tsx';
export { SlowSubsPage } from './slow-subs/screens.ts';
export { SlowSubsSettings } from './slow-subs/screens.ts';
