/**
 * The Clients screen: the declaration rendered by the kit, refreshed every 5 s while visible. It
 * notes its URL with the filters, for the detail page to return to after a kick.
 */
import { useSearch } from 'wouter';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { clients, listReturn } from './clients.ts';

export default function ClientsPage() {
  const search = useSearch();
  listReturn.path = search ? `/clients?${search}` : '/clients';
  return <ResourcePage decl={clients} />;
}
