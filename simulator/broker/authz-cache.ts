// The per-client authorization cache of EMQX (`authorization.cache`: enable, max_size, ttl,
// excludes from the authorization settings): every publish and subscribe decision of the
// authorizer (broker/authz.ts, asked on a miss) is remembered as {access, topic, result}, so
// GET /clients/{clientid}/authorization/cache has the real entries, and the authorize counters
// (client.authorize, authorization.allow/deny, cache_hit/miss) move. The deny action is applied
// here too: a denied publish is dropped (ignore) or ends the connection (disconnect); a denied
// subscription is granted 0x80 (0x87 in MQTT 5), or with disconnect the whole SUBSCRIBE ends the
// connection.
import type { Aedes, Client, Subscription } from 'aedes';
import type { Store } from '../store/index.ts';
import { topicMatches } from '../lib/topic.ts';
import type { AuthzSettings } from '../store/access/authz.ts';
import { authorizationTopic, decidePublish, droppedPackets, NotAuthorized } from './authz.ts';
import { aedesVerdict, brokerHooks, type Verdict } from './hooks.ts';
import { RC_NOT_AUTHORIZED } from './reason-codes.ts';

export interface AuthzCacheEntry {
  access: 'publish' | 'subscribe';
  result: 'allow' | 'deny';
  topic: string;
  updated_time: number;
}

const caches = new WeakMap<Client, Map<string, AuthzCacheEntry>>();
// The configured TTL, read when the cache is listed (set by the installer).
let ttlMs: () => number = () => 60_000;

/** The live cache entries of a connection, oldest first. */
export function authzCacheOf(client: Client, now: number): AuthzCacheEntry[] {
  const ttl = ttlMs();
  return [...(caches.get(client)?.values() ?? [])].filter((e) => now - e.updated_time < ttl);
}

/** Empties a connection's cache (DELETE /clients/{clientid}/authorization/cache). */
export function clearAuthzCache(client: Client): void {
  caches.get(client)?.clear();
}

/** Empties the cache of every connection of this node (DELETE /authorization/cache). */
export function clearAllAuthzCaches(store: Store): void {
  for (const session of store.mqtt.sessions.values()) if (session.client) clearAuthzCache(session.client);
}

/**
 * Makes the publish decision of the hook chain (cache, then the authorizer on a miss) and wraps
 * the subscribe authorization hook with the cache and its counters.
 */
export function installAuthzCache(broker: Aedes, store: Store): void {
  const metrics = store.mqtt.metrics;
  const { clock } = store;
  ttlMs = () => store.authz.cacheTtlMs();

  // The cache settings, read once per settings object (PUT /authorization/settings replaces it).
  let seen: Readonly<AuthzSettings> | null = null;
  let enabled = false;
  let excludes: readonly string[] = [];
  let maxSize = 0;
  let ttl = 0;
  const settings = (): void => {
    const current = store.authz.current();
    if (current === seen) return;
    seen = current;
    enabled = current.cache.enable;
    excludes = current.cache.excludes;
    maxSize = current.cache.max_size;
    ttl = store.authz.cacheTtlMs();
  };

  function cacheable(topic: string): boolean {
    settings();
    if (!enabled) return false;
    for (let i = 0; i < excludes.length; i++) if (topicMatches(excludes[i], topic)) return false;
    return true;
  }

  // The cache key is the action with its QoS and retain flag and the topic, as emqx_authz_cache.erl
  // (v5.5.1) cache_k({PubSub, Topic}) keys it: a decision for a retained or QoS 2 publish is not
  // one for a plain QoS 0 publish. A QoS 0 publish without retain is keyed by its topic alone (no
  // string built for the common message); the others behind a control character no valid topic
  // holds: publish \u0001, subscribe \u0000, then the QoS (and the retain flag).
  const keyOf = (access: AuthzCacheEntry['access'], topic: string, qos: number, retain: boolean) => {
    if (access === 'subscribe') return `\u0000${qos}${topic}`;
    return qos === 0 && !retain ? topic : `\u0001${qos}${retain ? 1 : 0}${topic}`;
  };

  // The cached decision, if a fresh one exists.
  function lookup(client: Client, access: AuthzCacheEntry['access'], topic: string, qos: number, retain: boolean): AuthzCacheEntry | undefined {
    metrics['client.authorize']++;
    if (!cacheable(topic)) return undefined;
    const entry = caches.get(client)?.get(keyOf(access, topic, qos, retain));
    if (entry && entry.access === access && clock.now() - entry.updated_time < ttl) {
      metrics['authorization.cache_hit']++;
      return entry;
    }
    metrics['authorization.cache_miss']++;
    return undefined;
  }

  function remember(client: Client, access: AuthzCacheEntry['access'], topic: string, qos: number, retain: boolean, allowed: boolean): void {
    metrics[allowed ? 'authorization.allow' : 'authorization.deny']++;
    if (!cacheable(topic)) return;
    let cache = caches.get(client);
    if (!cache) {
      cache = new Map();
      caches.set(client, cache);
    }
    const key = keyOf(access, topic, qos, retain);
    cache.delete(key);
    while (cache.size >= maxSize) cache.delete(cache.keys().next().value as string);
    cache.set(key, { access, result: allowed ? 'allow' : 'deny', topic, updated_time: clock.now() });
  }

  // A denied publish: dropped after its acknowledgement, or the connection is closed.
  function denyPublish(packet: object): Verdict {
    metrics['packets.publish.auth_error']++;
    if (store.authz.current().deny_action === 'disconnect') return new NotAuthorized();
    droppedPackets.add(packet);
    return null;
  }

  brokerHooks(broker).decide((client, packet) => {
    // Messages the broker publishes itself (wills aside) are not authorized in EMQX either.
    if (!client) return aedesVerdict(client, packet);
    const topic = authorizationTopic(packet.topic, 'publish');
    if (topic === null) {
      metrics['client.authorize']++;
      metrics['authorization.deny']++;
      return denyPublish(packet);
    }
    const qos = packet.qos ?? 0;
    const retain = packet.retain ?? false;
    const cached = lookup(client, 'publish', topic, qos, retain);
    if (cached) {
      const allowed = cached.result === 'allow';
      metrics[allowed ? 'authorization.allow' : 'authorization.deny']++;
      return allowed ? null : denyPublish(packet);
    }
    return decidePublish(store, client, packet, topic).then((err) => {
      remember(client, 'publish', topic, qos, retain, !err);
      return err ? denyPublish(packet) : null;
    });
  });

  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    const topic = authorizationTopic(sub.topic, 'subscribe') ?? sub.topic;
    const cached = lookup(client, 'subscribe', topic, sub.qos ?? 0, false);
    if (cached) {
      metrics[cached.result === 'allow' ? 'authorization.allow' : 'authorization.deny']++;
      // A refused filter is granted 0x80 [MQTT-3.9.3-2].
      callback(null, cached.result === 'allow' ? sub : null);
      return;
    }
    authorizeSubscribe.call(broker, client, sub, (err, granted) => {
      remember(client, 'subscribe', topic, sub.qos ?? 0, false, !err && !!granted);
      callback(err, granted);
    });
  };

  // emqx_channel.erl (v5.5.1) check_sub_authzs decides every filter of a SUBSCRIBE first; with
  // deny_action = disconnect one refused filter ends the connection (DISCONNECT 0x87 in MQTT 5,
  // mqtt5.ts) before process_subscribe, so none of the packet's filters is made. Aedes asks for
  // the filters of one packet in one synchronous loop, so the questions of one turn are one packet.
  const decideEach = broker.authorizeSubscribe;
  const open = new WeakMap<Client, SubscribeBatch>();
  broker.authorizeSubscribe = (client, sub, callback) => {
    if (!client || store.authz.current().deny_action !== 'disconnect') {
      decideEach.call(broker, client, sub, callback);
      return;
    }
    let batch = open.get(client);
    if (!batch) {
      const created: SubscribeBatch = { waiting: [], pending: 0, closed: false, refused: false };
      batch = created;
      open.set(client, created);
      process.nextTick(() => {
        open.delete(client);
        created.closed = true;
        settle(created, client);
      });
    }
    const entry: SubscribeBatch['waiting'][number] = { callback, err: null, granted: null };
    const current = batch;
    current.waiting.push(entry);
    current.pending++;
    decideEach.call(broker, client, sub, (err, granted) => {
      entry.err = err;
      entry.granted = granted ?? null;
      // (Filters the zone's caps refuse never get here: mqtt-limits.ts answers them outside.)
      if (!err && !granted) current.refused = true;
      current.pending--;
      settle(current, client);
    });
  };

  function settle(batch: SubscribeBatch, client: Client): void {
    if (!batch.closed || batch.pending > 0) return;
    // DISCONNECT 0x87 in MQTT 5, a plain close before; the SUBACK that Aedes then writes for the
    // packet, every filter refused, finds the connection closed.
    if (batch.refused) client.disconnect({ reasonCode: RC_NOT_AUTHORIZED });
    for (const entry of batch.waiting.splice(0)) {
      if (batch.refused) entry.callback(null, null);
      else entry.callback(entry.err, entry.granted);
    }
  }
}

/** The filters of one SUBSCRIBE while deny_action = disconnect: answered together. */
interface SubscribeBatch {
  waiting: { callback: (err: Error | null, granted: Subscription | null) => void; err: Error | null; granted: Subscription | null }[];
  pending: number;
  closed: boolean;
  refused: boolean;
}
