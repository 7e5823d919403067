// Shared subscriptions as EMQX routes them (emqx_shared_sub.erl, v5.5.1 and v5.8.9):
// `$share/<group>/<filter>` and `$queue/<filter>` (group `$queue`), MQTT 3.1.1 and 5. A message
// matching a group's filter goes to one member of that group, picked by the zone's
// shared_subscription_strategy, at the lower of the message's and the member's QoS; a clean session
// that ends with QoS 1 messages unacknowledged hands them to another member. Aedes keeps only a
// subscription to the literal filter (nothing is published there); the groups live here. A persistent
// session stays a member while its client is away and its share waits in the session's queue (EMQX's
// disconnected channel process lives on and queues it); the resumed connection takes its place.
import type { Aedes, Client, Subscription } from 'aedes';
import type { Store } from '../store/index.ts';
import { parseShare, topicFilterProblem } from '../lib/topic.ts';
import { connectInfo } from './connect.ts';
import { brokerHooks, connectionFault, type ForwardPacket } from './hooks.ts';
import { mqttZone } from './mqtt-limits.ts';
import { awaySession, nextPacketId, type SessionState } from './session-queue.ts';
import { RC_PROTOCOL_ERROR, RC_TOPIC_FILTER_INVALID, RC_UNSPECIFIED_ERROR } from './reason-codes.ts';

type Done = () => void;
type Deliver = (packet: SharedDelivery, done: Done) => void;

/** The parts of an Aedes client this module uses beyond its typings. */
interface MemberClient {
  broker: Aedes;
  deliver0: Deliver;
  deliverQoS: Deliver;
  _nextId: number;
  subscriptions: Record<string, { qos: number } | undefined>;
}

/** A message as Aedes routes it (an aedes-packet with the publisher's id when a client sent it). */
interface RoutedPacket {
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
  brokerCounter: number;
  clientId?: string;
  properties?: Record<string, unknown>;
  messageExpiry?: number;
}

/** A subscription object as the parser or a REST call makes it. */
interface Sub {
  topic: string;
  qos: number;
  rh?: number;
  nl?: boolean;
}

interface Member {
  client: Client;
  qos: number;
  rap: boolean;
  /** MQTT 5 Subscription Identifier echoed on deliveries [MQTT-3.3.4-3]. */
  si: number | undefined;
  /** The persistent session of a client that is away: its share is queued there. */
  away?: SessionState;
}

interface Route {
  filter: string;
  groups: Map<string, Group>;
  /** [MQTT-4.7.2-1] a filter starting with a wildcard does not match `$` topics. */
  dollarBlind: boolean;
  listener: (packet: RoutedPacket, done: Done) => void;
}

class Group {
  readonly members: Member[] = [];
  /** round_robin_per_group: the 1-based position of the last pick (emqx_shared_sub's ets counter). */
  next = 0;
  constructor(readonly name: string, readonly route: Route) {}
}

/** round_robin and sticky keep their state per publisher (EMQX: the publishing process). */
interface PublisherState {
  rr: Map<Group, number>;
  sticky: Map<Group, Member>;
}

/** One delivery of a message to one member; Aedes writes it like a routed packet. */
class SharedDelivery {
  readonly cmd = 'publish';
  // Not deduplicated against the copies plain subscriptions deliver (Aedes does so for retained).
  brokerId: string | null = null;
  brokerCounter: number;
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
  dup = false;
  messageId: number | undefined = undefined;
  clientId: string | undefined;
  properties: Record<string, unknown> | undefined;
  messageExpiry: number | undefined;

  constructor(readonly source: RoutedPacket, qos: number, member: Member, readonly group: Group) {
    this.brokerCounter = source.brokerCounter;
    this.topic = source.topic;
    this.payload = source.payload;
    this.qos = qos;
    // Retain As Published, else the flag is cleared for a live message [MQTT-3.3.1-12/13].
    this.retain = member.rap ? source.retain : false;
    this.clientId = source.clientId;
    this.properties = member.si === undefined ? source.properties : { ...source.properties, subscriptionIdentifier: member.si };
    this.messageExpiry = source.messageExpiry;
  }
}

/** QoS 1/2 deliveries to a clean session not acknowledged yet, for redispatch when it ends. */
interface Tracker {
  pending: Set<SharedDelivery>;
  byId: Map<number, SharedDelivery>;
}

/** A SUBSCRIBE's subscriptions held at authorization until all of them have passed Aedes' checks. */
interface Plan {
  expected: number;
  held: { client: Client; sub: Subscription; callback: (err: Error | null, sub?: Subscription | null) => void }[];
  restore: { sub: Sub; topic: string; rh: number | undefined; hadRh: boolean }[];
  /** The packet is refused as a whole: the connection is being closed, nothing is subscribed. */
  refused: boolean;
}

const REFUSE = 'refuse';
// What a `$share/` filter is called until authorization: Aedes 2 refuses `$share/` from MQTT 5
// clients (0x9E) before asking authorizeSubscribe.
const HIDDEN = '\u0001';
/** Unacknowledged deliveries kept per client, for clients that never answer. */
const MAX_PENDING = 10_000;
const noop = () => undefined;

const installs = new WeakMap<Aedes, (client: Client, subs: Sub[]) => void>();

function isShared(topic: string): boolean {
  return topic.charCodeAt(0) === 0x24 && (topic.startsWith('$share/') || topic.startsWith('$queue/'));
}

/**
 * Why EMQX refuses a `$share/` or `$queue/` filter of a SUBSCRIBE, or null: emqx_topic.erl
 * (v5.5.1) validate/1 (empty group or filter [MQTT-4.8.2-1], `+`/`#` in the group [MQTT-4.8.2-2],
 * a shared filter inside a shared one) and parse/2 (no filter after the group).
 */
export function sharedFilterProblem(filter: string): string | null {
  let topic: string;
  if (filter.startsWith('$queue/')) {
    topic = filter.slice(7);
  } else {
    const rest = filter.slice(7);
    const slash = rest.indexOf('/');
    if (slash < 0) return 'invalid_topic_filter';
    const group = rest.slice(0, slash);
    topic = rest.slice(slash + 1);
    if (group === '') return 'share_empty_group';
    if (topic === '') return 'share_empty_filter';
    if (group.includes('+') || group.includes('#')) return 'share_name_invalid_char';
  }
  if (topic.startsWith('$share/') || topic.startsWith('$queue/')) return 'share_recursively';
  // `$queue/` alone is taken (an empty filter, which matches nothing).
  return topic === '' ? null : topicFilterProblem(topic);
}

/** 32-bit FNV-1a: a stable hash for hash_clientid / hash_topic (EMQX uses erlang:phash2). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function randomIndex(n: number): number {
  return Math.floor(Math.random() * n);
}

// Subscriptions REST calls and auto subscribe make go through Client#subscribe, not the parser: the
// same preparation runs there (once per process, for the brokers this module is installed on).
function prepareApiSubscriptions(client: Client): void {
  type SubscribeFn = (this: Client, packet: unknown, done?: (err?: Error) => void) => void;
  const proto = Object.getPrototypeOf(client) as { subscribe: SubscribeFn } & Record<symbol, unknown>;
  const mark = Symbol.for('simulator.shared-subs.subscribe');
  if (proto[mark]) return;
  proto[mark] = true;
  const subscribe = proto.subscribe;
  proto.subscribe = function preparing(packet, done) {
    const prepare = installs.get((this as unknown as MemberClient).broker);
    if (prepare && packet && typeof packet === 'object') {
      const list = (packet as { subscriptions?: Sub[] }).subscriptions ?? (Array.isArray(packet) ? packet : [packet]);
      prepare(this, list as Sub[]);
    }
    subscribe.call(this, packet, done);
  };
}

/** Installs the shared subscription groups, their routing and redispatch (mqtt5.ts announces them in the CONNACK). */
export function installSharedSubs(broker: Aedes, store: Store): void {
  const hooks = brokerHooks(broker);
  const persistence = (broker as unknown as { persistence: { outgoingEnqueue(sub: { clientId: string }, packet: object): Promise<void> } }).persistence;
  const routes = new Map<string, Route>();
  const memberships = new WeakMap<Client, Map<string, { group: Group; member: Member }>>();
  // The memberships of persistent sessions whose client is away, by client id.
  const awayMemberships = new Map<string, Map<string, { group: Group; member: Member }>>();
  const trackers = new WeakMap<Client, Tracker>();
  const publishers = new Map<string, PublisherState>();
  const marks = new WeakMap<object, Plan | typeof REFUSE>();
  const connected = (broker as unknown as { clients: Record<string, Client | undefined> }).clients;
  let tapsOn = false;


  // ---- SUBSCRIBE: validation, the hidden name, no retained messages ----------------------------

  /**
   * Gets a SUBSCRIBE's subscriptions ready for Aedes. Invalid shared filters fail the whole packet
   * (emqx_packet.erl check/1, v5.5.1): emqx_channel disconnects, with DISCONNECT 0x8F (0x82 for
   * No Local on a shared subscription [MQTT-3.8.3-4]) in MQTT 5, and subscribes nothing.
   */
  function prepare(client: Client, subs: Sub[], fromWire: boolean): void {
    if (!subs.some((s) => typeof s.topic === 'string' && isShared(s.topic))) return;
    const v5 = ((client as { version: number | null }).version ?? connectInfo(client)?.protoVer) === 5;
    if (fromWire) {
      for (const sub of subs) {
        if (!isShared(sub.topic)) continue;
        const code = sharedFilterProblem(sub.topic) ? RC_TOPIC_FILTER_INVALID : v5 && sub.nl ? RC_PROTOCOL_ERROR : 0;
        if (code) return refusePacket(client, subs, code, v5);
      }
    }
    if (!mqttZone(store).shared_subscription) {
      // emqx_mqtt_caps.erl check_sub: 0x9E, 0x80 in MQTT 3.1.1. Aedes answers MQTT 5 itself.
      for (const sub of subs) if (isShared(sub.topic)) marks.set(sub, REFUSE);
      return;
    }
    const plan: Plan = { expected: 0, held: [], restore: [], refused: false };
    const topics = new Set<string>();
    for (const sub of subs) {
      topics.add(sub.topic);
      marks.set(sub, plan);
      if (!isShared(sub.topic)) continue;
      plan.restore.push({ sub, topic: sub.topic, rh: sub.rh, hadRh: 'rh' in sub });
      if (sub.topic.startsWith('$share/')) sub.topic = HIDDEN + sub.topic.slice(1);
      // emqx_retainer.erl on_session_subscribed: nothing retained is sent for a `#share{}`.
      sub.rh = 2;
    }
    // Aedes keeps the last of equal filters; each distinct one reaches authorization.
    plan.expected = topics.size;
  }

  function refusePacket(client: Client, subs: Sub[], code: number, v5: boolean): void {
    const plan: Plan = { expected: subs.length, held: [], restore: [], refused: true };
    // Aedes must not close the connection over the filter before the DISCONNECT is written.
    subs.forEach((sub, i) => {
      marks.set(sub, plan);
      plan.restore.push({ sub, topic: sub.topic, rh: sub.rh, hadRh: 'rh' in sub });
      sub.topic = `${HIDDEN}${i}`;
    });
    if (v5) client.disconnect({ reasonCode: code });
    else setImmediate(() => client.close());
  }

  hooks.received.add('shared-subs', (client, parsed) => {
    if (parsed.cmd !== 'subscribe') return;
    const subs = parsed.subscriptions as Sub[] | undefined;
    if (subs) prepare(client, subs, true);
  });

  installs.set(broker, (client, subs) => prepare(client, subs, false));

  // Outermost (installed last): the real names are back before any other hook sees them.
  const authorizeSubscribe = broker.authorizeSubscribe;
  broker.authorizeSubscribe = (client, sub, callback) => {
    const plan = marks.get(sub);
    if (plan === undefined) {
      authorizeSubscribe.call(broker, client, sub, callback);
      return;
    }
    marks.delete(sub);
    if (plan === REFUSE) {
      callback(null, null);
      return;
    }
    plan.held.push({ client, sub, callback });
    if (plan.held.length < plan.expected) return;
    for (const r of plan.restore) {
      r.sub.topic = r.topic;
      if (r.hadRh) r.sub.rh = r.rh;
      else delete r.sub.rh;
    }
    if (plan.refused) return;
    for (const h of plan.held) authorizeSubscribe.call(broker, h.client, h.sub, h.callback);
  };

  // ---- Groups --------------------------------------------------------------------------------

  function routeOf(filter: string): Route {
    let route = routes.get(filter);
    if (!route) {
      const made: Route = {
        filter, groups: new Map(), dollarBlind: filter.startsWith('+') || filter.startsWith('#'),
        listener: (packet, done) => dispatch(made, packet, done),
      };
      route = made;
      routes.set(filter, route);
      // `$queue/` alone has an empty filter: nothing is published there.
      if (filter !== '') broker.subscribe(filter, route.listener as never, noop);
    }
    return route;
  }

  function join(client: Client, groupName: string, filter: string, options: Omit<Member, 'client'>): void {
    let mine = memberships.get(client);
    if (!mine) memberships.set(client, (mine = new Map()));
    const key = `${groupName}\u0000${filter}`;
    const known = mine.get(key);
    if (known) {
      Object.assign(known.member, options);
      return;
    }
    const route = routeOf(filter);
    let group = route.groups.get(groupName);
    if (!group) route.groups.set(groupName, (group = new Group(groupName, route)));
    const member: Member = { client, ...options };
    group.members.push(member);
    // emqx_shared_sub.erl maybe_insert_round_robin_count: a new member restarts the group's count.
    if (mqttZone(store).shared_subscription_strategy === 'round_robin_per_group') group.next = 0;
    mine.set(key, { group, member });
    startTaps();
  }

  function leave(client: Client, groupName: string, filter: string): void {
    const mine = memberships.get(client);
    const key = `${groupName}\u0000${filter}`;
    const held = mine?.get(key);
    if (!mine || !held) return;
    mine.delete(key);
    removeMember(held.group, held.member);
  }

  function removeMember(group: Group, member: Member): void {
    const i = group.members.indexOf(member);
    if (i >= 0) group.members.splice(i, 1);
    if (group.members.length > 0) return;
    const route = group.route;
    route.groups.delete(group.name);
    if (route.groups.size > 0) return;
    routes.delete(route.filter);
    if (route.filter !== '') broker.unsubscribe(route.filter, route.listener as never, noop);
  }

  broker.on('subscribe', (subs, client) => {
    for (const sub of subs) {
      // A reason code of 0x80 or more is a refused filter [MQTT-3.9.3-2].
      if ((sub.qos as number) >= RC_UNSPECIFIED_ERROR) continue;
      const share = parseShare(sub.topic);
      if (!share) continue;
      const si = (sub as { subscriptionIdentifier?: number }).subscriptionIdentifier;
      join(client, share.group, share.topic, { qos: sub.qos, rap: !!sub.rap, si });
    }
  });

  broker.on('unsubscribe', (topics, client) => {
    for (const topic of topics) {
      const share = parseShare(topic);
      if (share) leave(client, share.group, share.topic);
    }
  });

  /** An away session's memberships end: it resumed (and joins again) or it ended. */
  function dropAway(clientId: string): void {
    const mine = awayMemberships.get(clientId);
    if (!mine) return;
    awayMemberships.delete(clientId);
    for (const { group, member } of mine.values()) removeMember(group, member);
  }

  broker.on('client', (client) => {
    prepareApiSubscriptions(client);
    dropAway(client.id);
    // A resumed session takes its place in its groups again.
    const session = store.mqtt.sessions.get(client.id);
    if (!session || session.client !== client) return;
    for (const [topic, options] of session.subscriptions) {
      const share = parseShare(topic);
      if (share) join(client, share.group, share.topic, { qos: options.qos, rap: options.rap === 1, si: undefined });
    }
  });

  broker.on('clientDisconnect', (client) => {
    const mine = memberships.get(client);
    if (mine) {
      memberships.delete(client);
      const session = client.clean ? null : awaySession(broker, client.id);
      if (session) {
        for (const { member } of mine.values()) member.away = session;
        awayMemberships.set(client.id, mine);
      } else {
        for (const { group, member } of mine.values()) removeMember(group, member);
      }
    }
    publishers.delete(client.id);
    const tracker = trackers.get(client);
    trackers.delete(client);
    // emqx_session_mem.erl (v5.5.1) terminate/2: a session that ends hands its unacknowledged
    // QoS 1 messages to the other members (emqx_shared_sub:redispatch); a persistent one keeps them.
    if (tracker && client.clean) redispatch(client, tracker);
  });

  // ---- Dispatch --------------------------------------------------------------------------------

  function publisherState(clientId: string | undefined): PublisherState | null {
    // Messages without a publishing client (REST, rules, a will after its client left) come from
    // a fresh process in EMQX: no state carries over.
    if (clientId === undefined || !connected[clientId]) return null;
    let state = publishers.get(clientId);
    if (!state) publishers.set(clientId, (state = { rr: new Map(), sticky: new Map() }));
    return state;
  }

  /** emqx_shared_sub.erl pick/6 and do_pick_subscriber/6 over the members that can take it. */
  function choose(members: readonly Member[], strategy: string, group: Group, packet: RoutedPacket, state: PublisherState | null): Member | null {
    const n = members.length;
    if (n === 0) return null;
    if (n === 1) return members[0];
    switch (strategy) {
      case 'random':
      // Every member is on this node: local picks at random among them.
      case 'local':
        return members[randomIndex(n)];
      case 'hash_clientid':
        return members[hash(packet.clientId ?? '') % n];
      case 'hash_topic':
        return members[hash(packet.topic) % n];
      case 'round_robin_per_group':
        group.next = group.next >= n ? 1 : group.next + 1;
        return members[group.next - 1];
      case 'sticky': {
        const current = state?.sticky.get(group);
        if (current && members.includes(current)) return current;
        // 5.8: the first pick follows shared_subscription_initial_sticky_pick (5.5: random).
        const initial = String(mqttZone(store).shared_subscription_initial_sticky_pick ?? 'random');
        const chosen = choose(members, initial === 'sticky' ? 'random' : initial, group, packet, null);
        if (chosen && state) state.sticky.set(group, chosen);
        return chosen;
      }
      default: {
        // round_robin: from a random member on, per publisher.
        if (!state) return members[randomIndex(n)];
        const last = state.rr.get(group);
        const i = last === undefined ? randomIndex(n) : (last + 1) % n;
        state.rr.set(group, i);
        return members[i];
      }
    }
  }

  function pick(group: Group, packet: RoutedPacket, state: PublisherState | null, leaving: Client | null): Member | null {
    // Away sessions that ended are members no more.
    for (const m of group.members) if (m.away?.discarded) dropAway(m.away.clientid);
    const strategy = String(mqttZone(store).shared_subscription_strategy ?? 'round_robin');
    const able = (m: Member) => m.away !== undefined || (!m.client.closed && m.client !== leaving);
    const chosen = choose(group.members, strategy, group, packet, state);
    if (chosen === null || able(chosen)) return chosen;
    // A member that is going away does not take it: the next one does (dispatch's FailedSubs).
    return choose(group.members.filter(able), strategy, group, packet, state);
  }

  function dispatch(route: Route, packet: RoutedPacket, done: Done): void {
    if (route.dollarBlind && packet.topic.charCodeAt(0) === 0x24) {
      done();
      return;
    }
    const state = publisherState(packet.clientId);
    let waiting = 1;
    const one = () => {
      if (--waiting === 0) done();
    };
    // One member of every group gets the message (emqx_broker.erl do_route for `{Group, Node}`).
    for (const group of route.groups.values()) {
      const member = pick(group, packet, state, null);
      if (member === null) continue;
      waiting++;
      deliver(member, group, packet, packet.qos, one);
    }
    one();
  }

  /** Hands one message to a member through its Aedes delivery functions, looked up now. */
  function deliver(member: Member, group: Group, source: RoutedPacket, qos: number, done: Done): void {
    if (member.away) {
      // emqx_channel.erl (v5.5.1) handle_deliver, conn_state disconnected: into the session's queue.
      member.away.offlineDeliver(source, { qos: member.qos, rap: member.rap, si: member.si });
      done();
      return;
    }
    const client = member.client as unknown as MemberClient & Client;
    const delivery = new SharedDelivery(source, Math.min(qos, member.qos), member, group);
    if (delivery.qos === 0) {
      client.deliver0(delivery, done);
      return;
    }
    if (client.clean) {
      track(client, delivery);
      client.deliverQoS(delivery, done);
      return;
    }
    // A persistent session keeps it until acknowledged, as Aedes queues its own deliveries to one.
    persistence.outgoingEnqueue({ clientId: client.id }, { ...delivery, brokerId: broker.id })
      .then(() => client.deliverQoS(delivery, done), () => done())
      .catch((err: unknown) => connectionFault(broker, client, err));
  }

  function redispatch(client: Client, tracker: Tracker): void {
    for (const delivery of tracker.pending) {
      const { name, route } = delivery.group;
      const group = routes.get(route.filter)?.groups.get(name);
      if (!group) continue;
      const member = pick(group, delivery.source, null, client);
      if (member) deliver(member, group, delivery.source, delivery.qos, noop);
    }
  }

  // ---- Acknowledgements (only once there have been shared subscriptions) ----------------------

  function track(client: Client, delivery: SharedDelivery): void {
    let tracker = trackers.get(client);
    if (!tracker) trackers.set(client, (tracker = { pending: new Set(), byId: new Map() }));
    tracker.pending.add(delivery);
    if (tracker.pending.size > MAX_PENDING) {
      const oldest = tracker.pending.values().next().value as SharedDelivery;
      tracker.pending.delete(oldest);
      if (oldest.messageId !== undefined) tracker.byId.delete(oldest.messageId);
    }
  }

  function startTaps(): void {
    if (tapsOn) return;
    tapsOn = true;
    // The delivery is being written: a QoS 1 message gets its packet id now (the one Aedes would
    // give it), to be recognised in the PUBACK; a QoS 2 one in flight is never handed to another
    // member [MQTT-4.8.2-5]; a refused or QoS 0 one is done.
    hooks.forward.add('shared-subs', (client, packet, result) => {
      if (!(packet instanceof SharedDelivery)) return result;
      const tracker = trackers.get(client);
      if (tracker === undefined || !tracker.pending.has(packet)) return result;
      // Aedes writes at the QoS of a subscription to exactly this topic when that is lower.
      const exact = (client as unknown as MemberClient).subscriptions[packet.topic]?.qos;
      const qos = result === null ? 0 : exact !== undefined && exact < result.qos ? exact : result.qos;
      if (qos !== 1 || result === null) {
        tracker.pending.delete(packet);
        return result;
      }
      let id = result.messageId;
      if (!id) {
        id = nextPacketId(client);
        (result as ForwardPacket & { messageId: number }).messageId = id;
      }
      packet.messageId = id;
      tracker.byId.set(id, packet);
      return result;
    });
    hooks.packet.add('shared-subs', (client, packet) => {
      if (packet.cmd !== 'puback') return;
      const tracker = trackers.get(client);
      if (tracker === undefined) return;
      const delivery = tracker.byId.get(packet.messageId ?? 0);
      if (delivery === undefined) return;
      tracker.byId.delete(packet.messageId ?? 0);
      tracker.pending.delete(delivery);
    });
  }
}
