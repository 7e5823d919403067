/**
 * What connectors, actions, sources and webhooks share (emqx-api-part2 §4): the type list of the
 * spec, the `post_*` schema component of a type found in the served document, schema defaults
 * for a new object, and the keys the console strips before a write (dash-ee useDataHandler).
 */
import { COMMUNITY_BRIDGE_TYPES, has } from '../../../lib/broker.ts';
import { resolveRef, type SchemaDocument, type SchemaProp } from '../../../lib/schemas.ts';

/** Connector types of spec part2 §3, in its order. */
export const CONNECTOR_TYPES = ['http', 'mqtt', 'influxdb', 'mysql', 'kafka_producer', 'kafka_consumer', 'redis',
  'gcp_pubsub_producer', 'gcp_pubsub_consumer', 'mongodb', 'pgsql', 'timescale', 'matrix', 'tdengine', 'clickhouse',
  'dynamo', 'cassandra', 'sqlserver', 'rocketmq', 'iotdb', 'opents', 'oracle', 'rabbitmq', 'pulsar', 'hstreamdb',
  'azure_event_hub_producer', 'kinesis', 'greptimedb', 'confluent_producer', 'syskeeper_proxy', 'syskeeper_forwarder',
  'elasticsearch'];

/** The connector types this broker offers: all on Enterprise, `http` and `mqtt` on Community. */
export const connectorTypes = () => (has('enterpriseBridges') ? CONNECTOR_TYPES : CONNECTOR_TYPES.filter((type) => COMMUNITY_BRIDGE_TYPES.includes(type)));

/** Console labels of the type catalogue (§4.7). */
export const TYPE_LABELS: Record<string, string> = {
  http: 'HTTP Server', mqtt: 'MQTT Broker', kafka_producer: 'Kafka', kafka_consumer: 'Kafka consumer',
  confluent_producer: 'Confluent', azure_event_hub_producer: 'Azure Event Hubs', gcp_pubsub_producer: 'GCP Pub/Sub',
  gcp_pubsub_consumer: 'GCP Pub/Sub consumer', rabbitmq: 'RabbitMQ', pulsar: 'Pulsar', rocketmq: 'RocketMQ',
  kinesis: 'Amazon Kinesis', hstreamdb: 'HStreamDB', mysql: 'MySQL', pgsql: 'PostgreSQL', timescale: 'TimescaleDB',
  matrix: 'MatrixDB', sqlserver: 'SQL Server', oracle: 'Oracle', mongodb: 'MongoDB', redis: 'Redis', cassandra: 'Cassandra',
  clickhouse: 'ClickHouse', dynamo: 'DynamoDB', elasticsearch: 'Elasticsearch', influxdb: 'InfluxDB', tdengine: 'TDengine',
  iotdb: 'IoTDB', opents: 'OpenTSDB', greptimedb: 'GreptimeDB', syskeeper_forwarder: 'SysKeeper forwarder', syskeeper_proxy: 'SysKeeper proxy',
};
export const typeLabel = (type: string) => TYPE_LABELS[type] ?? type;

export type Kind = 'connectors' | 'actions' | 'sources';

export interface NodeStatus { node: string; status: string; status_reason?: string }

/** A connector, action or source as GET returns it; type-specific config stays in the index signature. */
export interface Bridge {
  type: string;
  name: string;
  enable: boolean;
  description?: string;
  status?: string;
  status_reason?: string;
  node_status?: NodeStatus[];
  connector?: string;
  actions?: string[];
  sources?: string[];
  rules?: string[];
  created_at?: number;
  last_modified_at?: number;
  [key: string]: unknown;
}

export const bridgeId = (b: { type: string; name: string }) => `${b.type}:${b.name}`;
/** `/<kind>/<type>:<name><rest>`; the colon stays readable (names are letters, digits, `-` and `_`). */
export const encodeId = (id: string) => encodeURIComponent(id).replace('%3A', ':');
export const apiPath = (kind: Kind, id: string, rest = '') => `/${kind}/${encodeId(id)}${rest}`;
/** Names of webhook objects (§7); the general pages do not change them (spec part2 §4). */
export const WEBHOOK_SUFFIX = '_WH_D';
export const isWebhook = (name: string) => name.endsWith(WEBHOOK_SUFFIX);

/**
 * The `post_*` component of `type`: the `get` component listed for `/<kind>` whose `type` is that
 * type, with `get` replaced by `post` (so the §4.10 exceptions such as `pulsar.post` follow the server).
 */
export function postComponent(doc: SchemaDocument, kind: Kind, type: string): string | undefined {
  const refs = doc.paths[`/${kind}`]?.get?.items?.oneOf ?? [];
  for (const ref of refs) {
    if (resolveRef(doc, ref).properties?.type?.symbols?.[0] !== type) continue;
    const key = ref.$ref!.replace('#/components/schemas/', '');
    const [ns, struct] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)];
    return `${ns}.${struct.replace(/^get/, 'post')}`;
  }
  return undefined;
}

/** Types of `kind` the document has a form for. */
export function typesIn(doc: SchemaDocument, kind: Kind): string[] {
  return (doc.paths[`/${kind}`]?.get?.items?.oneOf ?? []).map((ref) => resolveRef(doc, ref).properties?.type?.symbols?.[0] ?? '').filter(Boolean);
}

/** The schema defaults of a component as a nested object (what a new object starts from). */
export function defaultsOf(doc: SchemaDocument, prop: SchemaProp): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(resolveRef(doc, prop).properties ?? {})) {
    const p = resolveRef(doc, raw);
    if (p.deprecated) continue;
    if (p.default !== undefined) out[key] = p.default;
    else if (p.type === 'object' && p.properties && !Object.keys(p.properties).some((k) => k.startsWith('$'))) {
      const inner = defaultsOf(doc, p);
      if (Object.keys(inner).length) out[key] = inner;
    }
  }
  return out;
}

// `namespace` (in 6.x answers) says where the object lives: that goes as `ns` in the query (lib/namespace.ts).
const READ_ONLY = ['node_status', 'status', 'status_reason', 'error', 'actions', 'sources', 'id', 'rules', 'created_at', 'last_modified_at', 'namespace'];

/** The body of a POST (`create`) or PUT (no `type`/`name`) without the server's read-only keys. */
export function writeBody(value: Record<string, unknown>, create: boolean): Record<string, unknown> {
  const body = { ...value };
  for (const key of [...READ_ONLY, ...(create ? [] : ['type', 'name'])]) delete body[key];
  return body;
}

/** Schema fields every bridge form leaves out: deprecated HTTP leftovers and the name on edit. */
export const hiddenFields = (create: boolean) => ['request', 'retry_interval', 'tags', 'local_topic', ...(create ? [] : ['name'])];

/** The first free copy name: `<name>_duplication1`, `<name>_duplication2` … (spec part2 §9). */
export function duplicateName(name: string, taken: string[]): string {
  const base = `${name}_duplication`;
  let n = 1;
  while (taken.includes(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}
