/** The Topic metrics screen: the declaration rendered by the kit. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { topicMetrics } from './topicMetrics.tsx';

export default function TopicMetricsPage() {
  return <ResourcePage decl={topicMetrics} />;
}
