/** How an API key is shown: its status, its expiry ('Never' or a time, tagged when expired) and its detail. */
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { Descriptions } from '../../../ui/Descriptions.tsx';
import { StatusTag } from '../../../ui/StatusTag.tsx';
import type { ApiKey } from './apiKeys.tsx';
import './messages.ts';

export function Status({ apiKey }: { apiKey: ApiKey }) {
  return <StatusTag status={apiKey.enable ? 'enabled' : 'disabled'} />;
}

export function Expires({ apiKey }: { apiKey: ApiKey }) {
  return (
    <span class="nowrap">
      {apiKey.expired_at === 'infinity' ? t('apiKeys.never') : formatDateTime(apiKey.expired_at)}
      {apiKey.expired && <> <span class="tag tag-bad" data-test="api-key-expired">{t('apiKeys.expired')}</span></>}
    </span>
  );
}

/** The detail drawer: everything but the secret, which exists only in the creation answer. */
export function ApiKeyDetail({ apiKey: k }: { apiKey: ApiKey }) {
  return (
    <Descriptions test="api-key-detail" items={[
      ['apiKeys.name', k.name],
      ['apiKeys.apiKey', <code>{k.api_key}</code>],
      ['apiKeys.secretKey', <span class="muted">{t('apiKeys.secretOnce')}</span>],
      ['apiKeys.status', <Status apiKey={k} />],
      ['apiKeys.expiredAt', <Expires apiKey={k} />],
      ['apiKeys.createdAt', formatDateTime(k.created_at)],
      ['apiKeys.desc', k.desc],
    ]} />
  );
}
