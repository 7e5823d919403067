/** The Subscriptions screen: tabs, then the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { SubscriptionTabs } from './SubscriptionTabs.tsx';
import { subscriptions } from './subscriptions.ts';

export default function SubscriptionsPage() {
  return (
    <>
      <SubscriptionTabs active="subscription" />
      <ResourcePage decl={subscriptions} title={false} />
    </>
  );
}
