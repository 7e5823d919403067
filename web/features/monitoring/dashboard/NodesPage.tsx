/** The Nodes screen: the dashboard tabs over the declared node list. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { DashboardTabs } from './DashboardTabs.tsx';
import { nodes } from './nodes.tsx';

export default function NodesPage() {
  return (
    <section class="dashboard">
      <DashboardTabs />
      <ResourcePage decl={nodes} title={false} />
    </section>
  );
}
