// The bridge from REST handlers to the broker (DESIGN.md §4): kicking a client closes its socket
// and discards its session, subscribing on a client's behalf really subscribes it in Aedes, the
// publish API goes through broker.publish, and deleting a retained message removes it from
// Aedes' retained store. Clients of the other (simulated) nodes are changed in the store.
import type { Aedes, Client, Subscription } from 'aedes';
import { apiError } from '../plugins/errors.ts';
import type { Store } from '../store/index.ts';
import { messageId, type Session } from '../store/messaging/mqtt.ts';
import { parseShare, topicFilterProblem } from '../lib/topic.ts';
import { authzCacheOf, clearAuthzCache, type AuthzCacheEntry } from './authz-cache.ts';
import { kickClient } from './session-queue.ts';
import { apiMade, publishedBy } from './sessions.ts';

export interface SubscribeRequest {
  topic: string;
  qos: number;
  nl: number;
  rap: number;
  rh: number;
}

export interface SubscribeResult extends SubscribeRequest {
  node: string;
  clientid: string;
}

export interface PublishRequest {
  topic: string;
  payload: Buffer;
  qos: 0 | 1 | 2;
  retain: boolean;
}

export interface Bridge {
  /** DELETE /clients/{clientid}: closes the connection and discards the session. */
  kick(clientid: string): Promise<void>;
  subscribe(clientid: string, requests: readonly SubscribeRequest[]): Promise<SubscribeResult[]>;
  unsubscribe(clientid: string, topics: readonly string[]): Promise<void>;
  /** Publishes as the REST API; `matched` tells whether anybody subscribes to the topic. */
  publish(request: PublishRequest): Promise<{ id: string; matched: boolean }>;
  /** Removes one retained message; false when the topic has none. */
  deleteRetained(topic: string): Promise<boolean>;
  clearRetained(): Promise<void>;
  authzCache(clientid: string): AuthzCacheEntry[];
  clearAuthzCache(clientid: string): void;
}

interface Persistence {
  storeRetained(packet: object): Promise<void>;
  cleanSubscriptions(client: { id: string }): Promise<unknown>;
  removeSubscriptions(client: { id: string }, topics: string[]): Promise<void>;
  outgoingStream(client: { id: string }): AsyncIterable<{ messageId?: number }>;
  outgoingClearMessageId(client: { id: string }, packet: object): Promise<unknown>;
}

function call(run: (done: (err?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => run((err) => (err ? reject(err) : resolve())));
}

/** Why a subscription request cannot be made, or null (§9.3: no_local is refused on `$share`). */
export function subscribeProblem(request: SubscribeRequest): string | null {
  if (topicFilterProblem(request.topic)) return 'topic_filter_invalid';
  if (request.nl && parseShare(request.topic)) return 'Invalid topic filter: no_local on a shared subscription';
  return null;
}

export function createBridge(aedes: Aedes, store: Store): Bridge {
  const { mqtt, clients, clock, conditions } = store;
  const persistence = (aedes as unknown as { persistence: Persistence }).persistence;

  /** The connected Aedes client of a node-1 session; an offline session has no channel (404). */
  function channel(session: Session): Client {
    if (!session.client) throw apiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found');
    return session.client;
  }

  // Forgets a persistent session in Aedes too: stored subscriptions and queued messages.
  async function forgetSession(clientid: string): Promise<void> {
    const ref = { id: clientid };
    await persistence.cleanSubscriptions(ref);
    for await (const packet of persistence.outgoingStream(ref)) await persistence.outgoingClearMessageId(ref, packet);
  }

  // An empty retained payload is how a retained message is removed [MQTT-3.3.1-10].
  async function unretain(topic: string): Promise<void> {
    await persistence.storeRetained({ cmd: 'publish', topic, payload: Buffer.alloc(0), qos: 0, retain: true });
    mqtt.retained.delete(topic);
  }

  return {
    async kick(clientid) {
      const located = clients.get(clientid);
      if (located.fixture) {
        located.fixture.remove(clientid);
        conditions.checkLicense();
        return;
      }
      const session = located.session as Session;
      const client = session.client;
      if (client) await kickClient(client);
      const persistent = !session.clean_start;
      // A clean session ended with its connection; a persistent one is discarded here.
      if (mqtt.sessions.get(clientid) === session && mqtt.discard(clientid) && persistent) mqtt.metrics['session.discarded']++;
      if (persistent) await forgetSession(clientid);
      conditions.checkLicense();
    },

    async subscribe(clientid, requests) {
      const located = clients.get(clientid);
      for (const request of requests) {
        const problem = subscribeProblem(request);
        if (problem) throw apiError(400, 'INVALID_PARAMETER', problem);
      }
      const result = (r: SubscribeRequest): SubscribeResult => ({ ...r, node: located.node, clientid });
      if (located.fixture) {
        const fixture = located.fixture;
        const record = located.record as Parameters<typeof fixture.subscribe>[0];
        for (const r of requests) fixture.subscribe(record, r.topic, { qos: r.qos, nl: r.nl, rap: r.rap, rh: r.rh });
        return requests.map(result);
      }
      const client = channel(located.session as Session);
      const subs = requests.map((r) => ({ topic: r.topic, qos: r.qos, nl: r.nl === 1, rap: r.rap === 1, rh: r.rh }) as Subscription);
      for (const sub of subs) apiMade.add(sub);
      await call((done) => client.subscribe(subs, done));
      return requests.map(result);
    },

    async unsubscribe(clientid, topics) {
      const located = clients.get(clientid);
      if (located.fixture) {
        const fixture = located.fixture;
        for (const topic of topics) fixture.unsubscribe(located.record as Parameters<typeof fixture.unsubscribe>[0], topic);
        return;
      }
      const client = channel(located.session as Session);
      const list = [...topics];
      // Aedes forgets stored subscriptions only for UNSUBSCRIBE packets; do it for the API too.
      if (!client.clean) await persistence.removeSubscriptions(client, list);
      apiMade.add(list);
      await call((done) => client.unsubscribe(list as never, done));
    },

    async publish(request) {
      const matched = mqtt.hasSubscriber(request.topic);
      const packet = { cmd: 'publish' as const, topic: request.topic, payload: request.payload, qos: request.qos, retain: request.retain, dup: false };
      // EMQX's publish API sends the message as `http_api`.
      publishedBy.set(packet, { clientid: 'http_api', username: null });
      await call((done) => aedes.publish(packet, done));
      return { id: messageId(clock.now()), matched };
    },

    async deleteRetained(topic) {
      if (!mqtt.retained.has(topic)) return false;
      await unretain(topic);
      return true;
    },

    async clearRetained() {
      for (const topic of [...mqtt.retained.keys()]) await unretain(topic);
    },

    authzCache(clientid) {
      const client = clients.get(clientid).session?.client;
      return client ? authzCacheOf(client, clock.now()) : [];
    },

    clearAuthzCache(clientid) {
      const client = clients.get(clientid).session?.client;
      if (client) clearAuthzCache(client);
    },
  };
}
