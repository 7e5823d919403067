/** Adding an ExHook server (`POST /exhooks`), then back to the list. */
import { api } from '../../../lib/api.ts';
import { t } from '../../../lib/i18n.ts';
import { navigate } from '../../../lib/navigation.ts';
import { touch } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Form } from '../../../ui/Form.tsx';
import { exhookFields, NEW_SERVER, toBody, toValues } from './exhookForm.ts';

export default function ExhookCreate() {
  const save = async (values: Record<string, unknown>) => {
    await api.post('/exhooks', toBody(values));
    toast(t('exhook.created'));
    touch('exhooks');
    await navigate('/exhook', { force: true });
  };
  return (
    <section data-test="exhook-create-page">
      <header class="page-head"><h2>{t('exhook.add')}</h2></header>
      <article class="settings-form">
        <Form fields={exhookFields(true)} initial={toValues(NEW_SERVER)} onSubmit={save} submitText={t('common.create')}
          onCancel={() => void navigate('/exhook')} test="exhook-form" draft="exhook-create" />
      </article>
    </section>
  );
}
