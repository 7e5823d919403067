// Cluster linking (emqx_cluster_link at e5.8.9): the persisted `cluster.links` (one per remote
// cluster, named after it), what linked clusters told this one about their subscriptions (the
// external router: routes by cluster and actor), and the per-link counters. The MQTT side, the
// clients that sync routes and forward messages and the hook that takes them in, is
// broker/cluster-link.ts; this module holds the state both sides read.
import { apiError } from '../../plugins/errors.ts';
import { topicFilterProblem, topicIntersection, topicIsSubset, topicMatches } from '../../lib/topic.ts';
import type { Obj } from '../../rules/values.ts';
import type { StoreContext } from '../context.ts';
import { checkName } from '../integration/connectors.ts';
import { Meter } from '../messaging/topic-metrics.ts';

/** A link as stored (the raw config with defaults filled in, as get_raw/0 answers it). */
export interface LinkConfig {
  enable: boolean;
  name: string;
  server: string;
  clientid?: string;
  username?: string;
  password?: string;
  ssl: Obj;
  topics: string[];
  pool_size: number;
  retry_interval: string;
  max_inflight: number;
  resource_opts: Obj;
  [key: string]: unknown;
}

export type LinkStatus = 'connected' | 'connecting' | 'disconnected';

// fields("link") defaults, from the 5.8.1 schema dump (cluster.links).
const SSL_DEFAULTS = {
  enable: false, verify: 'verify_none', reuse_sessions: true, depth: 10, versions: ['tlsv1.3', 'tlsv1.2'], ciphers: [],
  secure_renegotiate: true, log_level: 'notice', hibernate_after: '5s',
};
const RESOURCE_OPTS_DEFAULTS = {
  worker_pool_size: 16, health_check_interval: '15s', start_timeout: '5s', request_ttl: '45s', inflight_window: 100, max_buffer_bytes: '256MB',
};
const SECRET = '******';
const LINK_TOPIC_PREFIX = '$LINK/cluster/';

interface Forwarding {
  matched: Meter;
  success: number;
  failed: number;
  dropped: number;
  max: number;
}

const forwarding = (): Forwarding => ({ matched: new Meter(), success: 0, failed: 0, dropped: 0, max: 0 });
const round = (n: number) => Math.round(n * 100) / 100;

/** Routes one actor of a linked cluster announced: route filter → route ids. */
interface ActorRoutes {
  incarnation: number;
  routes: Map<string, Set<string>>;
}

export class ClusterLinks {
  /** Routes from linked clusters: cluster → actor → routes (emqx_cluster_link_extrouter). */
  private readonly external = new Map<string, Map<string, ActorRoutes>>();
  private readonly counters = new Map<string, Forwarding>();
  /** The state of this node's link to each cluster, reported by the broker side. */
  readonly status = new Map<string, LinkStatus>();
  /** Called after a link was made, changed or removed; the broker side (re)starts its clients. */
  changed: (name: string) => void = () => {};

  constructor(private readonly ctx: StoreContext, readonly clusterName: string, private readonly nodes: () => string[]) {
    ctx.onStateReplaced(() => {
      for (const link of this.list()) this.changed(link.name);
    });
  }

  list(): LinkConfig[] {
    return this.ctx.state.cluster_links ?? [];
  }

  find(name: string): LinkConfig | undefined {
    return this.list().find((l) => l.name === name);
  }

  get(name: string): LinkConfig {
    const found = this.find(name);
    if (!found) throw apiError(404, 'NOT_FOUND', 'Cluster link not found');
    return found;
  }

  /** A link as answered: secrets as `******`, with its status on every node (add_status/2). */
  view(link: LinkConfig): Obj {
    const status = link.enable ? this.status.get(link.name) ?? 'connecting' : 'disconnected';
    const out: Obj = { ...link, status, node_status: this.nodes().map((node) => ({ node, status })) };
    if (out.password !== undefined) out.password = SECRET;
    return out;
  }

  /** A request body as the config it becomes, or 400 as hocon and the link's validators refuse it. */
  validate(body: Obj, previous?: LinkConfig): LinkConfig {
    const name = checkName(body.name);
    const topics = body.topics as string[];
    const failure = (reason: string, field: string, items: unknown) => {
      throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: 'cluster.links.1.topics', reason, [field]: items }));
    };
    // validate_topics, validate_no_special_topics, validate_no_redundancy.
    const invalid = topics.filter((t) => topicFilterProblem(t) !== null);
    if (invalid.length) failure('invalid_topics', 'topics', invalid);
    const special = topics.filter((t) => topicIntersection(t, `${LINK_TOPIC_PREFIX}#`) === t);
    if (special.length) failure('invalid_topics', 'topics', special.map((t) => [t, 'topic_not_allowed']));
    const redundant = topics.filter((t, i) => topics.some((other, j) => j !== i && topicIsSubset(t, other) && (t !== other || j < i)));
    if (redundant.length) failure('redundant_topics', 'topics', redundant);
    const password = body.password === SECRET ? previous?.password : (body.password as string | undefined);
    return {
      ...body,
      enable: body.enable !== false,
      name,
      server: String(body.server),
      ...(password === undefined ? {} : { password }),
      ssl: { ...SSL_DEFAULTS, ...(body.ssl as Obj | undefined) },
      topics,
      pool_size: (body.pool_size as number | undefined) ?? 8,
      retry_interval: (body.retry_interval as string | undefined) ?? '15s',
      max_inflight: (body.max_inflight as number | undefined) ?? 32,
      resource_opts: { ...RESOURCE_OPTS_DEFAULTS, ...(body.resource_opts as Obj | undefined) },
    };
  }

  async create(link: LinkConfig): Promise<LinkConfig> {
    if (this.find(link.name)) throw apiError(400, 'ALREADY_EXISTS', 'Cluster link already exists');
    this.ctx.state.cluster_links = [...this.list(), link];
    this.counters.set(link.name, forwarding());
    await this.ctx.persist();
    this.changed(link.name);
    return link;
  }

  async update(link: LinkConfig): Promise<LinkConfig> {
    this.get(link.name);
    this.ctx.state.cluster_links = this.list().map((l) => (l.name === link.name ? link : l));
    await this.ctx.persist();
    this.changed(link.name);
    return link;
  }

  async remove(name: string): Promise<void> {
    this.get(name);
    this.ctx.state.cluster_links = this.list().filter((l) => l.name !== name);
    this.counters.delete(name);
    this.external.delete(name);
    await this.ctx.persist();
    this.changed(name);
  }

  /** The enabled link to a cluster, if any. */
  enabledLink(name: string): LinkConfig | undefined {
    const link = this.find(name);
    return link?.enable ? link : undefined;
  }

  /** The route filters of this node's `filter` that a link's topics cover (compute_intersections/2). */
  static intersections(filter: string, topics: readonly string[]): string[] {
    const out: string[] = [];
    for (const t of topics) {
      const meet = topicIntersection(filter, t);
      if (meet === null || out.some((f) => topicIsSubset(meet, f))) continue;
      for (let i = out.length - 1; i >= 0; i--) if (topicIsSubset(out[i], meet)) out.splice(i, 1);
      out.push(meet);
    }
    return out;
  }

  // --- The external router.

  /** actor_init: a new actor or a new incarnation starts with no routes; true when it had none (needs bootstrap). */
  actorInit(cluster: string, actor: string, incarnation: number): boolean {
    let actors = this.external.get(cluster);
    if (!actors) {
      actors = new Map();
      this.external.set(cluster, actors);
    }
    const known = actors.get(actor);
    if (known && known.incarnation === incarnation) return false;
    actors.set(actor, { incarnation, routes: new Map() });
    return true;
  }

  /** One route operation of an actor (actor_apply_operation/2). */
  applyRoute(cluster: string, actor: string, op: 'add' | 'delete', filter: string, id: string): void {
    const state = this.external.get(cluster)?.get(actor);
    if (!state) return;
    const ids = state.routes.get(filter) ?? new Set<string>();
    if (op === 'add') ids.add(id);
    else ids.delete(id);
    if (ids.size) state.routes.set(filter, ids);
    else state.routes.delete(filter);
  }

  /** Forgets an actor (its connection is gone). */
  actorGone(cluster: string, actor: string): void {
    this.external.get(cluster)?.delete(actor);
  }

  /** The linked clusters with a route matching `topic` (emqx_cluster_link_extrouter:match_routes/1). */
  clustersFor(topic: string): string[] {
    const out: string[] = [];
    for (const [cluster, actors] of this.external) {
      if (!this.enabledLink(cluster)) continue;
      if ([...actors.values()].some((a) => [...a.routes.keys()].some((f) => topicMatches(f, topic)))) out.push(cluster);
    }
    return out;
  }

  private routeCount(cluster: string): number {
    let n = 0;
    for (const actor of this.external.get(cluster)?.values() ?? []) n += actor.routes.size;
    return n;
  }

  // --- Counters (emqx_cluster_link_metrics: router gauge `routes`, the forwarding resource's).

  countForward(cluster: string, outcome: 'matched' | 'success' | 'failed' | 'dropped'): void {
    let c = this.counters.get(cluster);
    if (!c) {
      c = forwarding();
      this.counters.set(cluster, c);
    }
    if (outcome === 'matched') {
      const now = this.ctx.clock.now();
      c.matched.mark(now);
      c.max = Math.max(c.max, c.matched.rateAt(now));
    } else {
      c[outcome]++;
    }
  }

  /** GET …/metrics (format_metrics/3, aggregate_metrics/1): routes are cluster-wide, forwarding per node. */
  metrics(name: string): Obj {
    this.get(name);
    const c = this.counters.get(name) ?? forwarding();
    const now = this.ctx.clock.now();
    const routes = this.routeCount(name);
    const own = {
      router: { routes },
      forwarding: {
        matched: c.matched.count, success: c.success, failed: c.failed, dropped: c.dropped, retried: 0, queuing: 0, inflight: 0,
        rate: round(c.matched.rateAt(now)), rate_last5m: 0, rate_max: round(c.max),
      },
    };
    const zero = Object.fromEntries(Object.keys(own.forwarding).map((k) => [k, 0]));
    const [self, ...others] = this.nodes();
    return {
      metrics: own,
      node_metrics: [{ node: self, metrics: own }, ...others.map((node) => ({ node, metrics: { router: { routes }, forwarding: zero } }))],
    };
  }

  resetMetrics(name: string): void {
    this.get(name);
    this.counters.set(name, forwarding());
  }
}
