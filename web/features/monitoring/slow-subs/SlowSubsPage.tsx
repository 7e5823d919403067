/**
 * The Slow subscriptions screen: whether the statistics run and with which settings (from
 * `GET /slow_subscriptions/settings`), above the ranking.
 */
import { Link } from 'wouter';
import { api } from '../../../lib/api.ts';
import { formatDuration } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { useRemote } from '../../../lib/resources.ts';
import { ResourcePage } from '../../../ui/ResourcePage.tsx';
import { durationMs, type SlowSubsSettings } from './settings.ts';
import { slowSubs } from './slowSubs.tsx';
import './messages.ts';

function Status() {
  const remote = useRemote('slow-subscriptions-settings', (signal) => api.get<SlowSubsSettings>('/slow_subscriptions/settings', { signal }));
  const s = remote.data;
  if (!s) return null;
  if (!s.enable) {
    return (
      <p class="notice notice-warn" role="status" data-test="slow-subs-disabled">
        {t('slowSubs.disabled')} <Link href="/slow-sub/config">{t('slowSubs.enableNow')}</Link>
      </p>
    );
  }
  return (
    <p class="muted" data-test="slow-subs-summary">
      {t('slowSubs.summary', {
        type: t(`slowSubs.${s.stats_type}`).toLowerCase(), threshold: formatDuration(durationMs(s.threshold)),
        k: s.top_k_num, expire: formatDuration(durationMs(s.expire_interval)),
      })}
    </p>
  );
}

export default function SlowSubsPage() {
  return (
    <section data-test="slow-subs-screen">
      <header class="page-head"><h2>{t('monitoring.slowSubscriptions')}</h2></header>
      <Status />
      <ResourcePage decl={slowSubs} title={false} />
    </section>
  );
}
