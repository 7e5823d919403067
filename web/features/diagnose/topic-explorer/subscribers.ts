/**
 * Who receives a message on one concrete topic, asked the way the broker routes it. `/subscriptions`
 * has no "which filters match this topic" query: its `match_topic` takes a filter and lists the
 * subscriptions inside it (emqx_mgmt_api_subscriptions.erl, fuzzy `emqx_topic:match(Subscribed,
 * Filter)`), so `load/7/data` finds only an equal subscription. Instead the cluster's route filters
 * come from `/topics` (every page), are matched against the topic here, and each matching filter's
 * subscriptions are asked with `topic=` (an exact filter); a shared route `$share/g/f` with
 * `share_group=g` as well (emqx_mgmt_api_topics.erl formats shared routes so, at v5.8.9).
 */
import { api } from '../../../lib/api.ts';
import { fetchAll } from '../../../lib/fetchAll.ts';
import { topicMatches } from '../websocket/monitors.ts';

export interface Subscription { clientid: string; topic: string; qos: number; node?: string }
interface Route { topic: string }
interface Page { data: Subscription[]; meta: { hasnext?: boolean; count?: number } }

/** A route filter that matches the topic, and its share group when shared. */
export interface MatchedFilter { filter: string; group?: string }

/** The distinct route filters of `routes` that `topic` matches [MQTT-4.7], shared ones split. */
export function matchingFilters(routes: readonly Route[], topic: string): MatchedFilter[] {
  const found = new Map<string, MatchedFilter>();
  for (const { topic: route } of routes) {
    if (found.has(route)) continue;
    const share = /^\$share\/([^/]+)\/(.+)$/.exec(route);
    const matched: MatchedFilter = share ? { filter: share[2], group: share[1] } : { filter: route };
    if (topicMatches(matched.filter, topic)) found.set(route, matched);
  }
  return [...found.values()];
}

/** At most this many matching filters are asked at the same time. */
const PARALLEL = 4;

/**
 * The subscriptions that receive `topic`: up to `limit` rows, and whether there are more (a
 * filter with more subscriptions than asked, or more rows than `limit` in all).
 */
export async function subscribersOf(topic: string, limit: number, signal: AbortSignal): Promise<{ rows: Subscription[]; more: boolean; filters: number }> {
  const filters = matchingFilters(await fetchAll<Route>('/topics', {}, { signal }), topic);
  const pages: Page[] = [];
  for (let i = 0; i < filters.length; i += PARALLEL) {
    pages.push(...await Promise.all(filters.slice(i, i + PARALLEL).map(({ filter, group }) =>
      api.get<Page>('/subscriptions', { params: { topic: filter, share_group: group, page: 1, limit }, signal }))));
  }
  const rows = pages.flatMap((page) => page.data);
  return { rows: rows.slice(0, limit), more: rows.length > limit || pages.some((page) => page.meta.hasnext), filters: filters.length };
}
