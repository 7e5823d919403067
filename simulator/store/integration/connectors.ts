// Connectors (emqx_connector): the persisted `connectors.<type>.<name>` configs with their schema
// defaults, a running runtime per enabled connector (a real HTTP target, a real MQTT client, or a
// TCP probe for the other types), the status derived from it, the `******` secret merge, the
// delete guard against channels still using a connector, and the dry-run probe.
import { readFileSync } from 'node:fs';
import { HttpConnector } from '../../connectors/http.ts';
import { MqttConnector, probeMqtt } from '../../connectors/mqtt.ts';
import { ProbeConnector, probeConfig, type ConnectorRuntime, type Health } from '../../connectors/probe.ts';
import { apiError } from '../../plugins/errors.ts';
import { parseDefault, parseType, type RefField } from '../../schemas/convert.ts';
import { clone, invalid, redact, restoreSecrets } from '../access/auth-common.ts';
import type { StoreContext } from '../context.ts';
import { entryFields, refuseUnknownFields } from '../config/schema-check.ts';

export type Json = Record<string, unknown>;

export interface ConnectorRecord {
  type: string;
  name: string;
  /** The stored config (without type and name). */
  config: Json;
}

export type ResourceStatus = 'connected' | 'connecting' | 'disconnected' | 'stopped' | 'inconsistent';

const FIXTURE = new URL('../../../fixtures/emqx-5.5-config-schema.json', import.meta.url);
let reference: Record<string, RefField> | undefined;

/** The roots of the config-schema reference (`connectors`, `actions`, `sources`), loaded once. */
function root(name: string): RefField | undefined {
  if (!reference) {
    const fields = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { fields: RefField[] }).fields;
    reference = Object.fromEntries(fields.map((f) => [f.text, f]));
  }
  return reference[name];
}

/** The fields of `<root>.<type>` in the reference, or null for an unknown type. */
export function typeFields(rootName: string, type: string): RefField[] | null {
  const entry = root(rootName)?.refs?.[0]?.fields.find((f) => f.text === type);
  return entry ? entry.refs?.[0]?.fields ?? [] : null;
}

export function referenceTypes(rootName: string): string[] {
  return (root(rootName)?.refs?.[0]?.fields ?? []).map((f) => f.text);
}

const HTTP_HEADERS = {
  accept: 'application/json', 'cache-control': 'no-cache', connection: 'keep-alive',
  'content-type': 'application/json', 'keep-alive': 'timeout=5',
};

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` with the reference defaults filled in, recursively through structs. */
export function fillDefaults(fields: RefField[], value: Json): Json {
  const out: Json = clone(value);
  for (const field of fields) {
    const node = parseType(field.type);
    const struct = node.name === 'Struct' ? field.refs?.[0]?.fields : undefined;
    const have = out[field.text];
    if (have !== undefined) {
      if (struct && isObject(have)) out[field.text] = fillDefaults(struct, have);
      continue;
    }
    if (field.default === undefined) continue;
    if (struct) out[field.text] = fillDefaults(struct, {});
    else if (node.name === 'Map' && field.text === 'headers') out[field.text] = { ...HTTP_HEADERS };
    else {
      const v = parseDefault(field.default, node);
      if (v !== undefined) out[field.text] = v;
    }
  }
  return out;
}

/** Connector types of the catalogue (part2 §4.7) accepted besides those of the reference. */
export const CATALOGUE_CONNECTORS = [
  'http', 'mqtt', 'kafka_producer', 'kafka_consumer', 'confluent_producer', 'azure_event_hub_producer',
  'gcp_pubsub_producer', 'gcp_pubsub_consumer', 'rabbitmq', 'pulsar', 'rocketmq', 'kinesis', 'hstreamdb',
  'mysql', 'pgsql', 'timescale', 'matrix', 'sqlserver', 'oracle', 'mongodb', 'redis', 'cassandra',
  'clickhouse', 'dynamo', 'couchbase', 'elasticsearch', 'influxdb', 'tdengine', 'iotdb', 'opents',
  'greptimedb', 'datalayers', 'tablestore', 's3', 'azure_blob_storage', 'snowflake', 'syskeeper_forwarder', 'syskeeper_proxy',
];

const NAME = /^[0-9a-zA-Z][-0-9a-zA-Z_]*$/;

/** `type:name` → its parts, or null when malformed. */
export function parseId(id: string): { type: string; name: string } | null {
  const at = id.indexOf(':');
  if (at <= 0) return null;
  const type = id.slice(0, at);
  const name = id.slice(at + 1);
  if (!/^[a-z0-9_]+$/.test(type) || !NAME.test(name) || name.length >= 255) return null;
  return { type, name };
}

export function checkName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name) || name.length >= 255) {
    throw invalid('Invalid name format. The name must begin with a letter or number (0-9, a-z, A-Z) and can only include underscores and hyphens as non-initial characters.', 'name', name);
  }
  return name;
}

// Keys the server ignores in a body (what GET adds).
const READ_ONLY = ['id', 'type', 'name', 'status', 'status_reason', 'node_status', 'node', 'actions', 'sources', 'error', 'rules', 'created_at', 'last_modified_at', 'idForRuleFrom'];

export function bodyConfig(body: Json): Json {
  const out = clone(body);
  for (const key of READ_ONLY) delete out[key];
  return out;
}

/** What the channel stores (actions, sources) tell the connectors. */
export interface ChannelUsers {
  readonly kind: 'actions' | 'sources';
  /** Names of the channels bound to a connector. */
  usersOf(type: string, name: string): string[];
  /** A connector's runtime was (re)started or stopped: re-install its channels. */
  reinstall(type: string, name: string): void;
}

export class Connectors {
  private readonly runtimes = new Map<string, ConnectorRuntime>();
  channels: ChannelUsers[] = [];
  private started = false;

  constructor(private readonly ctx: StoreContext, private readonly nodes: () => string[]) {}

  private get records(): ConnectorRecord[] {
    return this.ctx.state.connectors ?? [];
  }

  list(): ConnectorRecord[] {
    return this.records;
  }

  get(type: string, name: string): ConnectorRecord | undefined {
    return this.records.find((r) => r.type === type && r.name === name);
  }

  /** The record of an id, or the 404 EMQX gives. */
  find(id: string): ConnectorRecord {
    const parsed = parseId(id);
    if (!parsed) throw apiError(404, 'NOT_FOUND', `Invalid connector ID, it should be {type}:{name}: ${id}`);
    const record = this.get(parsed.type, parsed.name);
    if (!record) throw apiError(404, 'NOT_FOUND', `Connector lookup failed: connector named '${parsed.name}' of type ${parsed.type} does not exist.`);
    return record;
  }

  /** Checks a config against its type; returns it with defaults filled. */
  validate(type: string, config: Json): Json {
    const fields = typeFields('connectors', type);
    if (!fields && !CATALOGUE_CONNECTORS.includes(type)) throw invalid(`unknown connector type: ${type}`, 'type', type);
    // The release's schema of the type refuses a field it lacks (emqx_connector_schema.erl
    // api_schema/1, a hocon struct); `enable` is ?IMPORTANCE_NO_DOC from 5.8, so not in the dumps.
    const tree = entryFields(this.ctx.profile.version, 'connectors', type);
    if (tree) refuseUnknownFields(tree, config, ['enable']);
    if (type === 'http') {
      const url = config.url;
      let ok = false;
      try {
        ok = typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
      } catch {
        ok = false;
      }
      if (!ok) throw invalid(url === undefined ? 'required_field' : 'bad_url', 'connectors.http.url', url);
    }
    if (type === 'mqtt' && (typeof config.server !== 'string' || !config.server)) throw invalid('required_field', 'connectors.mqtt.server');
    if (config.enable !== undefined && typeof config.enable !== 'boolean') throw invalid('bad_boolean', 'enable', config.enable);
    return fields ? fillDefaults(fields, config) : config;
  }

  private key(type: string, name: string): string {
    return `${type}:${name}`;
  }

  runtime(type: string, name: string): ConnectorRuntime | undefined {
    return this.runtimes.get(this.key(type, name));
  }

  private build(record: ConnectorRecord): ConnectorRuntime {
    const config = this.validate(record.type, record.config);
    if (record.type === 'http') return new HttpConnector(config);
    if (record.type === 'mqtt') return new MqttConnector(record.name, config);
    return new ProbeConnector(record.type, config);
  }

  /** Stops and (when enabled) starts a connector's runtime, then re-installs its channels. */
  private async restart(record: ConnectorRecord, start = true): Promise<void> {
    const key = this.key(record.type, record.name);
    const old = this.runtimes.get(key);
    this.runtimes.delete(key);
    await old?.close();
    if (start && this.started && record.config.enable !== false) this.runtimes.set(key, this.build(record));
    for (const channels of this.channels) channels.reinstall(record.type, record.name);
  }

  /** Starts every enabled connector (called once the broker is up). */
  async startAll(): Promise<void> {
    this.started = true;
    for (const record of this.records) if (record.config.enable !== false) await this.restart(record);
  }

  async close(): Promise<void> {
    this.started = false;
    const all = [...this.runtimes.values()];
    this.runtimes.clear();
    await Promise.all(all.map((r) => r.close()));
  }

  async health(record: ConnectorRecord): Promise<{ status: ResourceStatus; reason?: string }> {
    if (record.config.enable === false) return { status: 'stopped' };
    const runtime = this.runtime(record.type, record.name);
    if (!runtime) return { status: 'disconnected', reason: 'Not installed' };
    return runtime.health();
  }

  /** GET view: config with defaults, secrets redacted, the status of every node, the channels. */
  async view(record: ConnectorRecord): Promise<Json> {
    const config = this.validate(record.type, record.config);
    const health = await this.health(record);
    const out: Json = { type: record.type, name: record.name, description: '', enable: true, ...(redact(config) as Json) };
    out.status = health.status;
    if (health.reason) out.status_reason = health.reason;
    out.node_status = this.nodes().map((node) => ({ node, status: health.status, ...(health.reason ? { status_reason: health.reason } : {}) }));
    for (const channels of this.channels) out[channels.kind] = channels.usersOf(record.type, record.name);
    return out;
  }

  private async save(record: ConnectorRecord): Promise<void> {
    const list = this.records.filter((r) => !(r.type === record.type && r.name === record.name));
    const at = this.records.findIndex((r) => r.type === record.type && r.name === record.name);
    if (at >= 0) list.splice(at, 0, record);
    else list.push(record);
    this.ctx.state.connectors = list;
    await this.ctx.persist();
  }

  async create(body: Json): Promise<ConnectorRecord> {
    const type = String(body.type ?? '');
    const name = checkName(body.name);
    const config = bodyConfig(body);
    this.validate(type, config);
    if (this.get(type, name)) throw apiError(400, 'ALREADY_EXISTS', 'connector already exists');
    const record: ConnectorRecord = { type, name, config };
    await this.save(record);
    const opts = config.resource_opts as Json | undefined;
    await this.restart(record, opts?.start_after_created !== false);
    return record;
  }

  async update(id: string, body: Json): Promise<ConnectorRecord> {
    const existing = this.find(id);
    const config = restoreSecrets(bodyConfig(body), existing.config) as Json;
    this.validate(existing.type, config);
    const record: ConnectorRecord = { type: existing.type, name: existing.name, config };
    await this.save(record);
    await this.restart(record);
    return record;
  }

  /** Names of the channels still using a connector, by kind (empty when it may go). */
  dependents(record: ConnectorRecord): { actions: string[]; sources: string[] } {
    const out = { actions: [] as string[], sources: [] as string[] };
    for (const channels of this.channels) out[channels.kind] = channels.usersOf(record.type, record.name);
    return out;
  }

  async remove(id: string): Promise<void> {
    const record = this.find(id);
    this.ctx.state.connectors = this.records.filter((r) => r !== record);
    await this.ctx.persist();
    await this.restart(record, false);
  }

  async enable(id: string, enable: boolean): Promise<void> {
    const record = this.find(id);
    const next = { ...record, config: { ...record.config, enable } };
    await this.save(next);
    await this.restart(next);
  }

  /** POST /connectors/{id}/start: reconnects; refused while disabled. */
  async start(id: string): Promise<void> {
    const record = this.find(id);
    if (record.config.enable === false) throw apiError(400, 'BAD_REQUEST', 'Forbidden operation, connector not enabled');
    await this.restart(record);
  }

  /** POST /connectors_probe: a dry run of the config; the reason of a failure as TEST_FAILED. */
  async probe(body: Json): Promise<void> {
    const type = String(body.type ?? '');
    const name = checkName(body.name);
    const stored = this.get(type, name);
    let config = bodyConfig(body);
    if (stored) config = restoreSecrets(config, stored.config) as Json;
    const full = this.validate(type, config);
    const health: Health = type === 'mqtt' ? await probeMqtt(full) : await probeConfig(type, full);
    if (health.status !== 'connected') throw apiError(400, 'TEST_FAILED', health.reason ?? 'unreachable');
  }
}
