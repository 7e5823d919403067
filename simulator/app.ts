// The simulator as an app factory: buildApp() returns a Fastify instance with the store, the
// Aedes broker, the plugins and every /api/v5 route registered, but never listens (main.ts does)
// and is not yet ready, so a test may still add routes before `ready()` or `inject()`.
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Aedes } from 'aedes';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Bridge } from './broker/bridge.ts';
import { createBroker } from './broker/index.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodyLimitsPlugin } from './plugins/body-limits.ts';
import { clockPlugin, systemClock, type Clock } from './plugins/clock.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { securityPlugin } from './plugins/security.ts';
import { profilePlugin } from './plugins/profile.ts';
import { staticPlugin } from './plugins/static.ts';
import alarms from './routes/alarms.ts';
import audit from './routes/audit.ts';
import fileTransfer from './routes/file-transfer.ts';
import sso from './routes/sso.ts';
import gateways from './routes/gateways.ts';
import exhook from './routes/exhook.ts';
import plugins from './routes/plugins.ts';
import dataBackup from './routes/data-backup.ts';
import authentication from './routes/authentication.ts';
import authorization from './routes/authorization.ts';
import banned from './routes/banned.ts';
import zone from './routes/zone.ts';
import configs from './routes/configs.ts';
import configsHocon from './routes/configs-hocon.ts';
import schemas from './routes/schemas.ts';
import errorCodes from './routes/error-codes.ts';
import rules from './routes/rules.ts';
import connectors from './routes/connectors.ts';
import actions from './routes/actions.ts';
import managedNamespaces from './routes/managed-namespaces.ts';
import schemaRegistry from './routes/schema-registry.ts';
import schemaValidation from './routes/schema-validation.ts';
import messageTransformation from './routes/message-transformation.ts';
import relup from './routes/relup.ts';
import clusterLink from './routes/cluster-link.ts';
import apiKeys from './routes/api-keys.ts';
import autoSubscribe from './routes/auto-subscribe.ts';
import clients from './routes/clients.ts';
import delayed from './routes/delayed.ts';
import license from './routes/license.ts';
import listeners from './routes/listeners.ts';
import login from './routes/login.ts';
import metrics from './routes/metrics.ts';
import monitor from './routes/monitor.ts';
import nodes from './routes/nodes.ts';
import publish from './routes/publish.ts';
import retainer from './routes/retainer.ts';
import rewrite from './routes/rewrite.ts';
import slowSubs from './routes/slow-subs.ts';
import stats from './routes/stats.ts';
import status, { statusRoute } from './routes/status.ts';
import subscriptions from './routes/subscriptions.ts';
import topicMetrics from './routes/topic-metrics.ts';
import topics from './routes/topics.ts';
import trace from './routes/trace.ts';
import users from './routes/users.ts';
import { Store } from './store/index.ts';
import type { LicenseOptions } from './store/dashboard/license.ts';
import type { LockoutOptions, RateLimitOptions } from './store/dashboard/login-guard.ts';
import { parseProfile, type Edition, type EmqxVersion } from './store/profile.ts';

export interface SimOptions {
  /** The broker release to be (store/profile.ts). Default the newest, `6.2.2`. */
  emqxVersion?: EmqxVersion;
  /** Enterprise (`ee`) or Community (`ce`, 5.5.1 and 5.8.9 only). Default `ee`. */
  edition?: Edition;
  /** Folder for persisted configuration; null keeps everything in memory. Default null. */
  dataDir?: string | null;
  /** `demo` loads fixture alarms, fixture clients and monitor history; `empty` starts bare. Default `demo`. */
  seed?: 'demo' | 'empty';
  /** Give the other nodes their fixture clients. Default: true with the demo seed. */
  fixtureClients?: boolean;
  /** Back-fill seven days of /monitor history. Default: true with the demo seed. */
  monitorHistory?: boolean;
  /** Monitor sampling interval (EMQX `dashboard.sample_interval`). Default 10 s. */
  sampleIntervalMs?: number;
  /** Sample on a timer; without it samples are taken when /monitor* is read. Default true. */
  sampleTimer?: boolean;
  /** License fields to override, e.g. a small `max_connections` quota. */
  license?: Partial<LicenseOptions>;
  /** Resident memory of node 1 above which `high_process_memory_usage` is raised. Default 1 GiB. */
  memoryHighWatermark?: number;
  /** Reads node 1's memory use in bytes. Default: the process's resident set size. */
  memoryUsage?: () => number;
  /** Simulated cluster size; node 1 is this process. Default 3. */
  nodes?: number;
  /** Simulated nodes to start as down (security.md D3); `store.cluster.markDown` changes it later. */
  downNodes?: string[];
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
  /** Move the state files of `dataDir` aside and start empty (`--reset-data`). Default false. */
  resetData?: boolean;
  /**
   * The address the simulator listens on (`--host`); listeners and gateway listeners created
   * through the API may listen only there (security.md S28). Default `127.0.0.1`.
   */
  host?: string;
  /**
   * Proxies whose X-Forwarded-For is believed for a request's address (the audit log's
   * `source_ip`, the login rate limit): Fastify's `trustProxy` — true, or addresses and CIDRs
   * separated by commas. Default none: the socket's peer (security.md S27).
   */
  trustProxy?: boolean | string;
  /**
   * Deadlines of an HTTP request (security.md S25): its headers within `headersMs` (cowboy's
   * `request_timeout`, 5 s), the whole request with its body within `requestMs` (60 s, cowboy's
   * `idle_timeout`; cowboy also bounds each body read). A client past either is cut off with a 408.
   */
  httpTimeouts?: { headersMs?: number; requestMs?: number };
  /** `cluster.name`, the name other clusters link to this one by (`--cluster-name`). Default `emqxcl`. */
  clusterName?: string;
}

export interface RouteEntry {
  method: string;
  url: string;
  /** Reachable without credentials. */
  public: boolean;
  /** The route's JSON schemas (body, querystring, params, response), for tests that generate input. */
  schema?: Record<string, unknown>;
  /** A POST/PUT that takes no body (an operation such as `/trace/:name/stop`): `config: { noBody: true }`. */
  noBody: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    broker: Aedes;
    clock: Clock;
    /** Every route registered, for tests that walk the route table (security.md S7). */
    apiRoutes: RouteEntry[];
    /** Routes the simulator has that the selected release lacks (they answer 404), as `METHOD url`. */
    unavailableRoutes: string[];
    /** Serves one MQTT connection (TCP socket, or WebSocket stream with its upgrade request). */
    acceptMqtt(stream: Duplex, req?: IncomingMessage): void;
    /** What REST handlers do to MQTT clients (kick, subscribe, publish, retained deletes). */
    bridge: Bridge;
  }
}

const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const API_PREFIX = '/api/v5';

function stderrWarn(message: string): void {
  process.stderr.write(`${message}\n`);
}

export async function buildApp(options: SimOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const demo = (options.seed ?? 'demo') === 'demo';
  const profile = parseProfile(options.emqxVersion, options.edition);
  const store = await Store.open({
    profile,
    dataDir: options.dataDir ?? null,
    seed: options.seed ?? 'demo',
    nodes: options.nodes ?? 3,
    clock,
    tokenIdleMs: options.tokenIdleMs ?? 60 * 60_000,
    tokenMaxMs: options.tokenMaxMs ?? 12 * 60 * 60_000,
    lockout: { maxFailures: 5, windowMs: 5 * 60_000, lockMs: 10 * 60_000, ...options.lockout },
    loginRateLimit: { max: 30, windowMs: 60_000, ...options.loginRateLimit },
    warn: options.warn ?? stderrWarn,
    resetData: options.resetData ?? false,
    fixtureClients: options.fixtureClients ?? demo,
    monitorHistory: options.monitorHistory ?? demo,
    sampleIntervalMs: options.sampleIntervalMs ?? 10_000,
    license: options.license ?? {},
    host: options.host ?? '127.0.0.1',
    clusterName: options.clusterName ?? 'emqxcl',
    memory: {
      highWatermark: options.memoryHighWatermark ?? 1024 ** 3,
      usage: options.memoryUsage ?? (() => process.memoryUsage.rss()),
    },
  });
  for (const node of options.downNodes ?? []) {
    if (!store.cluster.markDown(node)) throw new Error(`not a simulated node other than node 1: ${node}`);
  }
  const broker = await createBroker(store, options.warn ?? stderrWarn);

  const requestMs = options.httpTimeouts?.requestMs ?? 60_000;
  const headersMs = Math.min(options.httpTimeouts?.headersMs ?? 5_000, requestMs);
  const app = Fastify({
    // Node checks the deadlines on an interval: often enough that a short test deadline holds.
    serverFactory: (handler) => http.createServer({
      requestTimeout: requestMs,
      headersTimeout: headersMs,
      connectionsCheckingInterval: Math.min(1000, headersMs),
    }, handler),
    logger: options.logger ?? false,
    forceCloseConnections: true,
    trustProxy: options.trustProxy ?? false,
    // Topics and client ids travel URL-encoded in one path segment (`a%2Fb`); topics may be long.
    routerOptions: { maxParamLength: 8192 },
    // A field the schema does not know is refused (hocon's unknown_fields), never silently dropped.
    ajv: { customOptions: { removeAdditional: false } },
  });

  // First, so every route below is recorded.
  const routes: RouteEntry[] = [];
  const unavailable: string[] = [];
  const releaseLayer = profilePlugin(app, profile);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Routes the selected release lacks answer 404 and are left out of the table.
    if (!releaseLayer.onRoute(route)) {
      for (const method of methods) if (method !== 'HEAD') unavailable.push(`${method} ${route.url}`);
      return;
    }
    const isPublic = route.config?.public === true || !route.url.startsWith(API_PREFIX);
    for (const method of methods) routes.push({ method, url: route.url, public: isPublic, schema: route.schema as Record<string, unknown> | undefined, noBody: route.config?.noBody === true });
  });
  app.decorate('apiRoutes', routes);
  app.decorate('unavailableRoutes', unavailable);
  app.decorate('store', store);
  app.decorate('broker', broker.aedes);
  app.decorate('acceptMqtt', broker.accept);
  app.decorate('bridge', broker.bridge);
  clockPlugin(app, clock);
  errorsPlugin(app, releaseLayer.methodsOf);
  securityPlugin(app);
  bodyLimitsPlugin(app);

  await app.register(async (api) => {
    authPlugin(api, store);
    for (const routesOf of [
      // audit first: its hooks record the changes made through every route after it.
      audit,
      login, status, users, apiKeys, nodes, stats, metrics, alarms, monitor, license,
      sso, fileTransfer,
      clients, subscriptions, topics, retainer, publish, listeners,
      rewrite, autoSubscribe, delayed,
      trace, topicMetrics, slowSubs,
      gateways, exhook, plugins, dataBackup,
      authentication, authorization, banned, zone,
      configs, configsHocon, schemas, errorCodes,
      rules, connectors, actions, managedNamespaces, schemaRegistry,
      schemaValidation, messageTransformation, relup, clusterLink,
    ]) await api.register(routesOf);
  }, { prefix: API_PREFIX });
  // EMQX also answers the health check at the root, outside the API prefix.
  app.get('/status', statusRoute(app));
  await staticPlugin(app, options.staticDir ?? DEFAULT_STATIC_DIR);

  // The sampler: tick() samples only when an interval boundary has passed, so a short period
  // keeps samples on their boundaries without doing work in between.
  let sampler: NodeJS.Timeout | undefined;
  if (options.sampleTimer ?? true) {
    app.addHook('onReady', async () => {
      sampler = setInterval(() => store.monitor.tick(), 1000);
      sampler.unref();
    });
  }

  app.addHook('onClose', async () => {
    clearInterval(sampler);
    await broker.close();
    await store.close();
  });
  return app;
}
