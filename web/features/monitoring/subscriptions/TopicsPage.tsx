/** The Topics screen: tabs, then the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { SubscriptionTabs } from './SubscriptionTabs.tsx';
import { topics } from './topics.ts';

export default function TopicsPage() {
  return (
    <>
      <SubscriptionTabs active="topics" />
      <ResourcePage decl={topics} title={false} />
    </>
  );
}
