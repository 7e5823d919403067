// The per-message hook chains of the broker: one wrapper per Aedes hook (publish authorization,
// message.publish, delivery authorization, the publish event, parsed packets) calls the plain step
// functions the modules register, in the order of the table below (as EMQX orders its hooks by
// priority). No wrapper is nested in another and no closure is made per message, so a module
// whose feature is off costs one cheap check at the start of its step.
//
// Two things EMQX has from its process per connection are kept here too. A connection's messages
// are routed in the order its PUBLISH packets arrived (emqx_channel handles one packet after the
// other; Aedes handles a batch at once and QoS 1/2 take more turns than QoS 0, and an
// authorization asked of a source more than a cached one). And a fault in one connection's packet
// handling closes that connection and nothing else (emqx_connection.erl process_msg ends that
// process): it is logged once and counted (connectionFaults).
import type { Aedes, Client, PublishPacket } from 'aedes';

/** The answer of publish authorization: null allows, an error refuses. */
export type Verdict = Error | null;

/**
 * A check before the authorization decision (zone caps). Returns true when it dealt with the
 * packet itself (it closed the connection): the chain stops and answers nothing.
 */
export type PublishGuard = (client: Client, packet: PublishPacket) => boolean;

/**
 * The authorization decision: the verdict at once (cache hit), or a promise of it (the sources
 * are asked). `client` is null for messages the broker publishes itself.
 */
export type PublishDecider = (client: Client | null, packet: PublishPacket) => Verdict | Promise<Verdict>;

/** Runs after the decision, before Aedes hears it (retain limits, the authorization event). */
export type PublishAfter = (client: Client | null, packet: PublishPacket, verdict: Verdict) => void;

type Done = (error?: Error | null) => void;

/**
 * A message.publish step: may change the packet in place (rewrite), or take the message over and
 * return true (delayed publish holds it, a denied one is dropped); it then calls `done` itself.
 */
export type MessageStep = (packet: PublishPacket, client: Client | null, done: Done | undefined) => boolean;

/** A message being delivered, as Aedes hands it to authorizeForward (numbered by the broker). */
export type ForwardPacket = Parameters<Aedes['authorizeForward']>[1];

/** A delivery step: sees the delivery Aedes asked about and the answer so far; returns the answer. */
export type ForwardStep = (client: Client, packet: ForwardPacket, result: ForwardPacket | null) => ForwardPacket | null;

/**
 * A step of Aedes' publish event (the message is routed now). `subscribed` tells whether a session
 * of this node subscribes to the topic; it is computed once per message ($SYS messages: true).
 */
export type PublishedStep = (packet: PublishPacket, client: Client | null, subscribed: boolean) => void;

/** A packet as the connection's parser produced it (after Aedes has handled it). */
export interface ParsedPacket {
  cmd: string;
  messageId?: number;
  [key: string]: unknown;
}

/**
 * A step for each packet a connection receives (`received`: before Aedes handles it). A `received`
 * step that returns true has refused the packet itself: Aedes and later `received` steps skip it.
 */
export type PacketStep = (client: Client, packet: ParsedPacket) => void | boolean;

// The order of each chain, by module. A step of a module not listed here is refused.
const ORDER = {
  // Inner to outer as the modules used to wrap: zone caps before the decision.
  guard: ['mqtt-limits'],
  after: ['mqtt-limits', 'rule-engine', 'mqtt5'],
  // A denied (ignored) message is dropped first: in EMQX it never reaches emqx_broker:publish
  // (emqx_channel process_publish). Then the emqx_hooks message.publish priorities: receive time,
  // rewrite (980), cluster link (950), schema validation (945), message transformation (943),
  // delayed (860).
  message: ['authz', 'slow-subs', 'rewrite', 'cluster-link', 'schema-validation', 'message-transformation', 'delayed'],
  // The metrics count the delivery first; the rule engine reuses the packet id the slow
  // subscriptions tap assigns; the trace logs the final packet.
  forward: ['metrics', 'topic-metrics', 'slow-subs', 'shared-subs', 'rule-engine', 'trace'],
  published: ['sessions', 'metrics', 'topic-metrics', 'rule-engine', 'cluster-link'],
  // Received packets: `received` steps see them before Aedes (rewrite changes UNSUBSCRIBE
  // topics), `packet` steps after.
  // The limiter checks a PUBLISH after the packet checks (emqx_channel process_publish).
  received: ['mqtt-limits', 'limiter', 'rewrite', 'shared-subs', 'mqtt5'],
  packet: ['trace', 'metrics', 'slow-subs', 'rule-engine', 'shared-subs', 'session'],
} as const;

type Chain = keyof typeof ORDER;

interface Entry<T> {
  rank: number;
  step: T;
}

/** An ordered list of steps, kept as a plain array for the hot loops. */
class Steps<T> {
  private entries: Entry<T>[] = [];
  /** The steps in order; replaced (not changed) when one is added. */
  list: readonly T[] = [];

  constructor(private readonly chain: Chain) {}

  add(module: string, step: T): void {
    const rank = (ORDER[this.chain] as readonly string[]).indexOf(module);
    if (rank < 0) throw new Error(`no place for ${module} in the ${this.chain} chain`);
    this.entries = [...this.entries, { rank, step }].sort((a, b) => a.rank - b.rank);
    this.list = this.entries.map((e) => e.step);
  }
}

export interface Hooks {
  guard: Steps<PublishGuard>;
  after: Steps<PublishAfter>;
  message: Steps<MessageStep>;
  forward: Steps<ForwardStep>;
  published: Steps<PublishedStep>;
  received: Steps<PacketStep>;
  packet: Steps<PacketStep>;
  /** Sets the publish authorization decision (authorization with its cache). */
  decide(decider: PublishDecider): void;
  /** Whether a session of this node subscribes to a topic (for the publish event's steps). */
  hasSubscriber(test: (topic: string) => boolean): void;
  /** Whether a message on `topic` has a subscriber to route to ($SYS messages: always). */
  subscribed(topic: string): boolean;
}

type PacketListener = (this: unknown, packet: ParsedPacket) => void;

interface ParsingClient {
  _parser?: {
    parse(bytes: Buffer): number;
    on(event: 'packet', listener: PacketListener): void;
    listeners(event: 'packet'): PacketListener[];
    removeAllListeners(event: 'packet'): void;
  };
}

type AedesPublish = (this: Aedes, packet: PublishPacket, client: Client | null, done?: Done) => void;

const hooksOf = new WeakMap<Aedes, Hooks>();

// ---- Faults ----------------------------------------------------------------------------------

interface FaultingClient {
  broker: Aedes;
  id: string | null;
  conn: { destroy(): void; remoteAddress?: string; remotePort?: number };
  req?: { socket: { remoteAddress?: string; remotePort?: number } };
  close(): void;
}

const faultCounts = new WeakMap<Aedes, number>();
const faulted = new WeakSet<object>();
const faultLogs = new WeakMap<Aedes, (line: string) => void>();

/** How many connections this broker closed over a fault in their packet handling. */
export function connectionFaults(broker: Aedes): number {
  return faultCounts.get(broker) ?? 0;
}

/** Where this broker's fault lines go (stderr unless told). */
export function logFaultsTo(broker: Aedes, log: (line: string) => void): void {
  faultLogs.set(broker, log);
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * A connection's packet handling failed: the connection is closed without a DISCONNECT, as the
 * socket of a crashed EMQX channel process is (emqx_connection.erl v5.5.1 terminate), with its
 * will published; one line is logged and the fault counted. Later faults of the same connection
 * add nothing. `client` null: a message the broker publishes itself failed; only logged.
 */
export function connectionFault(broker: Aedes, client: Client | null, err: unknown): void {
  const log = faultLogs.get(broker) ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (client === null) {
    log(`mqtt: a message the broker published itself failed: ${describe(err)}`);
    return;
  }
  if (faulted.has(client)) return;
  faulted.add(client);
  const n = connectionFaults(broker) + 1;
  faultCounts.set(broker, n);
  const c = client as unknown as FaultingClient;
  const peer = c.req?.socket ?? c.conn;
  log(`mqtt: closed the connection of client ${c.id ?? '(no CONNECT yet)'} from ${peer.remoteAddress ?? '?'}:${peer.remotePort ?? '?'} `
    + `after a fault in its packet handling (${n} so far): ${describe(err)}`);
  try {
    c.close();
  } catch {
    c.conn.destroy();
  }
}

// ---- One publisher's order -------------------------------------------------------------------

/** On a parsed PUBLISH: its place among the publishes of its connection. */
const SEQ = Symbol('publish order');

type Sequenced = { [SEQ]?: number };

/** The publishes of one connection not yet routed (emitted to the subscribers) or given up. */
interface PublishOrder {
  /** The place the next PUBLISH to arrive takes. */
  next: number;
  /** The earliest place not settled yet. */
  head: number;
  /** Settled places after the head. */
  settled: Set<number>;
  /** Messages that reached routing before an earlier one: their route, by place. */
  held: Map<number, () => void>;
  closed: boolean;
}

const orders = new WeakMap<Client, PublishOrder>();

function settle(order: PublishOrder, seq: number): void {
  if (seq < order.head || order.settled.has(seq)) return;
  if (seq !== order.head) {
    order.settled.add(seq);
    return;
  }
  order.head++;
  for (;;) {
    if (order.settled.delete(order.head)) {
      order.head++;
      continue;
    }
    const route = order.held.get(order.head);
    if (route === undefined) return;
    order.held.delete(order.head);
    order.head++;
    route();
  }
}

/** A sequenced PUBLISH being routed: its connection's order, its place there, Aedes' number for it. */
interface Place {
  order: PublishOrder;
  seq: number;
  number: number;
  /** Aedes handed it to the emitter (it was routed, or held for its turn). */
  emitted: boolean;
  /** Its routing's done ran. */
  ended: boolean;
}

/**
 * Where the places of the messages being routed are found when Aedes emits them. QoS 0 ones are
 * emitted within their route call (`now`, innermost last: routing may publish in turn); a message
 * whose emission Aedes defers past that call (retained or QoS 1/2) waits in `later`, by Aedes'
 * number. Nothing in the common case touches a Map: deleting from one that empties
 * shrinks its table, which cost more than the rest of the order keeping.
 */
interface Routing {
  now: Place[];
  later: Map<number, Place>;
}

/**
 * The routing's done of a sequenced PUBLISH: its place is settled, then Aedes' own done runs.
 * Made here, not inline: a closure named by assignment in the publish path would be renamed on
 * every message (esbuild's keepNames through tsx), which cost a third of the throughput.
 */
function settlingDone(routing: Routing, place: Place, done: Done | undefined): Done {
  return (err) => {
    place.ended = true;
    if (routing.later.size > 0) routing.later.delete(place.number);
    settle(place.order, place.seq);
    done?.(err);
  };
}

/** The place of the message Aedes numbered `number`, when it is a sequenced one being routed. */
function placeOf(routing: Routing, number: number | undefined): Place | undefined {
  if (number === undefined) return undefined;
  const { now, later } = routing;
  for (let i = now.length - 1; i >= 0; i--) if (now[i].number === number) return now[i];
  if (later.size === 0) return undefined;
  const place = later.get(number);
  if (place !== undefined) later.delete(number);
  return place;
}

/** A PUBLISH of `client` will not be routed (a duplicate QoS 2 id, refused): later ones need not wait for it. */
export function publishGivenUp(client: Client, packet: object): void {
  const seq = (packet as Sequenced)[SEQ];
  const order = orders.get(client);
  if (seq !== undefined && order) settle(order, seq);
}

/** The connection closed: what it published is routed in order, nothing waits any more. */
function releaseAll(order: PublishOrder): void {
  order.closed = true;
  const held = [...order.held.entries()].sort((a, b) => a[0] - b[0]);
  order.held.clear();
  for (const [, route] of held) route();
}

/** Aedes' own publish authorization: only `$SYS/` topics are refused. */
export function aedesVerdict(_client: Client | null, packet: PublishPacket): Verdict {
  return packet.topic.startsWith('$SYS/') ? new Error('$SYS/ topic is reserved') : null;
}

/** The hook chains of a broker, installed on first use. */
export function brokerHooks(broker: Aedes): Hooks {
  let hooks = hooksOf.get(broker);
  if (!hooks) {
    hooks = install(broker);
    hooksOf.set(broker, hooks);
  }
  return hooks;
}

function install(broker: Aedes): Hooks {
  const guard = new Steps<PublishGuard>('guard');
  const after = new Steps<PublishAfter>('after');
  const message = new Steps<MessageStep>('message');
  const forward = new Steps<ForwardStep>('forward');
  const published = new Steps<PublishedStep>('published');
  const received = new Steps<PacketStep>('received');
  const packet = new Steps<PacketStep>('packet');

  let decide: PublishDecider = aedesVerdict;
  let hasSubscriber: (topic: string) => boolean = () => true;
  const isSubscribed = (topic: string) => topic.startsWith('$SYS/') || hasSubscriber(topic);

  const finish = (client: Client | null, p: PublishPacket, verdict: Verdict, callback: Done) => {
    const steps = after.list;
    for (let i = 0; i < steps.length; i++) steps[i](client, p, verdict);
    // Refused: Aedes routes nothing for it.
    if (verdict !== null && client !== null) publishGivenUp(client, p);
    callback(verdict);
  };

  broker.authorizePublish = (client, p, callback) => {
    if (client) {
      const steps = guard.list;
      for (let i = 0; i < steps.length; i++) if (steps[i](client, p)) return;
    }
    const verdict = decide(client, p);
    if (verdict instanceof Promise) {
      verdict
        .then((v) => finish(client, p, v, callback), (err: unknown) => finish(client, p, err instanceof Error ? err : new Error(String(err)), callback))
        .catch((err: unknown) => connectionFault(broker, client, err));
    } else {
      finish(client, p, verdict, callback);
    }
  };

  const base = broker.authorizeForward;
  broker.authorizeForward = (client, p) => {
    let result = (base.call(broker, client, p) ?? null) as ForwardPacket | null;
    const steps = forward.list;
    for (let i = 0; i < steps.length; i++) result = steps[i](client, p, result);
    return result;
  };

  const target = broker as unknown as { publish: AedesPublish };
  const route = target.publish;
  target.publish = (p, client, done) => {
    // Aedes also calls publish(packet, done).
    if (typeof client === 'function') {
      done = client as Done;
      client = null;
    }
    const c = client ?? null;
    const seq = (p as Sequenced)[SEQ];
    const order = c !== null && seq !== undefined ? orders.get(c) : undefined;
    if (order === undefined || seq === undefined || order.closed || seq < order.head) {
      const steps = message.list;
      for (let i = 0; i < steps.length; i++) if (steps[i](p, c, done)) return;
      route.call(broker, p, c, done);
      return;
    }
    // Settled once emitted, or when its routing ends without (a step took it, it failed).
    const counters = broker as unknown as { counter: number };
    const place: Place = { order, seq, number: 0, emitted: false, ended: false };
    const steps = message.list;
    // A step that takes the message (holds or drops it) takes it out of its connection's order.
    for (let i = 0; i < steps.length; i++) {
      if (steps[i](p, c, done)) {
        settle(order, seq);
        return;
      }
    }
    // Aedes numbers the message it routes with the broker's counter, first thing (aedes-packet).
    place.number = counters.counter + 1;
    // Aedes emits a plain QoS 0 message within its route call; a retained one waits for the
    // retained store, QoS 1 and 2 for the offline sessions' lookup (aedes.js publishFuncsQoS).
    // Only those need to hear how their routing ended.
    const deferrable = p.retain === true || (p.qos ?? 0) > 0;
    routing.now.push(place);
    try {
      route.call(broker, p, c, deferrable ? settlingDone(routing, place, done) : done);
    } finally {
      routing.now.pop();
    }
    if (place.emitted || place.ended) return;
    if (deferrable && counters.counter >= place.number) routing.later.set(place.number, place);
    // Not emitted within its route call and not waiting for a store: it was not routed.
    else settle(order, seq);
  };

  // The moment a message is routed: a connection's message waits for its earlier ones.
  const routing: Routing = { now: [], later: new Map() };
  const mq = (broker as unknown as { mq: { emit(packet: { brokerCounter?: number }, cb?: Done): void } }).mq;
  const emit = mq.emit;
  const hold = (order: PublishOrder, seq: number, packet: { brokerCounter?: number }, cb: Done | undefined) => {
    order.held.set(seq, () => emit.call(mq, packet, cb));
  };
  mq.emit = function (packet, cb) {
    const place = placeOf(routing, packet.brokerCounter);
    if (place === undefined || place.emitted) return emit.call(this, packet, cb);
    place.emitted = true;
    const { order, seq } = place;
    if (order.closed || seq <= order.head) {
      emit.call(this, packet, cb);
      settle(order, seq);
    } else {
      hold(order, seq, packet, cb);
    }
  };

  broker.on('publish', (p, client) => {
    const steps = published.list;
    if (steps.length === 0) return;
    const subscribed = isSubscribed(p.topic);
    for (let i = 0; i < steps.length; i++) steps[i](p, client ?? null, subscribed);
  });

  // One packet listener per connection that calls the received steps, Aedes' own listener and
  // the packet steps (an emitter with one listener does not copy its listener list per packet).
  const handle = broker.handle;
  broker.handle = (stream, req) => {
    const client = handle(stream, req);
    const parser = (client as unknown as ParsingClient)._parser;
    if (parser) {
      const own = parser.listeners('packet');
      parser.removeAllListeners('packet');
      parser.on('packet', (parsed) => {
        if (faulted.has(client)) return;
        try {
          const before = received.list;
          let refused = false;
          for (let i = 0; i < before.length && !refused; i++) refused = before[i](client, parsed) === true;
          // A step that closed the connection refused the packet too: Aedes has let go of it.
          if (!refused && !(client as unknown as { closed: boolean }).closed) {
            if (parsed.cmd === 'publish') {
              let order = orders.get(client);
              if (order === undefined) {
                const made: PublishOrder = { next: 0, head: 0, settled: new Set(), held: new Map(), closed: false };
                order = made;
                orders.set(client, made);
                stream.once('close', () => releaseAll(made));
              }
              (parsed as Sequenced)[SEQ] = order.next++;
            }
            for (let i = 0; i < own.length; i++) own[i].call(parser, parsed);
          }
          const after = packet.list;
          for (let i = 0; i < after.length; i++) after[i](client, parsed);
        } catch (err) {
          connectionFault(broker, client, err);
        }
      });
      // A fault while reading the bytes (outside the packet steps) is the connection's too.
      const parse = parser.parse;
      parser.parse = function (this: unknown, bytes: Buffer) {
        try {
          return parse.call(this, bytes);
        } catch (err) {
          connectionFault(broker, client, err);
          return 0;
        }
      };
    }
    return client;
  };

  return {
    guard, after, message, forward, published, received, packet,
    decide(decider) {
      decide = decider;
    },
    subscribed: isSubscribed,
    hasSubscriber(test) {
      hasSubscriber = test;
    },
  };
}
