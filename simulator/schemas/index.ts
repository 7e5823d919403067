// The four documents of GET /schemas/{hotconf,connectors,actions,bridges} (emqx-api-part2.md §4.10),
// generated once from the config-schema reference and kept in memory. Component keys follow the
// broker's convention `<namespace>.<struct>`, with the per-type exceptions the dashboard relies on.
import { readFileSync } from 'node:fs';
import { SchemaBuilder, type ObjectSchema, type Prop, type RefField } from './convert.ts';

const FIXTURE = new URL('../../fixtures/emqx-5.5-config-schema.json', import.meta.url);

export type SchemaName = 'hotconf' | 'connectors' | 'actions' | 'bridges';
export const SCHEMA_NAMES: SchemaName[] = ['hotconf', 'connectors', 'actions', 'bridges'];

export interface SchemaDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Prop>>;
  components: { schemas: Record<string, ObjectSchema> };
}

const TITLES: Record<SchemaName, string> = {
  hotconf: 'Hot Conf Schema',
  bridges: 'Data Bridge Schema',
  actions: 'Actions and Sources Schema',
  connectors: 'Connectors Schema',
};

/** Config roots of hotconf and the namespace of their schema module (emqx_schema is `broker`). */
const HOTCONF_ROOTS: Record<string, string> = {
  mqtt: 'broker', flapping_detect: 'broker', force_shutdown: 'broker', force_gc: 'broker',
  sys_topics: 'broker', sysmon: 'broker', alarm: 'broker', log: 'emqx', dashboard: 'dashboard',
  retainer: 'retainer', prometheus: 'prometheus', opentelemetry: 'opentelemetry',
};

/** Namespaces differing from `bridge_<type>` (part2 §4.10 table); `:` marks the bare `.post` keys. */
const CONNECTOR_NS: Record<string, string> = {
  http: 'bridge_http', mqtt: 'connector_mqtt', kafka_producer: 'bridge_kafka',
  azure_event_hub_producer: 'bridge_azure_event_hub', confluent_producer: 'confluent',
  gcp_pubsub_producer: 'gcp_pubsub_producer', pgsql: 'connector_postgres', redis: 'redis',
  syskeeper_forwarder: 'syskeeper_forwarder:', syskeeper_proxy: 'connector_syskeeper_proxy:',
  elasticsearch: 'elasticsearch:', iotdb: 'iotdb:restapi',
};
const ACTION_NS: Record<string, string> = {
  http: 'bridge_http', mqtt: 'bridge_mqtt_publisher', kafka_producer: 'bridge_kafka',
  azure_event_hub_producer: 'bridge_azure_event_hub', confluent_producer: 'confluent',
  gcp_pubsub_producer: 'gcp_pubsub_producer', redis: 'redis', syskeeper_forwarder: 'syskeeper',
};
const SOURCE_NS: Record<string, string> = { mqtt: 'bridge_mqtt_publisher' };

/**
 * Connector fields the source marks `deprecated => {since, …}`, which emqx_dashboard_swagger leaves
 * out of /schemas while the dump lists them (v5.5.1, e5.8.9): emqx_bridge_http_connector.erl
 * retry_interval (5.0.4), emqx_bridge_http_schema.erl mark_request_field_deperecated `request`
 * (5.3.2), emqx_bridge_mqtt_connector_schema.erl `mode` (5.1.0) and `reconnect_interval` (5.0.16).
 */
const DEPRECATED_CONNECTOR_FIELDS: Record<string, readonly string[]> = {
  http: ['retry_interval', 'request'],
  mqtt: ['mode', 'reconnect_interval'],
};

/** `<ns>.<method>_<kind>`, or `<ns>.<method>[_variant]` for the `ns:variant` exceptions. */
function keyOf(table: Record<string, string>, type: string, method: string, kind: string): string {
  const entry = table[type] ?? `bridge_${type}`;
  const [ns, variant] = entry.split(':');
  if (variant === undefined) return `${ns}.${method}_${kind}`;
  return `${ns}.${method}${variant ? `_${variant}` : ''}`;
}

function loadReference(): RefField[] {
  return (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { fields: RefField[] }).fields;
}

/** The per-type entries of a `Map($name->Struct(x))` root such as `connectors`. */
function typesOf(root: RefField | undefined): { type: string; fields: RefField[] }[] {
  return (root?.refs?.[0]?.fields ?? []).map((field) => ({ type: field.text, fields: field.refs?.[0]?.fields ?? [] }));
}

const enumOf = (value: string): Prop => ({ type: 'enum', symbols: [value] });
const STATUS: Record<string, Prop> = {
  status: { type: 'enum', symbols: ['connected', 'disconnected', 'connecting', 'inconsistent', 'stopped'] },
  status_reason: { type: 'string' },
  node_status: { type: 'array', items: { type: 'object', properties: { node: { type: 'string' }, status: { type: 'string' }, status_reason: { type: 'string' } } } },
};

/**
 * get/post/put components of every type of one root (connectors, actions, sources, bridges) and
 * the `oneOf` list of the get components for the paths.
 */
function typedComponents(builder: SchemaBuilder, root: RefField | undefined, table: Record<string, string>, kind: string): Prop[] {
  const gets: Prop[] = [];
  for (const { type, fields: all } of typesOf(root)) {
    const hidden = kind === 'connector' ? DEPRECATED_CONNECTOR_FIELDS[type] ?? [] : [];
    const fields = all.filter((f) => !hidden.includes(f.text));
    const ns = keyOf(table, type, 'get', kind).split('.')[0];
    const named = { type: enumOf(type), name: { type: 'string' } };
    const key = (method: string) => keyOf(table, type, method, kind).slice(ns.length + 1);
    gets.push(builder.ref(builder.component(ns, key('get'), fields, { ...named, ...STATUS })));
    builder.component(ns, key('post'), fields, named, ['type', 'name']);
    builder.component(ns, key('put'), fields);
  }
  return gets;
}

function listPaths(base: string, gets: Prop[]): Record<string, Record<string, Prop>> {
  if (gets.length === 0) return {};
  return {
    [`/${base}`]: { get: { type: 'array', items: { oneOf: gets } } },
    [`/${base}/:id`]: { get: { oneOf: gets } },
  };
}

function build(name: SchemaName, fields: RefField[]): SchemaDocument {
  const root = Object.fromEntries(fields.map((f) => [f.text, f]));
  const builder = new SchemaBuilder();
  let paths: Record<string, Record<string, Prop>> = {};
  if (name === 'hotconf') {
    const refs: Record<string, Prop> = {};
    for (const [key, ns] of Object.entries(HOTCONF_ROOTS)) if (root[key]) refs[key] = builder.property(ns, root[key]);
    // The limiter short paths of a listener (max_conn_rate, messages_rate, bytes_rate).
    const tcp = root.listeners?.refs?.[0]?.fields.find((f) => f.text === 'tcp')?.refs?.[0]?.fields ?? [];
    const rates = tcp.filter((f) => ['max_conn_rate', 'messages_rate', 'bytes_rate'].includes(f.text));
    refs.limiter = builder.ref(builder.component('limiter', 'limiter', rates));
    const zone = ['mqtt', 'flapping_detect', 'force_shutdown', 'force_gc'];
    paths['/configs/global_zone'] = { get: { type: 'object', properties: Object.fromEntries(zone.map((k) => [k, refs[k]])) } };
    for (const key of ['sys_topics', 'sysmon', 'alarm', 'log', 'dashboard', 'limiter']) paths[`/configs/${key}`] = { get: refs[key] };
    paths['/mqtt/retainer'] = { get: refs.retainer };
    paths['/prometheus'] = { get: refs.prometheus };
    paths['/opentelemetry'] = { get: refs.opentelemetry };
  } else if (name === 'connectors') {
    paths = listPaths('connectors', typedComponents(builder, root.connectors, CONNECTOR_NS, 'connector'));
  } else if (name === 'actions') {
    paths = {
      ...listPaths('actions', typedComponents(builder, root.actions, ACTION_NS, 'bridge_v2')),
      ...listPaths('sources', typedComponents(builder, root.sources, SOURCE_NS, 'source')),
    };
  } else {
    // Legacy v1 bridges: `bridge_<type>.{get,post,put}`.
    const table = Object.fromEntries(typesOf(root.bridges).map(({ type }) => [type, `bridge_${type}:`]));
    paths = listPaths('bridges', typedComponents(builder, root.bridges, table, ''));
  }
  return { info: { title: TITLES[name], version: '0.2.0' }, paths, components: { schemas: builder.schemas } };
}

let cache: Map<SchemaName, string> | undefined;

/** The serialized document (built for all four names on first use, then kept). */
export function schemaDocument(name: SchemaName): string {
  if (!cache) {
    const fields = loadReference();
    cache = new Map(SCHEMA_NAMES.map((n) => [n, JSON.stringify(build(n, fields))]));
  }
  return cache.get(name)!;
}
