// The MQTT listeners every simulated node runs (emqx-api-part1 §22.1): configs by id
// (`tcp:default`, `ws:default` and any created), persisted, with per-node running state and current
// connections counted from the sessions that came in through each. tcp and ws listeners really
// listen through the ListenerHost main.ts supplies: a bind change reopens the socket, stop/start
// close and open it, and `max_connections` is applied to the server. Without a host (an app that
// is only injected into) the state is kept but nothing listens.
import type { Socket } from 'node:net';
import type { Cluster } from '../cluster/cluster.ts';
import type { HoconField, HoconType } from '../../lib/hocon-check/types.ts';
import { apiError } from '../../plugins/errors.ts';
import { formatErrors } from '../../lib/hocon-check/format.ts';
import { ConfigError, deepMerge, restoreSecrets, structDefaults } from './config-roots.ts';
import type { StoreContext } from '../context.ts';
import type { MqttState } from '../messaging/mqtt.ts';
import { refuseInvalid, structType } from './schema-check.ts';
import { bindFailure, bindRefusal, bindText, parseBind } from '../../lib/bind.ts';

type Obj = Record<string, unknown>;

export interface ListenerStatus {
  running: boolean | 'inconsistent';
  max_connections: number | 'infinity';
  current_connections: number;
}

export interface ListenerView {
  id: string;
  type: string;
  name: string;
  enable: boolean;
  number: number;
  bind: string;
  acceptors: number;
  status: ListenerStatus;
  node_status: { node: string; status: ListenerStatus }[];
}

/** What main.ts offers to open and close real sockets; `open` resolves with the bound port. */
export interface ListenerHost {
  open(id: string, type: 'tcp' | 'ws', host: string, port: number, maxConnections: number): Promise<number>;
  close(id: string): Promise<void>;
  setMaxConnections(id: string, max: number): void;
}

export const LISTENER_TYPES = ['tcp', 'ssl', 'ws', 'wss', 'quic'] as const;
export type ListenerType = (typeof LISTENER_TYPES)[number];

const STRUCTS: Record<ListenerType, string> = {
  tcp: 'mqtt_tcp_listener', ssl: 'mqtt_ssl_listener', ws: 'mqtt_ws_listener', wss: 'mqtt_wss_listener', quic: 'mqtt_quic_listener',
};

/** The listener a socket was accepted by, tagged by the host. */
const socketListener = new WeakMap<Socket, string>();

/** Records which listener accepted a socket (called by the host for every connection). */
export function tagSocket(socket: Socket, id: string): void {
  socketListener.set(socket, id);
}

/** The listener id a socket came in through, if a host tagged it. */
export function listenerOfSocket(socket: Socket | null | undefined): string | undefined {
  return socket ? socketListener.get(socket) : undefined;
}

/** A bind as `GET /listeners` shows it: `host:port`, or the text as stored when malformed. */
function shownBind(bind: unknown): string {
  const parsed = parseBind(bind);
  return parsed ? bindText(parsed.host, parsed.port) : String(bind);
}

/** The socket error of a listen as a 400 with a sentence (EMQX names the bind and the reason). */
function listenError(bind: unknown, err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const parsed = parseBind(bind);
  const sentence = parsed && bindFailure(err, parsed.host, parsed.port);
  return invalid('bind', sentence ?? `cannot listen on ${shownBind(bind)}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
}

function maxOf(value: unknown): number {
  return typeof value === 'number' ? value : Infinity;
}

/**
 * The body schema of a listener (emqx_mgmt_api_listeners.erl listeners_info/1): type, running,
 * id (or name, to create one) and current_connections beside the listener's own fields, less
 * `authentication`.
 */
function listenerBody(struct: Extract<HoconType, { kind: 'struct' }>, type: ListenerType, create: boolean): HoconType {
  const extra: HoconField[] = [
    { name: 'type', type: { kind: 'enum', symbols: [type] }, required: true },
    { name: 'running', type: { kind: 'primitive', name: 'boolean' } },
    create ? { name: 'name', type: { kind: 'primitive', name: 'binary' }, required: true } : { name: 'id', type: { kind: 'primitive', name: 'atom' }, required: true },
    { name: 'current_connections', type: { kind: 'primitive', name: 'non_neg_integer' } },
  ];
  return { kind: 'struct', name: struct.name, fields: [...extra, ...struct.fields.filter((f) => f.name !== 'authentication')] };
}

function invalid(path: string, reason: string): ConfigError {
  return new ConfigError(path, reason);
}

export class Listeners {
  private readonly configs = new Map<string, Obj>();
  /** Listeners whose socket is open (only with a host). */
  private readonly open = new Set<string>();
  private host: ListenerHost | null = null;

  constructor(
    private readonly mqtt: MqttState,
    private readonly cluster: Cluster,
    private readonly ctx: StoreContext,
    /** The simulator's --host: where the sockets of listeners may listen (null: anywhere). */
    private readonly allowedHost: string | null = null,
  ) {
    this.load();
    ctx.onStateReplaced(() => this.reload());
  }

  private load(): void {
    const saved = this.ctx.state.listeners;
    if (saved && Object.keys(saved).length > 0) {
      for (const [id, config] of Object.entries(saved)) this.configs.set(id, config);
    } else {
      this.configs.set('tcp:default', { ...this.defaults('tcp'), bind: '0.0.0.0:1883' });
      this.configs.set('ws:default', { ...this.defaults('ws'), bind: '0.0.0.0:8083' });
    }
  }

  /**
   * Follows a replaced state (backup import, undo of a failed save): the persisted configs, or
   * the defaults. Sockets stay as they are until the next change; open ones keep their real address.
   */
  private reload(): void {
    const live = [...this.open].map((id) => [id, this.configs.get(id)?.bind] as const);
    this.configs.clear();
    this.load();
    for (const [id, bind] of live) {
      const config = this.configs.get(id);
      if (config && bind !== undefined) this.configs.set(id, { ...config, bind });
    }
  }

  /**
   * Connects the real sockets: main.ts has already opened the default tcp and ws listeners
   * (`opened`, id → `host:port`); every other enabled tcp or ws listener is opened through the host.
   */
  async attach(host: ListenerHost, opened: Record<string, string>): Promise<void> {
    this.host = host;
    for (const [id, bind] of Object.entries(opened)) {
      const config = this.configs.get(id) ?? { ...this.defaults(id.split(':')[0] as ListenerType) };
      this.configs.set(id, { ...config, bind, enable: true });
      this.open.add(id);
      host.setMaxConnections(id, maxOf(config.max_connections));
    }
    for (const [id, config] of this.configs) {
      if (opened[id] || config.enable === false || !this.bindable(id)) continue;
      await this.openSocket(id, config).catch(() => undefined);
    }
  }

  /** Records where a listener really listens (`host:port`). */
  setBind(type: 'tcp' | 'ws', bind: string): void {
    const id = `${type}:default`;
    const config = this.configs.get(id);
    if (config) config.bind = bind;
  }

  private bindable(id: string): boolean {
    return this.host !== null && (id.startsWith('tcp:') || id.startsWith('ws:'));
  }

  private async openSocket(id: string, config: Obj): Promise<void> {
    const bind = parseBind(config.bind);
    if (!this.host || !bind) return;
    // Also for listeners loaded from the state or a backup: none opens outside --host (S28).
    const refusal = this.allowedHost === null ? null : bindRefusal(this.allowedHost, bind.host, bind.port);
    if (refusal) throw invalid('bind', refusal);
    const port = await this.host.open(id, id.split(':')[0] as 'tcp' | 'ws', bind.host, bind.port, maxOf(config.max_connections));
    if (bind.port === 0) config.bind = `${bind.host}:${port}`;
    this.open.add(id);
  }

  private async closeSocket(id: string): Promise<void> {
    if (!this.host || !this.open.has(id)) return;
    this.open.delete(id);
    await this.host.close(id);
  }

  private running(id: string): boolean {
    const config = this.configs.get(id);
    if (!config) return false;
    if (this.bindable(id)) return this.open.has(id);
    return config.enable !== false;
  }

  private current(node: string, id: string): number {
    if (node === this.cluster.self) {
      let count = 0;
      for (const session of this.mqtt.sessions.values()) {
        if (session.connected && (listenerOfSocket(session.socket) ?? session.listener) === id) count++;
      }
      return count;
    }
    let count = 0;
    for (const client of this.cluster.fixtureNode(node)?.clients.values() ?? []) if (client.connected && client.listener === id) count++;
    return count;
  }

  has(id: string): boolean {
    return this.configs.has(id);
  }

  /** A listener's stored config, as is (replaced, not changed, by an update); read per packet. */
  config(id: string): Obj | undefined {
    return this.configs.get(id);
  }

  private view(id: string): ListenerView {
    const config = this.configs.get(id) as Obj;
    const [type, name] = id.split(':');
    const running = this.cluster.all().filter((n) => n.node_status === 'running').map((n) => n.node);
    const max = config.max_connections === undefined ? 'infinity' : (config.max_connections as number | 'infinity');
    const node_status = running.map((node) => ({
      node,
      // The other nodes are simulated: they run what is enabled.
      status: { running: node === this.cluster.self ? this.running(id) : config.enable !== false, max_connections: max, current_connections: this.current(node, id) },
    }));
    const states = new Set(node_status.map((n) => n.status.running));
    return {
      id, type, name, enable: config.enable !== false, number: node_status.length, bind: shownBind(config.bind),
      acceptors: (config.acceptors as number) ?? 16,
      status: {
        running: states.size > 1 ? 'inconsistent' : node_status[0]?.status.running ?? false,
        max_connections: max === 'infinity' ? 'infinity' : max * node_status.length,
        current_connections: node_status.reduce((n, s) => n + s.status.current_connections, 0),
      },
      node_status,
    };
  }

  /** `GET /listeners` rows, optionally of one type. */
  list(type?: string): ListenerView[] {
    return [...this.configs.keys()].filter((id) => !type || id.startsWith(`${type}:`)).map((id) => this.view(id));
  }

  /** `GET /listeners_status`: the listeners grouped by type. */
  statusByType(): { type: string; enable: boolean; ids: string[]; status: ListenerStatus; node_status: { node: string; status: ListenerStatus }[] }[] {
    const groups = new Map<string, ListenerView[]>();
    for (const view of this.list()) groups.set(view.type, [...(groups.get(view.type) ?? []), view]);
    return [...groups].map(([type, views]) => {
      const sum = (statuses: ListenerStatus[]): ListenerStatus => {
        const runs = new Set(statuses.map((s) => s.running));
        const inf = statuses.some((s) => s.max_connections === 'infinity');
        return {
          running: runs.size > 1 ? 'inconsistent' : statuses[0].running,
          max_connections: inf ? 'infinity' : statuses.reduce((n, s) => n + (s.max_connections as number), 0),
          current_connections: statuses.reduce((n, s) => n + s.current_connections, 0),
        };
      };
      const nodes = views[0].node_status.map((n) => n.node);
      return {
        type,
        enable: views.some((v) => v.enable),
        ids: views.map((v) => v.id),
        status: sum(views.map((v) => v.status)),
        node_status: nodes.map((node) => ({ node, status: sum(views.map((v) => v.node_status.find((s) => s.node === node)!.status)) })),
      };
    });
  }

  /** `GET /listeners/{id}`: the raw config with defaults filled, plus id, type and live status. */
  detail(id: string): Obj | null {
    const config = this.configs.get(id);
    if (!config) return null;
    const view = this.view(id);
    const [type, name] = id.split(':');
    return {
      ...structuredClone(config), id, type, name, bind: shownBind(config.bind),
      running: view.status.running, current_connections: view.status.current_connections, max_connections: config.max_connections ?? 'infinity',
    };
  }

  /** The release's defaults of a listener type (the flat `*_rate` fields from 5.10 among them). */
  private defaults(type: ListenerType): Obj {
    return structDefaults('listeners', STRUCTS[type], this.ctx.profile.version);
  }

  /**
   * The broker's request check of a listener body: a union picked by `type` (a body without a
   * known type is `unknown listener type`), then the type's fields (schema-check.ts).
   */
  private checkBody(body: Obj, create: boolean): void {
    const type = body.type as ListenerType;
    if (typeof type !== 'string' || !(type in STRUCTS)) {
      throw apiError(400, 'BAD_REQUEST', formatErrors([{ field_name: 'type', kind: 'validation_error', path: 'root', reason: 'unknown listener type' }]));
    }
    const struct = structType(this.ctx.profile.version, 'listeners', STRUCTS[type]) as Extract<HoconType, { kind: 'struct' }>;
    refuseInvalid(this.ctx.profile, listenerBody(struct, type, create), body);
  }

  private check(config: Obj): void {
    const bind = parseBind(config.bind);
    if (!bind) throw invalid('bind', `invalid bind: ${JSON.stringify(config.bind)}`);
    // Only where a socket is really opened: without a host nothing listens (S28).
    const refusal = this.host && this.allowedHost !== null ? bindRefusal(this.allowedHost, bind.host, bind.port) : null;
    if (refusal) throw invalid('bind', refusal);
  }

  private async save(): Promise<void> {
    this.ctx.state.listeners = Object.fromEntries(this.configs);
    await this.ctx.persist();
  }

  /** `POST /listeners`: a new listener `<type>:<name>`; false when the id exists. */
  async create(type: ListenerType, name: string, body: Obj): Promise<boolean> {
    const id = `${type}:${name}`;
    if (this.configs.has(id)) return false;
    this.checkBody(body, true);
    const { id: _i, type: _t, name: _n, running: _r, current_connections: _c, ...rest } = body;
    const config = deepMerge(this.defaults(type), rest) as Obj;
    this.check(config);
    if (config.enable !== false && this.bindable(id)) await this.openSocket(id, config).catch((err: unknown) => { throw listenError(config.bind, err); });
    this.configs.set(id, config);
    await this.save();
    return true;
  }

  /** `PUT /listeners/{id}`: merges the body; reopens the socket when bind or enable changed. */
  async update(id: string, body: Obj): Promise<void> {
    const old = this.configs.get(id) as Obj;
    this.checkBody({ type: id.split(':')[0], id, ...body }, false);
    const { id: _i, type: _t, name: _n, running: _r, current_connections: _c, ...rest } = body;
    const next = restoreSecrets(deepMerge(old, rest), old) as Obj;
    this.check(next);
    // EMQX restarts a running listener on any update, which drops its connections (the console
    // warns about it); a stopped one only opens when the update enables it.
    if (this.bindable(id) && (this.open.has(id) || next.enable !== false)) {
      // The old socket closes first: the new bind may reuse the same port on another address.
      await this.closeSocket(id);
      if (next.enable !== false) {
        try {
          await this.openSocket(id, next);
        } catch (err) {
          if (old.enable !== false) await this.openSocket(id, old).catch(() => undefined);
          throw listenError(next.bind, err);
        }
      }
    }
    this.configs.set(id, next);
    await this.save();
  }

  /** start / stop / restart: opens or closes the socket and sets `enable`. */
  async action(id: string, action: 'start' | 'stop' | 'restart'): Promise<void> {
    const config = this.configs.get(id) as Obj;
    if (action !== 'start' && this.bindable(id)) await this.closeSocket(id);
    config.enable = action !== 'stop';
    if (action !== 'stop' && this.bindable(id) && !this.open.has(id)) {
      try {
        await this.openSocket(id, config);
      } catch (err) {
        throw listenError(config.bind, err);
      }
    }
    await this.save();
  }

  /** `DELETE /listeners/{id}`. */
  async remove(id: string): Promise<void> {
    await this.closeSocket(id);
    this.configs.delete(id);
    await this.save();
  }
}
