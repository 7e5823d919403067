// Writes the per-release data of the broker profiles (fixtures/profiles/<version>/…) from the facts
// in ../shared/reference: the endpoint index of each release (emqx-<version>-api.json, extracted
// from the broker source at its tag) and the config schema dumps. Plain Node, no network, no
// dependencies; `node tools/profiles/generate.mjs` rewrites the files, and
// tests/unit/profile-data.test.ts regenerates them in memory and compares, so the data cannot drift
// from the facts. It records facts only; what the simulator makes of them is simulator/store/profile.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RELEASES = ['5.5.1', '5.8.9', '5.10.4', '6.2.2'];

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const REFERENCE_DIR = path.join(REPO_ROOT, '..', 'shared', 'reference');
export const OUT_DIR = path.join(REPO_ROOT, 'fixtures', 'profiles');

const readJson = (dir, name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8'));

/**
 * The field names a response declares, or null where the index could not expand them (no list,
 * a placeholder name such as `SamplerName`, an unexpanded reference).
 */
function declaredNames(fields) {
  if (!Array.isArray(fields) || fields.length === 0) return null;
  if (fields.some((f) => !/^[a-z_][a-z0-9_.]*$/.test(f.name))) return null;
  return fields.map((f) => f.name);
}

/**
 * One release's routes: `METHOD /path` (the index's own path, parameters as `:name`) → the handler
 * module, `hidden` when the source hides it from the API docs, and the declared fields of the 200
 * answer (`fields`, and `data` for the items of a `data` list) where the index lists them in full.
 * Entries whose method the extractor could not read are kept apart (`methodless`), as the source
 * still serves them; entries it found outside paths() are no routes and are left out.
 */
export function apiData(index) {
  const routes = {};
  const methodless = {};
  for (const entry of index) {
    if (!entry.method) {
      if (!String(entry.note ?? '').includes('not in paths()')) methodless[entry.path] = entry.module;
      continue;
    }
    const row = { module: entry.module };
    if (entry.hidden) row.hidden = true;
    const ok = entry.responses?.['200'] ?? entry.responses?.['201'];
    const top = declaredNames(ok?.fields);
    if (top) {
      row.fields = top;
      const data = ok.fields.find((f) => f.name === 'data');
      if (data?.sub?.length) row.data = data.sub;
    }
    routes[`${entry.method} ${entry.path}`] = row;
  }
  const sorted = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  return { routes: sorted(routes), methodless: sorted(methodless) };
}

// ---- Config trees -----------------------------------------------------------------------------
//
// A tree is the dump's fields with their structs named once: `roots` are the top-level fields,
// `structs` maps a struct's name (the dump's ref `text`, `#2`… where one name has several shapes) to
// its fields. A field is `{ n, t, d?, a?, k?, l?, h?, x?, r? }`: name, dump type text, default text,
// aliases, the typerefl type behind a dump name (`k`, from REFINEMENTS), a validator's bounds (`l`),
// hidden from the docs (`h`), deprecated (`x`), and the structs it refers to (`r`).

/**
 * Where the dump prints one name for several typerefl types, the type the source gives the field
 * (emqx_schema.erl, emqx_limiter_schema.erl and the apps' *_schema.erl at each tag): by struct name
 * and field names, for the releases listed (all when none).
 */
const REFINEMENTS = [
  // emqx_schema.erl fields("sysmon_vm"), fields("sysmon_os"): percent().
  { structs: ['sysmon_vm'], fields: ['process_high_watermark', 'process_low_watermark'], kind: { String: 'percent' } },
  { structs: ['sysmon_os'], fields: ['cpu_high_watermark', 'cpu_low_watermark', 'sysmem_high_watermark', 'procmem_high_watermark'], kind: { String: 'percent' } },
  // emqx_schema.erl fields("force_shutdown") max_heap_size: wordsize().
  { structs: ['force_shutdown'], fields: ['max_heap_size'], kind: { Bytesize: 'wordsize' } },
  // Listener rates: emqx_limiter_schema.erl rate_type() (the short paths up to 5.8; the
  // make_mqtt_limiters_schema/2 `<name>_rate` / `<name>_burst` pairs from 5.10, also under mqtt.limiter).
  { structs: ['mqtt_tcp_listener', 'mqtt_ssl_listener', 'mqtt_ws_listener', 'mqtt_wss_listener', 'mqtt_quic_listener', 'mqtt_shared_limiters'],
    fields: ['max_conn_rate', 'messages_rate', 'bytes_rate', 'delivery_messages_rate', 'delivery_bytes_rate'], kind: { String: 'rate' } },
  { structs: ['mqtt_tcp_listener', 'mqtt_ssl_listener', 'mqtt_ws_listener', 'mqtt_wss_listener', 'mqtt_quic_listener', 'mqtt_shared_limiters'],
    fields: ['max_conn_burst', 'messages_burst', 'bytes_burst', 'delivery_messages_burst', 'delivery_bytes_burst'], kind: { String: 'burst' } },
  // emqx_retainer_schema.erl: delivery_rate, max_publish_rate are rate_type(); msg_clear_interval timeout_duration_ms().
  { structs: ['retainer'], fields: ['delivery_rate', 'max_publish_rate'], kind: { String: 'rate' } },
  { structs: ['retainer'], fields: ['msg_expiry_interval', 'msg_expiry_interval_override'], kind: { Duration: 'duration_ms' } },
  { structs: ['retainer'], fields: ['msg_clear_interval'], kind: { Duration: 'timeout_duration_ms' } },
  // emqx_rule_engine_schema.erl rule_engine_settings/0: jq_function_default_timeout is timeout_duration_ms().
  { structs: ['rule_engine'], fields: ['jq_function_default_timeout'], kind: { Duration: 'timeout_duration_ms' } },
  // emqx_prometheus_schema.erl push_gateway interval; emqx_otel_schema.erl intervals and timeouts.
  { structs: ['push_gateway', 'legacy_deprecated_setting'], fields: ['interval'], kind: { Duration: 'timeout_duration_ms' } },
  { structs: ['otel_metrics'], fields: ['interval'], kind: { Duration: 'timeout_duration_ms' } },
  { structs: ['otel_logs', 'otel_traces'], fields: ['exporting_timeout', 'scheduled_delay'], kind: { Duration: 'timeout_duration_ms' } },
  { structs: ['e2e_tracing_options'], fields: ['sample_ratio'], kind: { String: 'percent' } },
  // emqx_schema.erl fields("durable_sessions") / ("session_persistence"): timeout_duration().
  { structs: ['durable_sessions', 'session_persistence'], fields: ['idle_poll_interval', 'heartbeat_interval', 'last_alive_update_interval', 'renew_streams_interval', 'session_gc_interval', 'subscription_count_refresh_interval', 'disconnected_session_count_refresh_interval', 'message_retention_period'], kind: { Duration: 'timeout_duration' } },
  // emqx_ft_schema.erl timeouts.
  { structs: ['file_transfer'], fields: ['init_timeout', 'store_segment_timeout', 'assemble_timeout'], kind: { Duration: 'timeout_duration_ms' } },
  // `required => {false, recursively}`: not filled in unless given (the dumps do not say it).
  // emqx_schema.erl fields("listeners"); emqx_dashboard_schema.erl listeners and sso;
  // emqx_ft_schema.erl storage and exporter backends; 6.x managed certificates and mqtt.limiter.
  { structs: ['listeners'], fields: ['tcp', 'ssl', 'ws', 'wss', 'quic', 'http', 'https'], optional: true },
  { structs: ['dashboard'], fields: ['sso'], optional: true },
  { structs: ['storage_backend', 'local_storage_exporter_backend'], fields: ['local', 's3'], optional: true },
  { structs: ['ssl', 'ssl_client_opts', 'ssl_options', 'listener_ssl_opts', 'listener_wss_opts', 'listener_quic_ssl_opts'], fields: ['managed_certs'], optional: true, releases: ['6.2.2'] },
  { structs: ['mqtt'], fields: ['limiter'], optional: true, releases: ['5.10.4', '6.2.2'] },
  // emqx_prometheus_schema.erl setting_union_schema/0: a union whose selector takes the
  // recommended setting when every key of the value is one of its fields (is_recommend_type/1);
  // hocon names a member `prometheus:<struct>` (namespace/0).
  { structs: ['<root>'], fields: ['prometheus'], select: 'keys', names: { recommend_setting: 'prometheus:recommend_setting', legacy_deprecated_setting: 'prometheus:legacy_deprecated_setting' } },
  // emqx_retainer_schema.erl retainer_indices(type) -> list(list(integer())): the dump flattens it.
  { structs: ['mnesia_config'], fields: ['index_specs'], type: 'Array(Array(Integer))' },
  // emqx_schema.erl max_packet_size validator: validate_packet_size/1 at e5.5.1 (the limit 256M,
  // one byte over the protocol's), validate_max_packet_size/1 from 5.8 (changes/ce/fix-14405).
  { structs: ['mqtt'], fields: ['max_packet_size'], releases: ['5.5.1'],
    limits: { min: 1, tooSmall: { minimum: 1, reason: 'max_mqtt_packet_size_too_small' }, max: 268435456, tooLarge: { maximum: '256M', reason: 'max_mqtt_packet_size_too_large' } } },
  { structs: ['mqtt'], fields: ['max_packet_size'], releases: ['5.8.9', '5.10.4', '6.2.2'],
    limits: { min: 1, tooSmall: { cause: 'max_mqtt_packet_size_too_small', minimum: 1 }, max: 268435455, tooLarge: { cause: 'max_mqtt_packet_size_too_large', maximum: 268435455 } } },
  // validate_heap_size/1: 2^59 - 1 words at e5.5.1; 128GB from 5.8.5 (changes/ce/breaking-14703).
  { structs: ['force_shutdown'], fields: ['max_heap_size'], releases: ['5.5.1'],
    limits: { max: 2 ** 59 - 1, tooLarge: { maximum: 2 ** 59 - 1, reason: 'max_heap_size_too_large' } } },
  { structs: ['force_shutdown'], fields: ['max_heap_size'], releases: ['5.8.9', '5.10.4', '6.2.2'],
    limits: { max: (128 * 1024 ** 3) / 8, tooLarge: { cause: 'max_heap_size_too_large', maximum: 128 * 1024 ** 3 } } },
];

const field = (n, t, d, extra = {}) => ({ text: n, type: t, ...(d === undefined ? {} : { default: d }), ...extra });

/**
 * 5.8.9 is the 5.8.1 dump with the config changes the changelogs of 5.8.2 to 5.8.9 name
 * (changes/ at tag e5.8.9), each field as the source at e5.8.9 defines it.
 */
const PATCHES_5_8_9 = [
  // changes/v5.8.2.en.md #14059; emqx_retainer_schema.erl: union([disabled, duration_ms()]), default disabled;
  // allow_never_expire (boolean, default true) came with it (commit d2813b12, in e5.8.8).
  { struct: 'retainer', after: 'msg_expiry_interval', add: field('msg_expiry_interval_override', 'OneOf(String("disabled"),Duration)', 'disabled') },
  { struct: 'retainer', after: 'msg_expiry_interval_override', add: field('allow_never_expire', 'Boolean', 'true') },
  // changes/ce/feat-14454.en.md (5.8.5): max_publish_rate, rate_type(), default "1000/s".
  { struct: 'retainer', after: 'delivery_rate', add: field('max_publish_rate', 'String', '"1000/s"') },
  // changes/v5.8.3.en.md: the listener option nolinger (tcp_opts, boolean, default false).
  { struct: 'tcp_opts', after: 'nodelay', add: field('nolinger', 'Boolean', 'false') },
  // changes/v5.8.3.en.md: mqtt.clientid_override, union([disabled, string]), default disabled.
  { struct: 'mqtt', after: 'client_attrs_init', add: field('clientid_override', 'OneOf(String("disabled"),String)', 'disabled') },
  // changes/ce/feat-14723.en.md: push_gateway.method, enum([put, post]), default put.
  { struct: 'push_gateway', after: 'enable', add: field('method', 'Enum(put,post)', 'put') },
];

/**
 * Fields 5.8.9 has and the 5.8.1 dump lacks whose definition at e5.8.9 is the one at 6.2.2, copied
 * from the 6.2.2 dump at the same path: the MQTT connector's `static_clientids` (commit f9c9b36f8b,
 * emqx_bridge_mqtt_connector_schema.erl fields("server_configs"), static_clientid_entry and
 * static_clientid_entry_tuple alike at both tags) and `connect_timeout`
 * (emqx_schema:timeout_duration_s(), default 10s).
 */
const FROM_6_2_2_AT_5_8_9 = [
  { path: ['connectors', 'mqtt'], after: 'clientid_prefix', name: 'static_clientids' },
  { path: ['connectors', 'mqtt'], after: 'keepalive', name: 'connect_timeout' },
];

/** The fields of the struct a path of map entries leads to (`connectors` → `mqtt`). */
function entryStruct(root, [top, ...entries]) {
  let fields = root.find((f) => f.text === top)?.refs?.[0]?.fields;
  for (const name of entries) fields = fields?.find((f) => f.text === name)?.refs?.[0]?.fields;
  if (!fields) throw new Error(`no struct at ${[top, ...entries].join('.')}`);
  return fields;
}

function copyFromNewer(root, newer, rows) {
  for (const row of rows) {
    const fields = entryStruct(root, row.path);
    const copy = entryStruct(newer, row.path).find((f) => f.text === row.name);
    if (!copy) throw new Error(`no ${row.name} at ${row.path.join('.')}`);
    if (fields.some((f) => f.text === row.name)) throw new Error(`${row.path.join('.')} already has ${row.name}`);
    fields.splice(fields.findIndex((f) => f.text === row.after) + 1, 0, clone(copy));
  }
}

/**
 * Fields the source marks `importance => ?IMPORTANCE_NO_DOC` from 5.8 on: left out of the dumps,
 * yet checked and answered as any other (5.5's dump still has them). By struct, first field.
 */
const NO_DOC = [
  // emqx_schema.erl base_listener/1: enable (alias enabled), default true.
  { structs: ['mqtt_tcp_listener', 'mqtt_ssl_listener', 'mqtt_ws_listener', 'mqtt_wss_listener', 'mqtt_quic_listener'], add: field('enable', 'Boolean', 'true', { aliases: ['enabled'] }) },
  // emqx_schema.erl fields("force_shutdown"), fields("force_gc"), fields("authz_cache"): enable, default true.
  { structs: ['force_shutdown', 'force_gc', 'authz_cache'], add: field('enable', 'Boolean', 'true') },
  // emqx_retainer_schema.erl fields("retainer") and fields(mnesia_config): enable, default true.
  { structs: ['retainer', 'mnesia_config'], add: field('enable', 'Boolean', 'true') },
  // emqx_conf_schema.erl log_handler_common_confs/2: the default handler's `enable` is NO_DOC
  // (EMQX_DEFAULT_LOG_HANDLER); a console install leaves the file handler off; the audit handler
  // is off (emqx_enterprise_schema.erl audit `default => #{enable => false}`).
  { structs: ['log_file_handler', 'log_audit_handler'], add: field('enable', 'Boolean', 'false') },
  // emqx_ft_schema.erl common_backend_fields/0: enable, default true.
  { structs: ['local_storage'], add: field('enable', 'Boolean', 'true') },
  // Actions whose connector does not batch keep batch_size and batch_time with
  // `importance => ?IMPORTANCE_HIDDEN` and a converter to 1 and 0 (emqx_bridge_mongodb.erl
  // fields(action_resource_opts) at 6.2.2 and e5.8.9, through emqx_bridge_v2_schema.erl
  // action_resource_opts_fields/1): taken in a body, never answered.
  { structs: ['action_resource_opts'], add: field('batch_size', 'Integer(1..+inf)', '1', { hidden: true }) },
  { structs: ['action_resource_opts'], add: field('batch_time', 'Duration', '"0ms"', { hidden: true }) },
  // emqx_rule_engine_schema.erl rule_engine_settings/0 (e5.8.9 to 6.2.2): jq_implementation_module,
  // enum([jq_nif, jq_port]), `deprecated => {since, "5.0.22"}`, ?IMPORTANCE_HIDDEN: taken and dropped.
  { structs: ['rule_engine'], add: field('jq_implementation_module', 'Enum(jq_nif,jq_port)', 'jq_nif', { hidden: true, deprecated: true }) },
];

/** Hidden fields of 5.5.1 that a body may carry (not in the dump). */
const HIDDEN_5_5_1 = [
  // emqx_dashboard_schema.erl default_password/1 at e5.5.1: binary(), ?IMPORTANCE_HIDDEN, sensitive.
  { struct: 'dashboard', after: 'token_expired_time', add: field('default_password', 'Secret', '"public"', { hidden: true }) },
];

/**
 * 5.10.4 has no dump here. Its tree is the 6.2.2 dump, with each field of the config roots the
 * simulator serves that differs between the 5.8.1 and 6.2.2 dumps decided by the source at tag
 * e5.10.4 (emqx_schema.erl, emqx_limiter_schema.erl, emqx_dashboard_schema.erl,
 * emqx_license_schema.erl, emqx_prometheus_schema.erl, emqx_otel_schema.erl, emqx_retainer_schema.erl,
 * emqx_conf_schema.erl, emqx_s3_schema.erl): a field absent there is removed, a default that
 * differs is the tag's. Fields of other roots (connectors, authentication, gateways …) are 6.2.2's.
 */
const LISTENERS = ['mqtt_tcp_listener', 'mqtt_ssl_listener', 'mqtt_ws_listener', 'mqtt_wss_listener', 'mqtt_quic_listener'];
const SSL = ['listener_ssl_opts', 'listener_wss_opts', 'listener_quic_ssl_opts', 'ssl', 'ssl_client_opts', 'ssl_options'];
const DECISIONS_5_10_4 = [
  // emqx_limiter_schema.erl mqtt_limiter_names(): max_conn, messages, bytes (no delivery_* yet).
  { structs: LISTENERS, remove: ['delivery_bytes_rate', 'delivery_bytes_burst', 'delivery_messages_rate', 'delivery_messages_burst'] },
  // emqx_schema.erl: no tcp_backend, no managed certificates, no namespace options yet.
  { structs: ['mqtt_tcp_listener'], remove: ['tcp_backend'] },
  { structs: SSL, remove: ['managed_certs'] },
  { structs: ['mqtt'], remove: ['namespace_as_mountpoint', 'subscription_message_filter'] },
  // emqx_schema.erl server_ssl_opts_schema/2 and client ssl: `reuse_sessions` Df(reuse_sessions, true).
  { structs: SSL, defaults: { reuse_sessions: 'true' } },
  // emqx_schema.erl fields("tcp_opts") active_n: default 100.
  { structs: ['tcp_opts'], defaults: { active_n: '100' } },
  // emqx_license_schema.erl: no high_watermark_timezone.
  { structs: ['key_license'], remove: ['high_watermark_timezone'] },
  // emqx_prometheus_schema.erl: no namespaced_metrics_limiter.
  { structs: ['recommend_setting'], remove: ['namespaced_metrics_limiter'] },
  // emqx_audit.erl reads log.audit.max_filter_size at e5.10.4: the 5.8 field, not cache_size.
  { structs: ['log_audit_handler'], remove: ['cache_size'], add: [field('max_filter_size', 'Integer(10..30000)', '5000')] },
  // emqx_rule_engine_schema.erl rule_engine_settings/0 at e5.10.4: no ssrf, no limit_selects_in_namespace.
  { structs: ['rule_engine'], remove: ['ssrf', 'limit_selects_in_namespace'] },
  // emqx_s3_schema.erl transport_options at e5.10.4 still has pool_type (5.8's options).
  { structs: ['transport_options'], from: '5.8.1', fields: ['enable_pipelining', 'max_retries', 'pool_type', 'ssl'] },
];

/**
 * The hidden `broker` root (emqx_schema.erl roots(medium), `importance => ?IMPORTANCE_HIDDEN`, so
 * in no dump), served at /configs/broker from 5.8 (?ROOT_KEYS): fields("broker") at e5.8.9, with
 * `heal` from 6.x. Hidden fields are taken and checked but not filled in answers.
 */
function brokerRoot(release) {
  const hidden = { hidden: true };
  const fields = [
    field('enable_session_registry', 'Boolean', 'true'),
    field('session_history_retain', 'Duration(s)', '"0s"'),
    field('session_locking_strategy', 'Enum(local,leader,quorum,all)', 'quorum', hidden),
    field('shared_subscription_strategy', 'String', undefined, { hidden: true, deprecated: true }),
    field('shared_dispatch_ack_enabled', 'Boolean', 'false', { hidden: true, deprecated: true }),
    field('route_batch_clean', 'Boolean', 'true', hidden),
    field('perf', 'Map', undefined, hidden),
    field('routing', 'Map', undefined, hidden),
    ...(release === '6.2.2' ? [field('heal', 'Map', undefined, hidden)] : []),
    field('shared_subscription_group', 'Map($name->Struct(shared_subscription_group))', undefined, { hidden: true,
      refs: [{ text: 'shared_subscription_group', fields: [field('strategy', 'Enum(random,round_robin,round_robin_per_group,sticky,local,hash_topic,hash_clientid)', 'random')] }] }),
  ];
  return field('broker', 'Struct(broker)', undefined, { hidden: true, refs: [{ text: 'broker', fields }] });
}

/**
 * The `rule_engine` root, which the 5.5 and 5.8.1 dumps leave out: fields("rule_engine") of
 * emqx_rule_engine_schema.erl at e5.5.1 and e5.8.9 (rule_engine_settings/0 and the rules map). The
 * 5.10.4 tree takes 6.2.2's struct with its 6.x fields removed (DECISIONS_5_10_4).
 */
function ruleEngineRoot() {
  const fields = [
    field('ignore_sys_message', 'Boolean', 'true'),
    field('jq_function_default_timeout', 'Duration', '"10s"'),
    field('jq_implementation_module', 'Enum(jq_nif,jq_port)', 'jq_nif', { hidden: true, deprecated: true }),
    field('rules', 'Map($id->Struct(rules))', '{}'),
  ];
  return field('rule_engine', 'Struct(rule_engine)', undefined, { refs: [{ text: 'rule_engine', fields }] });
}

/**
 * The v1 `bridges` root of 5.8.9 and 5.10.4, which their trees leave out
 * (emqx_bridge_schema.erl roots/0 at e5.8.9 and e5.10.4: `importance => ?IMPORTANCE_HIDDEN`), for
 * the body of POST /bridges_probe (emqx_bridge_api.erl schema("/bridges_probe"):
 * emqx_bridge_schema:post_request/0, a union of each type's struct). The same 33 types as the 5.5
 * dump (emqx_bridge_enterprise.erl api_schemas/1 and api_schema/1 at both tags list the same), and
 * the same fields at each type's top level (emqx_bridge_http_schema.erl basic_config/0 and
 * request_config/0, emqx_bridge_http_connector.erl fields(config)), except the MQTT bridge, whose
 * emqx_bridge_mqtt_connector_schema.erl fields("server_configs") gained `static_clientids` and
 * `connect_timeout` (taken from the release's own `connectors.mqtt`). Below the top level the
 * structs moved on (emqx_bridge_kafka.erl's producer options gained max_linger_time,
 * max_linger_bytes and partitions_limit at e5.8.9) and no dump of these releases has them, so only
 * the top level is kept: a nested field is not checked rather than refused wrongly.
 */
function bridgesRoot(older, own) {
  const bridges = clone(older.find((f) => f.text === 'bridges'));
  bridges.hidden = true;
  const mqttConnector = own.find((f) => f.text === 'connectors')?.refs?.[0]?.fields.find((f) => f.text === 'mqtt')?.refs?.[0]?.fields ?? [];
  for (const type of bridges.refs[0].fields) {
    const fields = type.refs?.[0]?.fields ?? [];
    for (const f of fields) delete f.refs;
    if (type.text !== 'mqtt') continue;
    for (const name of ['static_clientids', 'connect_timeout']) {
      const added = mqttConnector.find((f) => f.text === name);
      if (!added) throw new Error(`connectors.mqtt has no ${name}`);
      const copy = clone(added);
      delete copy.refs;
      if (!fields.some((f) => f.text === name)) fields.push(copy);
    }
  }
  return bridges;
}

/**
 * What a fresh broker's config files set over the schema defaults, by root (the etc/ files at the
 * tag: apps/emqx_dashboard/etc/emqx_dashboard.conf, apps/emqx_conf/etc/base.hocon from 5.8; 6.2.2
 * moved the dashboard listeners into base.hocon). Only roots the config API serves.
 */
const BASE = {
  '5.5.1': { dashboard: { listeners: { http: { bind: 18083 } } } },
  '5.8.9': {
    dashboard: { listeners: { http: { bind: 18083 }, https: { ssl_options: { certfile: '${EMQX_ETC_DIR}/certs/cert.pem', keyfile: '${EMQX_ETC_DIR}/certs/key.pem' } } } },
    log: { file: {}, console: {} },
  },
};
BASE['5.10.4'] = BASE['5.8.9'];
BASE['6.2.2'] = BASE['5.8.9'];

const clone = (v) => JSON.parse(JSON.stringify(v));

/** Calls visit(fields, structName) for every struct of a dump tree. */
function eachStruct(fields, visit) {
  const seen = new Set();
  const walk = (list) => {
    for (const f of list) {
      for (const ref of f.refs ?? []) {
        if (seen.has(ref.fields)) continue;
        seen.add(ref.fields);
        visit(ref.fields, ref.text);
        walk(ref.fields ?? []);
      }
    }
  };
  walk(fields);
}

/** The fields of every struct named in `names` (`<root>`: the list of roots itself). */
function structsNamed(root, names) {
  const out = names.includes('<root>') ? [root] : [];
  eachStruct(root, (fields, text) => {
    if (names.includes(text)) out.push(fields);
  });
  return out;
}

function applyPatches(root, patches, used) {
  for (const [i, patch] of patches.entries()) {
    for (const fields of structsNamed(root, [patch.struct])) {
      if (fields.some((f) => f.text === patch.add.text)) continue;
      const at = patch.first ? 0 : fields.findIndex((f) => f.text === patch.after) + 1;
      if (!patch.first && at === 0) continue;
      fields.splice(at, 0, clone(patch.add));
      used.add(i);
    }
  }
}

function applyDecisions(root, decisions, older, used) {
  for (const [i, d] of decisions.entries()) {
    for (const fields of structsNamed(root, d.structs)) {
      for (const name of d.remove ?? []) {
        const at = fields.findIndex((f) => f.text === name);
        if (at >= 0) {
          fields.splice(at, 1);
          used.add(i);
        }
      }
      for (const [name, text] of Object.entries(d.defaults ?? {})) {
        const f = fields.find((x) => x.text === name);
        if (f) {
          f.default = text;
          used.add(i);
        }
      }
      for (const add of d.add ?? []) {
        if (!fields.some((f) => f.text === add.text)) fields.push(clone(add));
        used.add(i);
      }
      if (d.from) {
        const source = structsNamed(older, d.structs)[0] ?? [];
        for (const name of d.fields) {
          const old = source.find((f) => f.text === name);
          const at = fields.findIndex((f) => f.text === name);
          if (old && at >= 0) fields[at] = clone(old);
          else if (old) fields.push(clone(old));
          else if (at >= 0) fields.splice(at, 1);
          used.add(i);
        }
      }
    }
  }
}

function applyNoDoc(root, used) {
  for (const [i, row] of NO_DOC.entries()) {
    for (const fields of structsNamed(root, row.structs)) {
      if (!fields.some((f) => f.text === row.add.text)) fields.unshift(clone(row.add));
      used.add(i);
    }
  }
}

function applyRefinements(root, release, used) {
  for (const [i, r] of REFINEMENTS.entries()) {
    if (r.releases && !r.releases.includes(release)) continue;
    for (const fields of structsNamed(root, r.structs)) {
      for (const f of fields) {
        if (!r.fields.includes(f.text)) continue;
        if (r.kind) f.kind = { ...f.kind, ...r.kind };
        if (r.type) f.type = r.type;
        if (r.optional) f.optional = true;
        if (r.select) f.select = r.select;
        if (r.names) f.names = r.names;
        if (r.limits) f.limits = r.limits;
        used.add(i);
      }
    }
  }
}

/** One compact field. */
function compactField(f, refIds) {
  const out = { n: f.text, t: f.type };
  if (f.default !== undefined) out.d = f.default;
  if (f.aliases?.length) out.a = f.aliases;
  if (f.kind) out.k = f.kind;
  if (f.limits) out.l = f.limits;
  if (f.hidden) out.h = 1;
  if (f.optional) out.o = 1;
  if (f.select) out.s = f.select;
  if (f.names) out.m = f.names;
  if (f.deprecated) out.x = 1;
  if (refIds.length) out.r = refIds;
  return out;
}

/** The dump tree with each struct stored once under its name. */
function compactTree(rootFields) {
  const structs = {};
  const ids = new Map();
  const byName = new Map();
  const structId = (ref) => {
    if (ids.has(ref.fields)) return ids.get(ref.fields);
    const fields = (ref.fields ?? []).map((f) => compactField(f, (f.refs ?? []).map(structId)));
    const content = JSON.stringify(fields);
    const variants = byName.get(ref.text) ?? [];
    let id = variants.find((v) => JSON.stringify(structs[v]) === content);
    if (!id) {
      id = variants.length === 0 ? ref.text : `${ref.text}#${variants.length + 1}`;
      variants.push(id);
      byName.set(ref.text, variants);
      structs[id] = fields;
    }
    ids.set(ref.fields, id);
    return id;
  };
  const roots = rootFields.map((f) => compactField(f, (f.refs ?? []).map(structId)));
  return { roots, structs: Object.fromEntries(Object.keys(structs).sort().map((k) => [k, structs[k]])) };
}

/** The full dump tree of a release (before compacting), with the rows above applied. */
export function releaseTree(release, referenceDir = REFERENCE_DIR) {
  const dump = (name) => readJson(referenceDir, `emqx-${name}-config-schema.json`).fields;
  const used = { patches: new Set(), decisions: new Set(), refinements: new Set(), noDoc: new Set() };
  let root;
  if (release === '5.5.1') {
    root = dump('5.5');
    root.push(ruleEngineRoot());
    applyPatches(root, HIDDEN_5_5_1, new Set());
  } else if (release === '5.8.9') {
    root = dump('5.8.1');
    applyPatches(root, PATCHES_5_8_9, used.patches);
    copyFromNewer(root, dump('6.2.2'), FROM_6_2_2_AT_5_8_9);
    root.push(ruleEngineRoot(), bridgesRoot(dump('5.5'), root));
  } else if (release === '5.10.4') {
    root = dump('6.2.2');
    applyDecisions(root, DECISIONS_5_10_4, dump('5.8.1'), used.decisions);
    root.push(bridgesRoot(dump('5.5'), root));
  } else {
    root = dump('6.2.2');
  }
  if (release !== '5.5.1') {
    root.push(brokerRoot(release));
    applyNoDoc(root, used.noDoc);
  }
  applyRefinements(root, release, used.refinements);
  return { root, used };
}

/** The rows of each table that took effect somewhere, so a row naming nothing is noticed. */
export function unusedRows() {
  const out = [];
  const refinementsUsed = new Set();
  for (const release of RELEASES) {
    const { used } = releaseTree(release);
    for (const i of used.refinements) refinementsUsed.add(i);
    if (release === '5.8.9') for (const [i] of PATCHES_5_8_9.entries()) if (!used.patches.has(i)) out.push(`PATCHES_5_8_9[${i}]`);
    if (release === '5.10.4') for (const [i] of DECISIONS_5_10_4.entries()) if (!used.decisions.has(i)) out.push(`DECISIONS_5_10_4[${i}]`);
  }
  for (const [i] of REFINEMENTS.entries()) if (!refinementsUsed.has(i)) out.push(`REFINEMENTS[${i}]`);
  for (const release of ['5.8.9', '6.2.2']) {
    const { used } = releaseTree(release);
    for (const [i] of NO_DOC.entries()) if (!used.noDoc.has(i)) out.push(`NO_DOC[${i}] on ${release}`);
  }
  return out;
}

/** Every file this generator writes, by path relative to fixtures/profiles, with its content. */
export function generate(referenceDir = REFERENCE_DIR) {
  const files = new Map();
  for (const release of RELEASES) {
    const api = apiData(readJson(referenceDir, `emqx-${release}-api.json`));
    files.set(`${release}/api.json`, `${JSON.stringify({ source: `emqx-${release}-api.json`, ...api }, null, 1)}\n`);
    const tree = compactTree(releaseTree(release, referenceDir).root);
    files.set(`${release}/config.json`, `${JSON.stringify({ base: BASE[release], ...tree })}\n`);
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, content] of generate()) {
    const file = path.join(OUT_DIR, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    process.stdout.write(`${path.relative(REPO_ROOT, file)} ${content.length} bytes\n`);
  }
}
