// Gateways (emqx_gateway, emqx-api-part1 §19): the five CE gateways with their configs,
// listeners, authentication and clients. Loaded gateways persist; an enabled gateway's enabled
// listeners are real sockets (UDP/DTLS → node:dgram, TCP/SSL → node:net) bound on their `bind`
// port, so a port in use is a 400 with the reason and disabling frees the port. The MQTT-SN UDP
// socket answers SEARCHGW with GWINFO. Clients come from fixtures/gateway-clients.json.
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { apiError } from '../../plugins/errors.ts';
import type { StoreContext } from '../context.ts';
import { entryFields, refuseUnknownFields } from './schema-check.ts';
import { paginateRows, type PageQuery, type QueryEnvelope } from '../pagination.ts';
import { hashSecret, verifySecret } from '../dashboard/passwords.ts';
import { rfc3339 } from '../../lib/time.ts';
import { bindFailure, bindRefusal, parseBind } from '../../lib/bind.ts';

export const GATEWAY_NAMES = ['stomp', 'mqttsn', 'coap', 'lwm2m', 'exproto'] as const;
export type GatewayName = (typeof GATEWAY_NAMES)[number];
export const LISTENER_TYPES: Record<GatewayName, string[]> = {
  stomp: ['tcp', 'ssl'],
  mqttsn: ['udp', 'dtls'],
  coap: ['udp', 'dtls'],
  lwm2m: ['udp', 'dtls'],
  exproto: ['tcp', 'ssl', 'udp', 'dtls'],
};

type Conf = Record<string, any>;

export interface GatewayUser {
  user_id: string;
  password_hash: string;
  is_superuser: boolean;
  /** Set for users imported with their hash (the import file's `salt`). */
  salt?: string;
}

/** A loaded gateway as persisted. `conf.listeners` is the config form: type → name → conf. */
export interface GatewayConfig {
  conf: Conf;
  created_at: number;
  started_at?: number;
  stopped_at?: number;
  /** Built-in database users of the gateway-level authenticator. */
  users?: GatewayUser[];
  /** Built-in database users of listener-level authenticators, by listener id. */
  listener_users?: Record<string, GatewayUser[]>;
}

const COMMON: Conf = { enable: true, enable_stats: true, idle_timeout: '30s', mountpoint: '', clientinfo_override: {} };
const TYPE_DEFAULTS: Record<GatewayName, Conf> = {
  stomp: { frame: { max_headers: 10, max_headers_length: 1024, max_body_length: 65536 } },
  mqttsn: { gateway_id: 1, broadcast: false, enable_qos3: true, subs_resume: false, predefined: [] },
  coap: { heartbeat: '30s', connection_required: false, notify_type: 'qos', subscribe_qos: 'coap', publish_qos: 'coap' },
  lwm2m: {
    mountpoint: 'lwm2m/${endpoint_name}/', xml_dir: 'etc/lwm2m_xml', lifetime_min: '15s', lifetime_max: '86400s',
    qmode_time_window: '22s', auto_observe: false, update_msg_publish_condition: 'contains_object_list',
    translators: {
      command: { topic: 'dn/#', qos: 0 }, response: { topic: 'up/resp', qos: 0 }, notify: { topic: 'up/notify', qos: 0 },
      register: { topic: 'up/resp', qos: 0 }, update: { topic: 'up/update', qos: 0 },
    },
  },
  exproto: { server: { bind: '0.0.0.0:9100' }, handler: { address: 'http://127.0.0.1:9001', service_name: 'ConnectionUnaryHandler' } },
};
const LISTENER_DEFAULTS: Record<string, Conf> = {
  tcp: { acceptors: 16, tcp_options: { active_n: 100, backlog: 1024, send_timeout: '15s', send_timeout_close: true, nodelay: true, reuseaddr: true }, proxy_protocol: false, proxy_protocol_timeout: '15s' },
  ssl: { acceptors: 16, tcp_options: { active_n: 100, backlog: 1024, nodelay: true, reuseaddr: true }, proxy_protocol: false, proxy_protocol_timeout: '15s', ssl_options: { verify: 'verify_none', fail_if_no_peer_cert: false } },
  udp: { udp_options: { active_n: 100, reuseaddr: true } },
  dtls: { acceptors: 16, udp_options: { active_n: 100, reuseaddr: true }, dtls_options: { verify: 'verify_none', versions: ['dtlsv1.2'], fail_if_no_peer_cert: false } },
};
const LISTENER_COMMON: Conf = { enable: true, max_connections: 1024, max_conn_rate: 1000, enable_authn: true, mountpoint: '', access_rules: [] };
// Fields the API adds to listener and gateway views; never stored in the config.
const VIEW_ONLY = ['id', 'type', 'name', 'running', 'status', 'node_status', 'created_at', 'started_at', 'stopped_at', 'current_connections', 'max_connections_total'];

interface FixtureClient extends Conf {
  clientid: string;
  connected_ago: number;
}

const FIXTURE = new URL('../../../fixtures/gateway-clients.json', import.meta.url);

function loadFixtures(): Record<string, FixtureClient[]> {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, FixtureClient[]>;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isGateway(name: string): name is GatewayName {
  return (GATEWAY_NAMES as readonly string[]).includes(name);
}

function stripView(conf: Conf): Conf {
  const out = { ...conf };
  for (const key of VIEW_ONLY) delete out[key];
  return out;
}

interface OpenSocket {
  bind: string;
  close(): Promise<void>;
  connections(): number;
}

interface ClientState {
  kicked: Set<string>;
  subscriptions: Map<string, Conf[]>;
}

export class Gateways {
  private readonly sockets = new Map<string, OpenSocket>();
  private readonly fixtures = loadFixtures();
  private readonly clientState = new Map<string, ClientState>();
  private reconciling: Promise<void> = Promise.resolve();

  /** @param allowedHost the simulator's --host: where listener sockets may listen (security.md S28) */
  constructor(private readonly ctx: StoreContext, private readonly nodes: () => string[], private readonly allowedHost = '127.0.0.1') {}

  // Reads never add the key to the state (a refused write must leave the state as it was).
  private get records(): Record<string, GatewayConfig> {
    return this.ctx.state.gateways ?? {};
  }

  private record(name: string): GatewayConfig {
    if (!isGateway(name)) throw apiError(404, 'RESOURCE_NOT_FOUND', `Gateway ${name} not found`);
    const record = this.records[name];
    if (!record) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Gateway not loaded');
    return record;
  }

  private status(name: string): 'running' | 'stopped' | 'unloaded' {
    const record = this.records[name];
    if (!record) return 'unloaded';
    return record.conf.enable === false ? 'stopped' : 'running';
  }

  // ---- sockets -------------------------------------------------------------------------------

  /** Listener ids that should be open: enabled listeners of enabled, loaded gateways. */
  private desired(): Map<string, { gateway: GatewayName; type: string; bind: string }> {
    const want = new Map<string, { gateway: GatewayName; type: string; bind: string }>();
    for (const [gateway, record] of Object.entries(this.records)) {
      if (!isGateway(gateway) || record.conf.enable === false) continue;
      for (const [type, byName] of Object.entries(record.conf.listeners ?? {})) {
        for (const [name, conf] of Object.entries(byName as Record<string, Conf>)) {
          if (conf.enable === false) continue;
          want.set(`${gateway}:${type}:${name}`, { gateway, type, bind: String(conf.bind) });
        }
      }
    }
    return want;
  }

  private open(gateway: GatewayName, type: string, bind: string): Promise<OpenSocket> {
    const address = parseBind(bind);
    if (!address) return Promise.reject(new Error(`invalid bind ${bind}`));
    // Also for gateways loaded from the state or a backup: none opens outside --host.
    const refusal = bindRefusal(this.allowedHost, address.host, address.port);
    if (refusal) return Promise.reject(new Error(refusal));
    if (type === 'udp' || type === 'dtls') {
      const socket = dgram.createSocket({ type: address.host.includes(':') ? 'udp6' : 'udp4' });
      socket.on('message', (msg, rinfo) => {
        // MQTT-SN SEARCHGW (length 3, type 0x01) → GWINFO (length 3, type 0x02, gateway id).
        if (gateway === 'mqttsn' && msg.length >= 3 && msg[0] === 3 && msg[1] === 0x01) {
          const id = Number(this.records.mqttsn?.conf.gateway_id ?? 1) & 0xff;
          socket.send(Buffer.from([3, 0x02, id]), rinfo.port, rinfo.address);
        }
      });
      return new Promise((resolve, reject) => {
        socket.once('error', (err) => {
          socket.close();
          reject(err);
        });
        socket.bind(address.port, address.host, () => {
          socket.removeAllListeners('error');
          socket.on('error', () => undefined);
          resolve({
            bind,
            connections: () => 0,
            close: () => new Promise<void>((done) => socket.close(() => done())),
          });
        });
      });
    }
    // TCP and SSL: a plain TCP acceptor that holds connections (the TLS handshake is not simulated).
    const conns = new Set<net.Socket>();
    const server = net.createServer((conn) => {
      conns.add(conn);
      conn.on('error', () => undefined);
      conn.on('close', () => conns.delete(conn));
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(address.port, address.host, () => {
        server.off('error', reject);
        resolve({
          bind,
          connections: () => conns.size,
          close: () => new Promise<void>((done) => {
            for (const conn of conns) conn.destroy();
            server.close(() => done());
          }),
        });
      });
    });
  }

  /**
   * Opens and closes sockets until they match the config. Returns the first bind error, if any;
   * listeners that failed stay closed.
   */
  reconcile(): Promise<Error | null> {
    const run = this.reconciling.then(async () => {
      const want = this.desired();
      for (const [id, socket] of this.sockets) {
        const target = want.get(id);
        if (!target || target.bind !== socket.bind) {
          this.sockets.delete(id);
          await socket.close();
        }
      }
      let failure: Error | null = null;
      for (const [id, target] of want) {
        if (this.sockets.has(id)) continue;
        try {
          this.sockets.set(id, await this.open(target.gateway, target.type, target.bind));
        } catch (err) {
          const e = err as NodeJS.ErrnoException;
          const address = parseBind(target.bind);
          const sentence = address && bindFailure(err, address.host, address.port);
          failure ??= new Error(`${id}: ${sentence ?? (e.code ? `failed to bind ${target.bind}: ${e.code} ${e.message}` : e.message)}`);
        }
      }
      return failure;
    });
    this.reconciling = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Closes every socket (app close). */
  async closeAll(): Promise<void> {
    await this.reconciling;
    const open = [...this.sockets.values()];
    this.sockets.clear();
    await Promise.all(open.map((s) => s.close()));
  }

  /** Applies a change; if a socket cannot be bound the change is undone and a 400 names why. */
  private async change(fn: () => void): Promise<void> {
    const before = this.ctx.state.gateways === undefined ? undefined : clone(this.ctx.state.gateways);
    this.ctx.state.gateways ??= {};
    fn();
    const failure = await this.reconcile();
    if (failure) {
      if (before === undefined) delete this.ctx.state.gateways;
      else this.ctx.state.gateways = before;
      await this.reconcile();
      throw apiError(400, 'BAD_REQUEST', failure.message);
    }
    await this.ctx.persist();
  }

  // ---- gateways ------------------------------------------------------------------------------

  private clientsOf(name: GatewayName): FixtureClient[] {
    if (this.status(name) !== 'running') return [];
    const state = this.clients(name);
    return (this.fixtures[name] ?? []).filter((c) => !state.kicked.has(c.clientid));
  }

  private clients(name: string): ClientState {
    let state = this.clientState.get(name);
    if (!state) {
      state = { kicked: new Set(), subscriptions: new Map() };
      this.clientState.set(name, state);
    }
    return state;
  }

  private nodeOf(index: number): string {
    const nodes = this.nodes();
    return nodes[index % nodes.length];
  }

  private listenerViews(name: GatewayName, record: GatewayConfig): Conf[] {
    const views: Conf[] = [];
    for (const [type, byName] of Object.entries(record.conf.listeners ?? {})) {
      for (const [lname, conf] of Object.entries(byName as Record<string, Conf>)) {
        const id = `${name}:${type}:${lname}`;
        views.push({ id, type, name: lname, running: this.sockets.has(id), ...conf });
      }
    }
    return views;
  }

  private connectionsByNode(name: GatewayName): Map<string, number> {
    const counts = new Map<string, number>(this.nodes().map((n) => [n, 0]));
    (this.fixtures[name] ?? []).forEach((c, i) => {
      if (this.clientsOf(name).includes(c)) counts.set(this.nodeOf(i), (counts.get(this.nodeOf(i)) ?? 0) + 1);
    });
    return counts;
  }

  private maxConnections(record: GatewayConfig): number | 'infinity' {
    let total = 0;
    for (const byName of Object.values(record.conf.listeners ?? {})) {
      for (const conf of Object.values(byName as Record<string, Conf>)) {
        if (conf.max_connections === 'infinity') return 'infinity';
        total += Number(conf.max_connections ?? 0);
      }
    }
    return total;
  }

  overview(status?: string): Conf[] {
    const out: Conf[] = [];
    for (const name of GATEWAY_NAMES) {
      const s = this.status(name);
      if (status !== undefined && s !== status) continue;
      const record = this.records[name];
      if (!record) {
        out.push({ name, status: 'unloaded' });
        continue;
      }
      const perNode = this.connectionsByNode(name);
      const max = this.maxConnections(record);
      const view: Conf = {
        name,
        status: s,
        created_at: rfc3339(record.created_at, 'ms'),
        max_connections: max,
        current_connections: [...perNode.values()].reduce((a, b) => a + b, 0),
        listeners: this.listenerViews(name, record).map(({ id, type, name: lname, running }) => ({ id, type, name: lname, running })),
        node_status: this.nodes().map((node) => ({ node, status: s, max_connections: max, current_connections: perNode.get(node) ?? 0 })),
      };
      if (record.started_at !== undefined) view.started_at = rfc3339(record.started_at, 'ms');
      if (record.stopped_at !== undefined && s === 'stopped') view.stopped_at = rfc3339(record.stopped_at, 'ms');
      out.push(view);
    }
    return out;
  }

  get(name: string): Conf {
    if (!isGateway(name)) throw apiError(404, 'RESOURCE_NOT_FOUND', `Gateway ${name} not found`);
    const record = this.records[name];
    if (!record) return { name, status: 'unloaded' };
    const { listeners: _l, ...conf } = record.conf;
    const view: Conf = { ...clone(conf), name, status: this.status(name), created_at: rfc3339(record.created_at, 'ms'), listeners: this.listenerViews(name, record) };
    if (record.started_at !== undefined) view.started_at = rfc3339(record.started_at, 'ms');
    if (record.stopped_at !== undefined && view.status === 'stopped') view.stopped_at = rfc3339(record.stopped_at, 'ms');
    return view;
  }

  /** Listener input (array of {type, name, …} or type → name → conf) in the config form. */
  private listenersConf(name: GatewayName, input: unknown): Conf {
    const out: Conf = {};
    const add = (type: string, lname: string, conf: Conf) => {
      if (!conf || typeof conf !== 'object' || Array.isArray(conf)) throw apiError(400, 'BAD_REQUEST', 'Invalid configurations: a listener must be an object');
      if (!LISTENER_TYPES[name].includes(type)) throw apiError(400, 'BAD_REQUEST', `Invalid configurations: listener type ${type} is not supported by ${name} (expected ${LISTENER_TYPES[name].join(', ')})`);
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(lname)) throw apiError(400, 'BAD_REQUEST', `Invalid configurations: bad listener name ${lname}`);
      const address = parseBind(conf.bind);
      if (!address) throw apiError(400, 'BAD_REQUEST', `Invalid configurations: bind is required (e.g. "0.0.0.0:1884"), got ${JSON.stringify(conf.bind ?? null)}`);
      const refusal = bindRefusal(this.allowedHost, address.host, address.port);
      if (refusal) throw apiError(400, 'BAD_REQUEST', `Invalid configurations: ${refusal}`);
      out[type] ??= {};
      if (out[type][lname]) throw apiError(400, 'BAD_REQUEST', 'Listener name has occupied');
      out[type][lname] = { ...clone(LISTENER_COMMON), ...clone(LISTENER_DEFAULTS[type]), ...stripView(conf), bind: String(conf.bind) };
    };
    if (Array.isArray(input)) {
      for (const l of input as Conf[]) add(String(l?.type), String(l?.name ?? 'default'), l);
    } else if (input && typeof input === 'object') {
      for (const [type, byName] of Object.entries(input as Conf)) {
        for (const [lname, conf] of Object.entries((byName ?? {}) as Conf)) add(type, lname, conf as Conf);
      }
    }
    return out;
  }

  /** PUT /gateways/{name}: loads an unloaded gateway, or updates a loaded one. */
  async put(name: string, body: Conf): Promise<void> {
    if (!isGateway(name)) throw apiError(404, 'RESOURCE_NOT_FOUND', `Gateway ${name} not found`);
    const existing = this.records[name];
    const input = stripView({ ...body });
    delete input.name;
    // emqx_gateway_api.erl: the body is the gateway's hocon struct (its `enable` and
    // `authentication` are ?IMPORTANCE_NO_DOC/hidden, so not in the 5.8+ dumps): a field it lacks is refused.
    const tree = entryFields(this.ctx.profile.version, 'gateway', name);
    if (tree) refuseUnknownFields(tree, input, ['enable', 'authentication']);
    const listeners = input.listeners === undefined ? undefined : this.listenersConf(name, input.listeners);
    delete input.listeners;
    if (name === 'exproto' && !existing && (!input.server?.bind || !input.handler?.address)) {
      throw apiError(400, 'BAD_REQUEST', 'Invalid configurations: server.bind and handler.address are required');
    }
    const now = this.ctx.clock.now();
    await this.change(() => {
      if (!existing) {
        const conf: Conf = { ...clone(COMMON), ...clone(TYPE_DEFAULTS[name]), ...input, listeners: listeners ?? {} };
        this.records[name] = { conf, created_at: now, ...(conf.enable === false ? { stopped_at: now } : { started_at: now }) };
      } else {
        const conf: Conf = { ...existing.conf, ...input, listeners: listeners ?? existing.conf.listeners };
        if (input.authentication === undefined && existing.conf.authentication) conf.authentication = existing.conf.authentication;
        this.setEnable(existing, conf.enable !== false, now);
        existing.conf = conf;
      }
    });
  }

  private setEnable(record: GatewayConfig, enable: boolean, now: number): void {
    const was = record.conf.enable !== false;
    if (was === enable) return;
    record.conf.enable = enable;
    if (enable) record.started_at = now;
    else record.stopped_at = now;
    // Disabling closes every connection of the gateway: the fixture clients come back on enable.
  }

  async enable(name: string, enable: boolean): Promise<void> {
    const record = this.record(name);
    await this.change(() => this.setEnable(record, enable, this.ctx.clock.now()));
    if (!enable) this.clientState.delete(name);
  }

  // ---- listeners -----------------------------------------------------------------------------

  private splitId(gateway: string, id: string): { type: string; name: string } {
    const parts = id.split(':');
    if (parts.length !== 3 || parts[0] !== gateway) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Listener not found');
    return { type: parts[1], name: parts[2] };
  }

  private listenerConf(gateway: string, id: string): { record: GatewayConfig; type: string; name: string; conf: Conf } {
    const record = this.record(gateway);
    const { type, name } = this.splitId(gateway, id);
    const conf = record.conf.listeners?.[type]?.[name];
    if (!conf) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Listener not found');
    return { record, type, name, conf };
  }

  private listenerView(gateway: string, type: string, name: string, conf: Conf): Conf {
    const id = `${gateway}:${type}:${name}`;
    return { id, type, name, running: this.sockets.has(id), ...clone(conf) };
  }

  listListeners(gateway: string): Conf[] {
    const record = this.record(gateway);
    const status = record.conf.enable === false ? 'stopped' : 'running';
    return this.listenerViews(gateway as GatewayName, record).map((view) => {
      const current = this.sockets.get(view.id)?.connections() ?? 0;
      const one = { running: view.running, max_connections: view.max_connections ?? 1024, current_connections: current };
      return { ...view, bind: String(view.bind), status: one, node_status: this.nodes().map((node) => ({ node, status: node === this.nodes()[0] ? one : { ...one, running: view.running && status === 'running', current_connections: 0 } })) };
    });
  }

  getListener(gateway: string, id: string): Conf {
    const { type, name, conf } = this.listenerConf(gateway, id);
    return this.listenerView(gateway, type, name, conf);
  }

  async createListener(gateway: string, body: Conf): Promise<Conf> {
    const record = this.record(gateway);
    for (const key of ['type', 'name', 'bind']) {
      if (body[key] === undefined || body[key] === '') throw apiError(400, 'BAD_REQUEST', `${key} is required`);
    }
    const type = String(body.type);
    const name = String(body.name);
    if (record.conf.listeners?.[type]?.[name]) throw apiError(400, 'BAD_REQUEST', 'Listener name has occupied');
    const parsed = this.listenersConf(gateway as GatewayName, [body]);
    await this.change(() => {
      record.conf.listeners ??= {};
      record.conf.listeners[type] ??= {};
      record.conf.listeners[type][name] = parsed[type][name];
    });
    return this.getListener(gateway, `${gateway}:${type}:${name}`);
  }

  async updateListener(gateway: string, id: string, body: Conf): Promise<Conf> {
    const { record, type, name, conf } = this.listenerConf(gateway, id);
    const merged = { ...conf, ...stripView(body), type, name };
    const parsed = this.listenersConf(gateway as GatewayName, [merged]);
    await this.change(() => {
      record.conf.listeners[type][name] = { ...conf, ...parsed[type][name], authentication: conf.authentication };
      if (conf.authentication === undefined) delete record.conf.listeners[type][name].authentication;
    });
    return this.getListener(gateway, id);
  }

  async removeListener(gateway: string, id: string): Promise<void> {
    const { record, type, name } = this.listenerConf(gateway, id);
    await this.change(() => {
      delete record.conf.listeners[type][name];
      if (Object.keys(record.conf.listeners[type]).length === 0) delete record.conf.listeners[type];
      if (record.listener_users) delete record.listener_users[`${gateway}:${type}:${name}`];
    });
  }

  // ---- authentication ------------------------------------------------------------------------

  /** The authenticator holder: the gateway config, or one listener's config. */
  private authHolder(gateway: string, listenerId?: string): { holder: Conf; record: GatewayConfig } {
    if (listenerId === undefined) {
      const record = this.record(gateway);
      return { holder: record.conf, record };
    }
    const { record, conf } = this.listenerConf(gateway, listenerId);
    return { holder: conf, record };
  }

  getAuth(gateway: string, listenerId?: string): Conf | null {
    const { holder } = this.authHolder(gateway, listenerId);
    return holder.authentication ? clone(holder.authentication) : null;
  }

  async createAuth(gateway: string, body: Conf, listenerId?: string): Promise<Conf> {
    const { holder } = this.authHolder(gateway, listenerId);
    if (holder.authentication) throw apiError(400, 'BAD_REQUEST', 'Authenticator already exists');
    if (typeof body.mechanism !== 'string') throw apiError(400, 'BAD_REQUEST', 'mechanism is required');
    holder.authentication = { enable: true, ...stripView(body) };
    await this.ctx.persist();
    return clone(holder.authentication);
  }

  async updateAuth(gateway: string, body: Conf, listenerId?: string): Promise<Conf> {
    const { holder } = this.authHolder(gateway, listenerId);
    if (!holder.authentication) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Authenticator not found');
    holder.authentication = { ...holder.authentication, ...stripView(body) };
    await this.ctx.persist();
    return clone(holder.authentication);
  }

  async removeAuth(gateway: string, listenerId?: string): Promise<void> {
    const { holder, record } = this.authHolder(gateway, listenerId);
    if (!holder.authentication) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Authenticator not found');
    delete holder.authentication;
    if (listenerId === undefined) delete record.users;
    else if (record.listener_users) delete record.listener_users[listenerId];
    await this.ctx.persist();
  }

  private userTable(gateway: string, listenerId?: string): GatewayUser[] {
    const { holder, record } = this.authHolder(gateway, listenerId);
    const auth = holder.authentication;
    if (!auth) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Authenticator not found');
    if (auth.backend !== 'built_in_database') throw apiError(400, 'BAD_REQUEST', 'The authenticator does not support user management (built-in database only)');
    return (listenerId === undefined ? record.users : record.listener_users?.[listenerId]) ?? [];
  }

  /** The user table to write to, created on first use. */
  private writableUsers(gateway: string, listenerId?: string): GatewayUser[] {
    const record = this.record(gateway);
    if (listenerId === undefined) return (record.users ??= []);
    return ((record.listener_users ??= {})[listenerId] ??= []);
  }

  listUsers(gateway: string, query: PageQuery & { like_user_id?: string; is_superuser?: boolean }, listenerId?: string): QueryEnvelope<{ user_id: string; is_superuser: boolean }> {
    const rows = this.userTable(gateway, listenerId).filter((u) => (query.like_user_id === undefined || u.user_id.includes(query.like_user_id))
      && (query.is_superuser === undefined || u.is_superuser === query.is_superuser));
    return paginateRows(rows, query, (u) => ({ user_id: u.user_id, is_superuser: u.is_superuser }), { count: query.like_user_id === undefined });
  }

  getUser(gateway: string, userId: string, listenerId?: string): { user_id: string; is_superuser: boolean } {
    const user = this.userTable(gateway, listenerId).find((u) => u.user_id === userId);
    if (!user) throw apiError(404, 'RESOURCE_NOT_FOUND', 'User not found');
    return { user_id: user.user_id, is_superuser: user.is_superuser };
  }

  async addUser(gateway: string, body: { user_id: string; password: string; is_superuser?: boolean }, listenerId?: string): Promise<{ user_id: string; is_superuser: boolean }> {
    const users = this.userTable(gateway, listenerId);
    if (users.some((u) => u.user_id === body.user_id)) throw apiError(409, 'ALREADY_EXISTS', 'User already exists');
    this.writableUsers(gateway, listenerId).push({ user_id: body.user_id, password_hash: hashSecret(body.password), is_superuser: body.is_superuser ?? false });
    await this.ctx.persist();
    return this.getUser(gateway, body.user_id, listenerId);
  }

  async updateUser(gateway: string, userId: string, body: { password?: string; is_superuser?: boolean }, listenerId?: string): Promise<{ user_id: string; is_superuser: boolean }> {
    const user = this.userTable(gateway, listenerId).find((u) => u.user_id === userId);
    if (!user) throw apiError(404, 'RESOURCE_NOT_FOUND', 'User not found');
    if (body.password !== undefined) user.password_hash = hashSecret(body.password);
    if (body.is_superuser !== undefined) user.is_superuser = body.is_superuser;
    await this.ctx.persist();
    return this.getUser(gateway, userId, listenerId);
  }

  async removeUser(gateway: string, userId: string, listenerId?: string): Promise<void> {
    const users = this.userTable(gateway, listenerId);
    const index = users.findIndex((u) => u.user_id === userId);
    if (index === -1) throw apiError(404, 'RESOURCE_NOT_FOUND', 'User not found');
    users.splice(index, 1);
    await this.ctx.persist();
  }

  /**
   * POST …/authentication/import_users (emqx_gateway_api_authn_user_import.erl): rows of a `hash`
   * import file (user_id, password_hash, salt, is_superuser); one bad row imports nothing. The
   * counts are what 5.8.2+ answers (emqx_authn_user_import_api.erl import result).
   */
  async importUsers(gateway: string, rows: Record<string, unknown>[], listenerId?: string): Promise<{ total: number; success: number; override: number; skipped: number; failed: number }> {
    this.userTable(gateway, listenerId);
    if (rows.length === 0) throw apiError(400, 'BAD_REQUEST', 'empty_users');
    rows.forEach((row, i) => {
      if (typeof row !== 'object' || row === null) throw apiError(400, 'BAD_REQUEST', `bad_format: row ${i + 1} is not an object`);
      if (typeof row.user_id !== 'string' || row.user_id === '') throw apiError(400, 'BAD_REQUEST', `bad_format: row ${i + 1} has no user_id`);
      if (typeof row.password_hash !== 'string' || row.password_hash === '') throw apiError(400, 'BAD_REQUEST', `bad_format: row ${i + 1} has no password_hash`);
    });
    const users = this.writableUsers(gateway, listenerId);
    const result = { total: rows.length, success: 0, override: 0, skipped: 0, failed: 0 };
    for (const row of rows) {
      const user: GatewayUser = {
        user_id: row.user_id as string, password_hash: row.password_hash as string,
        salt: typeof row.salt === 'string' ? row.salt : '', is_superuser: row.is_superuser === true || row.is_superuser === 'true',
      };
      const index = users.findIndex((u) => u.user_id === user.user_id);
      if (index === -1) {
        users.push(user);
        result.success++;
      } else if (users[index].password_hash === user.password_hash && users[index].salt === user.salt && users[index].is_superuser === user.is_superuser) {
        result.skipped++;
      } else {
        users[index] = user;
        result.override++;
      }
    }
    await this.ctx.persist();
    return result;
  }

  /** Checks a gateway user's password (for a future gateway protocol implementation). */
  checkUser(gateway: string, userId: string, password: string): boolean {
    const user = this.records[gateway]?.users?.find((u) => u.user_id === userId);
    return user !== undefined && verifySecret(password, user.password_hash);
  }

  // ---- clients -------------------------------------------------------------------------------

  private clientView(gateway: GatewayName, c: FixtureClient, index: number): Conf {
    const now = this.ctx.clock.now();
    const connectedAt = rfc3339(now - c.connected_ago, 'ms');
    const subs = this.clients(gateway).subscriptions.get(c.clientid) ?? (c.subscriptions as Conf[] | undefined) ?? [];
    const mountpoint = String(this.records[gateway]?.conf.mountpoint ?? '');
    const view: Conf = {
      node: this.nodeOf(index), clientid: c.clientid, username: c.username ?? null, mountpoint,
      proto_name: c.proto_name, proto_ver: c.proto_ver, ip_address: c.ip_address, port: c.port,
      is_bridge: false, connected: true, connected_at: connectedAt, disconnected_at: null, created_at: connectedAt,
      keepalive: c.keepalive ?? 0, clean_start: true, expiry_interval: 0,
      subscriptions_cnt: subs.length, subscriptions_max: 'infinity', inflight_cnt: 0, inflight_max: 32,
      mqueue_len: 0, mqueue_max: 1000, mqueue_dropped: 0, awaiting_rel_cnt: 0, awaiting_rel_max: 100,
      recv_oct: 0, recv_cnt: 0, recv_pkt: 0, recv_msg: 0, send_oct: 0, send_cnt: 0, send_pkt: 0, send_msg: 0,
      mailbox_len: 0, heap_size: 2586, reductions: 12000,
    };
    // Counters grow with connected time so the list looks alive and stays consistent across pages.
    const minutes = Math.floor(c.connected_ago / 60_000);
    view.recv_pkt = view.recv_cnt = view.recv_msg = minutes;
    view.recv_oct = minutes * 48;
    view.send_pkt = view.send_cnt = view.send_msg = Math.floor(minutes / 2);
    view.send_oct = view.send_pkt * 32;
    if (gateway === 'lwm2m') {
      view.endpoint_name = c.endpoint_name;
      view.lifetime = c.lifetime;
    }
    return view;
  }

  listClients(gateway: string, query: PageQuery & Record<string, unknown>): QueryEnvelope<Conf> {
    this.record(gateway);
    const name = gateway as GatewayName;
    const views = (this.fixtures[name] ?? [])
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => this.clientsOf(name).includes(c))
      .map(({ c, i }) => this.clientView(name, c, i));
    const q = query;
    const str = (k: string) => (q[k] === undefined ? undefined : String(q[k]));
    const time = (k: string) => (q[k] === undefined ? undefined : (typeof q[k] === 'number' ? Number(q[k]) * 1000 : Date.parse(String(q[k]))));
    const fuzzy = ['like_clientid', 'like_username', 'like_endpoint_name'].some((k) => q[k] !== undefined);
    const rows = views.filter((v) => (str('node') === undefined || v.node === str('node'))
      && (str('clientid') === undefined || v.clientid === str('clientid'))
      && (str('username') === undefined || v.username === str('username'))
      && (str('ip_address') === undefined || v.ip_address === str('ip_address'))
      && (str('conn_state') === undefined || (str('conn_state') === 'connected') === v.connected)
      && (str('proto_ver') === undefined || String(v.proto_ver) === str('proto_ver'))
      && (q.clean_start === undefined || v.clean_start === q.clean_start)
      && (str('like_clientid') === undefined || String(v.clientid).includes(str('like_clientid')!))
      && (str('like_username') === undefined || String(v.username ?? '').includes(str('like_username')!))
      && (str('endpoint_name') === undefined || v.endpoint_name === str('endpoint_name'))
      && (str('like_endpoint_name') === undefined || String(v.endpoint_name ?? '').includes(str('like_endpoint_name')!))
      && (q.gte_lifetime === undefined || Number(v.lifetime) >= Number(q.gte_lifetime))
      && (q.lte_lifetime === undefined || Number(v.lifetime) <= Number(q.lte_lifetime))
      && (time('gte_created_at') === undefined || Date.parse(v.created_at) >= time('gte_created_at')!)
      && (time('lte_created_at') === undefined || Date.parse(v.created_at) <= time('lte_created_at')!)
      && (time('gte_connected_at') === undefined || Date.parse(v.connected_at) >= time('gte_connected_at')!)
      && (time('lte_connected_at') === undefined || Date.parse(v.connected_at) <= time('lte_connected_at')!));
    return paginateRows(rows, query, (v) => v, { count: !fuzzy });
  }

  private findClient(gateway: string, clientid: string): { name: GatewayName; c: FixtureClient; index: number } {
    this.record(gateway);
    const name = gateway as GatewayName;
    const live = this.clientsOf(name);
    const index = (this.fixtures[name] ?? []).findIndex((c) => c.clientid === clientid && live.includes(c));
    if (index === -1) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Client not found');
    return { name, c: this.fixtures[name][index], index };
  }

  getClient(gateway: string, clientid: string): Conf {
    const { name, c, index } = this.findClient(gateway, clientid);
    return this.clientView(name, c, index);
  }

  kick(gateway: string, clientid: string): void {
    this.findClient(gateway, clientid);
    this.clients(gateway).kicked.add(clientid);
  }

  subscriptions(gateway: string, clientid: string): Conf[] {
    const { c } = this.findClient(gateway, clientid);
    const list = this.clients(gateway).subscriptions.get(clientid) ?? (c.subscriptions as Conf[] | undefined) ?? [];
    return list.map((s) => ({ nl: 0, rap: 0, rh: 0, qos: 0, ...s }));
  }

  subscribe(gateway: string, clientid: string, sub: Conf): Conf {
    const list = this.subscriptions(gateway, clientid).filter((s) => s.topic !== sub.topic);
    const entry = { topic: sub.topic, qos: sub.qos ?? 0, nl: sub.nl ?? 0, rap: sub.rap ?? 0, rh: sub.rh ?? 1, ...(sub.sub_props ? { sub_props: sub.sub_props } : {}) };
    list.push(entry);
    this.clients(gateway).subscriptions.set(clientid, list);
    return entry;
  }

  unsubscribe(gateway: string, clientid: string, topic: string): void {
    const list = this.subscriptions(gateway, clientid);
    if (!list.some((s) => s.topic === topic)) throw apiError(404, 'RESOURCE_NOT_FOUND', 'Resource not found');
    this.clients(gateway).subscriptions.set(clientid, list.filter((s) => s.topic !== topic));
  }
}
