// The authentication chain (emqx_authn_api, emqx-api-part2 §2): authenticator configs of every
// kind validated and filled with EMQX's defaults, chain order and moves, built-in database users
// with paging, fuzzy search and CSV/JSON import, per-authenticator decision counters and the
// status (a real TCP probe for database, HTTP and JWKS backends).
import { apiError } from '../../plugins/errors.ts';
import {
  clone, Counters, invalid, parseServer, probe, probeServers, redact, restoreSecrets, statusEnvelope, withDefaults, type ProbeResult,
} from './auth-common.ts';
import type { StoreContext } from '../context.ts';
import { refuseUnknownFields, unionMember } from '../config/schema-check.ts';
import { treeRoot } from '../config/release-tree.ts';
import { checkPassword, hashWith, MAC_FUNS, MAX_DK_LENGTH, newSalt, pbkdf2Problem, SIMPLE_HASHES, type HashAlgorithm } from './password-hash.ts';

type Json = Record<string, any>;

/** An authenticator as stored: its config with `id`, secrets in clear. */
export type AuthnConfig = Json & { id: string; mechanism: string; backend?: string; enable: boolean };

export interface AuthnUser {
  user_id: string;
  password_hash: string;
  salt: string;
  is_superuser: boolean;
}

export interface ImportResult {
  total: number;
  success: number;
  override: number;
  skipped: number;
  failed: number;
}

const SSL = { enable: false };
const READ_ONLY_HASH = { name: 'sha256', salt_position: 'prefix' };
const SQL = { pool_size: 8, ssl: SSL, password_hash_algorithm: READ_ONLY_HASH };
const HTTP_HEADERS = { accept: 'application/json', 'cache-control': 'no-cache', connection: 'keep-alive', 'keep-alive': 'timeout=30, max=1000' };

// Defaults EMQX fills in for each kind (emqx-api-part2 §2.5); variants add theirs in `fill()`.
const KINDS: Record<string, { required: string[]; defaults: Json; port?: number }> = {
  'password_based:built_in_database': {
    required: [],
    defaults: { user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' }, bootstrap_file: '${EMQX_ETC_DIR}/auth-built-in-db-bootstrap.csv', bootstrap_type: 'plain' },
  },
  'password_based:mysql': { required: ['server', 'database', 'query'], defaults: { ...SQL, username: 'root', password: '', query_timeout: '5s' }, port: 3306 },
  'password_based:postgresql': { required: ['server', 'database', 'query'], defaults: { ...SQL, disable_prepared_statements: false }, port: 5432 },
  'password_based:mongodb': {
    required: ['mongo_type', 'database', 'collection'],
    defaults: { filter: {}, password_hash_field: 'password_hash', salt_field: 'salt', is_superuser_field: 'is_superuser', w_mode: 'unsafe', srv_record: false, use_legacy_protocol: 'auto', pool_size: 8, topology: { max_overflow: 0 }, ssl: SSL, password_hash_algorithm: READ_ONLY_HASH },
    port: 27017,
  },
  'password_based:redis': { required: ['redis_type', 'cmd'], defaults: { ...SQL }, port: 6379 },
  'password_based:http': {
    required: ['method', 'url'],
    defaults: { request_timeout: '5s', connect_timeout: '15s', pool_size: 8, enable_pipelining: 100, ssl: SSL },
  },
  'password_based:ldap': {
    required: ['server', 'base_dn'],
    defaults: { filter: '(objectClass=mqttUser)', pool_size: 8, request_timeout: '10s', query_timeout: '5s', ssl: SSL, method: { type: 'hash', password_attribute: 'userPassword', is_superuser_attribute: 'isSuperuser' } },
    port: 389,
  },
  jwt: { required: [], defaults: { use_jwks: false, from: 'password', acl_claim_name: 'acl', verify_claims: {}, disconnect_after_expire: true } },
  'scram:built_in_database': { required: [], defaults: { algorithm: 'sha256', iteration_count: 4096 } },
};

const ENUMS: Record<string, readonly string[]> = {
  user_id_type: ['username', 'clientid'],
  bootstrap_type: ['plain', 'hash'],
  mongo_type: ['single', 'rs', 'sharded'],
  redis_type: ['single', 'cluster', 'sentinel'],
  from: ['password', 'username'],
  w_mode: ['unsafe', 'safe'],
  r_mode: ['master', 'slave_ok'],
};

/** Authenticator id of a config: `mechanism:backend`, or the mechanism alone. */
export function authnId(config: Json): string {
  return config.backend ? `${config.mechanism}:${config.backend}` : String(config.mechanism);
}

function validateHash(algo: unknown, builtIn: boolean): HashAlgorithm {
  if (typeof algo !== 'object' || algo === null) throw invalid('password_hash_algorithm must be an object', 'password_hash_algorithm');
  const a = { ...(algo as Json) } as HashAlgorithm;
  if ((SIMPLE_HASHES as readonly string[]).includes(a.name)) {
    a.salt_position ??= 'prefix';
    if (!['disable', 'prefix', 'suffix'].includes(a.salt_position)) throw invalid('unable_to_convert_to_enum_symbol', 'password_hash_algorithm.salt_position', a.salt_position);
    return { name: a.name, salt_position: a.salt_position };
  }
  if (a.name === 'bcrypt') {
    if (!builtIn) return { name: 'bcrypt' };
    const rounds = a.salt_rounds ?? 10;
    if (!Number.isInteger(rounds) || rounds < 5 || rounds > 10) throw invalid('salt_rounds must be an integer from 5 to 10', 'password_hash_algorithm.salt_rounds', rounds);
    return { name: 'bcrypt', salt_rounds: rounds };
  }
  if (a.name === 'pbkdf2') {
    if (!(MAC_FUNS as readonly string[]).includes(a.mac_fun ?? '')) throw invalid('unable_to_convert_to_enum_symbol', 'password_hash_algorithm.mac_fun', a.mac_fun);
    if (!Number.isInteger(a.iterations) || (a.iterations as number) <= 0) throw invalid('iterations must be a positive integer', 'password_hash_algorithm.iterations', a.iterations);
    if (a.dk_length !== undefined && (!Number.isInteger(a.dk_length) || a.dk_length <= 0)) throw invalid('dk_length must be a positive integer', 'password_hash_algorithm.dk_length', a.dk_length);
    // Bounds of the simulator's own (the broker has none): refused at write time, not at a CONNECT.
    const work = pbkdf2Problem(a.iterations as number, a.dk_length, a.mac_fun);
    if (work) throw invalid(work, a.dk_length !== undefined && a.dk_length > MAX_DK_LENGTH ? 'password_hash_algorithm.dk_length' : 'password_hash_algorithm.iterations', a.dk_length ?? a.iterations);
    const out: HashAlgorithm = { name: 'pbkdf2', mac_fun: a.mac_fun, iterations: a.iterations };
    if (a.dk_length !== undefined) out.dk_length = a.dk_length;
    return out;
  }
  throw invalid('unable_to_convert_to_enum_symbol', 'password_hash_algorithm.name', a.name);
}

function requireString(config: Json, field: string): void {
  if (typeof config[field] !== 'string' || config[field] === '') throw invalid('required_field', field);
}

/** Validates a config and fills the defaults of its kind; throws 400 with EMQX's reasons. */
export function fillAuthn(input: Json): AuthnConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('expected an object');
  if (!input.mechanism) throw invalid('missing_mechanism_field', 'mechanism');
  const { id: _ignored, ...body } = input;
  const id = authnId(body);
  const kind = Object.hasOwn(KINDS, id) ? KINDS[id] : undefined;
  if (!kind) throw apiError(400, 'BAD_REQUEST', `Unsupported authentication type: ${id}`);
  const extra: Json = {};
  // Variant defaults: headers per HTTP method, r_mode for replica sets, database for non-cluster Redis.
  if (id === 'password_based:http') {
    if (!['get', 'post'].includes(body.method)) throw invalid('unable_to_convert_to_enum_symbol', 'method', body.method);
    extra.headers = body.method === 'post' ? { ...HTTP_HEADERS, 'content-type': 'application/json' } : HTTP_HEADERS;
  }
  if (body.mongo_type === 'rs') extra.r_mode = 'master';
  if (body.redis_type && body.redis_type !== 'cluster') extra.database = 0;
  if (id === 'jwt' && body.use_jwks === true) Object.assign(extra, { headers: { Accept: 'application/json' }, refresh_interval: 300, pool_size: 8, ssl: SSL });
  if (id === 'jwt' && body.use_jwks !== true && body.algorithm === 'hmac-based') extra.secret_base64_encoded = false;
  const config = withDefaults({ ...kind.defaults, ...extra, enable: true }, body) as AuthnConfig;
  // Sub-objects given in the body replace the default ones, except the filled hash fields.
  if (body.headers) config.headers = clone(body.headers);
  if (body.method && typeof body.method === 'object') config.method = clone(body.method);
  for (const field of kind.required) {
    if (config[field] === undefined || config[field] === '') throw invalid('required_field', field);
  }
  if (typeof config.enable !== 'boolean') throw invalid('enable must be a boolean', 'enable', config.enable);
  for (const [field, values] of Object.entries(ENUMS)) {
    if (config[field] !== undefined && !values.includes(config[field])) throw invalid('unable_to_convert_to_enum_symbol', field, config[field]);
  }
  if ('password_hash_algorithm' in config) config.password_hash_algorithm = validateHash(config.password_hash_algorithm, config.backend === 'built_in_database');
  if (kind.port) {
    const single = !(config.mongo_type && config.mongo_type !== 'single') && !(config.redis_type && config.redis_type !== 'single');
    const field = single ? 'server' : 'servers';
    requireString(config, field);
    for (const server of String(config[field]).split(',')) {
      if (!parseServer(server, kind.port)) throw invalid('bad_server_address', field, config[field]);
    }
    if (config.mongo_type === 'rs') requireString(config, 'replica_set_name');
    if (config.redis_type === 'sentinel') requireString(config, 'sentinel');
  }
  if (id === 'password_based:http') {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw invalid('bad_url', 'url', config.url);
    }
    if (!['http:', 'https:'].includes(url.protocol)) throw invalid('unsupported_scheme', 'url', config.url);
    if (url.protocol === 'https:' && !config.ssl?.enable) throw invalid('it is not allowed to use https scheme without ssl enabled', 'url', config.url);
    if (config.method === 'get' && Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'content-type')) throw invalid('HTTP GET requests cannot include content-type header.', 'headers');
  }
  if (id === 'password_based:ldap') {
    const m = config.method ?? {};
    if (m.type === 'bind') config.method = { type: 'bind', bind_password: m.bind_password ?? '${password}' };
    else if (m.type === 'hash') config.method = { type: 'hash', password_attribute: m.password_attribute ?? 'userPassword', is_superuser_attribute: m.is_superuser_attribute ?? 'isSuperuser' };
    else throw invalid('unable_to_convert_to_enum_symbol', 'method.type', m.type);
  }
  if (id === 'jwt') {
    if (config.use_jwks === true) requireString(config, 'endpoint');
    else if (config.algorithm === 'hmac-based') requireString(config, 'secret');
    else if (config.algorithm === 'public-key') requireString(config, 'public_key');
    else throw invalid('unable_to_convert_to_enum_symbol', 'algorithm', config.algorithm);
    if (Array.isArray(config.verify_claims)) config.verify_claims = Object.fromEntries(config.verify_claims.map((c: Json) => [c.name, c.value]));
    for (const claim of ['exp', 'iat', 'nbf']) {
      if (claim in (config.verify_claims ?? {})) throw invalid(`Cannot verify claim ${claim}`, 'verify_claims');
    }
  }
  if (id === 'scram:built_in_database') {
    if (!['sha256', 'sha512'].includes(config.algorithm)) throw invalid('unable_to_convert_to_enum_symbol', 'algorithm', config.algorithm);
  }
  return { ...config, id };
}

/** Built-in database users are managed through the API for these kinds only. */
export function hasUsers(id: string): boolean {
  return id === 'password_based:built_in_database' || id === 'scram:built_in_database';
}

/** Parses `front`, `rear`, `before:<id>`, `after:<id>`. */
function parsePosition(position: string): { where: 'front' | 'rear' | 'before' | 'after'; target?: string } {
  if (position === 'front' || position === 'rear') return { where: position };
  const m = /^(before|after):(.+)$/.exec(position);
  if (!m) throw apiError(400, 'BAD_REQUEST', "Invalid value for 'position'");
  return { where: m[1] as 'before' | 'after', target: m[2] };
}

/** Moves `item` within `list` to `position`; `idOf` names items for before/after. */
export function moveTo<T>(list: T[], item: T, position: string, idOf: (t: T) => string, notFound: (id: string) => Error): void {
  const { where, target } = parsePosition(position);
  const anchor = target === undefined ? undefined : list.find((t) => idOf(t) === target);
  if (target !== undefined && !anchor) throw notFound(target);
  list.splice(list.indexOf(item), 1);
  if (where === 'front') list.unshift(item);
  else if (where === 'rear') list.push(item);
  else list.splice(list.indexOf(anchor as T) + (where === 'after' ? 1 : 0), 0, item);
}

export interface StatusSource {
  nodes(): string[];
  self: string;
}

export class Authn {
  private readonly counters = new Map<string, Counters>();
  private readonly index = new Map<string, Map<string, AuthnUser>>();

  constructor(private readonly ctx: StoreContext, private readonly cluster: StatusSource) {
    ctx.onStateReplaced(() => this.index.clear());
  }

  // Reads never write defaults into the state (a refused request must leave it as it was).
  private get chain(): AuthnConfig[] {
    return (this.ctx.state.authentication ?? []) as AuthnConfig[];
  }

  private get writableChain(): AuthnConfig[] {
    return (this.ctx.state.authentication ??= []) as AuthnConfig[];
  }

  /**
   * The built-in database users of an authenticator: the global ones, or those of a managed
   * namespace (6.x `?ns=`; emqx_authn_api.erl at 6.2.2 passes the namespace to every user call,
   * the authenticator itself stays global).
   */
  private userList(id: string, create = false, ns: string | null = null): AuthnUser[] {
    const owner = ns === null ? this.ctx.state : this.ctx.state.namespaces?.[ns];
    if (!create || !owner) return owner?.authn_users?.[id] ?? [];
    const all = (owner.authn_users ??= {});
    return (all[id] ??= []);
  }

  /** The id → user index of an authenticator, built from the persisted list on first use (a namespace's on each call). */
  private users(id: string, ns: string | null = null): Map<string, AuthnUser> {
    if (ns !== null) return new Map(this.userList(id, false, ns).map((u) => [u.user_id, u]));
    let map = this.index.get(id);
    if (!map) {
      map = new Map(this.userList(id).map((u) => [u.user_id, u]));
      this.index.set(id, map);
    }
    return map;
  }

  counter(id: string): Counters {
    let c = this.counters.get(id);
    if (!c) {
      c = new Counters(['total', 'success', 'failed', 'nomatch'], () => this.ctx.clock.now());
      this.counters.set(id, c);
    }
    return c;
  }

  private find(id: string): AuthnConfig {
    const config = this.chain.find((a) => a.id === id);
    if (!config) throw apiError(404, 'NOT_FOUND', `Authenticator '${id}' does not exist`);
    return config;
  }

  /** The chain as configured (secrets in clear), for enforcement. */
  enabledChain(): AuthnConfig[] {
    return this.chain.filter((a) => a.enable);
  }

  list(): Json[] {
    return this.chain.map((a) => redact(a) as Json);
  }

  get(id: string): Json {
    return redact(this.find(id)) as Json;
  }

  /**
   * The release's schema of the authenticator the body picks (emqx_authn_schema.erl
   * union_member_selector/1 by mechanism and backend) refuses a field it lacks.
   */
  private refuseUnknown(body: Json): void {
    const member = unionMember(treeRoot(this.ctx.profile.version, 'authentication'), body, ['mechanism', 'backend']);
    if (member) refuseUnknownFields(member, body, ['enable']);
  }

  async create(body: Json): Promise<AuthnConfig> {
    this.refuseUnknown(body);
    const config = fillAuthn(body);
    if (this.chain.some((a) => a.id === config.id)) throw apiError(409, 'ALREADY_EXISTS', `Authenticator '${config.id}' already exist`);
    this.writableChain.push(config);
    this.counters.delete(config.id);
    await this.ctx.persist();
    return clone(config);
  }

  async update(id: string, body: Json): Promise<void> {
    const stored = this.find(id);
    const merged = restoreSecrets(body, stored) as Json;
    this.refuseUnknown({ mechanism: stored.mechanism, ...(stored.backend === undefined ? {} : { backend: stored.backend }), ...merged });
    const config = fillAuthn(merged);
    if (config.id !== id) throw apiError(400, 'BAD_REQUEST', 'Change of authentication type is not allowed');
    this.chain[this.chain.indexOf(stored)] = config;
    await this.ctx.persist();
  }

  async remove(id: string): Promise<void> {
    const stored = this.find(id);
    this.chain.splice(this.chain.indexOf(stored), 1);
    if (this.ctx.state.authn_users) delete this.ctx.state.authn_users[id];
    this.index.delete(id);
    this.counters.delete(id);
    await this.ctx.persist();
  }

  async move(id: string, position: string): Promise<void> {
    const stored = this.find(id);
    moveTo(this.chain, stored, position, (a) => a.id, (t) => apiError(404, 'NOT_FOUND', `Authenticator '${t}' does not exist`));
    await this.ctx.persist();
  }

  async order(ids: string[]): Promise<void> {
    const known = this.chain.map((a) => a.id);
    const missing = ids.filter((id) => !known.includes(id));
    if (missing.length) throw apiError(400, 'BAD_REQUEST', `Authenticators: ${missing.join(', ')} are not found`);
    const unplaced = known.filter((id) => !ids.includes(id));
    if (unplaced.length) throw apiError(400, 'BAD_REQUEST', `No positions are specified for authenticators: ${unplaced.join(', ')}`);
    const byId = new Map(this.chain.map((a) => [a.id, a]));
    this.chain.splice(0, this.chain.length, ...ids.map((id) => byId.get(id) as AuthnConfig));
    await this.ctx.persist();
  }

  async status(id: string): Promise<Json> {
    const config = this.find(id);
    let result: ProbeResult = { status: 'connected' };
    const port = KINDS[id].port;
    if (port) result = await probeServers(config.server ?? config.servers, port);
    else if (id === 'password_based:http' || (id === 'jwt' && config.use_jwks)) result = await probeUrl(config.url ?? config.endpoint);
    const resource = Boolean(port) || id === 'password_based:http';
    return statusEnvelope(this.cluster.nodes(), this.cluster.self, result, this.counter(id), resource);
  }

  // ---- built-in database users ----

  /** The authenticator behind a users call, with EMQX's errors for missing or read-only ones. */
  private usersOf(id: string): AuthnConfig {
    if (this.chain.length === 0) throw apiError(404, 'NOT_FOUND', "Authenticator not found in the 'global' scope");
    const config = this.chain.find((a) => a.id === id);
    if (!config) throw apiError(400, 'BAD_REQUEST', `User error: {not_found,{authenticator,<<"${id}">>}}`);
    if (!hasUsers(id)) throw apiError(400, 'BAD_REQUEST', 'User error: unsupported_operation');
    return config;
  }

  private algorithm(config: AuthnConfig): HashAlgorithm {
    // SCRAM keeps salted sha256/sha512 of the password in this simulator.
    if (config.mechanism === 'scram') return { name: config.algorithm, salt_position: 'prefix' };
    return config.password_hash_algorithm as HashAlgorithm;
  }

  listUsers(id: string, query: { page: number; limit: number; like_user_id?: string; is_superuser?: boolean }, ns: string | null = null): Json {
    this.usersOf(id);
    const { page, limit, like_user_id: like, is_superuser: superuser } = query;
    const start = (page - 1) * limit;
    const data: Json[] = [];
    let total = 0;
    for (const user of this.userList(id, false, ns)) {
      if (like !== undefined && !user.user_id.includes(like)) continue;
      if (superuser !== undefined && user.is_superuser !== superuser) continue;
      if (total >= start && data.length < limit) data.push({ user_id: user.user_id, is_superuser: user.is_superuser });
      total++;
    }
    const meta: Json = { page, limit, hasnext: total > start + limit };
    if (like === undefined) meta.count = total;
    return { data, meta };
  }

  getUser(id: string, userId: string, ns: string | null = null): Json {
    this.usersOf(id);
    const user = this.users(id, ns).get(userId);
    if (!user) throw apiError(404, 'NOT_FOUND', 'User not found');
    return { user_id: user.user_id, is_superuser: user.is_superuser };
  }

  async addUser(id: string, body: { user_id?: unknown; password?: unknown; is_superuser?: unknown }, ns: string | null = null): Promise<Json> {
    const config = this.usersOf(id);
    for (const field of ['user_id', 'password'] as const) {
      if (typeof body[field] !== 'string' || body[field] === '') throw apiError(400, 'BAD_REQUEST', `Missing required parameter: ${field}`);
    }
    const userId = body.user_id as string;
    if (this.users(id, ns).has(userId)) throw apiError(409, 'ALREADY_EXISTS', 'User already exists');
    const algo = this.algorithm(config);
    const salt = newSalt(algo);
    const password_hash = await hashWith(algo, body.password as string, salt);
    // Checked again: another request may have added the same user while this one hashed.
    if (this.users(id, ns).has(userId)) throw apiError(409, 'ALREADY_EXISTS', 'User already exists');
    const user: AuthnUser = { user_id: userId, password_hash, salt, is_superuser: body.is_superuser === true };
    this.userList(id, true, ns).push(user);
    if (ns === null) this.users(id).set(userId, user);
    await this.ctx.persist();
    return { user_id: userId, is_superuser: user.is_superuser };
  }

  async updateUser(id: string, userId: string, body: { password?: unknown; is_superuser?: unknown }, ns: string | null = null): Promise<Json> {
    const config = this.usersOf(id);
    const user = this.users(id, ns).get(userId);
    if (!user) throw apiError(404, 'NOT_FOUND', 'User not found');
    if (body.password === undefined && body.is_superuser === undefined) throw apiError(400, 'BAD_REQUEST', 'Missing required parameter: password or is_superuser');
    if (body.password !== undefined) {
      if (typeof body.password !== 'string' || body.password === '') throw apiError(400, 'BAD_REQUEST', 'password must be a non-empty string');
      const algo = this.algorithm(config);
      const salt = newSalt(algo);
      const password_hash = await hashWith(algo, body.password, salt);
      user.salt = salt;
      user.password_hash = password_hash;
    }
    if (body.is_superuser !== undefined) user.is_superuser = body.is_superuser === true;
    await this.ctx.persist();
    return { user_id: user.user_id, is_superuser: user.is_superuser };
  }

  async removeUser(id: string, userId: string, ns: string | null = null): Promise<void> {
    this.usersOf(id);
    const user = this.users(id, ns).get(userId);
    if (!user) throw apiError(404, 'NOT_FOUND', 'User not found');
    const list = this.userList(id, false, ns);
    list.splice(list.findIndex((u) => u.user_id === userId), 1);
    if (ns === null) this.users(id).delete(userId);
    await this.ctx.persist();
  }

  /** Imports parsed rows all at once (the caller has rejected malformed files already). */
  async importUsers(id: string, type: 'plain' | 'hash', rows: Json[]): Promise<ImportResult> {
    const config = this.chain.find((a) => a.id === id);
    if (!config) throw apiError(404, 'NOT_FOUND', `Authenticator '${id}' does not exist`);
    if (!hasUsers(id)) throw apiError(400, 'BAD_REQUEST', 'Operation not supported in this authentication type');
    if (rows.length === 0) throw apiError(400, 'BAD_REQUEST', 'empty_users');
    // Validate everything first: one bad row imports nothing.
    rows.forEach((row, i) => {
      if (typeof row !== 'object' || row === null) throw apiError(400, 'BAD_REQUEST', `bad_format: row ${i + 1} is not an object`);
      if (typeof row.user_id !== 'string' || row.user_id === '') throw apiError(400, 'BAD_REQUEST', `bad_format: row ${i + 1} has no user_id`);
      const secret = type === 'plain' ? row.password : row.password_hash;
      if (typeof secret !== 'string' || secret === '') throw apiError(400, 'BAD_REQUEST', `bad_format: row ${i + 1} has no ${type === 'plain' ? 'password' : 'password_hash'}`);
    });
    const algo = this.algorithm(config);
    const users = this.users(id);
    const list = this.userList(id, true);
    const result: ImportResult = { total: rows.length, success: 0, override: 0, skipped: 0, failed: 0 };
    for (const row of rows) {
      const superuser = row.is_superuser === true || row.is_superuser === 'true';
      const existing = users.get(row.user_id);
      if (type === 'hash') {
        const salt = typeof row.salt === 'string' ? row.salt : '';
        if (existing && existing.password_hash === row.password_hash && existing.salt === salt && existing.is_superuser === superuser) {
          result.skipped++;
          continue;
        }
        const user: AuthnUser = { user_id: row.user_id, password_hash: row.password_hash, salt, is_superuser: superuser };
        this.put(users, list, existing, user, result);
      } else {
        if (existing && existing.is_superuser === superuser && (await checkPassword(algo, row.password, existing.password_hash, existing.salt))) {
          result.skipped++;
          continue;
        }
        const salt = newSalt(algo);
        this.put(users, list, existing, { user_id: row.user_id, password_hash: await hashWith(algo, row.password, salt), salt, is_superuser: superuser }, result);
      }
    }
    await this.ctx.persist();
    return result;
  }

  private put(users: Map<string, AuthnUser>, list: AuthnUser[], existing: AuthnUser | undefined, user: AuthnUser, result: ImportResult): void {
    if (existing) {
      Object.assign(existing, user);
      result.override++;
    } else {
      list.push(user);
      users.set(user.user_id, user);
      result.success++;
    }
  }

  /** A built-in user's check: null when the user does not exist (nomatch). */
  async checkUser(config: AuthnConfig, userId: string, password: string): Promise<{ ok: boolean; superuser: boolean } | null> {
    const user = this.users(config.id).get(userId);
    if (!user) return null;
    return { ok: await checkPassword(this.algorithm(config), password, user.password_hash, user.salt), superuser: user.is_superuser };
  }
}

/** Probes the host of an HTTP(S) URL. */
export function probeUrl(url: string): Promise<ProbeResult> {
  try {
    const u = new URL(url);
    return probe(u.hostname.replace(/^\[|\]$/g, ''), Number(u.port) || (u.protocol === 'https:' ? 443 : 80));
  } catch {
    return Promise.resolve({ status: 'disconnected', reason: `invalid url: ${url}` });
  }
}

/** Parses an import file: CSV with a header line, or a JSON array. Throws 400 on malformed input. */
export function parseUserFile(name: string, text: string): Json[] {
  if (/\.json$/i.test(name)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw apiError(400, 'BAD_REQUEST', 'bad_format: the file is not valid JSON');
    }
    if (!Array.isArray(parsed)) throw apiError(400, 'BAD_REQUEST', 'bad_format: a JSON array of users is expected');
    return parsed as Json[];
  }
  if (!/\.csv$/i.test(name)) throw apiError(400, 'BAD_REQUEST', 'unknown_file_format: only .csv and .json files are supported');
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) throw apiError(400, 'BAD_REQUEST', 'empty_users');
  const header = lines[0].split(',').map((h) => h.trim());
  if (!header.includes('user_id')) throw apiError(400, 'BAD_REQUEST', 'bad_format: the CSV header must name user_id');
  return lines.slice(1).map((line, i) => {
    const cells = line.split(',');
    if (cells.length !== header.length) throw apiError(400, 'BAD_REQUEST', `bad_format: line ${i + 2} has ${cells.length} fields, the header ${header.length}`);
    const row: Json = {};
    header.forEach((h, j) => {
      row[h] = cells[j].trim();
    });
    return row;
  });
}
