// The one store the REST handlers and the MQTT broker share (STYLE habit 7): persisted
// configuration (users, API keys, license setting, and what later modules add) plus live state
// (sessions, routes, counters, samples, tokens, alarms). `open()` locks and loads --data-dir,
// seeds, and creates the default user; a failed save is undone (persist.ts).
import type { Clock } from '../plugins/clock.ts';
import { apiError } from '../plugins/errors.ts';
import { Channels } from './integration/actions.ts';
import { Alarms } from './cluster/alarms.ts';
import { ApiKeys } from './dashboard/api-keys.ts';
import { AutoSubscribe } from './messaging/auto-subscribe.ts';
import { Authn } from './access/authn.ts';
import { Authz } from './access/authz.ts';
import { Banned } from './access/banned.ts';
import { Zone } from './config/zone.ts';
import { Backups } from './backup/backup.ts';
import { Exhooks } from './integration/exhook.ts';
import { Gateways } from './config/gateways.ts';
import { Plugins } from './config/plugins.ts';
import { Listeners } from './config/listeners.ts';
import { ConfigRoots } from './config/config-roots.ts';
import { Clients } from './messaging/clients.ts';
import { Cluster, SELF_NODE } from './cluster/cluster.ts';
import { Conditions, type MemoryWatch } from './cluster/conditions.ts';
import { Connectors } from './integration/connectors.ts';
import { Delayed } from './messaging/delayed.ts';
import type { StoreContext } from './context.ts';
import { License, type LicenseOptions } from './dashboard/license.ts';
import { LoginGuard, type LockoutOptions, type RateLimitOptions } from './dashboard/login-guard.ts';
import { historyProfiles, monitorSources } from './cluster/monitor-sources.ts';
import { Monitor } from './cluster/monitor.ts';
import { MqttState } from './messaging/mqtt.ts';
import { lockDataDir, StateFile } from './persist.ts';
import { checkState } from './backup/backup-checks.ts';
import type { Profile } from './profile.ts';
import { Rewrite } from './messaging/rewrite.ts';
import { Rules } from './integration/rules.ts';
import { SchemaRegistry } from './integration/schema-registry.ts';
import { SchemaValidations } from './messaging/schema-validation.ts';
import { MessageTransformations } from './messaging/message-transformation.ts';
import { ClusterLinks } from './cluster/cluster-links.ts';
import { SlowSubs } from './messaging/slow-subs.ts';
import { TopicMetrics } from './messaging/topic-metrics.ts';
import { Traces } from './messaging/trace.ts';
import { RouteTable } from './messaging/routes.ts';
import { emptyState, type PersistedState } from './state.ts';
import { Tokens } from './dashboard/tokens.ts';
import { Users } from './dashboard/users.ts';
import { AuditLog } from './dashboard/audit.ts';

export interface StoreOptions {
  /** The broker release the simulator is. */
  profile: Profile;
  dataDir: string | null;
  seed: 'demo' | 'empty';
  nodes: number;
  clock: Clock;
  tokenIdleMs: number;
  tokenMaxMs: number;
  lockout: LockoutOptions;
  loginRateLimit: RateLimitOptions;
  /** Where state-file problems (a load from the previous file, a failed save) are reported. */
  warn: (message: string) => void;
  /** Move the state files of --data-dir aside and start empty (`--reset-data`). */
  resetData?: boolean;
  /** Load the fixture clients of the other nodes. */
  fixtureClients: boolean;
  /** Back-fill seven days of monitor history. */
  monitorHistory: boolean;
  sampleIntervalMs: number;
  license: Partial<LicenseOptions>;
  memory: MemoryWatch;
  /** The --host the simulator listens on: the sockets the API opens may listen only there (S28). */
  host: string;
  /** `cluster.name`: how this cluster is known to the clusters it links to. */
  clusterName: string;
}

export class Store implements StoreContext {
  readonly clock: Clock;
  readonly profile: Profile;
  readonly state: PersistedState;
  readonly tokens: Tokens;
  readonly loginGuard: LoginGuard;
  readonly users: Users;
  readonly apiKeys: ApiKeys;
  // Before the modules below, which subscribe to it as they are built.
  private readonly replacedHooks: (() => Promise<void> | void)[] = [];
  readonly routes = new RouteTable();
  readonly mqtt = new MqttState(SELF_NODE, this.routes);
  readonly cluster: Cluster;
  readonly clients: Clients;
  readonly alarms: Alarms;
  readonly license: License;
  readonly monitor: Monitor;
  readonly conditions: Conditions;
  readonly listeners: Listeners;
  readonly rewrite = new Rewrite(this);
  readonly autoSubscribe = new AutoSubscribe(this);
  readonly delayed = new Delayed(this);
  readonly traces: Traces;
  readonly audit: AuditLog;
  readonly topicMetrics: TopicMetrics;
  readonly slowSubs: SlowSubs;
  readonly configRoots = new ConfigRoots(this);
  readonly gateways: Gateways;
  readonly exhooks: Exhooks;
  readonly plugins: Plugins;
  readonly backups: Backups;
  readonly authn: Authn;
  readonly authz: Authz;
  readonly banned = new Banned(this);
  readonly zone = new Zone(this);
  readonly rules = new Rules(this, () => this.cluster.names(), SELF_NODE);
  readonly connectors = new Connectors(this, () => this.cluster.names());
  readonly actions = new Channels(this, 'actions', this.connectors, this.rules, () => this.cluster.names());
  readonly sources = new Channels(this, 'sources', this.connectors, this.rules, () => this.cluster.names());
  readonly schemaRegistry = new SchemaRegistry(this);
  readonly schemaValidations = new SchemaValidations(this, this.schemaRegistry, () => this.cluster.names(), SELF_NODE);
  readonly messageTransformations = new MessageTransformations(this, this.schemaRegistry, () => this.cluster.names(), SELF_NODE);
  readonly clusterLinks: ClusterLinks;
  private readonly file: StateFile<PersistedState> | null;
  /** Releases the lock of --data-dir. */
  private unlock: (() => Promise<void>) | null = null;

  private constructor(options: StoreOptions, state: PersistedState, file: StateFile<PersistedState> | null) {
    this.clock = options.clock;
    this.profile = options.profile;
    this.state = state;
    this.file = file;
    this.tokens = new Tokens(options.clock, options.tokenIdleMs, options.tokenMaxMs);
    this.loginGuard = new LoginGuard(options.clock, options.lockout, options.loginRateLimit);
    this.users = new Users(this, this.tokens, () => this.configRoots.get('dashboard'));
    this.apiKeys = new ApiKeys(this);
    this.cluster = new Cluster(options.clock, this.mqtt, Math.max(1, options.nodes), this.routes, options.fixtureClients, options.profile);
    this.clients = new Clients(this.mqtt, this.cluster);
    this.listeners = new Listeners(this.mqtt, this.cluster, this, options.host);
    this.alarms = new Alarms(options.clock);
    if (options.seed === 'demo') this.alarms.seed(this.cluster.names());
    this.license = new License(this, options.clock, options.license);
    this.conditions = new Conditions(this.alarms, this.license, SELF_NODE, () => this.liveConnections(), options.memory);
    this.traces = new Traces(this, options.dataDir, () => this.cluster.names());
    this.audit = new AuditLog(this, this.configRoots, options.dataDir);
    this.topicMetrics = new TopicMetrics(this);
    this.slowSubs = new SlowSubs(this, SELF_NODE);
    const authCluster = { self: SELF_NODE, nodes: () => this.cluster.names() };
    this.authn = new Authn(this, authCluster);
    this.authz = new Authz(this, authCluster);
    this.gateways = new Gateways(this, () => this.cluster.names(), options.host);
    this.exhooks = new Exhooks(this, () => this.cluster.names());
    this.plugins = new Plugins(this, options.dataDir, () => this.cluster.names());
    this.backups = new Backups(this, options.dataDir);
    const sources = monitorSources(this.mqtt, this.routes, this.cluster, this.rules);
    this.monitor = new Monitor(options.clock, options.sampleIntervalMs, sources, this.profile.monitorSamplers(), () => this.conditions.check());
    if (options.monitorHistory) this.monitor.backfill(historyProfiles(sources, this.routes, this.cluster, options.clock.now()));
    // The first sample at start, so the series is continuous from there.
    this.monitor.tick();
    this.connectors.channels = [this.actions, this.sources];
    this.clusterLinks = new ClusterLinks(this, options.clusterName, () => this.cluster.names());
  }

  /** Live connections of the whole cluster. */
  liveConnections(): number {
    return this.cluster.fixtureNodes.reduce((sum, n) => sum + n.liveConnections, this.mqtt.liveConnections);
  }

  /**
   * Locks --data-dir (one simulator per directory), loads the state that holds every
   * acknowledged change and makes sure the default user exists. Throws StateError (a message for
   * the operator) when the directory is locked or its state is damaged (security.md S23, S24).
   */
  static async open(options: StoreOptions): Promise<Store> {
    let state = emptyState();
    let store: Store | null = null;
    const unlock = options.dataDir === null ? null : await lockDataDir(options.dataDir, options.warn);
    try {
      const file = options.dataDir === null ? null : new StateFile<PersistedState>(options.dataDir, {
        snapshot: () => state,
        restore: (durable) => (store ? store.replaceState(durable) : Promise.resolve()),
        check: stateShapeProblem,
        warn: options.warn,
      });
      const loaded = file ? await file.load(options.resetData ?? false) : null;
      // Merged over the empty state so keys added by later versions get their defaults.
      state = { ...state, ...loaded };
      store = new Store(options, state, file);
      store.unlock = unlock;
      // The default user only in a new directory (or in memory): over a loaded state the
      // credentials are never re-created, whoever they are (D4). EMQX adds admin at every boot
      // where it is missing (emqx_dashboard_admin.erl add_default_user/2 at e5.8.9).
      if (loaded === null && (await store.users.ensureDefault())) await store.persist();
      return store;
    } catch (err) {
      await unlock?.();
      throw err;
    }
  }

  /** Makes the current state durable; a failed write undoes the change and answers 500 (S23). */
  persist(): Promise<void> {
    if (!this.file) return Promise.resolve();
    return this.file.save().catch(() => {
      // The cause (with its file names) goes to the log; the answer names no path (S17).
      throw apiError(500, 'INTERNAL_ERROR', 'The change could not be saved to the data directory; nothing was changed');
    });
  }

  /**
   * Registers what rebuilds a module's derived data (compiled rules, indexes, applied settings)
   * when the whole state was replaced: by a backup import, or by the undo of a failed save. The
   * hook runs synchronously first; it must not call persist().
   */
  onStateReplaced(fn: () => Promise<void> | void): void {
    this.replacedHooks.push(fn);
  }

  /** Tells every module the state was replaced; resolves when the asynchronous parts are done. */
  async stateReplaced(): Promise<void> {
    await Promise.all(this.replacedHooks.map((fn) => fn()));
  }

  /** Puts `next` into the same state object (modules keep reading `ctx.state`), then notifies. */
  private replaceState(next: PersistedState | null): Promise<void> {
    const target = this.state as unknown as Record<string, unknown>;
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, emptyState(), next);
    return this.stateReplaced();
  }

  /** Waits for pending writes and releases the data directory; called when the app closes. */
  async close(): Promise<void> {
    await this.connectors.close();
    await this.traces.flush();
    await this.audit.flushed();
    await this.file?.flush();
    await this.unlock?.();
  }
}

// Keys of the persisted state by the JSON kind they hold (see state.ts); unknown keys are left to
// the version that wrote them.
const ARRAY_KEYS = [
  'users', 'api_keys', 'rewrite', 'auto_subscribe', 'traces', 'topic_metrics', 'exhooks', 'plugins',
  'authentication', 'banned', 'rules', 'schema_registry', 'connectors', 'actions', 'sources',
  'schema_validations', 'message_transformations', 'cluster_links',
];
const OBJECT_KEYS = [
  'license_setting', 'delayed', 'slow_subs', 'config_roots', 'listeners', 'gateways', 'authn_users',
  'authorization', 'authz_rules', 'zone', 'rule_engine', 'schema_registry_external',
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why a loaded state is not of the persisted shape, or null: the top-level kinds, objects in the
 * lists, and the credential fields of users and API keys (a wrong shape is damage, never a crash
 * and never a reset of the credentials, security.md S24).
 */
export function stateShapeProblem(state: unknown): string | null {
  if (!isObject(state)) return 'the state is not an object';
  for (const key of ['users', 'api_keys']) if (!(key in state)) return `${key} is missing`;
  for (const key of ARRAY_KEYS) {
    const value = state[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) return `${key} is not a list`;
    const at = value.findIndex((item) => !isObject(item));
    if (at >= 0) return `${key}[${at}] is not an object`;
  }
  for (const key of OBJECT_KEYS) {
    if (state[key] !== undefined && !isObject(state[key])) return `${key} is not an object`;
  }
  const users = state.users as Record<string, unknown>[];
  const badUser = users.findIndex((u) => typeof u.username !== 'string' || typeof u.password_hash !== 'string');
  if (badUser >= 0) return `users[${badUser}] has no username or password hash`;
  const keys = state.api_keys as Record<string, unknown>[];
  const badKey = keys.findIndex((k) => typeof k.name !== 'string' || typeof k.api_key !== 'string' || typeof k.secret_hash !== 'string');
  if (badKey >= 0) return `api_keys[${badKey}] has no name, key or secret hash`;
  // Every item as its module checks it on write, so nothing the API would refuse (a rule with a
  // numeric id, a ban with `who: null`) loads and answers 500 later; no users, or none of them an
  // administrator, is refused too (D4).
  return checkState(state, 'keep');
}
