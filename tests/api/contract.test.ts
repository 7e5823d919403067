// The API contract of each broker profile against the endpoint index extracted from the broker
// source (../shared/reference/emqx-<version>-api.json): every route of the modules the console
// uses is served with its method on the releases that have it and on no other; every GET without
// path parameters, and every detail GET of the things an operator makes (made here first), answers
// with the fields the source declares, no more and no fewer. The four profiles run in this one process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EDITIONS, VERSIONS, parseProfile, type Edition, type EmqxVersion } from '../../simulator/store/profile.ts';
import { OPERATOR_OBJECTS, type Made } from '../helpers/operator-objects.ts';
import { REPO_ROOT, api, buildTestApp, login } from '../helpers/simulator.ts';

interface IndexField { name: string; ref?: string; sub?: string[] }
interface IndexEntry {
  module: string;
  path: string;
  method?: string;
  hidden?: boolean;
  responses?: Record<string, { array?: boolean; fields?: IndexField[] }>;
}

function readIndex(version: EmqxVersion): IndexEntry[] {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, '..', 'shared', 'reference', `emqx-${version}-api.json`), 'utf8'));
}

/**
 * Modules whose API the console does not use and the simulator does not serve, each with why:
 * these are outside the contract.
 */
const NOT_SERVED: Record<string, string> = {
  emqx_bridge_api: 'the v1 bridge API, replaced by connectors/actions/sources (bridges_probe excepted)',
  emqx_gcp_device_api: 'GCP IoT Core device import, no console screen',
  emqx_node_rebalance_api: 'node rebalance/evacuation, no console screen',
  emqx_eviction_agent_api: 'node eviction status, no console screen',
  emqx_telemetry_api: 'anonymous usage telemetry, no console screen',
  emqx_mgmt_api_ds: 'durable storage replicas, no console screen',
  emqx_ds_shared_sub_api: 'durable shared-subscription queues, no console screen',
  emqx_otel_sampler_api: 'OpenTelemetry sampler white lists, no console screen',
  emqx_dashboard_sso_saml_api: 'SAML callbacks, reached only by an identity provider',
  emqx_dashboard_sso_oidc_api: 'OIDC callback, reached only by an identity provider',
  emqx_ft_storage_exporter_fs_api: 'file-transfer downloads of exported files, no console screen',
};
/** The one route of an otherwise unserved module that the contract includes. */
const SERVED_ROUTES = new Set(['POST /bridges_probe']);

/** The broker application of a handler module, for the edition check. */
function appOf(module: string): string {
  const prefixes: [string, string][] = [
    ['emqx_license', 'emqx_license'], ['emqx_schema_registry', 'emqx_schema_registry'], ['emqx_ft', 'emqx_ft'],
    ['emqx_audit', 'emqx_audit'], ['emqx_dashboard_sso', 'emqx_dashboard_sso'], ['emqx_gcp_device', 'emqx_gcp_device'],
    ['emqx_otel', 'emqx_opentelemetry'], ['emqx_telemetry', 'emqx_telemetry'], ['emqx_eviction_agent', 'emqx_eviction_agent'],
    ['emqx_node_rebalance', 'emqx_node_rebalance'], ['emqx_cluster_link', 'emqx_cluster_link'],
    ['emqx_schema_validation', 'emqx_schema_validation'], ['emqx_message_transformation', 'emqx_message_transformation'],
  ];
  return prefixes.find(([prefix]) => module.startsWith(prefix))?.[1] ?? module;
}

/** Routes the simulator serves in another shape than the index lists them, mapped to the index. */
function indexKey(method: string, url: string): string {
  let u = url.replace(/^\/api\/v5/, '').replace(/:[A-Za-z_]+/g, '{}');
  // minirest serves each config root at its own path; the index lists them as /configs/{root}
  // only for some (emqx_mgmt_api_configs.erl builds the paths from the schema roots).
  if (/^\/configs\/(alarm|dashboard|log|sys_topics|sysmon)$/.test(u)) u = '/configs/{root}';
  // `{action}` and `{operation}` path parameters are enums in the source; the simulator names them.
  u = u.replace(/^\/plugins\/\{\}\/(start|stop)$/, '/plugins/{}/{}');
  return `${method} ${u}`;
}

/** Served routes that the index does not list, each with why. */
const NOT_IN_INDEX: Record<string, string> = {
  'GET /configs/{root}': 'per-root config paths generated from the schema roots (emqx_mgmt_api_configs.erl), not in the extracted index',
  'PUT /configs/{root}': 'as above',
  'GET /clients/{}/mqueue_messages': 'in the 5.8.9 index without a method (its response schema is built by a function the extractor could not read)',
  'GET /clients/{}/inflight_messages': 'as above',
  'GET /prometheus/schema_validation': 'in the 5.8.9 index without a method (emqx_prometheus_api.erl lists it in paths_ee(), which the extractor does not read)',
  'GET /prometheus/message_transformation': 'as above',
  'GET /gateways/lwm2m/clients/{}/lookup': 'emqx_lwm2m_api, not in the extracted index',
  'POST /gateways/lwm2m/clients/{}/observe': 'emqx_lwm2m_api, not in the extracted index',
  'POST /gateways/lwm2m/clients/{}/read': 'emqx_lwm2m_api, not in the extracted index',
  'POST /gateways/lwm2m/clients/{}/write': 'emqx_lwm2m_api, not in the extracted index',
};

function indexRoutes(version: EmqxVersion, edition: Edition): Map<string, IndexEntry> {
  const profile = parseProfile(version, edition);
  const out = new Map<string, IndexEntry>();
  for (const entry of readIndex(version)) {
    if (!entry.method) continue;
    const key = `${entry.method} ${entry.path.replace(/:[A-Za-z_]+/g, '{}')}`;
    if (NOT_SERVED[entry.module] && !SERVED_ROUTES.has(key)) continue;
    if (!profile.hasApp(appOf(entry.module))) continue;
    // start/stop/restart are three paths in the index; the simulator routes them by parameter.
    out.set(key.replace(/^(GET|PUT) \/configs\/\{\}$/, '$1 /configs/{root}').replace(/^POST \/listeners\/\{\}\/(start|stop|restart)$/, 'POST /listeners/{}/{}'), entry);
  }
  return out;
}

function servedRoutes(app: FastifyInstance): Set<string> {
  return new Set(app.apiRoutes.filter((r) => r.url.startsWith('/api/v5/') && r.method !== 'HEAD').map((r) => indexKey(r.method, r.url)));
}

const PROFILES = VERSIONS.flatMap((version) => EDITIONS.map((edition) => ({ version, edition })));

for (const { version, edition } of PROFILES) {
  test(`${version}-${edition}: every route of the index is served, and none the release lacks`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition });
    await app.ready();
    const served = servedRoutes(app);
    const expected = indexRoutes(version, edition);
    const missing = [...expected.keys()].filter((key) => !served.has(key) && !NOT_YET[key]).sort();
    const extra = [...served].filter((key) => !expected.has(key) && !NOT_IN_INDEX[key]).sort();
    assert.equal(missing, [], `missing on ${version}-${edition}`);
    assert.equal(extra, [], `served but not in ${version}-${edition}`);
    await app.close();
  });
}

/**
 * Where a served field set differs from the index for a reason, by `version METHOD path`: the
 * index names a field through a reference it could not expand, or the source adds fields outside
 * the declared schema.
 */
const FIELD_NOTES: Record<string, string> = {
  'GET /clients data[]': 'emqx_mgmt_api_clients.erl format_channel_info/2 sends the whole channel info (listener, is_persistent, enable_authn … as its own example shows), wider than the declared schema; disconnected_at only once disconnected; the 5.8 durable-session fields only for durable sessions',
  'GET /alarms data[]': 'emqx_alarm.erl format/2: an active alarm has no deactivate_at',
  'GET /clients/{}': 'as GET /clients data[]: the whole channel info',
  'GET /gateways': 'emqx_gateway_http.erl: an unloaded gateway has only name and status',
  'GET /topics data[]': 'emqx_mgmt_api_topics.erl (5.8): `session` only for durable-session routes',
  'GET /monitor': 'the index keeps only time_stamp of the sampler fields (emqx_dashboard_monitor_api.erl `fields(sampler)` is built from the sampler names)',
  'GET /stats': 'a union of per-node and aggregated shapes, built from emqx_stats names the index does not expand',
  'GET /monitor/nodes/{}': 'as GET /monitor: the sampler fields are built from the sampler names',
  'GET /nodes/{}/metrics': 'emqx_mgmt_api_nodes.erl node_metrics/2 answers emqx_mgmt:get_metrics/1, the metric names alone; the index keeps only `node` of the referenced schema',
  'GET /authentication/{}/status': 'emqx_authn_api.erl lookup_from_all_nodes adds node_metrics, node_resource_metrics, node_status and node_error beside the aggregated fields',
  'GET /trace': 'emqx_mgmt_api_trace.erl trace(get): an item carries only the filter field of its own type (`Type => Filter`); 5.8 keeps the formatter inside `extra`',
  'GET /mqtt/topic_metrics': 'emqx_topic_metrics.erl: reset_time only once the metric has been reset',
  'GET /mqtt/topic_metrics/{}': 'emqx_topic_metrics.erl: reset_time only once the metric has been reset',
};

/** Routes of the index not served yet, each with why (named in the note). */
const NOT_YET: Record<string, string> = {};

/**
 * The declared field names of a GET's 200 answer, and of its `data` items when listed; null where
 * the index could not expand them (no list, a placeholder such as `SamplerName`, a reference).
 */
function declared(entry: IndexEntry): { top: string[] | null; data: string[] | null } {
  const fields = entry.responses?.['200']?.fields;
  if (!fields?.length || fields.some((f) => !/^[a-z_][a-z0-9_.]*$/.test(f.name))) return { top: null, data: null };
  const dataField = fields.find((f) => f.name === 'data');
  return { top: fields.map((f) => f.name), data: dataField?.sub ?? null };
}

function keysOf(value: unknown): string[] | null {
  if (Array.isArray(value)) return value.length ? keysOf(value[0]) : null;
  return value !== null && typeof value === 'object' ? Object.keys(value).sort() : null;
}

for (const { version, edition } of PROFILES) {
  test(`${version}-${edition}: each GET (without path parameters, and the detail GETs) answers the fields the source declares`, async () => {
    const app = await buildTestApp({ emqxVersion: version, edition, seed: 'demo', nodes: 2 });
    const token = await login(app);
    const divergent: string[] = [];
    // Concrete paths for GETs with path parameters, from what the demo cluster holds.
    const clientid = (await api(app, 'GET', '/api/v5/clients?limit=1', { token })).json().data[0].clientid as string;
    // One of each thing that has a detail GET, made as an operator would.
    const made: Made[] = [
      ...OPERATOR_OBJECTS,
      ['POST', '/authentication/password_based:built_in_database/users', { user_id: 'u1', password: 'secret-123' }],
      ['POST', '/mqtt/topic_metrics', { topic: 'a/b' }],
    ];
    for (const [method, url, body] of made) {
      const res = await api(app, method, `/api/v5${url}`, { token, body });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    }
    const authn = encodeURIComponent('password_based:built_in_database');
    const concrete: Record<string, string> = {
      'GET /nodes/{}': '/nodes/emqx@node1',
      'GET /clients/{}': `/clients/${encodeURIComponent(clientid)}`,
      'GET /clients/{}/subscriptions': `/clients/${encodeURIComponent(clientid)}/subscriptions`,
      'GET /authorization/sources/{}/status': '/authorization/sources/file/status',
      'GET /authorization/sources/{}': '/authorization/sources/file',
      'GET /connectors/{}': '/connectors/http:web',
      'GET /actions/{}': '/actions/http:out',
      'GET /actions/{}/metrics': '/actions/http:out/metrics',
      'GET /rules/{}': '/rules/r1',
      'GET /rules/{}/metrics': '/rules/r1/metrics',
      'GET /exhooks/{}': '/exhooks/hook1',
      'GET /trace/{}/log_detail': '/trace/kept/log_detail',
      'GET /authentication/{}': `/authentication/${authn}`,
      'GET /authentication/{}/status': `/authentication/${authn}/status`,
      'GET /authentication/{}/users': `/authentication/${authn}/users`,
      'GET /authentication/{}/users/{}': `/authentication/${authn}/users/u1`,
      'GET /gateways/{}': '/gateways/mqttsn',
      'GET /gateways/{}/listeners': '/gateways/mqttsn/listeners',
      'GET /gateways/{}/clients': '/gateways/mqttsn/clients',
      'GET /mqtt/topic_metrics/{}': `/mqtt/topic_metrics/${encodeURIComponent('a/b')}`,
      'GET /listeners/{}': '/listeners/tcp:default',
      'GET /nodes/{}/stats': '/nodes/emqx@node1/stats',
      'GET /nodes/{}/metrics': '/nodes/emqx@node1/metrics',
      'GET /monitor/nodes/{}': '/monitor/nodes/emqx@node1',
      'GET /monitor_current/nodes/{}': '/monitor_current/nodes/emqx@node1',
    };
    for (const [key, entry] of indexRoutes(version, edition)) {
      if (!key.startsWith('GET ') || (key.includes('{') && !concrete[key])) continue;
      const { top, data } = declared(entry);
      if (!top) continue;
      const res = await api(app, 'GET', `/api/v5${concrete[key] ?? entry.path}`, { token });
      if (res.statusCode !== 200) continue;
      const body = res.json();
      // Some list handlers page their items although the index declares the item fields.
      const paged = body && !Array.isArray(body) && Array.isArray(body.data) && !top.includes('data');
      const have = keysOf(paged ? body.data : body);
      if (have && !FIELD_NOTES[key]) {
        const extra = have.filter((k) => !top.includes(k));
        const lacking = top.filter((k) => !have.includes(k));
        if (extra.length || lacking.length) divergent.push(`${key}: extra ${extra.join(',') || '-'}; lacking ${lacking.join(',') || '-'}`);
      }
      if (data && body && Array.isArray(body.data) && !FIELD_NOTES[`${key} data[]`]) {
        const item = keysOf(body.data);
        if (item) {
          const extra = item.filter((k) => !data.includes(k));
          const lacking = data.filter((k) => !item.includes(k));
          if (extra.length || lacking.length) divergent.push(`${key} data[]: extra ${extra.join(',') || '-'}; lacking ${lacking.join(',') || '-'}`);
        }
      }
    }
    assert.equal(divergent, [], `field divergences on ${version}-${edition}`);
    await app.close();
  });
}

test.run();
