/** The Delayed publish screen: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { delayedMessages } from './delayed.tsx';

export default function DelayedPage() {
  return <ResourcePage decl={delayedMessages} />;
}
