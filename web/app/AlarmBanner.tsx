/**
 * The header's alarm count: active alarms from `GET /alarms?activated=true` (envelope A's
 * `meta.count`), refreshed every 30 s while the tab is visible; a link to the alarm page once
 * that screen exists.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../lib/api.ts';
import { handleError } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';
import { Icon } from '../ui/Icon.tsx';
import { hasScreen } from './routes.ts';

const ALARM_PAGE = '/alarm/current-alarm';
const INTERVAL_MS = 30_000;

export function AlarmBanner() {
  const [count, setCount] = useState<number | undefined>();
  useEffect(() => {
    let controller = new AbortController();
    const load = () => {
      if (document.hidden) return;
      controller.abort();
      controller = new AbortController();
      api.get<{ data: unknown[]; meta: { count?: number } }>('/alarms', { params: { activated: true, page: 1, limit: 1 }, signal: controller.signal })
        .then((res) => setCount(res.meta.count ?? res.data.length), handleError);
    };
    load();
    const timer = setInterval(load, INTERVAL_MS);
    document.addEventListener('visibilitychange', load);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', load);
      controller.abort();
    };
  }, []);
  if (count === undefined) return null;
  const text = count > 0 ? t('header.alarms', { count }) : t('header.noAlarm');
  const body = <><Icon name="bell" /> <span>{text}</span></>;
  const cls = count > 0 ? 'alarm-banner active' : 'alarm-banner';
  return hasScreen(ALARM_PAGE) && count > 0
    ? <Link href={ALARM_PAGE} class={cls} data-test="alarm-banner">{body}</Link>
    : <span class={cls} data-test="alarm-banner">{body}</span>;
}
