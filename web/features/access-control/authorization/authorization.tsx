/** Access control > Authorization: the chain of sources over `GET /authorization/sources` (api part2 §3.1). */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import type { ResourceDecl } from '../../../ui/resource.ts';
import { declareChain, type ChainRow } from '../chain.tsx';
import './messages.ts';

const enc = encodeURIComponent;

export const authorization: ResourceDecl<ChainRow> = {
  ...declareChain({
    name: 'authorization',
    title: 'accessControl.authorization',
    key: (row) => String(row.type),
    load: (signal) => api.get<{ sources: ChainRow[] }>('/authorization/sources', { signal }).then((r) => r.sources),
    path: (type) => `/authorization/sources/${enc(type)}`,
    statusPath: (type) => `/authorization/sources/${enc(type)}/status`,
    move: (type, position) => api.post(`/authorization/sources/${enc(type)}/move`, { position }),
    columns: [
      { key: 'type', title: 'authz.type', text: (row) => t(`access.kind.${row.type}`), link: (row) => `/authorization/detail/${enc(String(row.type))}` },
    ],
    messages: {
      empty: 'authz.empty', confirmDelete: 'authz.confirmDelete', confirmDisable: 'authz.confirmDisable',
      deleted: 'authz.deleted', enabled: 'authz.enabled', disabled: 'authz.disabled',
    },
  }),
  tools: [
    { key: 'settings', label: 'common.settings', href: '/authorization/settings', run: async () => undefined },
    { key: 'create', label: 'common.create', href: '/authorization/create', run: async () => undefined },
  ],
};
