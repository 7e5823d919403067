// The only part of the simulator that listens: console and API on the HTTP port, MQTT over TCP,
// and MQTT over WebSocket at /mqtt on the ws port (and on the HTTP port). Run as a program it
// parses the flags of DESIGN.md §2 and prints the chosen ports as one JSON line on stdout;
// everything else it says goes to stderr.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { buildApp, type SimOptions } from './app.ts';
import { keepServing } from './lib/process-net.ts';
import { createMqttWebSocket, WEBSOCKET_DEFAULTS, type WebSocketSettings } from './broker/websocket.ts';
import { listenerOfSocket, tagSocket, type ListenerHost } from './store/config/listeners.ts';
import { DEFAULT_VERSION, VERSIONS, parseProfile, type Edition, type EmqxVersion } from './store/profile.ts';

export interface StartFlags {
  host?: string;
  httpPort?: number;
  mqttPort?: number;
  wsPort?: number;
  /** null keeps all state in memory. */
  dataDir?: string | null;
  seed?: 'demo' | 'empty';
  nodes?: number;
  logger?: FastifyServerOptions['logger'];
  /** Any other buildApp option (clock, timings, staticDir …). */
  app?: Omit<SimOptions, 'dataDir' | 'seed' | 'nodes' | 'logger'>;
}

export interface Started {
  ports: { http: number; mqtt: number; ws: number };
  app: FastifyInstance;
  close(): Promise<void>;
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });
}

/**
 * The sockets of the MQTT listeners, keyed by listener id: main.ts opens the default tcp and ws
 * listeners at start and hands this host to the store, which reopens them on a bind change and
 * closes or opens them on stop/start (emqx-api-part1 §22.1).
 */
function listenerHost(app: FastifyInstance, mqttWs: ReturnType<typeof createMqttWebSocket>) {
  const servers = new Map<string, net.Server>();
  const create = (id: string, type: 'tcp' | 'ws'): net.Server => {
    if (type === 'tcp') {
      return net.createServer((socket) => {
        socket.setNoDelay(true);
        tagSocket(socket, id);
        app.acceptMqtt(socket);
      });
    }
    // EMQX's ws listener answers plain HTTP on its port with nothing useful either.
    const server = http.createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end('426 - Upgrade Required');
    });
    server.on('upgrade', (req, socket, head) => {
      tagSocket(req.socket, id);
      mqttWs.handleUpgrade(req, socket, head);
    });
    return server;
  };
  const host: ListenerHost & { closeAll(): Promise<void> } = {
    async open(id, type, bindHost, port, maxConnections) {
      const server = create(id, type);
      server.maxConnections = maxConnections;
      const bound = await listen(server, port, bindHost);
      servers.set(id, server);
      return bound;
    },
    async close(id) {
      const server = servers.get(id);
      if (!server) return;
      servers.delete(id);
      const closed = closeServer(server);
      // Closing a listener drops its connections, as EMQX does.
      if (server instanceof http.Server) server.closeAllConnections();
      for (const socket of app.store.mqtt.openSockets()) if (listenerOfSocket(socket) === id) socket.destroy();
      await closed;
    },
    setMaxConnections(id, max) {
      const server = servers.get(id);
      if (server) server.maxConnections = max;
    },
    async closeAll() {
      await Promise.all([...servers.keys()].map((id) => host.close(id)));
    },
  };
  return host;
}

/** A port that cannot be taken, said with the flag that chooses another one. */
async function taken<T>(binding: Promise<T>, flag: string, host: string, port: number): Promise<T> {
  try {
    return await binding;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${port} on ${host} is already in use; stop what uses it, or choose another port with ${flag} (0 picks a free one)`);
    if (code === 'EACCES') throw new Error(`port ${port} on ${host} needs privileges this process lacks; choose another port with ${flag}`);
    if (code === 'EADDRNOTAVAIL') throw new Error(`${host} is not an address of this machine; choose another with --host`);
    throw err;
  }
}

/** Builds the app and starts all three listeners; port 0 picks a free port. */
export async function start(flags: StartFlags = {}): Promise<Started> {
  const host = flags.host ?? '127.0.0.1';
  const app = await buildApp({
    ...flags.app,
    host,
    dataDir: flags.dataDir === undefined ? './data' : flags.dataDir,
    seed: flags.seed ?? 'demo',
    nodes: flags.nodes ?? 3,
    logger: flags.logger ?? false,
  });

  // The ws listener that accepted the socket; the console's port speaks as ws:default does.
  const mqttWs = createMqttWebSocket((stream, req) => app.acceptMqtt(stream, req), (req) => {
    const id = listenerOfSocket(req.socket as Socket);
    const config = app.store.listeners.detail(id ?? 'ws:default')?.websocket as Partial<WebSocketSettings> | undefined;
    return { settings: { ...WEBSOCKET_DEFAULTS, ...config }, sameOriginOnly: id === undefined };
  });
  app.server.on('upgrade', mqttWs.handleUpgrade);
  const listeners = listenerHost(app, mqttWs);

  try {
    // The HTTP port last: Fastify logs "listening" when it is taken, so only once all are.
    await app.ready();
    const mqtt = await taken(listeners.open('tcp:default', 'tcp', host, flags.mqttPort ?? 1883, Infinity), '--mqtt-port', host, flags.mqttPort ?? 1883);
    const ws = await taken(listeners.open('ws:default', 'ws', host, flags.wsPort ?? 8083, Infinity), '--ws-port', host, flags.wsPort ?? 8083);
    await taken(app.listen({ port: flags.httpPort ?? 18083, host }), '--http-port', host, flags.httpPort ?? 18083);
    const ports = { http: (app.server.address() as AddressInfo).port, mqtt, ws };
    await app.store.listeners.attach(listeners, { 'tcp:default': `${host}:${ports.mqtt}`, 'ws:default': `${host}:${ports.ws}` });
    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= (async () => {
        mqttWs.close();
        const servers = listeners.closeAll();
        await app.close();
        await servers;
      })();
      return closing;
    };
    return { ports, app, close };
  } catch (err) {
    mqttWs.close();
    await listeners.closeAll();
    await app.close();
    throw err;
  }
}

const USAGE = `Usage: node --import tsx/esm simulator/main.ts [flags]
  --host H          bind address (default 127.0.0.1)
  --http-port N     console and API (default 18083; 0 = any free port)
  --mqtt-port N     MQTT over TCP (default 1883)
  --ws-port N       MQTT over WebSocket at /mqtt (default 8083)
  --data-dir DIR    persistent state (default ./data)
  --seed demo|empty demo data (alarms, clients of the other nodes, 7 days of
                    monitor history) or none (default demo)
  --nodes N         simulated cluster size (default 3)
  --log-level L     fatal|error|warn|info|debug (default info)
  --down-node NAME  start with simulated node NAME down (repeatable), e.g. emqx@node2
  --reset-data      move the state files of --data-dir aside (kept as
                    state.json.reset-<time>) and start with an empty state
  --trust-proxy A   believe X-Forwarded-For from these proxies (addresses or
                    CIDRs, comma-separated) for the audit log's source_ip and the
                    login rate limit (default: none; the socket's peer counts)
  --cluster-name N  cluster.name, which clusters linking to this one use (default emqxcl)
  --emqx-version V  the broker release to be: ${VERSIONS.join(', ')} (default ${DEFAULT_VERSION})
  --edition E       ee (Enterprise) or ce (Community, 5.5.1 and 5.8.9 only; from 5.9
                    on EMQX ships one Enterprise edition) (default ee)
  --console-dir DIR the built console, served as EMQX serves its dashboard folder:
                    index.html at / and static/ at /static/ (default: dist/ of this
                    repository)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function port(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`${flag}: not a port: ${value}`);
  return n;
}

/** Parses the command line flags; the last occurrence of a flag wins. */
export function parseFlags(argv: readonly string[]): StartFlags & { logLevel: string } {
  const flags: StartFlags & { logLevel: string } = { logLevel: 'info' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (flag === '--reset-data') {
      flags.app = { ...flags.app, resetData: true };
      continue;
    }
    const value = argv[++i];
    if (value === undefined) fail(`${flag}: missing value`);
    switch (flag) {
      case '--host': flags.host = value; break;
      case '--http-port': flags.httpPort = port(value, flag); break;
      case '--mqtt-port': flags.mqttPort = port(value, flag); break;
      case '--ws-port': flags.wsPort = port(value, flag); break;
      case '--data-dir': flags.dataDir = value; break;
      case '--seed':
        if (value !== 'demo' && value !== 'empty') fail(`--seed: expected demo or empty, got ${value}`);
        flags.seed = value;
        break;
      case '--nodes': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1 || n > 64) fail(`--nodes: expected 1..64, got ${value}`);
        flags.nodes = n;
        break;
      }
      case '--log-level': flags.logLevel = value; break;
      case '--emqx-version':
        if (!(VERSIONS as readonly string[]).includes(value)) fail(`--emqx-version: expected ${VERSIONS.join(', ')}, got ${value}`);
        flags.app = { ...flags.app, emqxVersion: value as EmqxVersion };
        break;
      case '--edition':
        flags.app = { ...flags.app, edition: value as Edition };
        break;
      case '--console-dir': flags.app = { ...flags.app, staticDir: value }; break;
      case '--trust-proxy': flags.app = { ...flags.app, trustProxy: value }; break;
      case '--cluster-name': flags.app = { ...flags.app, clusterName: value }; break;
      case '--down-node': flags.app = { ...flags.app, downNodes: [...(flags.app?.downNodes ?? []), value] }; break;
      default: fail(`unknown flag ${flag}`);
    }
  }
  // The pair is checked once both flags are read, in the words parseProfile uses for buildApp.
  try {
    parseProfile(flags.app?.emqxVersion, flags.app?.edition);
  } catch (err) {
    fail(`--edition: ${(err as Error).message}`);
  }
  return flags;
}

/**
 * The logger of the command line: at `info` one line per request (method, path without the
 * query, status, time) instead of Fastify's two, errors as they come; never bodies, passwords or
 * tokens (S4).
 */
function logOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    stream: process.stderr,
    base: null,
    hooks: {
      logMethod(args, method) {
        const [first, message] = args as unknown[];
        if (message === 'incoming request') return;
        if (message === 'request completed' && typeof first === 'object' && first !== null && 'res' in first) {
          const { res, responseTime } = first as { res: FastifyReply; responseTime: number };
          const { method: verb, url } = res.request;
          method.call(this, `${verb} ${url.split('?')[0]} ${res.statusCode} ${responseTime.toFixed(1)} ms`);
          return;
        }
        method.apply(this, args);
      },
    },
  };
}

/** Where to open the console, and the ports and data directory taken, for the operator. */
function startedMessage(host: string, ports: Started['ports'], dataDir: string | null): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `simulator ready: open the console at http://${shown}:${ports.http}/ (a new data directory starts with admin / public)\n`
    + `  MQTT mqtt://${shown}:${ports.mqtt}, WebSocket ws://${shown}:${ports.ws}/mqtt, `
    + `state ${dataDir === null ? 'in memory only' : `in ${path.resolve(dataDir)}`}\n`;
}

async function main(): Promise<void> {
  const { logLevel, ...flags } = parseFlags(process.argv.slice(2));
  keepServing((line) => process.stderr.write(`${line}\n`));
  const started = await start({ ...flags, logger: logOptions(logLevel) });
  process.stdout.write(`${JSON.stringify(started.ports)}\n`);
  process.stderr.write(startedMessage(flags.host ?? '127.0.0.1', started.ports, flags.dataDir === undefined ? './data' : flags.dataDir));
  const stop = (signal: string) => {
    process.stderr.write(`${signal}: shutting down\n`);
    // A hung close must not keep the process alive forever.
    setTimeout(() => process.exit(1), 5000).unref();
    started.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`simulator failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
