// Test helpers for starting the simulator (in process or as a child process), logging in,
// calling the API over HTTP and connecting MQTT clients. They avoid the global fetch and
// mqtt.connect on purpose: when happy-dom globals are registered, fetch enforces CORS and
// mqtt.js believes it runs in a browser, so HTTP goes through node:http and MQTT clients get
// an explicit Node stream.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Test } from 'uvu';
import { MqttClient, type IClientOptions } from 'mqtt';
import WebSocket, { createWebSocketStream } from 'ws';
import { buildApp, type SimOptions } from '../../simulator/app.ts';
import { start, type StartFlags } from '../../simulator/main.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A clock tests move by hand. */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(startMs = Date.UTC(2026, 0, 1, 8, 0, 0)): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

/**
 * Node 1's memory in apps that tests build in this process, unless a test gives its own reading:
 * the resident set of a test process that has run many suites can pass the 1 GiB watermark and
 * raise `high_process_memory_usage`, an alarm no test asked for.
 */
const QUIET_MEMORY = () => 64 * 1024 ** 2;

/**
 * A fresh in-memory app with the empty seed, for `inject()` tests; options override. The monitor
 * samples when /monitor* is read (no timer), so tests drive it with their clock.
 */
export function buildTestApp(options: SimOptions = {}): Promise<FastifyInstance> {
  return buildApp({
    dataDir: null,
    seed: 'empty',
    staticDir: path.join(REPO_ROOT, 'tests', 'no-static-dir'),
    sampleTimer: false,
    memoryUsage: QUIET_MEMORY,
    ...options,
  });
}

/** `app.inject()` with an optional Bearer token and JSON body. */
export function api(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'HEAD',
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return app.inject({ method, url, headers, ...(options.body === undefined ? {} : { payload: options.body as object }) });
}

export interface RunningSimulator {
  http: number;
  mqtt: number;
  ws: number;
  baseUrl: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface StartSimulatorOptions extends Omit<StartFlags, 'host' | 'httpPort' | 'mqttPort' | 'wsPort'> {}

/**
 * Starts the simulator in this process on free ports (memory only and empty seed unless told;
 * no sampler timer and a fixed memory reading, as in buildTestApp).
 */
export async function startSimulator(opts: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const started = await start({
    dataDir: null,
    seed: 'empty',
    ...opts,
    app: { sampleTimer: false, memoryUsage: QUIET_MEMORY, ...opts.app },
    host: '127.0.0.1',
    httpPort: 0,
    mqttPort: 0,
    wsPort: 0,
  });
  const { ports } = started;
  return { ...ports, baseUrl: `http://127.0.0.1:${ports.http}`, app: started.app, close: started.close };
}

export interface SpawnedSimulator {
  http: number;
  mqtt: number;
  ws: number;
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** Sends a signal (default SIGTERM) and resolves when the child has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `simulator/main.ts` as a child process on free ports and resolves with the ports it
 * printed. Arguments given later win; without `--data-dir` a fresh temporary folder is used
 * (and removed on kill).
 */
export function spawnSimulator(args: string[] = []): Promise<SpawnedSimulator> {
  const ownDir = args.includes('--data-dir') ? null : mkdtempSync(path.join(os.tmpdir(), 'sim-data-'));
  const allArgs = [
    '--import', 'tsx/esm', 'simulator/main.ts',
    '--http-port', '0', '--mqtt-port', '0', '--ws-port', '0', '--log-level', 'warn',
    ...(ownDir ? ['--data-dir', ownDir] : []),
    ...args,
  ];
  const dataDir = ownDir ?? args[args.lastIndexOf('--data-dir') + 1];
  const child = spawn(process.execPath, allArgs, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`simulator did not start within 20 s:\n${stderr}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited with ${code} before listening:\n${stderr}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line || !stdout.includes('\n')) return;
      clearTimeout(timer);
      const ports = JSON.parse(line) as { http: number; mqtt: number; ws: number };
      resolve({
        ...ports,
        baseUrl: `http://127.0.0.1:${ports.http}`,
        dataDir,
        child,
        stderr: () => stderr,
        async kill(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
          if (ownDir) rmSync(ownDir, { recursive: true, force: true });
        },
      });
    });
  });
}

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One HTTP request to a running simulator; `token` adds a Bearer header. */
export function request(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, baseUrl), { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        let json: unknown = undefined;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** PUT /configs/global_zone with these `mqtt` settings; throws unless it answers 200. */
export async function putZone(baseUrl: string, token: string, mqtt: Record<string, unknown>): Promise<void> {
  const res = await request(baseUrl, 'PUT', '/api/v5/configs/global_zone', { token, body: { mqtt } });
  if (res.status !== 200) throw new Error(`PUT /configs/global_zone answered ${res.status}: ${res.text}`);
}

/** Logs in through inject (a Fastify app) or HTTP (a base URL) and returns the token. */
export async function login(target: FastifyInstance | string, username = 'admin', password = 'public'): Promise<string> {
  if (typeof target === 'string') {
    const res = await request(target, 'POST', '/api/v5/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
    return res.json.token as string;
  }
  const res = await target.inject({ method: 'POST', url: '/api/v5/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

/**
 * Connects an mqtt.js client over `mqtt://host:port` (TCP) or `ws://host:port/mqtt`, resolving
 * on CONNACK and rejecting on a refused connection. Reconnecting is off.
 */
export function connectMqtt(url: string, options: IClientOptions = {}): Promise<MqttClient> {
  const target = new URL(url);
  const streamBuilder = () => {
    if (target.protocol === 'mqtt:') return net.connect(Number(target.port), target.hostname);
    // `mqtt` for every protocol level: EMQX's supported_subprotocols has no `mqttv3.1`.
    const ws = new WebSocket(url, ['mqtt']);
    return createWebSocketStream(ws);
  };
  const client = new MqttClient(streamBuilder, {
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    timerVariant: 'native',
    ...options,
  });
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      client.end(true);
      reject(err);
    };
    client.once('connect', () => {
      client.off('error', onError);
      resolve(client);
    });
    client.once('error', onError);
  });
}

/** Ends an MQTT client and waits until its socket is closed. */
export function endMqtt(client: MqttClient): Promise<void> {
  return new Promise((resolve) => client.end(false, {}, () => resolve()));
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 1000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Inspectable {
  sim: SpawnedSimulator;
  /** Collects garbage in the simulator, then returns its JS heap in use and RSS. */
  heap(): Promise<{ heapUsed: number; rss: number }>;
  close(): void;
}

/**
 * Spawns the simulator with the inspector on a random loopback port, so the benchmark can force
 * a garbage collection before reading the heap: without it, what V8 has not collected yet
 * would look like a leak.
 */
export async function spawnInspectable(args: string[]): Promise<Inspectable> {
  const previous = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${previous ?? ''} --inspect=127.0.0.1:0`.trim();
  const started = spawnSimulator(args);
  // The child has its environment now; the load processes started later must not inherit it.
  if (previous === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = previous;
  const sim = await started;
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(sim.stderr())?.[1];
  if (!url) throw new Error('the simulator did not open the inspector');
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  let id = 0;
  const pending = new Map<number, (result: any) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) => new Promise<any>((resolve) => {
    pending.set(++id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
  return {
    sim,
    async heap() {
      await send('HeapProfiler.collectGarbage');
      const { result } = await send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
      const usage = JSON.parse(result.value as string) as { heapUsed: number; rss: number };
      return { heapUsed: usage.heapUsed, rss: usage.rss };
    },
    close: () => socket.close(),
  };
}

/** A suite's simulator on free ports, logged in as admin (see `simulatorSuite`). */
export interface SimulatorSuite {
  sim: RunningSimulator;
  token: string;
  /** MQTT clients a test opens; each is ended after its test. */
  open: MqttClient[];
  /** An `api/v5` call as admin: `call('GET', '/rules')`. */
  call: (method: string, path: string, body?: unknown) => Promise<HttpResult>;
}

/**
 * Starts one simulator for a uvu suite before its tests and closes it after them, logged in as
 * admin; after each test the clients in `open` end and `cleanup` removes what the test made.
 */
export function simulatorSuite(suite: Test, opts: StartSimulatorOptions, cleanup?: (s: SimulatorSuite) => Promise<void>): SimulatorSuite {
  const s = { token: '', open: [] } as unknown as SimulatorSuite;
  s.call = (method, path, body) => request(s.sim.baseUrl, method, `/api/v5${path}`, { token: s.token, body });
  suite.before(async () => {
    s.sim = await startSimulator(opts);
    s.token = await login(s.sim.baseUrl);
  });
  suite.after.each(async () => {
    await Promise.all(s.open.splice(0).map((c) => endMqtt(c)));
    await cleanup?.(s);
  });
  suite.after(async () => {
    await s.sim?.close();
  });
  return s;
}
