/** The Clients screen: the declaration rendered by the kit, refreshed every 5 s while visible. */
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { clients } from './clients.ts';

export default function ClientsPage() {
  return <ResourcePage decl={clients} />;
}
