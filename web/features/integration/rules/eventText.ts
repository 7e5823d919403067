/** The texts of a rule event (`GET /rule_events`) in the current language, with the console's own where the broker gives none. */
import { getLocale, t } from '../../../lib/i18n.ts';
import type { RuleEvent } from './rules.tsx';
import './messages.ts';

// The broker sends empty Chinese texts for its alarm events (emqx_rule_events.erl at v5.8.9,
// event_info_alarm_activated/0), so the console brings its own.
const OWN_TEXTS: Record<string, string> = { '$events/sys/alarm_activated': 'rules.event.alarmActivated', '$events/sys/alarm_deactivated': 'rules.event.alarmDeactivated' };

/** An event's title or description in the current language: the broker's, else the console's, else English. */
export function eventText(e: RuleEvent, part: 'title' | 'description'): string {
  const own = OWN_TEXTS[e.event];
  return e[part][getLocale()] || (own ? t(`${own}.${part}`) : '') || e[part].en || e.event;
}
