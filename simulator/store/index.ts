// The one store the REST handlers and the MQTT broker share (STYLE habit 7): persisted
// configuration (users, API keys, license setting, and what later modules add) plus live state
// (sessions, routes, counters, samples, tokens, alarms). `open()` loads --data-dir, seeds, and
// creates the default user.
import type { Clock } from '../plugins/clock.ts';
import { Channels } from './actions.ts';
import { Alarms } from './alarms.ts';
import { ApiKeys } from './api-keys.ts';
import { AutoSubscribe } from './auto-subscribe.ts';
import { Authn } from './authn.ts';
import { Authz } from './authz.ts';
import { Banned } from './banned.ts';
import { Zone } from './zone.ts';
import { Backups } from './backup.ts';
import { Exhooks } from './exhook.ts';
import { Gateways } from './gateways.ts';
import { Plugins } from './plugins.ts';
import { Listeners } from './listeners.ts';
import { ConfigRoots } from './config-roots.ts';
import { Clients } from './clients.ts';
import { Cluster, SELF_NODE } from './cluster.ts';
import { Conditions, type MemoryWatch } from './conditions.ts';
import { Connectors } from './connectors.ts';
import { Delayed } from './delayed.ts';
import type { StoreContext } from './context.ts';
import { License, type LicenseOptions } from './license.ts';
import { LoginGuard, type LockoutOptions, type RateLimitOptions } from './login-guard.ts';
import { historyProfiles, monitorSources } from './monitor-sources.ts';
import { Monitor } from './monitor.ts';
import { MqttState } from './mqtt.ts';
import { StateFile } from './persist.ts';
import { Rewrite } from './rewrite.ts';
import { Rules } from './rules.ts';
import { SchemaRegistry } from './schema-registry.ts';
import { SlowSubs } from './slow-subs.ts';
import { TopicMetrics } from './topic-metrics.ts';
import { Traces } from './trace.ts';
import { RouteTable } from './routes.ts';
import { emptyState, type PersistedState } from './state.ts';
import { Tokens } from './tokens.ts';
import { Users } from './users.ts';

export interface StoreOptions {
  dataDir: string | null;
  seed: 'demo' | 'empty';
  nodes: number;
  clock: Clock;
  tokenIdleMs: number;
  tokenMaxMs: number;
  lockout: LockoutOptions;
  loginRateLimit: RateLimitOptions;
  /** Where load-time problems (corrupt state files) are reported. */
  warn: (message: string) => void;
  /** Load the fixture clients of the other nodes. */
  fixtureClients: boolean;
  /** Back-fill seven days of monitor history. */
  monitorHistory: boolean;
  sampleIntervalMs: number;
  license: Partial<LicenseOptions>;
  memory: MemoryWatch;
}

export class Store implements StoreContext {
  readonly clock: Clock;
  readonly state: PersistedState;
  readonly tokens: Tokens;
  readonly loginGuard: LoginGuard;
  readonly users: Users;
  readonly apiKeys: ApiKeys;
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
  private readonly file: StateFile<PersistedState> | null;

  private constructor(options: StoreOptions, state: PersistedState, file: StateFile<PersistedState> | null) {
    this.clock = options.clock;
    this.state = state;
    this.file = file;
    this.tokens = new Tokens(options.clock, options.tokenIdleMs, options.tokenMaxMs);
    this.loginGuard = new LoginGuard(options.clock, options.lockout, options.loginRateLimit);
    this.users = new Users(this, this.tokens);
    this.apiKeys = new ApiKeys(this);
    this.cluster = new Cluster(options.clock, this.mqtt, Math.max(1, options.nodes), this.routes, options.fixtureClients);
    this.clients = new Clients(this.mqtt, this.cluster);
    this.listeners = new Listeners(this.mqtt, this.cluster, this);
    this.alarms = new Alarms(options.clock);
    if (options.seed === 'demo') this.alarms.seed(this.cluster.names());
    this.license = new License(this, options.clock, options.license);
    this.conditions = new Conditions(this.alarms, this.license, SELF_NODE, () => this.liveConnections(), options.memory);
    this.traces = new Traces(this, options.dataDir, () => this.cluster.names());
    this.topicMetrics = new TopicMetrics(this);
    this.slowSubs = new SlowSubs(this, SELF_NODE);
    const authCluster = { self: SELF_NODE, nodes: () => this.cluster.names() };
    this.authn = new Authn(this, authCluster);
    this.authz = new Authz(this, authCluster);
    this.gateways = new Gateways(this, () => this.cluster.names());
    this.exhooks = new Exhooks(this, () => this.cluster.names());
    this.plugins = new Plugins(this, options.dataDir, () => this.cluster.names());
    this.backups = new Backups(this, options.dataDir);
    const sources = monitorSources(this.mqtt, this.routes, this.cluster);
    this.monitor = new Monitor(options.clock, options.sampleIntervalMs, sources, () => this.conditions.check());
    if (options.monitorHistory) this.monitor.backfill(historyProfiles(sources, this.routes, this.cluster, options.clock.now()));
    // The first sample at start, so the series is continuous from there.
    this.monitor.tick();
    this.connectors.channels = [this.actions, this.sources];
  }

  /** Live connections of the whole cluster. */
  liveConnections(): number {
    return this.cluster.fixtureNodes.reduce((sum, n) => sum + n.liveConnections, this.mqtt.liveConnections);
  }

  /** Loads (or starts) the state and makes sure the default user exists. */
  static async open(options: StoreOptions): Promise<Store> {
    let state = emptyState();
    const file = options.dataDir === null ? null : new StateFile(options.dataDir, () => state, options.warn);
    const loaded = file ? await file.load() : null;
    // Merged over the empty state so keys added by later versions get their defaults.
    state = { ...state, ...loaded };
    const store = new Store(options, state, file);
    if (await store.users.ensureDefault()) await store.persist();
    return store;
  }

  /** Makes the current state durable; immediate when running in memory. */
  persist(): Promise<void> {
    return this.file ? this.file.save() : Promise.resolve();
  }

  /** Waits for pending writes; called when the app closes. */
  async close(): Promise<void> {
    await this.connectors.close();
    await this.traces.flush();
    await this.file?.flush();
  }
}
