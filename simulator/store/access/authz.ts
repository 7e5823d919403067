// The authorization chain (emqx_authz_api_sources, emqx_authz_api_settings, emqx_authz_api_mnesia;
// emqx-api-part2 §3): sources in order with their configs (secrets redacted, `******` kept on
// PUT), built-in database rules per client id, per username and for all, the file source's ACL
// text, the settings (no_match, deny_action, cache) and per-source decision counters.
import { apiError } from '../../plugins/errors.ts';
import { compileAcl, DEFAULT_ACL, matchFileRules, topicCovered, type AuthzRequest, type MatchContext } from './acl-file.ts';
import { Counters, clone, invalid, parseServer, probeServers, redact, restoreSecrets, statusEnvelope, withDefaults, type ProbeResult } from './auth-common.ts';
import { moveTo, probeUrl, type StatusSource } from './authn.ts';
import type { StoreContext } from '../context.ts';
import { durationMs } from '../messaging/slow-subs.ts';
import { topicFilterProblem } from '../../lib/topic.ts';
import { refuseUnknown } from '../config/strict.ts';
import { refuseUnknownFields, rootField, unionMember } from '../config/schema-check.ts';

type Json = Record<string, any>;

export const SOURCE_TYPES = ['file', 'built_in_database', 'http', 'mysql', 'postgresql', 'mongodb', 'redis', 'ldap'] as const;

export interface Rule {
  permission: 'allow' | 'deny';
  action: 'publish' | 'subscribe' | 'all';
  topic: string;
  qos: number[];
  retain: boolean | 'all';
}

export interface AuthzSettings {
  no_match: 'allow' | 'deny';
  deny_action: 'ignore' | 'disconnect';
  cache: { enable: boolean; max_size: number; ttl: string; excludes: string[] };
}

export interface BuiltInRules {
  users: { username: string; rules: Rule[] }[];
  clients: { clientid: string; rules: Rule[] }[];
  all: Rule[];
}

export interface AuthzState {
  sources: Json[];
  settings: AuthzSettings;
}

const SSL = { enable: false };
const HTTP_HEADERS = { accept: 'application/json', 'cache-control': 'no-cache', connection: 'keep-alive', 'keep-alive': 'timeout=30, max=1000' };
const SQL = { pool_size: 8, ssl: SSL };
const KINDS: Record<string, { required: string[]; defaults: Json; port?: number }> = {
  file: { required: ['rules'], defaults: {} },
  built_in_database: { required: [], defaults: { max_rules: 100 } },
  http: { required: ['method', 'url'], defaults: { request_timeout: '30s', connect_timeout: '15s', pool_size: 8, enable_pipelining: 100, ssl: SSL } },
  mysql: { required: ['server', 'database', 'query'], defaults: { ...SQL, username: 'root', password: '' }, port: 3306 },
  postgresql: { required: ['server', 'database', 'query'], defaults: { ...SQL, disable_prepared_statements: false }, port: 5432 },
  mongodb: { required: ['mongo_type', 'database', 'collection'], defaults: { filter: {}, limit: 1000, skip: 0, w_mode: 'unsafe', srv_record: false, use_legacy_protocol: 'auto', pool_size: 8, topology: { max_overflow: 0 }, ssl: SSL }, port: 27017 },
  redis: { required: ['redis_type', 'cmd'], defaults: { ...SQL }, port: 6379 },
  ldap: { required: ['server', 'base_dn'], defaults: { pool_size: 8, request_timeout: '10s', query_timeout: '5s', ssl: SSL, filter: '(objectClass=mqttUser)', publish_attribute: 'mqttPublishTopic', subscribe_attribute: 'mqttSubscriptionTopic', all_attribute: 'mqttPubSubTopic' }, port: 389 },
};

export function defaultAuthz(): AuthzState {
  return {
    sources: [{ type: 'file', enable: true, rules: DEFAULT_ACL }],
    settings: { no_match: 'allow', deny_action: 'ignore', cache: { enable: true, max_size: 32, ttl: '1m', excludes: [] } },
  };
}

/** Validates a source config and fills EMQX's defaults. */
export function fillSource(body: Json): Json {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('expected an object');
  const kind = Object.hasOwn(KINDS, body.type) ? KINDS[body.type] : undefined;
  if (!kind) throw invalid('unknown source type', 'type', body.type);
  const extra: Json = {};
  if (body.type === 'http') {
    if (!['get', 'post'].includes(body.method)) throw invalid('unable_to_convert_to_enum_symbol', 'method', body.method);
    extra.headers = body.method === 'post' ? { ...HTTP_HEADERS, 'content-type': 'application/json' } : HTTP_HEADERS;
  }
  if (body.mongo_type === 'rs') extra.r_mode = 'master';
  if (body.redis_type && body.redis_type !== 'cluster') extra.database = 0;
  const config: Json = withDefaults({ ...kind.defaults, ...extra, enable: true }, body);
  if (body.headers) config.headers = clone(body.headers);
  for (const field of kind.required) {
    if (config[field] === undefined || config[field] === '') throw invalid('required_field', field);
  }
  if (typeof config.enable !== 'boolean') throw invalid('enable must be a boolean', 'enable', config.enable);
  if (config.type === 'file') {
    if (typeof config.rules !== 'string') throw invalid('rules must be a string', 'rules');
    const compiled = compileAcl(config.rules);
    if ('error' in compiled) throw apiError(400, 'BAD_REQUEST', `Invalid authorization rules: ${compiled.error}`);
  }
  if (config.type === 'built_in_database' && (!Number.isInteger(config.max_rules) || config.max_rules < 1)) throw invalid('max_rules must be a positive integer', 'max_rules', config.max_rules);
  if (kind.port) {
    if (config.mongo_type && !['single', 'rs', 'sharded'].includes(config.mongo_type)) throw invalid('unable_to_convert_to_enum_symbol', 'mongo_type', config.mongo_type);
    if (config.redis_type && !['single', 'cluster', 'sentinel'].includes(config.redis_type)) throw invalid('unable_to_convert_to_enum_symbol', 'redis_type', config.redis_type);
    const single = !(config.mongo_type && config.mongo_type !== 'single') && !(config.redis_type && config.redis_type !== 'single');
    const field = single ? 'server' : 'servers';
    if (typeof config[field] !== 'string' || !config[field]) throw invalid('required_field', field);
    for (const server of String(config[field]).split(',')) {
      if (!parseServer(server, kind.port)) throw invalid('bad_server_address', field, config[field]);
    }
    if (config.mongo_type === 'rs' && !config.replica_set_name) throw invalid('required_field', 'replica_set_name');
    if (config.redis_type === 'sentinel' && !config.sentinel) throw invalid('required_field', 'sentinel');
  }
  if (config.type === 'http') {
    try {
      const url = new URL(config.url);
      if (!['http:', 'https:'].includes(url.protocol)) throw new Error();
    } catch {
      throw invalid('bad_url', 'url', config.url);
    }
  }
  return config;
}

/** A rule as the API takes it (accepting pub/sub, a single qos or "0,1") → the stored form. */
export function normalizeRule(input: Json, where: string): Rule {
  if (typeof input !== 'object' || input === null) throw apiError(400, 'BAD_REQUEST', `${where}: a rule must be an object`);
  const permission = input.permission;
  if (permission !== 'allow' && permission !== 'deny') throw apiError(400, 'BAD_REQUEST', `${where}: permission must be allow or deny`);
  const action = input.action === 'pub' ? 'publish' : input.action === 'sub' ? 'subscribe' : input.action;
  if (!['publish', 'subscribe', 'all'].includes(action)) throw apiError(400, 'BAD_REQUEST', `${where}: action must be publish, subscribe or all`);
  if (typeof input.topic !== 'string' || input.topic === '') throw apiError(400, 'BAD_REQUEST', `${where}: topic is required`);
  const literal = input.topic.startsWith('eq ') ? input.topic.slice(3) : input.topic;
  if (topicFilterProblem(literal.replace(/\$\{[^}]*\}/g, 'x'))) throw apiError(400, 'BAD_REQUEST', `${where}: invalid topic ${input.topic}`);
  let qos: unknown = input.qos ?? [0, 1, 2];
  if (typeof qos === 'number') qos = [qos];
  if (typeof qos === 'string') qos = qos.split(',').map((q) => Number(q.trim()));
  if (!Array.isArray(qos) || !qos.every((q) => q === 0 || q === 1 || q === 2)) throw apiError(400, 'BAD_REQUEST', `${where}: qos must be 0, 1 or 2`);
  const retain = input.retain ?? 'all';
  if (retain !== 'all' && typeof retain !== 'boolean') throw apiError(400, 'BAD_REQUEST', `${where}: retain must be true, false or all`);
  return { permission, action, topic: input.topic, qos: [...new Set(qos as number[])].sort(), retain };
}

/** The first built-in rule that matches, or null. */
export function matchRules(rules: readonly Rule[], ctx: MatchContext, req: AuthzRequest): 'allow' | 'deny' | null {
  for (const rule of rules) {
    if (rule.action !== 'all' && rule.action !== req.action) continue;
    if (req.action === 'publish' && !rule.qos.includes(req.qos)) continue;
    if (req.action === 'publish' && rule.retain !== 'all' && rule.retain !== req.retain) continue;
    const eq = rule.topic.startsWith('eq ');
    if (topicCovered({ eq, filter: eq ? rule.topic.slice(3) : rule.topic }, ctx, req.topic)) return rule.permission;
  }
  return null;
}

export class Authz {
  private readonly counters = new Map<string, Counters>();
  private compiled: { text: string; rules: ReturnType<typeof compileAcl> } | null = null;

  constructor(private readonly ctx: StoreContext, private readonly cluster: StatusSource) {}

  private readonly defaults = defaultAuthz();

  // Reads never write defaults into the state (a refused request must leave it as it was).
  private get data(): AuthzState {
    return this.ctx.state.authorization ?? this.defaults;
  }

  private get writable(): AuthzState {
    return (this.ctx.state.authorization ??= clone(this.defaults));
  }

  private get builtIn(): BuiltInRules {
    return this.ctx.state.authz_rules ?? { users: [], clients: [], all: [] };
  }

  private get writableRules(): BuiltInRules {
    return (this.ctx.state.authz_rules ??= { users: [], clients: [], all: [] });
  }

  counter(type: string): Counters {
    let c = this.counters.get(type);
    if (!c) {
      c = new Counters(['total', 'allow', 'deny', 'nomatch', 'ignore'], () => this.ctx.clock.now());
      this.counters.set(type, c);
    }
    return c;
  }

  settings(): AuthzSettings {
    return clone(this.data.settings);
  }

  /** The live settings, uncopied, for the per-packet hooks; callers must not change them. */
  current(): Readonly<AuthzSettings> {
    return this.data.settings;
  }

  /** The cache TTL in ms; read on every packet, so the parse is remembered per TTL text. */
  cacheTtlMs(): number {
    const text = String(this.data.settings.cache.ttl);
    if (text !== this.ttl.text) this.ttl = { text, ms: durationMs(text) ?? 60_000 };
    return this.ttl.ms;
  }

  private ttl = { text: '', ms: 60_000 };

  async updateSettings(body: Json): Promise<AuthzSettings> {
    const current = this.data.settings;
    refuseUnknown(current, body, 'authorization');
    const next = withDefaults(current as unknown as Json, body ?? {}) as unknown as AuthzSettings;
    // A list is copied; anything else stays as given so the check below refuses it with a 400.
    if (body?.cache && 'excludes' in body.cache) next.cache.excludes = Array.isArray(body.cache.excludes) ? [...body.cache.excludes] : body.cache.excludes;
    if (!['allow', 'deny'].includes(next.no_match)) throw invalid('unable_to_convert_to_enum_symbol', 'no_match', next.no_match);
    if (!['ignore', 'disconnect'].includes(next.deny_action)) throw invalid('unable_to_convert_to_enum_symbol', 'deny_action', next.deny_action);
    const c = next.cache;
    if (typeof c.enable !== 'boolean') throw invalid('enable must be a boolean', 'cache.enable', c.enable);
    if (!Number.isInteger(c.max_size) || c.max_size < 1 || c.max_size > 1048576) throw invalid('max_size must be an integer from 1 to 1048576', 'cache.max_size', c.max_size);
    if (durationMs(String(c.ttl)) === null) throw invalid('invalid duration', 'cache.ttl', c.ttl);
    if (!Array.isArray(c.excludes) || c.excludes.some((t) => typeof t !== 'string' || topicFilterProblem(t))) throw invalid('excludes must be a list of topic filters', 'cache.excludes', c.excludes);
    this.writable.settings = next;
    await this.ctx.persist();
    return clone(next);
  }

  private find(type: string): Json {
    const source = this.data.sources.find((s) => s.type === type);
    if (!source) throw apiError(404, 'NOT_FOUND', `Not found: ${type}`);
    return source;
  }

  has(type: string): boolean {
    return this.data.sources.some((s) => s.type === type);
  }

  list(): Json[] {
    return this.data.sources.map((s) => redact(s) as Json);
  }

  get(type: string): Json {
    return redact(this.find(type)) as Json;
  }

  /** Enabled sources in chain order (secrets in clear), for enforcement. */
  enabledSources(): Json[] {
    return this.data.sources.filter((s) => s.enable);
  }

  /** The release's schema of the source type the body names (emqx_authz_schema.erl, by `type`) refuses a field it lacks. */
  private refuseUnknownSource(body: Json): void {
    const member = unionMember(rootField(this.ctx.profile.version, 'authorization', 'sources'), body, ['type']);
    // emqx_authz_api_schema.erl fields(file): the API sends the file's `rules` text where the config has `path`.
    if (member) refuseUnknownFields(member, body, body.type === 'file' ? ['enable', 'rules'] : ['enable']);
  }

  async create(body: Json): Promise<void> {
    this.refuseUnknownSource(body);
    const config = fillSource(body);
    if (this.has(config.type)) throw apiError(400, 'BAD_REQUEST', `duplicated_authz_source_type: ${config.type}`);
    this.writable.sources.unshift(config);
    this.counters.delete(config.type);
    await this.ctx.persist();
  }

  async update(type: string, body: Json): Promise<void> {
    const stored = this.find(type);
    if (body?.type !== undefined && body.type !== type) throw apiError(400, 'BAD_REQUEST', 'Type mismatch');
    this.refuseUnknownSource({ ...body, type });
    const config = fillSource(restoreSecrets({ ...body, type }, stored) as Json);
    const sources = this.writable.sources;
    sources[sources.indexOf(this.find(type))] = config;
    await this.ctx.persist();
  }

  async remove(type: string): Promise<void> {
    this.find(type);
    const sources = this.writable.sources;
    sources.splice(sources.indexOf(this.find(type)), 1);
    this.counters.delete(type);
    if (type === 'built_in_database') this.ctx.state.authz_rules = { users: [], clients: [], all: [] };
    await this.ctx.persist();
  }

  async move(type: string, position: unknown): Promise<void> {
    this.find(type);
    if (typeof position !== 'string') throw apiError(400, 'BAD_REQUEST', 'Invalid parameter. Unknow position');
    if (!/^(front|rear|(before|after):.+)$/.test(position)) throw apiError(400, 'BAD_REQUEST', 'Invalid parameter. Unknow position');
    moveTo(this.writable.sources, this.find(type), position, (s) => s.type, (t) => apiError(404, 'NOT_FOUND', `Not found: ${t}`));
    await this.ctx.persist();
  }

  async order(types: string[]): Promise<void> {
    const known = this.data.sources.map((s) => s.type as string);
    const missing = types.filter((t) => !known.includes(t));
    if (missing.length) throw apiError(400, 'BAD_REQUEST', `Authorization sources: ${missing.join(', ')} are not found`);
    const unplaced = known.filter((t) => !types.includes(t));
    if (unplaced.length) throw apiError(400, 'BAD_REQUEST', `No positions are specified for authorization sources: ${unplaced.join(', ')}`);
    const byType = new Map(this.data.sources.map((s) => [s.type as string, s]));
    this.writable.sources = types.map((t) => byType.get(t) as Json);
    await this.ctx.persist();
  }

  async status(type: string): Promise<Json> {
    const config = this.find(type);
    let result: ProbeResult = { status: 'connected' };
    const port = KINDS[type].port;
    if (port) result = await probeServers(config.server ?? config.servers, port);
    else if (type === 'http') result = await probeUrl(config.url);
    return statusEnvelope(this.cluster.nodes(), this.cluster.self, result, this.counter(type), Boolean(port) || type === 'http');
  }

  // ---- built-in database rules ----

  private requireBuiltIn(): Json {
    const source = this.data.sources.find((s) => s.type === 'built_in_database');
    if (!source) throw apiError(404, 'NOT_FOUND', 'Not found: built_in_database');
    return source;
  }

  private rulesOf(list: unknown, who: string): Rule[] {
    const max = this.requireBuiltIn().max_rules ?? 100;
    if (!Array.isArray(list)) throw apiError(400, 'BAD_REQUEST', `${who}: rules must be a list`);
    if (list.length > max) throw apiError(400, 'BAD_REQUEST', `The rules length of ${who} exceeds the maximum limit.`);
    return list.map((r, i) => normalizeRule(r, `${who} rule ${i + 1}`));
  }

  listRules(kind: 'users' | 'clients', query: { page: number; limit: number; like?: string }): Json {
    this.requireBuiltIn();
    const key = kind === 'users' ? 'username' : 'clientid';
    const rows = (this.builtIn[kind] as Json[]).filter((r) => query.like === undefined || String(r[key]).includes(query.like));
    const start = (query.page - 1) * query.limit;
    const meta: Json = { page: query.page, limit: query.limit, hasnext: rows.length > start + query.limit };
    if (query.like === undefined) meta.count = rows.length;
    return { data: clone(rows.slice(start, start + query.limit)), meta };
  }

  getRules(kind: 'users' | 'clients', name: string): Json {
    this.requireBuiltIn();
    const key = kind === 'users' ? 'username' : 'clientid';
    const row = (this.builtIn[kind] as Json[]).find((r) => r[key] === name);
    if (!row) throw apiError(404, 'NOT_FOUND', kind === 'users' ? 'Username Not Found' : 'ClientID Not Found');
    return clone(row);
  }

  async addRules(kind: 'users' | 'clients', body: unknown): Promise<void> {
    this.requireBuiltIn();
    const key = kind === 'users' ? 'username' : 'clientid';
    const label = kind === 'users' ? 'User' : 'Client';
    if (!Array.isArray(body)) throw apiError(400, 'BAD_REQUEST', 'body must be a list');
    const list = this.writableRules[kind] as Json[];
    const rows = body.map((item: Json) => {
      const name = item?.[key];
      if (typeof name !== 'string' || name === '') throw apiError(400, 'BAD_REQUEST', `Missing required parameter: ${key}`);
      if (list.some((r) => r[key] === name)) throw apiError(409, 'ALREADY_EXISTS', `${label} '${name}' already exist`);
      return { [key]: name, rules: this.rulesOf(item.rules ?? [], `${label} '${name}'`) };
    });
    list.push(...rows);
    await this.ctx.persist();
  }

  async putRules(kind: 'users' | 'clients', name: string, body: Json): Promise<void> {
    this.requireBuiltIn();
    const key = kind === 'users' ? 'username' : 'clientid';
    const label = kind === 'users' ? 'User' : 'Client';
    if (body?.[key] !== undefined && body[key] !== name) throw apiError(400, 'BAD_REQUEST', `${key} in the body does not match the path`);
    const rules = this.rulesOf(body?.rules ?? [], `${label} '${name}'`);
    const list = this.writableRules[kind] as Json[];
    const row = list.find((r) => r[key] === name);
    if (row) row.rules = rules;
    else list.push({ [key]: name, rules });
    await this.ctx.persist();
  }

  async removeRules(kind: 'users' | 'clients', name: string): Promise<void> {
    this.requireBuiltIn();
    const key = kind === 'users' ? 'username' : 'clientid';
    const index = (this.builtIn[kind] as Json[]).findIndex((r) => r[key] === name);
    if (index < 0) throw apiError(404, 'NOT_FOUND', kind === 'users' ? 'Username Not Found' : 'ClientID Not Found');
    const list = this.writableRules[kind] as Json[];
    list.splice(index, 1);
    await this.ctx.persist();
  }

  allRules(): Json {
    this.requireBuiltIn();
    return { rules: clone(this.builtIn.all) };
  }

  async setAllRules(rules: unknown): Promise<void> {
    this.requireBuiltIn();
    const all = this.rulesOf(rules ?? [], 'All');
    this.writableRules.all = all;
    await this.ctx.persist();
  }

  async purgeRules(): Promise<void> {
    const source = this.data.sources.find((s) => s.type === 'built_in_database');
    if (!source) throw apiError(404, 'BAD_REQUEST', 'Not found: built_in_database');
    if (source.enable) throw apiError(400, 'BAD_REQUEST', 'Source built_in_database must be disabled before purge.');
    this.ctx.state.authz_rules = { users: [], clients: [], all: [] };
    await this.ctx.persist();
  }

  /** The built-in decision: client rules, then username rules, then rules for all. */
  checkBuiltIn(ctx: MatchContext, req: AuthzRequest): 'allow' | 'deny' | null {
    const b = this.builtIn;
    const rules = [
      ...(b.clients.find((r) => r.clientid === ctx.clientid)?.rules ?? []),
      ...(ctx.username === null ? [] : b.users.find((r) => r.username === ctx.username)?.rules ?? []),
      ...b.all,
    ];
    return matchRules(rules, ctx, req);
  }

  /** The file source's decision (its compiled rules are kept until the text changes). */
  checkFile(source: Json, ctx: MatchContext, req: AuthzRequest): 'allow' | 'deny' | null {
    let cached = this.compiled as { text: string; rules: ReturnType<typeof compileAcl> } | null;
    if (!cached || cached.text !== source.rules) cached = this.compiled = { text: source.rules, rules: compileAcl(source.rules) };
    const compiled = cached.rules;
    return 'rules' in compiled ? matchFileRules(compiled.rules, ctx, req) : null;
  }
}
