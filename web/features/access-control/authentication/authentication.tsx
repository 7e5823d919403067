/** Access control > Authentication: the chain of authenticators declared over `GET /authentication` (api part2 §2.1). */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import type { ResourceDecl } from '../../../ui/resource.ts';
import { declareChain, type ChainRow } from '../chain.tsx';
import { confirmEnabling, hasNoUsers } from './refusals.ts';
import './messages.ts';

const enc = encodeURIComponent;

export const authentication: ResourceDecl<ChainRow> = {
  ...declareChain({
    name: 'authentication',
    title: 'accessControl.authentication',
    key: (row) => String(row.id),
    load: (signal) => api.get<ChainRow[]>('/authentication', { signal }),
    path: (id) => `/authentication/${enc(id)}`,
    statusPath: (id) => `/authentication/${enc(id)}/status`,
    move: (id, position) => api.put(`/authentication/${enc(id)}/position/${enc(position)}`),
    columns: [
      { key: 'mechanism', title: 'authn.mechanism', text: (row) => t(`authn.mech.${row.mechanism}`), link: (row) => `/authentication/detail/${enc(String(row.id))}` },
      { key: 'backend', title: 'access.backend', text: (row) => (row.backend ? t(`access.kind.${row.backend}`) : '—') },
    ],
    messages: {
      empty: 'authn.empty', confirmDelete: 'authn.confirmDelete', confirmDisable: 'authn.confirmDisable',
      deleted: 'authn.deleted', enabled: 'authn.enabled', disabled: 'authn.disabled',
    },
    beforeEnable: async (row, others) => confirmEnabling(!others.some((r) => r.enable !== false),
      row.backend === 'built_in_database' && await hasNoUsers(String(row.id)).catch(() => false)),
  }),
  tools: [{ key: 'create', label: 'common.create', href: '/authentication/create', run: async () => undefined }],
};
