/**
 * System > License (Enterprise): the license in force (`GET /license`), a new key
 * (`POST /license {key}`) and the connection usage alarm watermarks (`GET|PUT /license/setting`).
 */
import { api } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { touch, useRemote } from '../../../lib/resources.ts';
import { toast } from '../../../lib/toasts.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Form } from '../../../ui/Form.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import './messages.ts';

interface License {
  customer?: string;
  email?: string;
  type?: string;
  customer_type?: number;
  max_connections?: number;
  start_at?: string;
  expiry_at?: string;
  expiry?: boolean;
}
interface Setting { connection_low_watermark: string; connection_high_watermark: string }

/** EMQX writes the watermarks as percentages ("75%"). */
const percent = (value: unknown) => (/^\d{1,3}(\.\d+)?%$/.test(String(value)) ? undefined : t('license.percentFormat'));

export default function LicensePage() {
  const license = useRemote('license', (signal) => api.get<License>('/license', { signal }));
  const setting = useRemote('license-setting', (signal) => api.get<Setting>('/license/setting', { signal }));
  const l = license.data;
  return (
    <section data-test="license-page">
      <header class="page-head"><h2>{t('license.title')}</h2></header>
      {license.error ? <Failed error={license.error} retry={license.reload} /> : !l ? <Loading /> : (
        <Descriptions test="license-info" items={[
          ['license.customer', l.customer], ['license.email', l.email], ['license.type', l.type],
          ['license.maxConnections', l.max_connections], ['license.startAt', formatDateTime(l.start_at)],
          ['license.expiryAt', formatDateTime(l.expiry_at)], ['license.expired', l.expiry],
        ]} />
      )}
      <h3 class="section-title">{t('license.update')}</h3>
      <Form fields={[{ name: 'key', label: 'license.key', kind: 'textarea', required: true }]} test="license-key-form" submitText={t('license.update')}
        onSubmit={async (v) => (await api.post('/license', { key: String(v.key).trim() }), toast(t('license.updated')), touch('license'))} />
      <h3 class="section-title">{t('license.settings')}</h3>
      {setting.error ? <Failed error={setting.error} retry={setting.reload} /> : !setting.data ? <Loading /> : (
        <Form key={JSON.stringify(setting.data)} test="license-setting-form" initial={{ ...setting.data }}
          fields={[
            { name: 'connection_low_watermark', label: 'license.low', required: true, rules: [percent] },
            { name: 'connection_high_watermark', label: 'license.high', required: true, rules: [percent] },
          ]}
          onSubmit={async (v) => (await api.put('/license/setting', v), toast(t('license.settingsSaved')), touch('license-setting'))} />
      )}
    </section>
  );
}
