// Actions (sinks) and sources (emqx_bridge_v2): the persisted `actions|sources.<type>.<name>`
// configs bound to a connector by name, their status derived from the connector's, live metrics
// of §4.5, the rule guard on delete, and the data path: a rule output `type:name` runs the
// action (a real HTTP request, a publish on the remote MQTT broker), and an MQTT source's
// messages enter the rule engine as `$bridges/mqtt:<name>`.
import { apiError } from '../../plugins/errors.ts';
import { HttpConnector } from '../../connectors/http.ts';
import { MqttConnector } from '../../connectors/mqtt.ts';
import { render, renderValue } from '../../rules/template.ts';
import type { Obj } from '../../rules/values.ts';
import { clone, invalid, redact, restoreSecrets } from '../access/auth-common.ts';
import {
  bodyConfig, checkName, CATALOGUE_CONNECTORS, fillDefaults, parseId, referenceTypes, typeFields,
  type ChannelUsers, type Connectors, type Json, type ResourceStatus,
} from './connectors.ts';
import { SELF_NODE } from '../cluster/cluster.ts';
import type { StoreContext } from '../context.ts';
import { entryFields, refuseUnknownFields } from '../config/schema-check.ts';
import { topicFilterProblem } from '../../lib/topic.ts';
import type { ActionOutcome, Rules } from './rules.ts';

export type ChannelKind = 'actions' | 'sources';

export interface ChannelRecord {
  type: string;
  name: string;
  config: Json;
  created_at: number;
  last_modified_at: number;
}

const METRIC_KEYS = [
  'matched', 'success', 'failed', 'dropped', 'dropped.other', 'dropped.expired', 'dropped.queue_full',
  'dropped.resource_not_found', 'dropped.resource_stopped', 'queuing', 'queuing_bytes', 'inflight',
  'retried', 'late_reply', 'received',
] as const;
type MetricKey = (typeof METRIC_KEYS)[number];

interface Live {
  counts: Record<MetricKey, number>;
  seconds: Map<number, number>;
  rateMax: number;
}

// Source types of the catalogue (part2 §4.7); action types are the connector types that have one.
const CATALOGUE_SOURCES = ['mqtt', 'kafka_consumer', 'gcp_pubsub_consumer', 'rabbitmq'];
const NO_ACTION = ['kafka_consumer', 'gcp_pubsub_consumer', 'syskeeper_proxy'];

/** The connector type an action/source type binds to (1:1 in the catalogue). */
function connectorType(type: string): string {
  return type;
}

const zero = () => Object.fromEntries(METRIC_KEYS.map((k) => [k, 0])) as Record<MetricKey, number>;

export class Channels implements ChannelUsers {
  private readonly live = new Map<string, Live>();
  /** Where source messages go (`$bridges/<type>:<name>`, columns); set by the rule engine. */
  ingress: (from: string, columns: Obj) => void = () => {};

  constructor(
    private readonly ctx: StoreContext,
    readonly kind: ChannelKind,
    private readonly connectors: Connectors,
    private readonly rules: Rules,
    private readonly nodes: () => string[],
  ) {}

  private get records(): ChannelRecord[] {
    return this.ctx.state[this.kind] ?? [];
  }

  private get label(): string {
    return this.kind === 'actions' ? 'bridge' : 'source';
  }

  list(): ChannelRecord[] {
    return this.records;
  }

  types(): string[] {
    const known = new Set([...referenceTypes(this.kind), ...(this.kind === 'sources' ? CATALOGUE_SOURCES : CATALOGUE_CONNECTORS.filter((t) => !NO_ACTION.includes(t)))]);
    return [...known];
  }

  get(type: string, name: string): ChannelRecord | undefined {
    return this.records.find((r) => r.type === type && r.name === name);
  }

  find(id: string): ChannelRecord {
    const parsed = parseId(id.replace(/^webhook:/, 'http:'));
    if (!parsed) throw apiError(404, 'NOT_FOUND', `Invalid bridge ID, it should be {type}:{name}: ${id}`);
    const record = this.get(parsed.type, parsed.name);
    if (!record) throw apiError(404, 'NOT_FOUND', `Bridge lookup failed: bridge named '${parsed.name}' of type ${parsed.type} does not exist.`);
    return record;
  }

  /** Checks a config: a known type, a connector of the matching type, the required parameters. */
  validate(type: string, config: Json): Json {
    const fields = typeFields(this.kind, type);
    if (!fields && !this.types().includes(type)) throw invalid(`unknown ${this.label} type: ${type}`, 'type', type);
    // The release's schema of the type refuses a field it lacks (emqx_bridge_v2_schema.erl
    // api_schema/2, a hocon struct); `enable` is ?IMPORTANCE_NO_DOC from 5.8, so not in the dumps.
    const tree = entryFields(this.ctx.profile.version, this.kind, type);
    if (tree) refuseUnknownFields(tree, config, ['enable']);
    const connector = config.connector;
    if (typeof connector !== 'string' || !this.connectors.get(connectorType(type), connector)) {
      throw invalid('connector_not_found_or_wrong_type', `${this.kind}.${type}.connector`, connector);
    }
    const params = config.parameters;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) throw invalid('bad_parameters', 'parameters', params);
    if (type === 'mqtt' && (typeof (params as Json | undefined)?.topic !== 'string' || !(params as Json).topic)) {
      throw invalid('required_field', `${this.kind}.mqtt.parameters.topic`);
    }
    if (type === 'mqtt' && this.kind === 'sources') {
      const problem = topicFilterProblem(String((params as Json).topic));
      if (problem) throw invalid(problem, 'sources.mqtt.parameters.topic', (params as Json).topic);
    }
    if (config.enable !== undefined && typeof config.enable !== 'boolean') throw invalid('bad_boolean', 'enable', config.enable);
    return fields ? fillDefaults(fields, config) : config;
  }

  usersOf(type: string, name: string): string[] {
    return this.records.filter((r) => connectorType(r.type) === type && r.config.connector === name).map((r) => r.name);
  }

  /** Ids of the rules using a channel: as an output (actions) or in FROM (sources). */
  rulesOf(record: ChannelRecord): string[] {
    const id = `${record.type}:${record.name}`;
    const ids = this.rules.list().filter((rule) => this.kind === 'actions'
      ? rule.actions.some((a) => typeof a === 'string' && (a === id || (record.type === 'http' && a === `webhook:${record.name}`)))
      : this.rules.from(rule).some((f) => f === `$bridges/${id}` || f === `$sources/${id}`)).map((r) => r.id);
    return ids.sort();
  }

  private async status(record: ChannelRecord): Promise<{ status: ResourceStatus; reason: string }> {
    if (record.config.enable === false) return { status: 'disconnected', reason: 'Not installed' };
    const connector = this.connectors.get(connectorType(record.type), String(record.config.connector));
    if (!connector) return { status: 'disconnected', reason: 'Not installed' };
    const health = await this.connectors.health(connector);
    if (health.status === 'connected') return { status: 'connected', reason: '' };
    if (health.status === 'connecting') return { status: 'connecting', reason: 'Not installed' };
    return { status: 'disconnected', reason: 'Resource not operational' };
  }

  private statusFields(status: ResourceStatus, reason: string): Json {
    return {
      status,
      status_reason: reason,
      error: reason,
      node_status: this.nodes().map((node) => ({ node, status, status_reason: reason })),
    };
  }

  async view(record: ChannelRecord): Promise<Json> {
    const config = this.validateStored(record);
    const { status, reason } = await this.status(record);
    return {
      type: record.type, name: record.name, description: '', enable: true, ...(redact(config) as Json),
      created_at: record.created_at, last_modified_at: record.last_modified_at,
      ...this.statusFields(status, reason),
      rules: this.rulesOf(record),
    };
  }

  async summary(record: ChannelRecord): Promise<Json> {
    const { status, reason } = await this.status(record);
    const { node_status } = this.statusFields(status, reason);
    return {
      type: record.type, name: record.name, enable: record.config.enable !== false, description: record.config.description ?? '',
      created_at: record.created_at, last_modified_at: record.last_modified_at, status, status_reason: reason, node_status, rules: this.rulesOf(record),
    };
  }

  private validateStored(record: ChannelRecord): Json {
    const fields = typeFields(this.kind, record.type);
    return fields ? fillDefaults(fields, record.config) : clone(record.config);
  }

  private async save(record: ChannelRecord): Promise<void> {
    const list = [...this.records];
    const at = list.findIndex((r) => r.type === record.type && r.name === record.name);
    if (at >= 0) list[at] = record;
    else list.push(record);
    this.ctx.state[this.kind] = list;
    await this.ctx.persist();
    this.install(record);
  }

  async create(body: Json): Promise<ChannelRecord> {
    const type = String(body.type ?? '') === 'webhook' ? 'http' : String(body.type ?? '');
    const name = checkName(body.name);
    const config = bodyConfig(body);
    this.validate(type, config);
    if (this.get(type, name)) throw apiError(400, 'ALREADY_EXISTS', 'bridge already exists');
    const now = this.ctx.clock.now();
    const record: ChannelRecord = { type, name, config, created_at: now, last_modified_at: now };
    await this.save(record);
    return record;
  }

  async update(id: string, body: Json): Promise<ChannelRecord> {
    const existing = this.find(id);
    const config = restoreSecrets(bodyConfig(body), existing.config) as Json;
    this.validate(existing.type, config);
    const record: ChannelRecord = { ...existing, config, last_modified_at: this.ctx.clock.now() };
    await this.save(record);
    return record;
  }

  /** DELETE: refused while rules use it, unless those references are to be removed too. */
  async remove(id: string, alsoDeleteDeps: boolean): Promise<{ refusedBy?: string[] }> {
    const record = this.find(id);
    const users = this.rulesOf(record);
    if (users.length && !alsoDeleteDeps) return { refusedBy: users };
    if (this.kind === 'actions') {
      const ids = [`${record.type}:${record.name}`, `webhook:${record.name}`];
      for (const ruleId of users) {
        const rule = this.rules.get(ruleId);
        if (rule) await this.rules.update(ruleId, { actions: rule.actions.filter((a) => typeof a !== 'string' || !ids.includes(a)) });
      }
    }
    this.ctx.state[this.kind] = this.records.filter((r) => r !== record);
    await this.ctx.persist();
    this.uninstall(record);
    this.live.delete(`${record.type}:${record.name}`);
    return {};
  }

  async enable(id: string, enable: boolean): Promise<void> {
    const record = this.find(id);
    await this.save({ ...record, config: { ...record.config, enable }, last_modified_at: this.ctx.clock.now() });
  }

  async start(id: string): Promise<void> {
    const record = this.find(id);
    const connector = this.connectors.get(connectorType(record.type), String(record.config.connector));
    if (record.config.enable === false || connector?.config.enable === false) throw apiError(400, 'BAD_REQUEST', 'Forbidden operation, bridge not enabled');
    this.install(record);
  }

  /** POST /actions_probe: validates and requires the connector to be reachable. */
  async probe(body: Json): Promise<void> {
    const type = String(body.type ?? '') === 'webhook' ? 'http' : String(body.type ?? '');
    const name = checkName(body.name);
    let config = bodyConfig(body);
    const stored = this.get(type, name);
    if (stored) config = restoreSecrets(config, stored.config) as Json;
    this.validate(type, config);
    const connector = this.connectors.get(connectorType(type), String(config.connector))!;
    const health = await this.connectors.health(connector);
    if (health.status !== 'connected') throw apiError(400, 'TEST_FAILED', health.reason || `connector ${health.status}`);
  }

  // ---- sources: subscriptions on the connector ----

  private install(record: ChannelRecord): void {
    if (this.kind !== 'sources') return;
    const runtime = this.connectors.runtime(connectorType(record.type), String(record.config.connector));
    const id = `${record.type}:${record.name}`;
    if (!(runtime instanceof MqttConnector)) return;
    runtime.unsubscribe(id);
    if (record.config.enable === false) return;
    const params = (record.config.parameters ?? {}) as Json;
    const qos = Number(params.qos ?? 1);
    runtime.subscribe(id, String(params.topic), (qos === 0 || qos === 2 ? qos : 1), (columns) => {
      const current = this.get(record.type, record.name);
      if (!current || current.config.enable === false) return;
      this.count(id, 'received');
      this.count(id, 'matched');
      this.ingress(`$bridges/${id}`, columns);
    });
  }

  private uninstall(record: ChannelRecord): void {
    const runtime = this.connectors.runtime(connectorType(record.type), String(record.config.connector));
    if (runtime instanceof MqttConnector) runtime.unsubscribe(`${record.type}:${record.name}`);
  }

  reinstall(type: string, name: string): void {
    for (const record of this.records) if (connectorType(record.type) === type && record.config.connector === name) this.install(record);
  }

  // ---- actions: the data path of a rule output ----

  /** Runs one rule output through the action `id`; the outcome the rule counts. */
  async run(id: string, output: Obj): Promise<ActionOutcome> {
    const parsed = parseId(id.replace(/^webhook:/, 'http:'));
    const record = parsed && this.get(parsed.type, parsed.name);
    if (!record) return 'out_of_service';
    const key = `${record.type}:${record.name}`;
    const connector = this.connectors.get(connectorType(record.type), String(record.config.connector));
    if (record.config.enable === false || !connector || connector.config.enable === false) return 'out_of_service';
    this.count(key, 'matched');
    const runtime = this.connectors.runtime(connector.type, connector.name);
    if (!runtime) {
      this.count(key, 'dropped', 'dropped.resource_stopped');
      return 'out_of_service';
    }
    const config = this.validateStored(record);
    const params = (config.parameters ?? {}) as Json;
    const live = this.liveOf(key);
    live.counts.inflight++;
    try {
      if (runtime instanceof HttpConnector) {
        const result = await runtime.send(params, (config.resource_opts ?? {}) as Json, output);
        for (let i = 0; i < result.retried; i++) this.count(key, 'retried');
        this.count(key, result.ok ? 'success' : 'failed');
        return result.ok ? 'success' : 'failed';
      }
      if (runtime instanceof MqttConnector) {
        const topic = render(String(params.topic ?? ''), output);
        const payload = typeof params.payload === 'string' && params.payload !== '' ? render(params.payload, output) : JSON.stringify(output);
        const qosValue = Number(renderValue(params.qos ?? 1, output));
        const retainValue = renderValue(params.retain ?? false, output);
        await runtime.publish(topic, payload, (qosValue === 0 || qosValue === 2 ? qosValue : 1), retainValue === true || retainValue === 'true');
        this.count(key, 'success');
        return 'success';
      }
      // Other types are stored and probed, not spoken to.
      this.count(key, 'dropped', 'dropped.other');
      return 'out_of_service';
    } catch {
      this.count(key, 'failed');
      return 'failed';
    } finally {
      live.counts.inflight--;
    }
  }

  // ---- metrics ----

  private liveOf(id: string): Live {
    let live = this.live.get(id);
    if (!live) this.live.set(id, (live = { counts: zero(), seconds: new Map(), rateMax: 0 }));
    return live;
  }

  private count(id: string, ...keys: MetricKey[]): void {
    const live = this.liveOf(id);
    for (const key of keys) live.counts[key]++;
    if (keys.includes('matched')) {
      const second = Math.floor(this.ctx.clock.now() / 1000);
      live.seconds.set(second, (live.seconds.get(second) ?? 0) + 1);
      for (const s of live.seconds.keys()) if (s < second - 300) live.seconds.delete(s);
    }
  }

  private snapshot(id: string): Json {
    const live = this.liveOf(id);
    const second = Math.floor(this.ctx.clock.now() / 1000);
    let recent = 0;
    let last5m = 0;
    for (const [s, n] of live.seconds) {
      if (s > second - 300) last5m += n;
      if (s > second - 5) recent += n;
    }
    const rate = Math.round((recent / 5) * 100) / 100;
    live.rateMax = Math.max(live.rateMax, rate);
    return { ...live.counts, rate, rate_max: live.rateMax, rate_last5m: Math.round((last5m / 300) * 100) / 100 };
  }

  /** GET /{kind}/{id}/metrics: this node counts real traffic, the other nodes report zeros. */
  metrics(id: string): Json {
    const record = this.find(id);
    const key = `${record.type}:${record.name}`;
    const own = this.snapshot(key);
    const empty = { ...zero(), rate: 0, rate_max: 0, rate_last5m: 0 };
    const self = SELF_NODE;
    return { metrics: own, node_metrics: this.nodes().map((node) => ({ node, metrics: node === self ? own : { ...empty } })) };
  }

  resetMetrics(id: string): void {
    const parsed = parseId(id.replace(/^webhook:/, 'http:'));
    if (!parsed) throw apiError(404, 'NOT_FOUND', `Invalid bridge ID, it should be {type}:{name}: ${id}`);
    const key = `${parsed.type}:${parsed.name}`;
    const inflight = this.live.get(key)?.counts.inflight ?? 0;
    this.live.delete(key);
    if (inflight) this.liveOf(key).counts.inflight = inflight;
  }
}
