/** The Subscriptions | Topics tabs on top of both screens; each tab is its own route. */
import { navigate } from '../../../lib/navigation.ts';
import { Tabs } from '../../../ui/Tabs.tsx';

const TABS = [
  { key: 'subscription', title: 'monitoring.subscriptions' },
  { key: 'topics', title: 'monitoring.topics' },
];

export function SubscriptionTabs({ active }: { active: 'subscription' | 'topics' }) {
  return <Tabs tabs={TABS} active={active} onChange={(key) => key !== active && void navigate(`/subscriptions/${key}`)} />;
}
