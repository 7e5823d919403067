/**
 * Flapping detection settings: the `flapping_detect` key of `GET/PUT /configs/global_zone`
 * (emqx-api-part1 §15). Only that sub-object is sent, since the broker writes only the changed
 * sub-objects of the zone. Clients it bans show up in the banned list.
 */
import { Link } from 'wouter';
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { numberRange } from '../../../lib/validators.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { Failed, Loading } from '../../../ui/States.tsx';
import { durationRule } from '../blocks.ts';
import './messages.ts';

interface Flapping {
  enable: boolean;
  window_time: string;
  max_count: number;
  ban_time: string;
}

const on = (v: Record<string, unknown>) => Boolean(v.enable);
const fields: FieldDecl[] = [
  { name: 'enable', label: 'flapping.enable', kind: 'switch', help: 'flapping.enableHelp' },
  { name: 'window_time', label: 'flapping.windowTime', kind: 'duration', required: true, rules: [durationRule], visible: on },
  { name: 'max_count', label: 'flapping.maxCount', kind: 'number', required: true, rules: [numberRange(1, 4294967295)], help: 'flapping.maxCountHelp', visible: on },
  { name: 'ban_time', label: 'flapping.banTime', kind: 'duration', required: true, rules: [durationRule], visible: on },
];

export default function FlappingPage() {
  const zone = useRemote('global-zone', (signal) => api.get<{ flapping_detect: Flapping }>('/configs/global_zone', { signal }));
  const current = zone.data?.flapping_detect;
  const save = async (v: Record<string, unknown>) => {
    const next: Flapping = { enable: Boolean(v.enable), window_time: String(v.window_time), max_count: Number(v.max_count), ban_time: String(v.ban_time) };
    await api.put('/configs/global_zone', { flapping_detect: next });
    toast(t('flapping.saved'));
    touch('global-zone');
  };
  return (
    <section data-test="flapping-page">
      <header class="page-head">
        <h2>{t('accessControl.flapping')}</h2>
        <Link href="/banned-clients" class="secondary" data-test="flapping-back">{t('flapping.backToBanned')}</Link>
      </header>
      {!current
        ? zone.error ? <Failed error={zone.error} retry={zone.reload} /> : <Loading />
        : (
          <article class="settings-form">
            <Form key={JSON.stringify(current)} fields={fields} initial={{ ...current }} onSubmit={save} test="flapping-form" />
          </article>
        )}
    </section>
  );
}
