// Rules of the rule engine (emqx_rule_engine, emqx_rule_engine_api): the persisted rules and
// rule-engine settings, their compiled SQL, and live per-rule metrics counted from real
// evaluations. The broker (broker/rule-engine.ts) feeds messages and events in and runs the
// outputs; POST /rule_test goes through the same evaluation.
import { randomBytes } from 'node:crypto';
import { apiError } from '../../plugins/errors.ts';
import { compileSql, evaluate, EvalError, fromMatches } from '../../rules/evaluator.ts';
import { eventByType, exampleColumns } from '../../rules/events.ts';
import { SqlSyntaxError } from '../../rules/lexer.ts';
import type { Statement } from '../../rules/parser.ts';
import type { Obj } from '../../rules/values.ts';
import type { StoreContext } from '../context.ts';
import type { Codec } from './schema-registry.ts';
import { rfc3339 } from '../../lib/time.ts';
import { hoconDuration } from '../../lib/hocon-check/postprocess.ts';
import { rootDefaults, rootFields } from '../config/config-roots.ts';
import type { TreeField } from '../config/release-tree.ts';
import { fieldTypes, refuseInvalid } from '../config/schema-check.ts';
import type { EmqxVersion } from '../profile.ts';

export interface RepublishArgs {
  topic: string;
  qos: number | string;
  retain: boolean | string;
  payload: string;
  mqtt_properties: Record<string, string>;
  user_properties: string;
  direct_dispatch: boolean | string;
}

/** One `actions` entry as stored and returned (§5.3). */
export type RuleAction = string | { function: 'republish'; args: RepublishArgs } | { function: string; args?: Obj };

export interface RuleRecord {
  id: string;
  name: string;
  sql: string;
  actions: RuleAction[];
  enable: boolean;
  description: string;
  metadata?: Obj;
  created_at: number;
  last_modified_at: number;
}

/** GET /rules/{id} and the list items (RuleInfo). */
export interface RuleInfo {
  id: string;
  name: string;
  sql: string;
  actions: RuleAction[];
  enable: boolean;
  description: string;
  from: string[];
  created_at: string;
  last_modified_at: string;
}

/**
 * PUT /rule_engine as given (raw, as the broker keeps it in its override file): the release's
 * rule_engine_settings/0 (emqx_rule_engine_schema.erl), `ignore_sys_message` read by the engine.
 */
export type RuleEngineSettings = { ignore_sys_message: boolean } & Record<string, unknown>;

/** The settings fields of the release's rule_engine root (its `rules` map is the rules). */
function settingsFields(version: EmqxVersion): TreeField[] {
  return rootFields('rule_engine', version).filter((f) => f.text !== 'rules');
}

const COUNTERS = [
  'matched', 'passed', 'failed', 'failed.exception', 'failed.no_result', 'actions.total', 'actions.success',
  'actions.failed', 'actions.failed.out_of_service', 'actions.failed.unknown', 'actions.discarded',
] as const;
type Counter = (typeof COUNTERS)[number];

export type RuleMetrics = Record<Counter, number> & { 'matched.rate': number; 'matched.rate.max': number; 'matched.rate.last5m': number };

/** Live counters of one rule plus one bucket per second of the last 5 minutes for the rates. */
interface Live {
  counters: Record<Counter, number>;
  buckets: Map<number, number>;
  /** The second the buckets were last pruned in. */
  pruned?: number;
  rateMax: number;
}

/** The fields of a rule a body may set (POST, or merged by PUT). */
export interface RuleBody {
  id?: string;
  name?: string;
  sql?: string;
  actions?: RuleAction[];
  enable?: boolean;
  description?: string;
  metadata?: Obj;
}

export type ActionOutcome = 'success' | 'failed' | 'out_of_service' | 'discarded';

/** "Bad Arguments: <reason>" of a SQL problem, with its position. */
function sqlProblem(err: SqlSyntaxError): string {
  return `Bad Arguments: {parse_error, ${err.message}}`;
}

function zero(): Record<Counter, number> {
  return Object.fromEntries(COUNTERS.map((k) => [k, 0])) as Record<Counter, number>;
}

/** Normalises an actions entry: republish gets every argument with its default. */
function normaliseAction(action: RuleAction): RuleAction {
  if (typeof action === 'string') return action;
  if (action.function === 'republish') {
    const args = (action.args ?? {}) as Partial<RepublishArgs>;
    return {
      function: 'republish',
      args: {
        topic: args.topic ?? '',
        qos: args.qos ?? '${qos}',
        retain: args.retain ?? '${retain}',
        payload: args.payload ?? '${payload}',
        mqtt_properties: args.mqtt_properties ?? {},
        user_properties: args.user_properties ?? '${user_properties}',
        direct_dispatch: args.direct_dispatch ?? false,
      },
    };
  }
  if (action.function === 'console') return { function: 'console' };
  return { function: action.function, args: (action.args ?? {}) as Obj };
}

/** The longest topic whose matching rules are cached. */
const MATCHED_TOPIC_LENGTH = 1024;

export class Rules {
  private readonly compiled = new Map<string, Statement>();
  private readonly live = new Map<string, Live>();

  constructor(
    private readonly ctx: StoreContext,
    private readonly nodes: () => string[],
    private readonly self: string,
  ) {
    // Statements are cached by rule id: a replaced state may hold other SQL under the same id.
    ctx.onStateReplaced(() => this.compiled.clear());
  }

  /** The schema registry's codecs for the schema_* functions; set by the schema registry routes plugin. */
  schemas: (name: string) => Codec | undefined = () => undefined;
  /** The evaluation context of live data (one object, not one per message). */
  private readonly liveContext = { now: () => this.ctx.clock.now(), schemas: (name: string) => this.schemas(name) };

  /** Where console outputs go (the simulator log); set by the routes plugin. */
  log: (line: string) => void = () => {};

  /**
   * Raises a rule event (`$events/…`) that another broker module saw, with its columns made only
   * when a rule listens; `source` is the packet it concerns. Set by the broker's rule engine.
   */
  fireEvent: (topic: string, columns: () => Obj, source?: object | null) => void = () => {};

  /** Runs one action of a rule for one output, counting its outcome; set by the broker's rule engine. */
  runAction: (rule: RuleRecord, action: RuleAction, output: Obj, columns: Obj) => void = () => {};

  /** The rules matching a topic, for the rule list they were computed from. */
  /** The rules each recent topic matched (see matching()). */
  private matched = new Map<string, RuleRecord[]>();
  private matchedFor: RuleRecord[] | null = null;

  private get records(): RuleRecord[] {
    return this.ctx.state.rules ?? [];
  }

  list(): RuleRecord[] {
    return this.records;
  }

  get(id: string): RuleRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  /** The FROM list of a rule's SQL. */
  from(rule: RuleRecord): string[] {
    return this.statement(rule)?.from ?? [];
  }

  info(rule: RuleRecord): RuleInfo {
    return {
      id: rule.id,
      name: rule.name,
      sql: rule.sql,
      actions: rule.actions,
      enable: rule.enable,
      description: rule.description,
      from: this.from(rule),
      created_at: rfc3339(rule.created_at, 'ms'),
      last_modified_at: rfc3339(rule.last_modified_at, 'ms'),
    };
  }

  /** Parses SQL for storing; a problem is a 400 with its position. */
  private check(sql: string): Statement {
    try {
      return compileSql(sql);
    } catch (err) {
      if (err instanceof SqlSyntaxError) throw apiError(400, 'BAD_REQUEST', sqlProblem(err));
      throw err;
    }
  }

  private statement(rule: RuleRecord): Statement | null {
    let stmt = this.compiled.get(rule.id);
    if (!stmt) {
      try {
        stmt = compileSql(rule.sql);
      } catch {
        return null;
      }
      this.compiled.set(rule.id, stmt);
    }
    return stmt;
  }

  async create(body: RuleBody): Promise<RuleRecord> {
    if (body.id === '') throw apiError(400, 'BAD_REQUEST', 'empty rule id is not allowed');
    const id = body.id ?? randomBytes(4).toString('hex');
    if (this.get(id)) throw apiError(400, 'BAD_REQUEST', 'rule id already exists');
    return this.save(id, body, null);
  }

  /** PUT: merges the body into the stored rule, or creates it under this id. */
  async update(id: string, body: RuleBody): Promise<RuleRecord> {
    return this.save(id, body, this.get(id) ?? null);
  }

  private async save(id: string, body: RuleBody, existing: RuleRecord | null): Promise<RuleRecord> {
    const sql = body.sql ?? existing?.sql;
    if (sql === undefined) throw apiError(400, 'BAD_REQUEST', 'Bad Arguments: sql is required');
    const stmt = this.check(sql);
    const now = this.ctx.clock.now();
    const rule: RuleRecord = {
      id,
      name: body.name ?? existing?.name ?? '',
      sql,
      actions: (body.actions ?? existing?.actions ?? []).map(normaliseAction),
      enable: body.enable ?? existing?.enable ?? true,
      description: body.description ?? existing?.description ?? '',
      metadata: { ...existing?.metadata, ...body.metadata, ...(existing ? {} : { created_at: now }), last_modified_at: now },
      created_at: existing?.created_at ?? now,
      last_modified_at: now,
    };
    const list = [...this.records];
    const at = list.findIndex((r) => r.id === id);
    if (at >= 0) list[at] = rule;
    else list.push(rule);
    this.ctx.state.rules = list;
    this.compiled.set(id, stmt);
    await this.ctx.persist();
    return rule;
  }

  async remove(id: string): Promise<boolean> {
    const at = this.records.findIndex((r) => r.id === id);
    if (at < 0) return false;
    this.ctx.state.rules = this.records.filter((r) => r.id !== id);
    this.compiled.delete(id);
    this.live.delete(id);
    await this.ctx.persist();
    return true;
  }

  /** The settings as configured (raw): the release's defaults under what was put. */
  settings(): RuleEngineSettings {
    const settings = rootDefaults('rule_engine', this.ctx.profile.version, { ...this.ctx.state.rule_engine });
    delete settings.rules;
    return settings as RuleEngineSettings;
  }

  /**
   * GET and PUT /rule_engine answer the checked config (emqx_rule_engine_api.erl '/rule_engine'/2:
   * emqx_conf:get([rule_engine]) less `rules`, at v5.5.1 to 6.2.2): durations in milliseconds,
   * hidden and deprecated fields left out.
   */
  settingsAnswer(): Record<string, unknown> {
    const out: Record<string, unknown> = { ...this.settings() };
    for (const field of settingsFields(this.ctx.profile.version)) {
      if (field.hidden || field.deprecated) delete out[field.text];
      else if (field.type.startsWith('Duration') && typeof out[field.text] === 'string') out[field.text] = hoconDuration(out[field.text] as string) ?? out[field.text];
    }
    return out;
  }

  /** PUT /rule_engine: checked as hocon checks ref(rule_engine) (400 BAD_REQUEST naming every problem). */
  async updateSettings(body: unknown): Promise<Record<string, unknown>> {
    const { profile } = this.ctx;
    const type = { kind: 'struct', name: 'rule_engine', fields: fieldTypes(profile.version, settingsFields(profile.version)) } as const;
    const checked = refuseInvalid(profile, type, body) as Record<string, unknown>;
    this.ctx.state.rule_engine = { ...this.ctx.state.rule_engine, ...checked };
    await this.ctx.persist();
    return this.settingsAnswer();
  }

  // ---- metrics ----

  private liveOf(id: string): Live {
    let live = this.live.get(id);
    if (!live) {
      live = { counters: zero(), buckets: new Map(), rateMax: 0 };
      this.live.set(id, live);
    }
    return live;
  }

  /**
   * Node totals that survive a rule's reset or removal (emqx_metrics 'rules.matched',
   * 'actions.executed' and 'actions.messages' from 5.10, read by emqx_dashboard_monitor.erl
   * stats/1): a match; an output that ran, succeeded or failed; an output that delivered.
   */
  readonly totals = { matched: 0, executed: 0, delivered: 0 };

  private count(id: string, ...keys: Counter[]): void {
    const live = this.liveOf(id);
    // Once per message: one pass over the keys.
    let matched = false;
    let executed = false;
    for (const key of keys) {
      live.counters[key]++;
      if (key === 'matched') matched = true;
      else if (key === 'actions.success' || key === 'actions.failed') executed = true;
      if (key === 'actions.success') this.totals.delivered++;
    }
    if (executed) this.totals.executed++;
    if (matched) {
      this.totals.matched++;
      const second = Math.floor(this.ctx.clock.now() / 1000);
      live.buckets.set(second, (live.buckets.get(second) ?? 0) + 1);
      // Seconds older than five minutes go once a second, not at every message.
      if (second !== live.pruned) {
        live.pruned = second;
        for (const s of live.buckets.keys()) if (s < second - 300) live.buckets.delete(s);
      }
    }
  }

  /** Counts the outcome of one output of a rule. */
  countAction(id: string, outcome: ActionOutcome): void {
    if (outcome === 'success') this.count(id, 'actions.total', 'actions.success');
    else if (outcome === 'discarded') this.count(id, 'actions.total', 'actions.discarded');
    else if (outcome === 'out_of_service') this.count(id, 'actions.total', 'actions.failed', 'actions.failed.out_of_service');
    else this.count(id, 'actions.total', 'actions.failed', 'actions.failed.unknown');
  }

  private metricsOf(id: string): RuleMetrics {
    const live = this.liveOf(id);
    const second = Math.floor(this.ctx.clock.now() / 1000);
    let recent = 0;
    let last5m = 0;
    for (const [s, n] of live.buckets) {
      if (s > second - 300) last5m += n;
      if (s > second - 5) recent += n;
    }
    const rate = Math.round((recent / 5) * 100) / 100;
    live.rateMax = Math.max(live.rateMax, rate);
    return {
      ...live.counters,
      'matched.rate': rate,
      'matched.rate.max': live.rateMax,
      'matched.rate.last5m': Math.round((last5m / 300) * 100) / 100,
    };
  }

  /** GET /rules/{id}/metrics: node 1 counts real evaluations; the other nodes run nothing. */
  metrics(id: string): { id: string; metrics: RuleMetrics; node_metrics: { node: string; metrics: RuleMetrics }[] } {
    const own = this.metricsOf(id);
    const empty = { ...zero(), 'matched.rate': 0, 'matched.rate.max': 0, 'matched.rate.last5m': 0 };
    return {
      id,
      metrics: own,
      node_metrics: this.nodes().map((node) => ({ node, metrics: node === this.self ? own : { ...empty } })),
    };
  }

  resetMetrics(id: string): void {
    this.live.delete(id);
  }

  // ---- evaluation ----

  /** Enabled rules whose FROM covers a topic (a message topic or `$events/...`). */
  matching(topic: string): RuleRecord[] {
    const records = this.records;
    if (records.length === 0) return [];
    if (topic.startsWith('$SYS/') && this.settings().ignore_sys_message) return [];
    // Rules are replaced, never changed in place: a new list starts a new cache.
    if (this.matchedFor !== records) {
      this.matchedFor = records;
      this.matched.clear();
    }
    let hit = this.matched.get(topic);
    if (!hit) {
      hit = records.filter((r) => {
        if (!r.enable) return false;
        const stmt = this.statement(r);
        return stmt !== null && fromMatches(stmt.from, topic);
      });
      // At most 10,000 topics of at most 1,024 characters: the cache holds 20 MB at worst however
      // long the topics clients publish to (up to 65,535 bytes each) are.
      if (topic.length <= MATCHED_TOPIC_LENGTH) {
        if (this.matched.size >= 10_000) this.matched.clear();
        this.matched.set(topic, hit);
      }
    }
    return hit;
  }

  /** Evaluates one rule for live data and counts it; the outputs, or null when nothing passed. */
  apply(rule: RuleRecord, columns: Obj): Obj[] | null {
    const stmt = this.statement(rule);
    if (!stmt) return null;
    this.count(rule.id, 'matched');
    try {
      const outputs = evaluate(stmt, columns, this.liveContext);
      if (!outputs || outputs.length === 0) {
        this.count(rule.id, 'failed', 'failed.no_result');
        return null;
      }
      this.count(rule.id, 'passed');
      return outputs;
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      this.count(rule.id, 'failed', 'failed.exception');
      return null;
    }
  }

  /**
   * The columns and the topic of a test: the event's example columns under the given context,
   * and the topic (or `$events/…` name) the FROM list is checked against.
   */
  private testInput(stmt: Statement, context: Obj): { columns: Obj; topic: string; now: number } {
    const type = context.event_type;
    const def = typeof type === 'string' ? eventByType(type) : null;
    if (typeof type !== 'string' || !def) throw apiError(400, 'BAD_REQUEST', 'unknown event type');
    const now = this.ctx.clock.now();
    const { event_type: _ignored, ...given } = context;
    const columns: Obj = { ...exampleColumns(type, now), ...given };
    let topic: string;
    if (type === 'message_publish') topic = String(columns.topic ?? '');
    else if (type.startsWith('$bridges/')) {
      topic = stmt.from.find((f) => f.startsWith(type.slice(0, -1))) ?? type;
    } else topic = `$events/${type}`;
    return { columns, topic, now };
  }

  /**
   * POST /rule_test: fills the context from the event's example columns, checks the FROM list
   * against the context's topic or event, and evaluates like live data (without counting).
   */
  test(sql: string, context: Obj): Obj | Obj[] {
    const stmt = this.check(sql);
    const { columns, topic, now } = this.testInput(stmt, context);
    if (!fromMatches(stmt.from, topic)) throw apiError(412, 'NOT_MATCH', 'SQL Not Match');
    let outputs: Obj[] | null;
    try {
      outputs = evaluate(stmt, columns, { now: () => now, schemas: this.schemas });
    } catch (err) {
      if (err instanceof EvalError) throw apiError(400, 'BAD_REQUEST', `{select_and_transform_error, ${err.message}}`);
      throw err;
    }
    if (!outputs) throw apiError(412, 'NOT_MATCH', 'SQL Not Match');
    return stmt.kind === 'foreach' ? outputs : outputs[0];
  }

  /**
   * POST /rules/{id}/test (5.7 on): the stored rule applied to a test context as to live data
   * (emqx_rule_sqltester.erl apply_rule, emqx_rule_runtime.erl apply_rule, v5.8.9): 404
   * RULE_NOT_FOUND, 412 NOT_MATCH when the topic is not in FROM or the WHERE refuses; the rule's
   * metrics count it (matched, passed or failed.no_result, actions). With
   * `stop_action_after_template_rendering` (the default) an action stops once its templates are
   * rendered and counts as failed.unknown; the console output has no template and runs. The
   * answer holds one result per action (per output for FOREACH), `ok` as handle_action returns.
   */
  applyTest(id: string, context: Obj, stopAfterRender: boolean): unknown[] {
    const rule = this.get(id);
    if (!rule) throw apiError(404, 'RULE_NOT_FOUND', 'The rule could not be found');
    const stmt = this.statement(rule);
    if (!stmt) throw apiError(400, 'BAD_REQUEST', 'rule SQL does not parse');
    const { columns, topic } = this.testInput(stmt, context);
    if (!fromMatches(stmt.from, topic)) throw apiError(412, 'NOT_MATCH', 'SQL Not Match');
    const outputs = this.apply(rule, columns);
    if (!outputs) throw apiError(412, 'NOT_MATCH', 'SQL Not Match');
    const results = outputs.map((output) => rule.actions.map((action) => {
      const console = typeof action === 'object' && action.function === 'console';
      if (stopAfterRender && !console) this.countAction(rule.id, 'failed');
      else this.runAction(rule, action, output, columns);
      return 'ok';
    }));
    return stmt.kind === 'foreach' ? results : results[0];
  }
}
