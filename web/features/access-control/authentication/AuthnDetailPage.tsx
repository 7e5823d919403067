/**
 * One authenticator: overview (status and counters), settings (its kind's form, `PUT
 * /authentication/{id}`) and, for the built-in database, its users. Changing the password hash or
 * the salt position asks first: stored hashes stop matching (spec part2 §8).
 */
import { api } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { t } from '../../../lib/i18n.ts';
import { useQuery } from '../../../lib/query.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Failed, Loading } from '../../../ui/States.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { ConfigForm } from '../ConfigForm.tsx';
import { Overview } from '../Overview.tsx';
import { AUTHN_KINDS } from './kinds.ts';
import { AuthnUsers } from './AuthnUsers.tsx';
import './messages.ts';

type Config = Record<string, unknown> & { id: string; mechanism: string; backend?: string };
const HASH_KEYS = ['name', 'salt_position'] as const;

export default function AuthnDetailPage({ id: raw }: { id: string }) {
  const id = decodeURIComponent(raw);
  const path = `/authentication/${encodeURIComponent(id)}`;
  const [query, setQuery] = useQuery();
  const remote = useRemote('authentication', (signal) => api.get<Config>(path, { signal }), path);
  const config = remote.data;
  const hasUsers = config?.backend === 'built_in_database';
  const tabs = [{ key: 'overview', title: 'access.overview' }, { key: 'settings', title: 'access.settings' }, ...(hasUsers ? [{ key: 'users', title: 'authn.users' }] : [])];
  const tab = tabs.some((x) => x.key === query.tab) ? query.tab : 'overview';

  const save = async (body: Record<string, unknown>) => {
    const before = (config!.password_hash_algorithm ?? {}) as Record<string, unknown>;
    const after = (body.password_hash_algorithm ?? {}) as Record<string, unknown>;
    const changed = config!.password_hash_algorithm && HASH_KEYS.some((k) => (before[k] ?? '') !== (after[k] ?? ''));
    if (changed && !(await confirm(t('authn.confirmHashChange'), { danger: true }))) return;
    const { id: _id, ...rest } = body;
    await api.put(path, { ...rest, mechanism: config!.mechanism, ...(config!.backend ? { backend: config!.backend } : {}) });
    toast(t('access.saved'));
    touch('authentication');
  };

  return (
    <section data-test="authn-detail-page">
      <header class="page-head"><h2 class="node-title">{id}</h2></header>
      {!config
        ? remote.error ? <Failed error={remote.error} retry={remote.reload} missing={{ text: t('authn.notFound', { id }), back: '/authentication', backTitle: 'accessControl.authentication' }} /> : <Loading />
        : (
          <>
            <Tabs tabs={tabs} active={tab} onChange={(key) => setQuery({ tab: key, page: undefined })} />
            {tab === 'overview' && <Overview path={`${path}/status`} keys={['total', 'success', 'failed', 'nomatch']} prefix="authn" />}
            {tab === 'settings' && (AUTHN_KINDS[id]
              ? <article class="config-form"><ConfigForm key={JSON.stringify(config)} kind={AUTHN_KINDS[id]} config={config} test="authn-settings-form" onSubmit={save} /></article>
              : <pre class="details">{JSON.stringify(config, null, 2)}</pre>)}
            {tab === 'users' && <AuthnUsers id={id} />}
          </>
        )}
    </section>
  );
}
