/**
 * Delayed publish settings (`GET`/`PUT /mqtt/delayed`, §16): enable and max delayed messages
 * (0 = unlimited). Turning it off deletes every held message on the broker, so that asks first.
 */
import { api } from '../../../lib/api.ts';
import { confirm } from '../../../lib/confirm.ts';
import { t } from '../../../lib/i18n.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { isEmpty, type Rule } from '../../../lib/validators.ts';
import { Form } from '../../../ui/Form.tsx';
import type { FieldDecl } from '../../../ui/resource.ts';
import { Failed, Loading } from '../../../ui/States.tsx';
import './messages.ts';

interface DelayedConfig {
  enable: boolean;
  max_delayed_messages: number;
}

const wholeNonNegative: Rule = (value) =>
  isEmpty(value) || (Number.isSafeInteger(Number(value)) && Number(value) >= 0) ? undefined : t('delayed.maxInvalid');

const fields: FieldDecl[] = [
  { name: 'enable', label: 'delayed.enable', kind: 'switch', help: 'delayed.enableHelp' },
  { name: 'max_delayed_messages', label: 'delayed.max', kind: 'number', required: true, rules: [wholeNonNegative], help: 'delayed.maxHelp' },
];

export default function DelayedSettingsPage() {
  const settings = useRemote('delayed-settings', (signal) => api.get<DelayedConfig>('/mqtt/delayed', { signal }));
  const current = settings.data;

  const save = async (values: Record<string, unknown>) => {
    const next: DelayedConfig = { enable: Boolean(values.enable), max_delayed_messages: Number(values.max_delayed_messages) };
    if (current?.enable && !next.enable && !(await confirm(t('delayed.confirmDisable'), { danger: true }))) return;
    await api.put('/mqtt/delayed', next);
    toast(t('delayed.saved'));
    touch('delayed-settings');
    touch('delayed-messages');
  };

  return (
    <section data-test="delayed-settings-page">
      <header class="page-head"><h2>{t('management.delayedSettings')}</h2></header>
      {!current
        ? settings.error ? <Failed error={settings.error} retry={settings.reload} /> : <Loading />
        : (
          <article class="settings-form">
            {/* A new key after each save, so the saved values become the form's unchanged state. */}
            <Form key={JSON.stringify(current)} fields={fields} initial={{ ...current }} onSubmit={save} test="delayed-settings-form" />
          </article>
        )}
    </section>
  );
}
