// The simulator as an app factory: buildApp() returns a Fastify instance with the store, the
// Aedes broker, the plugins and every /api/v5 route registered, but never listens (main.ts does)
// and is not yet ready, so a test may still add routes before `ready()` or `inject()`.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Aedes } from 'aedes';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createBroker } from './broker/index.ts';
import { authPlugin } from './plugins/auth.ts';
import { clockPlugin, systemClock, type Clock } from './plugins/clock.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { securityPlugin } from './plugins/security.ts';
import { staticPlugin } from './plugins/static.ts';
import alarms from './routes/alarms.ts';
import apiKeys from './routes/api-keys.ts';
import login from './routes/login.ts';
import metrics from './routes/metrics.ts';
import nodes from './routes/nodes.ts';
import stats from './routes/stats.ts';
import status, { statusRoute } from './routes/status.ts';
import users from './routes/users.ts';
import { Store } from './store/index.ts';
import type { LockoutOptions, RateLimitOptions } from './store/login-guard.ts';

export interface SimOptions {
  /** Folder for persisted configuration; null keeps everything in memory. Default null. */
  dataDir?: string | null;
  /** `demo` loads fixture alarms; `empty` starts bare. Default `demo`. */
  seed?: 'demo' | 'empty';
  /** Simulated cluster size; node 1 is this process. Default 3. */
  nodes?: number;
  clock?: Clock;
  /** Sliding idle expiry of dashboard tokens. Default 60 min (EMQX `token_expired_time`). */
  tokenIdleMs?: number;
  /** Absolute token lifetime. Default 12 h (security.md S5). */
  tokenMaxMs?: number;
  lockout?: Partial<LockoutOptions>;
  loginRateLimit?: Partial<RateLimitOptions>;
  /** The built console to serve at `/`. Default `<repo>/dist`. */
  staticDir?: string;
  /** Fastify's logger option. Default false. */
  logger?: FastifyServerOptions['logger'];
  /** Where start-up problems such as a corrupt state file are reported. Default stderr. */
  warn?: (message: string) => void;
}

export interface RouteEntry {
  method: string;
  url: string;
  /** Reachable without credentials. */
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    broker: Aedes;
    clock: Clock;
    /** Every route registered, for tests that walk the route table (security.md S7). */
    apiRoutes: RouteEntry[];
    /** Serves one MQTT connection (TCP socket, or WebSocket stream with its upgrade request). */
    acceptMqtt(stream: Duplex, req?: IncomingMessage): void;
  }
}

const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const API_PREFIX = '/api/v5';

function stderrWarn(message: string): void {
  process.stderr.write(`${message}\n`);
}

export async function buildApp(options: SimOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const store = await Store.open({
    dataDir: options.dataDir ?? null,
    seed: options.seed ?? 'demo',
    nodes: options.nodes ?? 3,
    clock,
    tokenIdleMs: options.tokenIdleMs ?? 60 * 60_000,
    tokenMaxMs: options.tokenMaxMs ?? 12 * 60 * 60_000,
    lockout: { maxFailures: 5, windowMs: 5 * 60_000, lockMs: 10 * 60_000, ...options.lockout },
    loginRateLimit: { max: 30, windowMs: 60_000, ...options.loginRateLimit },
    warn: options.warn ?? stderrWarn,
  });
  const broker = await createBroker(store);

  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });

  // First, so every route below is recorded.
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const isPublic = route.config?.public === true || !route.url.startsWith(API_PREFIX);
    for (const method of methods) routes.push({ method, url: route.url, public: isPublic });
  });
  app.decorate('apiRoutes', routes);
  app.decorate('store', store);
  app.decorate('broker', broker.aedes);
  app.decorate('acceptMqtt', broker.accept);
  clockPlugin(app, clock);
  errorsPlugin(app);
  securityPlugin(app);

  await app.register(async (api) => {
    authPlugin(api, store);
    for (const routesOf of [login, status, users, apiKeys, nodes, stats, metrics, alarms]) await api.register(routesOf);
  }, { prefix: API_PREFIX });
  // EMQX also answers the health check at the root, outside the API prefix.
  app.get('/status', statusRoute(app));
  await staticPlugin(app, options.staticDir ?? DEFAULT_STATIC_DIR);

  app.addHook('onClose', async () => {
    await broker.close();
    await store.close();
  });
  return app;
}
