// The one store the REST handlers and the MQTT broker share (STYLE habit 7): persisted
// configuration (users, API keys, and what later modules add) plus live state (sessions,
// counters, tokens, alarms). `open()` loads --data-dir, seeds, and creates the default user.
import type { Clock } from '../plugins/clock.ts';
import { Alarms } from './alarms.ts';
import { ApiKeys } from './api-keys.ts';
import { Cluster } from './cluster.ts';
import type { StoreContext } from './context.ts';
import { LoginGuard, type LockoutOptions, type RateLimitOptions } from './login-guard.ts';
import { MqttState } from './mqtt.ts';
import { StateFile } from './persist.ts';
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
}

export class Store implements StoreContext {
  readonly clock: Clock;
  readonly state: PersistedState;
  readonly tokens: Tokens;
  readonly loginGuard: LoginGuard;
  readonly users: Users;
  readonly apiKeys: ApiKeys;
  readonly mqtt = new MqttState();
  readonly cluster: Cluster;
  readonly alarms: Alarms;
  private readonly file: StateFile<PersistedState> | null;

  private constructor(options: StoreOptions, state: PersistedState, file: StateFile<PersistedState> | null) {
    this.clock = options.clock;
    this.state = state;
    this.file = file;
    this.tokens = new Tokens(options.clock, options.tokenIdleMs, options.tokenMaxMs);
    this.loginGuard = new LoginGuard(options.clock, options.lockout, options.loginRateLimit);
    this.users = new Users(this, this.tokens);
    this.apiKeys = new ApiKeys(this);
    this.cluster = new Cluster(options.clock, this.mqtt, Math.max(1, options.nodes));
    this.alarms = new Alarms(options.clock);
    if (options.seed === 'demo') this.alarms.seed(this.cluster.names());
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
    await this.file?.flush();
  }
}
