// Flapping detection (emqx_flapping): when enabled in the global zone, disconnects are counted
// per client id within `window_time`; reaching `max_count` bans the client id for `ban_time`
// (by "flapping detector", visible in GET /banned), so its next CONNECT is refused.
import type { Aedes } from 'aedes';
import type { Store } from '../store/index.ts';

export function installFlapping(broker: Aedes, store: Store): void {
  const counts = new Map<string, { since: number; count: number }>();
  broker.on('clientDisconnect', (client) => {
    const settings = store.zone.flapping();
    if (!settings.enable || settings.maxCount < 1) return;
    const now = store.clock.now();
    let entry = counts.get(client.id);
    if (!entry || now - entry.since > settings.windowMs) {
      entry = { since: now, count: 0 };
      counts.set(client.id, entry);
    }
    entry.count++;
    // Old windows are forgotten so the map stays small.
    if (counts.size > 10_000) {
      for (const [id, e] of counts) if (now - e.since > settings.windowMs) counts.delete(id);
    }
    if (entry.count < settings.maxCount) return;
    counts.delete(client.id);
    // A ban whose save fails is undone and reported by the store; nothing to answer here.
    store.banned.put({
      as: 'clientid', who: client.id, by: 'flapping detector', reason: 'flapping is detected',
      at: now, until: now + settings.banMs,
    }).catch(() => undefined);
  });
}
