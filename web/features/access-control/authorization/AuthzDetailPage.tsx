/**
 * One authorization source: overview (status and allow/deny/nomatch counters), settings (its
 * type's form, `PUT /authorization/sources/{type}`) and, for the built-in database, its rules
 * per client ID, per username and for all clients.
 */
import { api, ApiError } from '../../../lib/api.ts';
import { hasMessage, t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Failed, Loading, NotFound } from '../../../ui/States.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { ConfigForm } from '../ConfigForm.tsx';
import { Overview } from '../Overview.tsx';
import { BuiltInRules } from './BuiltInRules.tsx';
import { AUTHZ_KINDS } from './kinds.ts';
import './messages.ts';

export default function AuthzDetailPage({ type: raw }: { type: string }) {
  const type = decodeURIComponent(raw);
  const path = `/authorization/sources/${encodeURIComponent(type)}`;
  const [query, setQuery] = useQuery();
  const remote = useRemote('authorization', (signal) => api.get<Record<string, unknown>>(path, { signal }), path);
  const config = remote.data;
  const tabs = [
    { key: 'overview', title: 'access.overview' }, { key: 'settings', title: 'access.settings' },
    ...(type === 'built_in_database' ? [{ key: 'clients', title: 'authz.clients' }, { key: 'users', title: 'authz.users' }, { key: 'all', title: 'authz.all' }] : []),
  ];
  const tab = tabs.some((x) => x.key === query.tab) ? query.tab : 'overview';
  const missing = { text: t('authz.notFound', { type }), back: '/authorization', backTitle: 'accessControl.authorization' };
  // A type the broker's schema does not know is refused with 400 (the path is an enum), not 404.
  // A type only the console does not know is still shown: the broker answers for it.
  const unknown = remote.error instanceof ApiError && remote.error.status === 400 && !AUTHZ_KINDS[type];

  const save = async (body: Record<string, unknown>) => {
    await api.put(path, { ...body, type });
    toast(t('access.saved'));
    touch('authorization');
  };

  return (
    <section data-test="authz-detail-page">
      <header class="page-head"><h2>{hasMessage(`access.kind.${type}`) ? t(`access.kind.${type}`) : type}</h2></header>
      {unknown ? <NotFound {...missing} /> : !config
        ? remote.error ? <Failed error={remote.error} retry={remote.reload} missing={missing} /> : <Loading />
        : (
          <>
            <Tabs tabs={tabs} active={tab} onChange={(key) => setQuery({ tab: key, page: undefined, like_clientid: undefined, like_username: undefined })} />
            {tab === 'overview' && <Overview path={`${path}/status`} keys={['total', 'allow', 'deny', 'nomatch']} prefix="authz" />}
            {tab === 'settings' && AUTHZ_KINDS[type] && (
              <article class="config-form"><ConfigForm key={JSON.stringify(config)} kind={AUTHZ_KINDS[type]} config={config} test="authz-settings-form" onSubmit={save} /></article>
            )}
            {(tab === 'clients' || tab === 'users' || tab === 'all') && <BuiltInRules who={tab} />}
          </>
        )}
    </section>
  );
}
