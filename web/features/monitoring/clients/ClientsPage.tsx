/**
 * The Clients screen: the declaration rendered by the kit, refreshed every 5 s while visible, and
 * the bulk session clean-up drawer (opened by `?cleanup=1`). It notes its URL with the filters,
 * for the detail page to return to after a kick.
 */
import { useSearch } from 'wouter';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { Drawer } from '../../../ui/Drawer.tsx';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import type { ResourceDecl } from '../../../ui/resource.ts';
import { clients, listReturn, type Client } from './clients.ts';
import { SessionCleanup } from './SessionCleanup.tsx';

// `cleanup` is the drawer's switch in the URL, not a filter of the API.
const decl: ResourceDecl<Client> = {
  ...clients,
  list: ({ cleanup: _drawer, ...query }, signal) => clients.list(query, signal),
  tools: [...(clients.tools ?? []), { key: 'cleanup', label: 'cleanup.open', href: '/clients?cleanup=1', run: async () => undefined }],
};

export default function ClientsPage() {
  const search = useSearch();
  listReturn.path = search ? `/clients?${search}` : '/clients';
  const [query, setQuery] = useQuery();
  return (
    <>
      <ResourcePage decl={decl} />
      {query.cleanup === '1' && (
        <Drawer title={t('cleanup.open')} onClose={() => setQuery({ cleanup: undefined })} test="cleanup-drawer">
          <SessionCleanup />
        </Drawer>
      )}
    </>
  );
}
