/**
 * The question before an authenticator starts refusing clients. Once one is enabled, a client
 * that no authenticator accepts is refused (emqx_authn_chains: every provider `ignore`s it, and the
 * chain ends in `not_authorized`), so the first enabled authenticator shuts out every client
 * that sends no username, and a built-in database without users shuts out everyone. EMQX does
 * this without a word; here the operator is told how many of the connected clients it concerns
 * (read from `/clients`, every page), before anything changes.
 */
import { api } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { fetchAll } from '../../../lib/fetchAll.ts';
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

/** How many connected clients have no username (they send no credentials). */
export async function clientsWithoutUsername(): Promise<number> {
  const clients = await fetchAll<{ username?: string | null; connected?: boolean }>('/clients', { conn_state: 'connected' });
  return clients.filter((c) => c.connected !== false && !c.username).length;
}

/** Whether a built-in database authenticator holds no user (`meta.count` of its first page). */
export async function hasNoUsers(id: string): Promise<boolean> {
  const page = await api.get<{ data: unknown[]; meta: { count?: number } }>(`/authentication/${encodeURIComponent(id)}/users`, { params: { page: 1, limit: 1 } });
  return (page.meta.count ?? page.data.length) === 0;
}

/**
 * Resolves true when enabling may go ahead: at once when the authenticator neither is the first
 * enabled one nor lacks users, else after the operator has read how many connected clients
 * without a username it refuses and said yes.
 */
export async function confirmEnabling(first: boolean, noUsers: boolean): Promise<boolean> {
  if (!first && !noUsers) return true;
  // The clients cannot be counted (a viewer's or older broker's refusal): what is known is still said.
  const count = await clientsWithoutUsername().catch(() => 0);
  if (count === 0 && !noUsers) return true;
  const text = [count > 0 && t('authn.refusesAnonymous', { count }), noUsers && t('authn.refusesEveryone')].filter(Boolean).join(' ');
  return confirm(text, { danger: true, okText: t('authn.enableAnyway') });
}
