// The per-client authorization cache of EMQX (`authorization.cache`: up to 32 entries, 1 minute
// each): every publish and subscribe check is remembered as {access, topic, result}, so
// GET /clients/{clientid}/authorization/cache has the real entries, and the authorize counters
// (client.authorize, authorization.allow/deny, cache_hit/miss) move. The decisions themselves are
// still Aedes' defaults until an authorizer module wraps these hooks.
import type { Aedes, Client } from 'aedes';
import type { Store } from '../store/index.ts';

export interface AuthzCacheEntry {
  access: 'publish' | 'subscribe';
  result: 'allow' | 'deny';
  topic: string;
  updated_time: number;
}

// EMQX defaults: authorization.cache.max_size = 32, ttl = 1m.
const MAX_SIZE = 32;
const TTL_MS = 60_000;

const caches = new WeakMap<Client, Map<string, AuthzCacheEntry>>();

/** The live cache entries of a connection, oldest first. */
export function authzCacheOf(client: Client, now: number): AuthzCacheEntry[] {
  return [...(caches.get(client)?.values() ?? [])].filter((e) => now - e.updated_time < TTL_MS);
}

/** Empties a connection's cache (DELETE /clients/{clientid}/authorization/cache). */
export function clearAuthzCache(client: Client): void {
  caches.get(client)?.clear();
}

/** Wraps the publish and subscribe authorization hooks with the cache and its counters. */
export function installAuthzCache(broker: Aedes, store: Store): void {
  const metrics = store.mqtt.metrics;
  const { clock } = store;

  // The cached decision, if a fresh one exists.
  function lookup(client: Client, access: AuthzCacheEntry['access'], topic: string): AuthzCacheEntry | undefined {
    metrics['client.authorize']++;
    const entry = caches.get(client)?.get(`${access}:${topic}`);
    if (entry && clock.now() - entry.updated_time < TTL_MS) {
      metrics['authorization.cache_hit']++;
      return entry;
    }
    metrics['authorization.cache_miss']++;
    return undefined;
  }

  function remember(client: Client, access: AuthzCacheEntry['access'], topic: string, allowed: boolean): void {
    metrics[allowed ? 'authorization.allow' : 'authorization.deny']++;
    let cache = caches.get(client);
    if (!cache) {
      cache = new Map();
      caches.set(client, cache);
    }
    const key = `${access}:${topic}`;
    cache.delete(key);
    if (cache.size >= MAX_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, { access, result: allowed ? 'allow' : 'deny', topic, updated_time: clock.now() });
  }

  const authorizePublish = broker.authorizePublish;
  broker.authorizePublish = (client, packet, callback) => {
    // Messages the broker publishes itself (wills aside) are not authorized in EMQX either.
    if (!client) {
      authorizePublish.call(broker, client, packet, callback);
      return;
    }
    const cached = lookup(client, 'publish', packet.topic);
    if (cached) {
      metrics[cached.result === 'allow' ? 'authorization.allow' : 'authorization.deny']++;
      callback(cached.result === 'allow' ? null : new Error('not authorized'));
      return;
    }
    authorizePublish.call(broker, client, packet, (err) => {
      remember(client, 'publish', packet.topic, !err);
      callback(err);
    });
  };

  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    const cached = lookup(client, 'subscribe', sub.topic);
    if (cached) {
      metrics[cached.result === 'allow' ? 'authorization.allow' : 'authorization.deny']++;
      // A refused filter is granted 0x80 [MQTT-3.9.3-2].
      callback(null, cached.result === 'allow' ? sub : null);
      return;
    }
    authorizeSubscribe.call(broker, client, sub, (err, granted) => {
      remember(client, 'subscribe', sub.topic, !err && !!granted);
      callback(err, granted);
    });
  };
}
