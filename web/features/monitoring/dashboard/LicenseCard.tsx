/**
 * The license card (`GET /license`, emqx-api-part1 §7): customer, contact, dates, connection
 * usage against the quota, trial and expired marks. Open-source brokers before 5.9 have no
 * license endpoint and answer 404: the card then stays away without a word.
 */
import { isNotFound } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import type { Remote } from '../../../lib/resources.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { Failed, Loading } from '../../../ui/States.tsx';
import './messages.ts';

export interface License {
  customer?: string;
  email?: string;
  start_at?: string;
  expiry_at?: string;
  max_connections?: number;
  /** 6.x counts sessions instead of connections. */
  max_sessions?: number;
  type?: string;
  expiry?: boolean;
}

export function LicenseCard({ license, connections }: { license: Remote<License>; connections: number | undefined }) {
  if (isNotFound(license.error)) return null;
  const data = license.data;
  if (!data) {
    return (
      <article class="panel" data-test="license-card">
        <h3>{t('dashboard.license')}</h3>
        {license.error ? <Failed error={license.error} retry={license.reload} /> : <Loading />}
      </article>
    );
  }
  const quota = data.max_connections ?? data.max_sessions;
  const used = connections ?? 0;
  return (
    <article class="panel" data-test="license-card">
      <header class="panel-head">
        <h3>{t('dashboard.license')}</h3>
        <span class={data.type === 'trial' ? 'tag tag-warn' : 'tag tag-ok'} data-test="license-type">
          {t(data.type === 'trial' ? 'dashboard.trial' : 'dashboard.official')}
        </span>
      </header>
      {data.expiry && <p class="notice notice-danger" role="alert" data-test="license-expired">{t('dashboard.expired')}</p>}
      <Descriptions test="license-details" items={[
        ['dashboard.customer', data.customer],
        ['dashboard.email', data.email],
        ['dashboard.issuedAt', data.start_at],
        ['dashboard.expireAt', data.expiry_at],
      ]} />
      <div class="usage" data-test="license-usage">
        <small class="muted">{t('dashboard.connectionUsage')}</small>
        <span>{t('dashboard.usage', { used: formatNumber(used), quota: quota === undefined ? '—' : formatNumber(quota) })}</span>
        {quota ? <progress value={Math.min(used, quota)} max={quota} /> : null}
      </div>
    </article>
  );
}
