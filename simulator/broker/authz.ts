// Authorization of every PUBLISH and SUBSCRIBE: superusers pass; a JWT `acl` claim is tried
// first; then the enabled sources in chain order (built-in database, file, http; database
// backends are not queried and pass the request on), the first allow/deny deciding; nobody
// deciding → the `no_match` setting. Each source counts its decisions. The cache and the deny
// action (drop or disconnect) live in authz-cache.ts, which asks these decisions on a miss.
import type { Aedes, Client, PublishPacket } from 'aedes';
import type { AuthzRequest, MatchContext } from '../store/access/acl-file.ts';
import { matchRules, normalizeRule, type Rule } from '../store/access/authz.ts';
import { callHttp } from '../store/access/auth-http.ts';
import type { Store } from '../store/index.ts';
import { clientAuth, peerhost } from './authn.ts';
import { connectInfo } from './connect.ts';
import { brokerHooks, connectionFault } from './hooks.ts';
import { parseShare } from '../lib/topic.ts';
import { apiMade } from './sessions.ts';

/** Packets whose publish was denied with deny_action = ignore: accepted, acknowledged, dropped. */
export const droppedPackets = new WeakSet<object>();

/** The error a denied request is refused with. */
export class NotAuthorized extends Error {
  constructor() {
    super('not authorized');
  }
}

// The acl claim in either of EMQX's formats: a rule list, or {pub, sub, all} topic lists (allow).
function claimRules(acl: unknown): Rule[] {
  if (Array.isArray(acl)) {
    return acl.flatMap((r, i) => {
      try {
        return [normalizeRule(r as Record<string, unknown>, `acl ${i}`)];
      } catch {
        return [];
      }
    });
  }
  if (typeof acl !== 'object' || acl === null) return [];
  const legacy = acl as Record<string, unknown>;
  const rules: Rule[] = [];
  for (const [key, action] of [['pub', 'publish'], ['publish', 'publish'], ['sub', 'subscribe'], ['subscribe', 'subscribe'], ['all', 'all']] as const) {
    const topics = legacy[key];
    if (Array.isArray(topics)) for (const topic of topics) if (typeof topic === 'string') rules.push({ permission: 'allow', action, topic, qos: [0, 1, 2], retain: 'all' });
  }
  return rules;
}

function contextOf(store: Store, client: Client): MatchContext {
  return {
    clientid: client.id,
    username: connectInfo(client)?.username ?? store.mqtt.sessions.get(client.id)?.username ?? null,
    peerhost: peerhost(client),
  };
}

/** The decision for one request of a connected client. */
export async function authorize(store: Store, client: Client, req: AuthzRequest): Promise<'allow' | 'deny'> {
  const auth = clientAuth(client);
  if (auth.superuser) return 'allow';
  const ctx = contextOf(store, client);
  if (auth.acl !== undefined && (auth.aclExpiresAt == null || auth.aclExpiresAt > store.clock.now())) {
    const decided = matchRules(claimRules(auth.acl), ctx, req);
    if (decided) return decided;
  }
  for (const source of store.authz.enabledSources()) {
    let decided: 'allow' | 'deny' | null = null;
    if (source.type === 'built_in_database') decided = store.authz.checkBuiltIn(ctx, req);
    else if (source.type === 'file') decided = store.authz.checkFile(source, ctx, req);
    else if (source.type === 'http') {
      const answer = await callHttp(source, {
        clientid: ctx.clientid, username: ctx.username, peerhost: ctx.peerhost, topic: req.topic,
        action: req.action, qos: String(req.qos), retain: String(req.retain),
      });
      decided = answer.result === 'ignore' ? null : answer.result;
    }
    store.authz.counter(source.type as string).count(decided ?? 'nomatch');
    if (decided) return decided;
  }
  return store.authz.settings().no_match;
}

/**
 * The topic a request is authorized on, or null when it is refused outright. A subscription to
 * `$share/{group}/{filter}` or `$queue/{filter}` is authorized on its filter (emqx_channel.erl
 * v5.5.1 do_check_sub_authzs, emqx_topic:get_shared_real_topic); a `$delayed/{seconds}/{topic}` on
 * its topic, and one without a topic is denied (emqx_access_control.erl authorize/3). The same
 * at v5.8.9 and 6.2.2. The authorization cache keeps the decision under this topic too.
 */
export function authorizationTopic(topic: string, action: 'publish' | 'subscribe'): string | null {
  const real = action === 'subscribe' ? parseShare(topic)?.topic ?? topic : topic;
  if (!real.startsWith('$delayed/')) return real;
  const slash = real.indexOf('/', 9);
  return slash < 0 ? null : real.slice(slash + 1);
}

/** The decision on one PUBLISH of a connected client to `topic` (its authorization topic): null allows, NotAuthorized refuses. */
export function decidePublish(store: Store, client: Client, packet: PublishPacket, topic: string): Promise<NotAuthorized | null> {
  return authorize(store, client, { action: 'publish', topic, qos: packet.qos ?? 0, retain: packet.retain ?? false })
    .then((d) => (d === 'allow' ? null : new NotAuthorized()), () => new NotAuthorized());
}

/**
 * Replaces Aedes' allow-everything subscribe hook with the real decisions; the publish decision
 * is made through the cache (authz-cache.ts), which calls decidePublish.
 */
export function installAuthz(broker: Aedes, store: Store): void {
  broker.authorizeSubscribe = (client, sub, callback) => {
    // Subscriptions the REST API makes for a client are not authorized (EMQX's channel call).
    if (apiMade.has(sub)) {
      callback(null, sub);
      return;
    }
    const topic = authorizationTopic(sub.topic, 'subscribe');
    if (topic === null) {
      callback(null, null);
      return;
    }
    authorize(store, client, { action: 'subscribe', topic, qos: sub.qos ?? 0, retain: false })
      .then((d) => callback(null, d === 'allow' ? sub : null), () => callback(null, null))
      .catch((err: unknown) => connectionFault(broker, client, err));
  };

  // Denied publishes that are ignored never reach subscribers (nor the retained store).
  brokerHooks(broker).message.add('authz', (packet, _client, done) => {
    if (!droppedPackets.has(packet)) return false;
    done?.(null);
    return true;
  });
}
