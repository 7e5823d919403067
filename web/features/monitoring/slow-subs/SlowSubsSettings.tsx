/**
 * Slow subscription settings: `GET /slow_subscriptions/settings` into the form, `PUT` of the
 * whole object on save (threshold at least 100 ms, eviction time in ms or s), then a toast; the
 * form starts again from what the server answered.
 */
import { useState } from 'react';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { isEmpty, numberRange, type Rule } from '../../../lib/validators.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { Failed, Loading } from '../../../ui/States.tsx';
import { fromForm, toForm, type SlowSubsSettings } from './settings.ts';
import './messages.ts';

const PATH = '/slow_subscriptions/settings';
const atLeast100: Rule = (value) => (!isEmpty(value) && Number(value) < 100 ? t('slowSubs.thresholdMin') : undefined);

const fields: FieldDecl[] = [
  { name: 'enable', label: 'slowSubs.enable', kind: 'switch' },
  { name: 'threshold', label: 'slowSubs.threshold', kind: 'number', required: true, rules: [numberRange(0, 4294967295), atLeast100], help: 'slowSubs.thresholdHelp' },
  { name: 'top_k_num', label: 'slowSubs.topK', kind: 'number', required: true, rules: [numberRange(1, 1000)], help: 'slowSubs.topKHelp' },
  { name: 'expire_interval', label: 'slowSubs.expire', kind: 'number', required: true, rules: [numberRange(1, 4294967295)], help: 'slowSubs.expireHelp' },
  { name: 'expire_unit', label: 'slowSubs.unit', kind: 'select', options: [{ value: 's', label: 'slowSubs.unitS' }, { value: 'ms', label: 'slowSubs.unitMs' }] },
  {
    name: 'stats_type', label: 'slowSubs.statsType', kind: 'select', help: 'slowSubs.statsTypeHelp',
    options: [{ value: 'whole', label: 'slowSubs.whole' }, { value: 'internal', label: 'slowSubs.internal' }, { value: 'response', label: 'slowSubs.response' }],
  },
];

export default function SlowSubsSettingsPage() {
  const remote = useRemote('slow-subscriptions-settings', (signal) => api.get<SlowSubsSettings>(PATH, { signal }));
  const [saved, setSaved] = useState<SlowSubsSettings | null>(null);
  const current = saved ?? remote.data;
  if (!current) return remote.error ? <Failed error={remote.error} retry={remote.reload} /> : <Loading />;

  const save = async (values: Record<string, unknown>) => {
    const answer = await api.put<SlowSubsSettings>(PATH, fromForm(values));
    toast(t('slowSubs.saved'));
    setSaved(answer);
    touch('slow-subscriptions-settings');
    touch('slow-subscriptions');
  };
  return (
    <section class="settings-page" data-test="slow-subs-settings">
      <header class="page-head"><h2>{t('monitoring.slowSubSettings')}</h2></header>
      <div class="settings">
        <Form key={JSON.stringify(current)} fields={fields} initial={toForm(current)} onSubmit={save} test="slow-subs-form" />
      </div>
    </section>
  );
}
