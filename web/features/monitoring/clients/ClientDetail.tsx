/**
 * A client's detail page: `GET /clients/{clientid}` (connection, session, counters, refreshed
 * while visible), its queued and inflight messages where the broker lists them, its
 * subscriptions, and kick out or clear session (`DELETE`, then back to the list).
 */
import { api, ApiError } from '../../../lib/api.ts';
import { errorText } from '../../../lib/errors.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { perform, useRemote } from '../../../lib/resources.ts';
import { Icon } from '../../../ui/Icon.tsx';
import { Loading, NotFound } from '../../../ui/States.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import { has } from '../../../lib/broker.ts';
import { ClientInfo } from './ClientInfo.tsx';
import { ClientQueues } from './ClientQueues.tsx';
import { ClientSubscriptions } from './ClientSubscriptions.tsx';
import { clientPath, listReturn, type Client } from './clients.ts';
import './messages.ts';

/**
 * The client id in the route. wouter passes params through `decodeURI`, which turns an encoded
 * `%` back into `%` and makes the id ambiguous, so the raw segment of the hash is decoded instead.
 */
function routeClientId(param: string): string {
  const raw = /^#\/clients\/detail\/([^?]*)/.exec(location.hash)?.[1] ?? param;
  // A `%` typed by hand without two hex digits after it stands for itself.
  return decodeURIComponent(raw.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
}

function LoadFailed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <div class="state state-error" role="alert" data-test="client-error">
      <p>{t('clients.loadFailed')}</p>
      <p class="muted">{errorText(error)}</p>
      <button type="button" class="secondary" onClick={retry} data-test="client-retry">{t('common.retry')}</button>
    </div>
  );
}

export default function ClientDetail({ clientId }: { clientId: string }) {
  const id = routeClientId(clientId);
  // A new id is a new page: no data, drawer or selection carried over from the previous client.
  return <ClientPage key={id} id={id} />;
}

function ClientPage({ id }: { id: string }) {
  const remote = useRemote('client', (signal) => api.get<Client>(clientPath(id), { signal }), id, 5000);
  const error = remote.error;
  if (error instanceof ApiError && error.status === 404 && error.code === 'CLIENTID_NOT_FOUND') {
    return <NotFound text={t('clients.notFound')} back="/clients" backTitle="monitoring.clients" test="client-not-found" />;
  }
  const client = remote.data;
  // One tree in every state: the subscriptions are mounted from the start, so they are asked for
  // with the client, not after it; hidden (their loading and errors too) until the client shows.
  return (
    <section class="client-detail" data-test={client ? 'client-detail' : undefined}>
      {client ? <ClientHead id={id} client={client} reload={remote.reload} /> : error ? null : <Loading />}
      {error ? <LoadFailed error={error} retry={remote.reload} /> : null}
      {client ? <ClientInfo client={client} /> : null}
      {client && has('clientQueues') ? <ClientQueues clientid={id} /> : null}
      <div hidden={!client}>
        <ClientSubscriptions clientid={id} />
      </div>
    </section>
  );
}

function ClientHead({ id, client, reload }: { id: string; client: Client; reload: () => void }) {
  // Kicking a connected client and clearing a kept session are the same call in EMQX 5.
  const remove = async () => {
    const done = await perform({
      resource: 'clients',
      run: () => api.del(clientPath(id)),
      confirm: client.connected ? 'clients.confirmKick' : 'clients.confirmClearSession',
      danger: true,
      success: client.connected ? 'clients.kicked' : 'clients.sessionCleared',
      params: { key: id },
    });
    // Back to the list as it was left, filters and all.
    if (done) await navigate(listReturn.path);
  };

  return (
    <header class="page-head">
      <h2 class="client-title">
        <span data-test="client-id">{client.clientid}</span>
        <StatusTag status={client.connected ? 'connected' : 'disconnected'} test="client-status" />
      </h2>
      <div class="toolbar">
        <button type="button" class="secondary outline icon-button" aria-label={t('common.refresh')} onClick={reload} data-test="client-refresh">
          <Icon name="refresh" />
        </button>
        <button type="button" class="danger" onClick={remove} data-test={client.connected ? 'client-kick' : 'client-clear-session'}>
          {t(client.connected ? 'clients.kick' : 'clients.clearSession')}
        </button>
      </div>
    </header>
  );
}
