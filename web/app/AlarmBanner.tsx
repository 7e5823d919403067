/**
 * The header's alarm count: active alarms from `GET /alarms?activated=true` (envelope A's
 * `meta.count`), refreshed every 30 s while the tab is visible and whenever a screen touches the
 * `alarms` resource (e.g. clearing the history); a link to the alarm page once that screen exists.
 * When the count cannot be read it says so — the server cannot be reached, or the count is
 * unknown — rather than 'No alarm' from an older answer.
 */
import { Link } from 'wouter';
import { api, ApiError } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { useRemote } from '../lib/resources.ts';
import { Icon } from '../ui/Icon.tsx';
import { hasScreen } from './routes.ts';

const ALARM_PAGE = '/alarm/current-alarm';
const INTERVAL_MS = 30_000;

export function AlarmBanner() {
  const alarms = useRemote('alarms', (signal) =>
    api.get<{ data: unknown[]; meta: { count?: number } }>('/alarms', { params: { activated: true, page: 1, limit: 1 }, signal }), '', INTERVAL_MS);
  if (alarms.error) {
    // Status 0: no answer at all (network error or time-out, lib/api.ts).
    const offline = !(alarms.error instanceof ApiError) || alarms.error.status === 0;
    return (
      <span class="alarm-banner active" role="status" data-test="alarm-banner">
        <Icon name="bell" /> <span>{t(offline ? 'header.unreachable' : 'header.alarmsUnknown')}</span>
      </span>
    );
  }
  const count = alarms.data && (alarms.data.meta.count ?? alarms.data.data.length);
  if (count === undefined) return null;
  const text = count > 0 ? t('header.alarms', { count }) : t('header.noAlarm');
  const body = <><Icon name="bell" /> <span>{text}</span></>;
  const cls = count > 0 ? 'alarm-banner active' : 'alarm-banner';
  return hasScreen(ALARM_PAGE) && count > 0
    ? <Link href={ALARM_PAGE} class={cls} data-test="alarm-banner">{body}</Link>
    : <span class={cls} data-test="alarm-banner">{body}</span>;
}
