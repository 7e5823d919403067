/**
 * Authorization settings (`GET`/`PUT /authorization/settings`, api part2 §3.4): what happens when
 * no source matches, what a deny does, and the per-client cache; plus clearing the cache of every
 * client (`DELETE /authorization/cache`) after a confirmation.
 */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { flatten, unflatten } from '../../../lib/paths.ts';
import { perform, touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { numberRange, topicFilter, type Rule } from '../../../lib/validators.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { Failed, Loading } from '../../../ui/States.tsx';
import { Writable } from '../../../ui/Writable.tsx';
import { durationRule } from '../blocks.ts';
import './messages.ts';

const cacheOn = (v: Record<string, unknown>) => Boolean(v['cache.enable']);
const eachTopic: Rule = (value, values) => (Array.isArray(value) ? value.map((topic) => topicFilter(topic, values)).find(Boolean) : undefined);

const fields: FieldDecl[] = [
  { name: 'no_match', label: 'authz.noMatch', kind: 'select', options: ['allow', 'deny'].map((v) => ({ value: v, label: `authz.perm.${v}` })), help: 'authz.noMatchHelp' },
  { name: 'deny_action', label: 'authz.denyAction', kind: 'select', options: ['ignore', 'disconnect'].map((v) => ({ value: v, label: `authz.denyOpt.${v}` })), help: 'authz.denyActionHelp' },
  { name: 'cache.enable', label: 'authz.cacheEnable', kind: 'switch' },
  { name: 'cache.max_size', label: 'authz.cacheMaxSize', kind: 'number', required: true, rules: [numberRange(1, 1048576)], visible: cacheOn },
  { name: 'cache.ttl', label: 'authz.cacheTtl', kind: 'duration', required: true, rules: [durationRule], help: 'access.durationHelp', visible: cacheOn },
  { name: 'cache.excludes', label: 'authz.cacheExcludes', kind: 'list', rules: [eachTopic], help: 'authz.cacheExcludesHelp', visible: cacheOn },
];

export default function AuthzSettingsPage() {
  const remote = useRemote('authz-settings', (signal) => api.get<Record<string, unknown>>('/authorization/settings', { signal }));
  const save = async (values: Record<string, unknown>) => {
    await api.put('/authorization/settings', unflatten(values));
    toast(t('access.saved'));
    touch('authz-settings');
  };
  const clear = () => perform({ resource: 'authz-settings', confirm: 'authz.confirmClearCache', danger: true, success: 'authz.cacheCleared', run: () => api.del('/authorization/cache') });

  return (
    <section data-test="authz-settings-page">
      <header class="page-head">
        <h2>{t('accessControl.authzSettings')}</h2>
        <Writable><button type="button" class="secondary outline danger" onClick={clear} data-test="authz-clear-cache">{t('authz.clearCache')}</button></Writable>
      </header>
      {!remote.data
        ? remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />
        : (
          <article class="settings-form">
            <Form key={JSON.stringify(remote.data)} fields={fields} initial={{ 'cache.excludes': [], ...flatten(remote.data) }} onSubmit={save} test="authz-settings-form" snapshot />
          </article>
        )}
    </section>
  );
}
