// Cluster linking on the wire (emqx_cluster_link, emqx_cluster_link_mqtt and
// emqx_cluster_link_router_syncer at e5.8.9), in the broker's own protocol so a simulator links
// to another simulator or to an EMQX cluster. For each enabled link (named after the remote
// cluster) this node keeps two MQTT 5 clients to the remote's `server`:
// - the route syncer (`<clientid>:routesync:<node hash>`): announces this node as an actor on
//   `$LINK/cluster/route/<own cluster>`, waits for the ack on `$LINK/cluster/resp/<own>/<actor>`,
//   then sends this node's subscriptions that the link's topics cover (their intersections) and
//   every later change, with a heartbeat;
// - the forwarder (`<clientid>:msg:<node hash>:1`): publishes each local message a remote route
//   matches to `$LINK/cluster/msg/<own cluster>`, the message as an Erlang term.
// Incoming, the message.publish hook (priority 950, before validation) takes the route
// operations of linked clusters into the external router and publishes their forwarded
// messages here when its own link to that cluster covers the topic; forwarded messages are
// never forwarded again. Payloads are Erlang's external term format (lib/etf.ts), as
// `term_to_binary/1` writes them. Not simulated: persistent-session routes (the `ps` actor), the
// forwarder pool (one connection, not pool_size), TLS to the remote.
import { createHash, randomBytes } from 'node:crypto';
import type { Aedes, Client, PublishPacket } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { hostPort } from '../connectors/probe.ts';
import { atom, decodeTerm, encodeTerm, mapGet, text, tuple, Atom, EtfError, Tuple, type Term } from '../lib/etf.ts';
import { topicMatches } from '../lib/topic.ts';
import { ClusterLinks, type LinkConfig } from '../store/cluster/cluster-links.ts';
import type { Store } from '../store/index.ts';
import { brokerHooks } from './hooks.ts';
import { RC_IMPLEMENTATION_SPECIFIC_ERROR } from './reason-codes.ts';
import { publisher } from './rule-engine.ts';
import { publishedBy } from './sessions.ts';

const PREFIX = '$LINK/cluster/';
const ROUTE_PREFIX = `${PREFIX}route/`;
const MSG_PREFIX = `${PREFIX}msg/`;
const RESP_PREFIX = `${PREFIX}resp/`;
const PROTO_VER = 1;
// The payload map keys (?F_ACTOR … in emqx_cluster_link_mqtt.erl).
const F = { ACTOR: 10, INCARNATION: 11, ROUTES: 12, TARGET_CLUSTER: 13, PROTO_VER: 14, RESULT: 15, NEED_BOOTSTRAP: 16 } as const;
const ROUTE_DELETE = 100;
/** emqx_cluster_link_config: actor_heartbeat_interval() is actor_ttl() (30 s) div 3. */
const HEARTBEAT_MS = 10_000;

/** Messages that came in over a link (`link_origin`): never forwarded to any link. */
const linked = new WeakSet<object>();

const op = (name: string, fields: [number, Term][]) => encodeTerm(new Map<Term, Term>([[atom('$op'), Buffer.from(name)], ...fields]));
const bin = (s: string) => Buffer.from(s, 'utf8');

/** emqx_bridge_mqtt_lib:clientid_base/1: the name and 8 hex digits of the node name's SHA-1. */
function clientidBase(parts: string[], node: string): string {
  return parts.join('') + createHash('sha1').update(node).digest('hex').slice(0, 8);
}

/** The #message{} record as emqx_cluster_link_mqtt:encode_payload/1 sends it. */
function messageTerm(packet: PublishPacket, from: string | null, username: string | null, now: number): Term {
  const props = (packet as { properties?: { userProperties?: Record<string, string | string[]> } }).properties;
  const headers = new Map<Term, Term>();
  if (username !== null) headers.set(atom('username'), bin(username));
  if (props?.userProperties) {
    const pairs = Object.entries(props.userProperties).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => tuple(bin(k), bin(String(x)))));
    headers.set(atom('properties'), new Map<Term, Term>([[atom('User-Property'), pairs]]));
  }
  const flags = new Map<Term, Term>([[atom('dup'), atom('false')], [atom('retain'), atom(packet.retain ? 'true' : 'false')]]);
  const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? '');
  return tuple(atom('message'), randomBytes(16), packet.qos ?? 0, from === null ? atom('undefined') : bin(from), flags, headers, bin(packet.topic), payload, now, new Map());
}

/** A forwarded #message{} as a packet to publish here, or null when it is not one. */
function messagePacket(term: Term): { packet: PublishPacket; from: string | null; username: string | null } | null {
  if (!(term instanceof Tuple) || term.items.length < 9 || !(term.items[0] instanceof Atom) || term.items[0].name !== 'message') return null;
  const [, , qos, from, flags, headers, topic, payload] = term.items;
  if (!Buffer.isBuffer(topic) || !Buffer.isBuffer(payload) || typeof qos !== 'number' || qos < 0 || qos > 2) return null;
  const retain = mapGet(flags, 'retain');
  const userProps = mapGet(mapGet(headers, 'properties') ?? new Map(), 'User-Property');
  const packet = {
    cmd: 'publish', topic: topic.toString('utf8'), payload, qos: qos as 0 | 1 | 2, retain: retain instanceof Atom && retain.name === 'true', dup: false,
  } as PublishPacket;
  if (Array.isArray(userProps) && userProps.length) {
    const pairs: Record<string, string[]> = {};
    for (const pair of userProps) if (pair instanceof Tuple && Buffer.isBuffer(pair.items[0]) && Buffer.isBuffer(pair.items[1])) (pairs[pair.items[0].toString()] ??= []).push(pair.items[1].toString());
    (packet as { properties?: unknown }).properties = { userProperties: pairs };
  }
  return { packet, from: text(from) ?? null, username: text(mapGet(headers, 'username')) ?? null };
}

/** This node's clients for one link. */
class LinkRuntime {
  private readonly routes: MqttClient | null;
  private readonly forwarder: MqttClient | null;
  private readonly actor: string;
  private readonly incarnation: number;
  private reqId = '';
  private initialised = false;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly store: Store, private readonly link: LinkConfig) {
    const links = store.clusterLinks;
    const node = store.cluster.self;
    this.actor = node;
    this.incarnation = store.clock.now();
    const target = hostPort(link.server, 1883);
    if (!target) {
      this.routes = this.forwarder = null;
      links.status.set(link.name, 'disconnected');
      return;
    }
    const base = link.clientid ?? links.clusterName;
    const options = {
      host: target.host, port: target.port, protocolVersion: 5 as const, clean: true, reconnectPeriod: 2000, timerVariant: 'native' as const,
      username: link.username, password: link.password,
    };
    links.status.set(link.name, 'connecting');
    this.forwarder = mqtt.connect({ ...options, clientId: `${clientidBase([base, ':msg:'], node)}:1` });
    this.forwarder.on('connect', () => links.status.set(link.name, 'connected'));
    this.forwarder.on('close', () => links.status.set(link.name, 'connecting'));
    this.forwarder.on('error', () => undefined);
    this.routes = mqtt.connect({ ...options, clientId: clientidBase([base, ':routesync:'], node), resubscribe: false });
    this.routes.on('error', () => undefined);
    this.routes.on('connect', () => void this.init());
    this.routes.on('close', () => clearInterval(this.heartbeat));
    this.routes.on('message', (_topic, payload, packet) => this.ack(payload, packet.properties?.correlationData));
  }

  /** init_remote_actor: subscribe to the answers, then announce the actor. */
  private async init(): Promise<void> {
    const me = this.store.clusterLinks.clusterName;
    const client = this.routes as MqttClient;
    try {
      await client.subscribeAsync(`${RESP_PREFIX}${me}/${this.actor}`, { qos: 1 });
      this.reqId = randomBytes(8).toString('hex');
      await client.publishAsync(`${ROUTE_PREFIX}${me}`, op('actor_init', [
        [F.PROTO_VER, PROTO_VER], [F.TARGET_CLUSTER, bin(this.link.name)], [F.ACTOR, bin(this.actor)], [F.INCARNATION, this.incarnation],
      ]), { qos: 1, properties: { responseTopic: `${RESP_PREFIX}${me}/${this.actor}`, correlationData: Buffer.from(this.reqId) } });
    } catch {
      // The connection went; the next connect starts again.
    }
  }

  /** The actor_init_ack: on `ok` the routes are sent (bootstrap) and heartbeats start. */
  private ack(payload: Buffer, correlation: Buffer | undefined): void {
    if (!correlation || correlation.toString() !== this.reqId) return;
    let result: Term | undefined;
    let needBootstrap: Term | undefined;
    try {
      const term = decodeTerm(payload);
      result = mapGet(term, F.RESULT);
      needBootstrap = mapGet(term, F.NEED_BOOTSTRAP);
    } catch {
      return;
    }
    if (!(result instanceof Atom && result.name === 'ok')) return;
    const bootstrap = !this.initialised || (needBootstrap instanceof Atom && needBootstrap.name === 'true');
    this.initialised = true;
    if (bootstrap) {
      const self = this.store.cluster.self;
      const updates: Term[] = [];
      for (const route of this.store.routes.all()) {
        if (route.node !== self || route.topic.startsWith(PREFIX)) continue;
        for (const meet of ClusterLinks.intersections(route.topic, this.link.topics)) updates.push(tuple(bin(meet), bin(route.topic)));
      }
      if (updates.length) this.sendRoutes(updates);
    }
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      this.routes?.publish(`${ROUTE_PREFIX}${this.store.clusterLinks.clusterName}`, op('heartbeat', [[F.ACTOR, bin(this.actor)], [F.INCARNATION, this.incarnation]]), { qos: 0 });
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private sendRoutes(updates: Term[]): void {
    this.routes?.publish(`${ROUTE_PREFIX}${this.store.clusterLinks.clusterName}`, op('route', [
      [F.ACTOR, bin(this.actor)], [F.INCARNATION, this.incarnation], [F.ROUTES, updates],
    ]), { qos: 1 });
  }

  /** A route of this node appeared or went (emqx_cluster_link_router:push_update/3). */
  routeChanged(change: 'add' | 'delete', topic: string): void {
    if (!this.initialised || !this.routes?.connected) return;
    const updates = ClusterLinks.intersections(topic, this.link.topics).map((meet) => (change === 'add' ? tuple(bin(meet), bin(topic)) : tuple(ROUTE_DELETE, bin(meet), bin(topic))));
    if (updates.length) this.sendRoutes(updates);
  }

  /** Forwards one local message to the linked cluster (emqx_cluster_link_mqtt:forward/2). */
  forward(packet: PublishPacket, from: string | null, username: string | null): void {
    const links = this.store.clusterLinks;
    links.countForward(this.link.name, 'matched');
    if (!this.forwarder?.connected) {
      links.countForward(this.link.name, 'dropped');
      return;
    }
    const payload = encodeTerm(messageTerm(packet, from, username, this.store.clock.now()));
    this.forwarder.publish(`${MSG_PREFIX}${links.clusterName}`, payload, { qos: packet.qos ?? 0 }, (err) => links.countForward(this.link.name, err ? 'failed' : 'success'));
  }

  stop(): void {
    clearInterval(this.heartbeat);
    this.routes?.end(true);
    this.forwarder?.end(true);
    this.store.clusterLinks.status.delete(this.link.name);
  }
}

export function installClusterLink(broker: Aedes, store: Store): void {
  if (!store.profile.hasRoute('GET', '/cluster/links')) return;
  const links = store.clusterLinks;
  const self = store.cluster.self;
  const running = new Map<string, LinkRuntime>();
  const start = (name: string) => {
    running.get(name)?.stop();
    running.delete(name);
    const link = links.enabledLink(name);
    if (link) running.set(name, new LinkRuntime(store, link));
  };
  links.changed = start;
  // Started once the broker is built, so the first connections see a working broker.
  setImmediate(() => {
    for (const link of links.list()) if (!running.has(link.name)) start(link.name);
  });
  broker.on('closed', () => {
    for (const rt of running.values()) rt.stop();
    running.clear();
  });

  store.routes.onChange((change, topic, node) => {
    if (node !== self || topic.startsWith(PREFIX)) return;
    for (const rt of running.values()) rt.routeChanged(change, topic);
  });

  // Actors by connection (the channel process's dictionary in EMQX).
  const actors = new WeakMap<Client, { cluster: string; actor: string }>();
  broker.on('clientDisconnect', (client) => {
    const known = actors.get(client);
    if (known) links.actorGone(known.cluster, known.actor);
  });

  const reply = (respTopic: string, correlation: Buffer | undefined, fields: [number, Term][]) => {
    const packet = {
      cmd: 'publish', topic: respTopic, payload: op('actor_init_ack', [[F.PROTO_VER, PROTO_VER], ...fields]), qos: 1, retain: false, dup: false,
      properties: correlation ? { correlationData: correlation } : {},
    } as unknown as PublishPacket;
    broker.publish(packet, () => {});
  };

  // do_handle_route_op_msg/1; a payload that does not decode costs the connection.
  const routeOp = (cluster: string, packet: PublishPacket, client: Client | null): boolean => {
    const term = decodeTerm(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? ''));
    const name = text(mapGet(term, '$op'));
    const actor = text(mapGet(term, F.ACTOR));
    const incarnation = mapGet(term, F.INCARNATION);
    if (!actor || typeof incarnation !== 'number') throw new EtfError('unknown payload');
    if (name === 'actor_init') {
      const props = (packet as { properties?: { responseTopic?: string; correlationData?: Buffer } }).properties;
      const link = links.find(cluster);
      const target = text(mapGet(term, F.TARGET_CLUSTER));
      // actor_init/3: the errors are binaries, as the remote decodes with [safe].
      const error = !link ? 'unknown_cluster' : !link.enable ? 'cluster_link_disabled' : target !== links.clusterName ? 'bad_remote_cluster_link_name' : null;
      if (error) {
        if (props?.responseTopic) reply(props.responseTopic, props.correlationData, [[F.ACTOR, bin(actor)], [F.RESULT, tuple(atom('error'), bin(error))], [F.NEED_BOOTSTRAP, atom('undefined')]]);
        return true;
      }
      const created = links.actorInit(cluster, actor, incarnation);
      if (client) actors.set(client, { cluster, actor });
      if (props?.responseTopic) reply(props.responseTopic, props.correlationData, [[F.ACTOR, bin(actor)], [F.RESULT, atom('ok')], [F.NEED_BOOTSTRAP, atom(created ? 'true' : 'false')]]);
      return true;
    }
    if (name === 'route') {
      const ops = mapGet(term, F.ROUTES);
      if (!Array.isArray(ops)) throw new EtfError('unknown payload');
      for (const entry of ops) {
        if (!(entry instanceof Tuple)) continue;
        const [a, b, c] = entry.items;
        if (entry.items.length === 2 && Buffer.isBuffer(a) && Buffer.isBuffer(b)) links.applyRoute(cluster, actor, 'add', a.toString(), b.toString());
        else if (entry.items.length === 3 && a === ROUTE_DELETE && Buffer.isBuffer(b) && Buffer.isBuffer(c)) links.applyRoute(cluster, actor, 'delete', b.toString(), c.toString());
      }
      return true;
    }
    return name === 'heartbeat';
  };

  const hooks = brokerHooks(broker);
  hooks.message.add('cluster-link', (packet, client, done) => {
    if (!packet.topic.startsWith(PREFIX)) return false;
    if (packet.topic.startsWith(ROUTE_PREFIX)) {
      let ok = false;
      try {
        ok = routeOp(packet.topic.slice(ROUTE_PREFIX.length), packet, client);
      } catch {
        ok = false;
      }
      // Disconnect so that the remote actor starts anew.
      if (!ok && client) client.disconnect({ reasonCode: RC_IMPLEMENTATION_SPECIFIC_ERROR });
      else process.nextTick(() => done?.(null));
      return true;
    }
    if (packet.topic.startsWith(MSG_PREFIX)) {
      const cluster = packet.topic.slice(MSG_PREFIX.length);
      let decoded: ReturnType<typeof messagePacket> = null;
      try {
        decoded = messagePacket(decodeTerm(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? '')));
      } catch {
        decoded = null;
      }
      // maybe_filter_incoming_msg/2: only what this side's link to that cluster covers.
      const link = links.enabledLink(cluster);
      if (decoded && link && link.topics.some((f) => topicMatches(f, decoded.packet.topic))) {
        linked.add(decoded.packet);
        publishedBy.set(decoded.packet, { clientid: decoded.from, username: decoded.username });
        broker.publish(decoded.packet, () => {});
      }
      process.nextTick(() => done?.(null));
      return true;
    }
    return false;
  });

  // Local messages a linked cluster has routes for go there (do_forward_external); no gossip.
  hooks.published.add('cluster-link', (packet, client) => {
    if (running.size === 0 || linked.has(packet) || packet.topic.startsWith('$')) return;
    const clusters = links.clustersFor(packet.topic);
    if (clusters.length === 0) return;
    const from = publisher(packet, client);
    for (const cluster of clusters) running.get(cluster)?.forward(packet, from.clientid, from.username);
  });
}
