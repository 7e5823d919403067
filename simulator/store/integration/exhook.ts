// ExHook servers (emqx_exhook, emqx-api-part1 §20): configs in boot order, and a status that
// comes from a real TCP connect probe to the URL's host:port (the gRPC handshake itself is not
// simulated): connected, error (with the socket's reason) or disabled. Probes run when a server
// is read (results are reused for a couple of seconds) and on an unref'd timer while the app runs.
import net from 'node:net';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';

export interface ExhookServerConfig extends Record<string, unknown> {
  name: string;
  enable: boolean;
  url: string;
}

export type ExhookStatus = 'connected' | 'connecting' | 'disconnected' | 'disabled' | 'error';

interface Probe {
  status: ExhookStatus;
  reason?: string;
  at: number;
}

const DEFAULTS = {
  enable: true,
  request_timeout: '5s',
  failed_action: 'deny',
  ssl: { enable: false, verify: 'verify_none' },
  socket_options: { keepalive: true, nodelay: true },
  auto_reconnect: '60s',
  pool_size: 8,
};

/** The hooks a connected server registers (what emqx_exhook_demo_svr answers in OnProviderLoaded). */
const HOOKS = [
  'client.connect', 'client.connack', 'client.connected', 'client.disconnected', 'client.authenticate', 'client.authorize',
  'client.subscribe', 'client.unsubscribe', 'session.created', 'session.subscribed', 'session.unsubscribed', 'session.resumed',
  'session.discarded', 'session.takenover', 'session.terminated', 'message.publish', 'message.delivered', 'message.acked', 'message.dropped',
];

const PROBE_TTL_MS = 2000;
const PROBE_TIMEOUT_MS = 1500;

const zeroMetrics = () => ({ succeed: 0, failed: 0, rate: 0, max_rate: 0 });

/** `http://host:port` → host and port, or null when the URL is not an http(s) URL. */
export function exhookTarget(url: string): { host: string; port: number } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

function durationMs(value: unknown): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(String(value ?? ''));
  if (!match) return PROBE_TIMEOUT_MS;
  const n = Number(match[1]);
  return match[2] === 'ms' ? n : match[2] === 'm' ? n * 60_000 : n * 1000;
}

/** One TCP connect attempt; resolves with null when it connects, else the reason. */
function connectProbe(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (reason: string | null) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(reason);
    };
    const timer = setTimeout(() => done('connect timeout'), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ? `${err.code.toLowerCase()}` : err.message));
  });
}

export class Exhooks {
  private readonly probes = new Map<string, Probe>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: StoreContext, private readonly nodes: () => string[]) {}

  // Reads never add the key to the state (a refused write must leave the state as it was).
  private get servers(): ExhookServerConfig[] {
    return this.ctx.state.exhooks ?? [];
  }

  private find(name: string): ExhookServerConfig {
    const server = this.servers.find((s) => s.name === name);
    if (!server) throw apiError(404, 'BAD_REQUEST', 'Server not found');
    return server;
  }

  /** Probes a server unless a fresh result exists (or `force`). */
  private async probe(server: ExhookServerConfig, force = false): Promise<Probe> {
    const now = Date.now();
    if (!server.enable) {
      const probe: Probe = { status: 'disabled', at: now };
      this.probes.set(server.name, probe);
      return probe;
    }
    const cached = this.probes.get(server.name);
    if (!force && cached && cached.status !== 'disabled' && now - cached.at < PROBE_TTL_MS) return cached;
    const target = exhookTarget(server.url);
    let probe: Probe;
    if (!target) {
      probe = { status: 'error', reason: 'invalid url', at: now };
    } else {
      const reason = await connectProbe(target.host, target.port, Math.min(durationMs(server.request_timeout), PROBE_TIMEOUT_MS));
      probe = reason === null ? { status: 'connected', at: Date.now() } : { status: 'error', reason, at: Date.now() };
    }
    this.probes.set(server.name, probe);
    return probe;
  }

  private detail(server: ExhookServerConfig, probe: Probe): Record<string, unknown> {
    const nodes = this.nodes();
    const hooks = probe.status === 'connected' ? this.hookList(nodes) : [];
    return {
      ...server,
      metrics: zeroMetrics(),
      node_metrics: nodes.map((node) => ({ node, metrics: zeroMetrics() })),
      node_status: nodes.map((node) => ({ node, status: probe.status, ...(probe.reason ? { reason: probe.reason } : {}) })),
      hooks: hooks.map(({ name, params }) => ({ name, params })),
    };
  }

  private hookList(nodes: string[]) {
    return HOOKS.map((name) => ({
      name,
      params: name.startsWith('message.') ? { topics: ['#'] } : {},
      metrics: zeroMetrics(),
      node_metrics: nodes.map((node) => ({ node, metrics: zeroMetrics() })),
    }));
  }

  async list(): Promise<Record<string, unknown>[]> {
    const probes = await Promise.all(this.servers.map((s) => this.probe(s)));
    return this.servers.map((s, i) => this.detail(s, probes[i]));
  }

  async get(name: string): Promise<Record<string, unknown>> {
    const server = this.find(name);
    return this.detail(server, await this.probe(server));
  }

  async hooks(name: string): Promise<Record<string, unknown>[]> {
    const server = this.servers.find((s) => s.name === name);
    if (!server) throw apiError(400, 'BAD_REQUEST', 'Server not found');
    const probe = await this.probe(server);
    return probe.status === 'connected' ? this.hookList(this.nodes()) : [];
  }

  private normalise(input: Record<string, unknown>, name: string): ExhookServerConfig {
    const server = { ...DEFAULTS, ...input, name } as unknown as ExhookServerConfig;
    if (typeof server.url !== 'string' || !exhookTarget(server.url)) {
      throw apiError(400, 'BAD_REQUEST', `Invalid url: ${JSON.stringify(server.url ?? null)} (expected http://host:port or https://host:port)`);
    }
    for (const key of ['metrics', 'node_metrics', 'node_status', 'hooks']) delete server[key];
    return server;
  }

  async create(input: Record<string, unknown> & { name: string }): Promise<Record<string, unknown>> {
    if (this.servers.some((s) => s.name === input.name)) throw apiError(400, 'BAD_REQUEST', 'Already exists');
    const server = this.normalise(input, input.name);
    this.ctx.state.exhooks = [...this.servers, server];
    await this.ctx.persist();
    return this.detail(server, await this.probe(server, true));
  }

  async update(name: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const old = this.servers.find((s) => s.name === name);
    if (!old) throw apiError(404, 'NOT_FOUND', 'Server not found');
    const server = this.normalise({ ...old, ...input }, name);
    this.servers[this.servers.indexOf(old)] = server;
    await this.ctx.persist();
    return this.detail(server, await this.probe(server, true));
  }

  async remove(name: string): Promise<void> {
    const server = this.find(name);
    this.ctx.state.exhooks = this.servers.filter((s) => s !== server);
    this.probes.delete(name);
    await this.ctx.persist();
  }

  async move(name: string, position: string): Promise<void> {
    const server = this.find(name);
    const match = /^(front|rear)$|^(before|after):(.+)$/.exec(position);
    if (!match) throw apiError(400, 'BAD_REQUEST', 'Invalid Position');
    const rest = this.servers.filter((s) => s !== server);
    let index: number;
    if (match[1] === 'front') index = 0;
    else if (match[1] === 'rear') index = rest.length;
    else {
      const target = rest.findIndex((s) => s.name === match[3]);
      if (target === -1) throw apiError(404, 'BAD_REQUEST', 'Server not found');
      index = match[2] === 'before' ? target : target + 1;
    }
    rest.splice(index, 0, server);
    this.ctx.state.exhooks = rest;
    await this.ctx.persist();
  }

  /** Re-probes every server now and then, so statuses follow servers coming and going. */
  startTimer(intervalMs = 10_000): void {
    this.stopTimer();
    this.timer = setInterval(() => {
      for (const server of this.servers) void this.probe(server, true);
    }, intervalMs);
    this.timer.unref();
  }

  stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Drops cached results (after an import replaced the servers). */
  forget(): void {
    this.probes.clear();
  }
}
