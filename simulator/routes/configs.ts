// EMQX emqx_mgmt_api_configs, emqx_retainer_api, emqx_prometheus_api, emqx_otel_api and
// emqx_mgmt_api_cluster (emqx-api-part1 §11, §22.2, §22.3, §23): the config roots with merge
// semantics and `******` secrets kept, the Prometheus scrape endpoints (stats, auth,
// data_integration), and the simulated cluster's
// invite / force-leave. The log root sets the level of what the simulator logs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { ConfigError, obfuscate, type ConfigRoot } from '../store/config/config-roots.ts';
import { FileTransfer } from '../store/config/file-transfer.ts';
import { METRIC_KEYS, STATS_NAMES, type Stats } from '../store/cluster/metrics.ts';
import { rfc3339 } from '../lib/time.ts';

type Obj = Record<string, unknown>;

const objectBody = { type: 'object' };
const nodeParams = { type: 'object', required: ['node'], properties: { node: { type: 'string', minLength: 1, maxLength: 256 } } };

// EMQX log levels → the simulator's (pino) levels.
const PINO_LEVEL: Record<string, string> = {
  debug: 'debug', info: 'info', notice: 'info', warning: 'warn', error: 'error',
  critical: 'fatal', alert: 'fatal', emergency: 'fatal', all: 'trace', none: 'silent',
};

/** The level the simulator logs at for a log config: the console handler's, else the file's. */
export function logLevelOf(log: Obj): string {
  const console = (log.console ?? {}) as Obj;
  const file = log.file as Obj | undefined;
  if (console.enable === true) return PINO_LEVEL[String(console.level)] ?? 'warn';
  if (file?.enable === true) return PINO_LEVEL[String(file.level)] ?? 'warn';
  return 'silent';
}

function failure(code: string, err: unknown): never {
  if (err instanceof ConfigError) {
    const body: Obj = { kind: 'validation_error', path: err.path, reason: err.reason };
    if (err.value !== undefined) body.value = err.value;
    // A read-only key (dashboard.default_password) is a 403, as EMQX answers.
    throw apiError(err.reason === 'read only' ? 403 : 400, code, JSON.stringify(body));
  }
  throw err;
}

/** Prometheus text exposition of stats (gauges) and metrics (counters). */
function exposition(rows: { labels: string; stats: Stats; metrics: Record<string, number> }[]): string {
  const lines: string[] = [];
  const names = (n: string) => `emqx_${n.replace(/[.\-]/g, '_')}`;
  for (const name of STATS_NAMES) {
    for (const suffix of ['count', 'max']) {
      const metric = names(`${name}.${suffix}`);
      lines.push(`# TYPE ${metric} gauge`);
      for (const row of rows) lines.push(`${metric}${row.labels} ${row.stats[`${name}.${suffix}`] ?? 0}`);
    }
  }
  for (const key of METRIC_KEYS) {
    const metric = names(key);
    lines.push(`# TYPE ${metric} counter`);
    for (const row of rows) lines.push(`${metric}${row.labels} ${row.metrics[key] ?? 0}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One metric family of a Prometheus collector: its points by labels. */
interface Family {
  name: string;
  type: 'gauge' | 'counter';
  points: { labels: Record<string, string>; value: number }[];
}

function labelText(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

/** Families in the text exposition format. */
function familiesText(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# TYPE ${f.name} ${f.type}`);
    for (const p of f.points) lines.push(`${f.name}${labelText(p.labels)} ${p.value}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Families as the JSON answer lists them: one object per label set with every family's value. */
function familiesJson(families: Family[]): Record<string, unknown>[] {
  const rows = new Map<string, Record<string, unknown>>();
  for (const f of families) {
    for (const p of f.points) {
      const key = JSON.stringify(p.labels);
      const row = rows.get(key) ?? { ...p.labels };
      row[f.name] = p.value;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

const statusNumber = (status: unknown) => (status === 'connected' ? 1 : 0);

interface Invitation {
  node: string;
  started_at: number;
  finished_at?: number;
  reason?: string;
}

export default async function configs(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const roots = store.configRoots;

  const applyLog = (log: Obj) => {
    app.log.level = logLevelOf(log);
  };
  // A saved log config takes effect at start; otherwise the command line's --log-level stays.
  if (store.state.config_roots?.log) app.addHook('onReady', async () => applyLog(roots.get('log')));
  roots.onChange((root, value) => {
    if (root === 'log') applyLog(value);
  });

  const serve = (path: string, root: ConfigRoot, code: string) => {
    app.get(path, async () => obfuscate(roots.get(root)));
    app.put<{ Body: Obj }>(path, { schema: { body: objectBody } }, async (request) => {
      const next = await roots.put(root, request.body).catch((err: unknown) => failure(code, err));
      return obfuscate(next);
    });
  };
  // The release's ?ROOT_KEYS (store/profile.ts CONFIG_ROOT_KEYS) and /configs/limiter up to 5.8;
  // the profile answers 404 for a root the release lacks.
  for (const root of ['sys_topics', 'log', 'dashboard', 'alarm', 'sysmon', 'limiter', 'broker'] as const) serve(`/configs/${root}`, root, 'UPDATE_FAILED');
  // emqx_mgmt_api_configs.erl ?ROOT_KEYS_EE: the file_transfer root, the same config as /file_transfer.
  const fileTransfer = new FileTransfer(store);
  app.get('/configs/file_transfer', async () => fileTransfer.get());
  app.put<{ Body: Obj }>('/configs/file_transfer', { schema: { body: objectBody } }, async (request) => fileTransfer.put(request.body));
  serve('/mqtt/retainer', 'retainer', 'UPDATE_FAILED');
  serve('/prometheus', 'prometheus', 'BAD_REQUEST');
  serve('/opentelemetry', 'opentelemetry', 'BAD_REQUEST');

  // --- Prometheus scrape endpoint: public unless enable_basic_auth.
  const scrapeAuth = (request: FastifyRequest) => {
    if ((roots.get('prometheus') as { enable_basic_auth?: boolean }).enable_basic_auth !== true) return;
    const header = request.headers.authorization ?? '';
    const [scheme, value = ''] = header.split(' ');
    if (scheme?.toLowerCase() === 'bearer' && store.tokens.check(value.trim()).status === 'ok') return;
    if (scheme?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value.trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0 && store.apiKeys.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1))) return;
    }
    throw apiError(401, 'BAD_API_KEY_OR_SECRET', 'Check api_key/api_secret', { 'www-authenticate': 'Basic Realm="emqx-dashboard"' });
  };

  const statsQuery = {
    type: 'object',
    properties: { mode: { type: 'string', enum: ['node', 'all_nodes_aggregated', 'all_nodes_unaggregated'], default: 'node' } },
  };
  app.get<{ Querystring: { mode: string } }>('/prometheus/stats', { config: { public: true }, schema: { querystring: statsQuery } }, async (request, reply: FastifyReply) => {
    scrapeAuth(request);
    const { cluster } = store;
    const mode = request.query.mode;
    const rows = mode === 'all_nodes_unaggregated'
      ? cluster.names().map((node) => ({ node, labels: `{node="${node}"}`, stats: cluster.stats(node) as Stats, metrics: cluster.metrics(node) as Record<string, number> }))
      : mode === 'all_nodes_aggregated'
        ? [{ node: null, labels: '', stats: cluster.aggregateStats(), metrics: cluster.aggregateMetrics() as Record<string, number> }]
        : [{ node: cluster.self, labels: '', stats: cluster.stats(cluster.self) as Stats, metrics: cluster.metrics(cluster.self) as Record<string, number> }];
    if ((request.headers.accept ?? '').includes('application/json')) {
      const json = (row: (typeof rows)[number]) => ({
        ...(row.node && mode === 'all_nodes_unaggregated' ? { node: row.node } : {}),
        stats: Object.fromEntries(Object.entries(row.stats).map(([k, v]) => [`emqx_${k.replace(/\./g, '_')}`, v])),
        metrics: Object.fromEntries(Object.entries(row.metrics).map(([k, v]) => [`emqx_${k.replace(/\./g, '_')}`, v])),
      });
      return mode === 'all_nodes_unaggregated' ? rows.map(json) : json(rows[0]);
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(exposition(rows));
  });

  // Points per node for the three modes (emqx_prometheus_cluster.erl): this node's values, the
  // cluster's sums (the other nodes count no traffic of this process), or every node labelled.
  const perMode = (mode: string, labels: Record<string, string>, value: (node: string) => number) => {
    const { cluster } = store;
    if (mode === 'all_nodes_unaggregated') return cluster.names().map((node) => ({ labels: { node, ...labels }, value: value(node) }));
    if (mode === 'all_nodes_aggregated') return [{ labels, value: cluster.names().reduce((sum, node) => sum + value(node), 0) }];
    return [{ labels, value: value(cluster.self) }];
  };
  const ownOnly = (v: number) => (node: string) => (node === store.cluster.self ? v : 0);
  const sendFamilies = (request: FastifyRequest, reply: FastifyReply, families: Family[], json: () => Record<string, unknown>) => {
    if ((request.headers.accept ?? '').includes('application/json')) return json();
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(familiesText(families));
  };

  // emqx_prometheus_auth.erl: per authenticator (label id) and authorization source (label type),
  // the built-in database user and rule counts, the banned count.
  app.get<{ Querystring: { mode: string } }>('/prometheus/auth', { config: { public: true }, schema: { querystring: statsQuery } }, async (request, reply: FastifyReply) => {
    scrapeAuth(request);
    const mode = request.query.mode;
    const authn = store.authn.list();
    const authz = store.authz.list();
    const authnStatus = await Promise.all(authn.map(async (a) => statusNumber((await store.authn.status(String(a.id)).catch(() => ({} as Obj))).status)));
    const authzStatus = await Promise.all(authz.map(async (a) => statusNumber((await store.authz.status(String(a.type)).catch(() => ({} as Obj))).status)));
    const family = (name: string, type: Family['type'], items: Record<string, unknown>[], label: 'id' | 'type', value: (item: Record<string, unknown>, i: number) => (node: string) => number): Family => ({
      name, type, points: items.flatMap((item, i) => perMode(mode, { [label]: String(item[label]) }, value(item, i))),
    });
    const authnCounter = (key: string) => (a: Record<string, unknown>) => ownOnly(store.authn.counter(String(a.id)).snapshot()[key] ?? 0);
    const authzCounter = (key: string) => (a: Record<string, unknown>) => ownOnly(store.authz.counter(String(a.type)).snapshot()[key] ?? 0);
    const same = (v: number) => () => v;
    const authnFamilies: Family[] = [
      family('emqx_authn_enable', 'gauge', authn, 'id', (a) => same(a.enable === false ? 0 : 1)),
      family('emqx_authn_status', 'gauge', authn, 'id', (_a, i) => same(authnStatus[i])),
      ...['nomatch', 'total', 'success', 'failed'].map((k) => family(`emqx_authn_${k}`, 'counter', authn, 'id', authnCounter(k))),
    ];
    const builtIn = authn.filter((a) => a.backend === 'built_in_database');
    const usersCount: Family = { name: 'emqx_authn_users_count', type: 'gauge', points: builtIn.map((a) => ({ labels: { id: String(a.id) }, value: store.state.authn_users?.[String(a.id)]?.length ?? 0 })) };
    const authzFamilies: Family[] = [
      family('emqx_authz_enable', 'gauge', authz, 'type', (a) => same(a.enable === false ? 0 : 1)),
      family('emqx_authz_status', 'gauge', authz, 'type', (_a, i) => same(authzStatus[i])),
      ...['nomatch', 'total', 'allow', 'deny'].map((k) => family(`emqx_authz_${k}`, 'counter', authz, 'type', authzCounter(k))),
    ];
    const rules = store.state.authz_rules;
    const aclRecords = (rules?.users?.length ?? 0) + (rules?.clients?.length ?? 0) + ((rules?.all?.length ?? 0) > 0 ? 1 : 0);
    const rulesCount: Family = { name: 'emqx_authz_rules_count', type: 'gauge', points: authz.filter((a) => a.type === 'built_in_database').map(() => ({ labels: { type: 'built_in_database' }, value: aclRecords })) };
    const banned: Family = { name: 'emqx_banned_count', type: 'gauge', points: [{ labels: {}, value: store.state.banned?.length ?? 0 }] };
    return sendFamilies(request, reply, [...authnFamilies, usersCount, ...authzFamilies, rulesCount, banned], () => ({
      emqx_authn: familiesJson([...authnFamilies, usersCount]),
      emqx_authz: familiesJson([...authzFamilies, rulesCount]),
      emqx_banned: { emqx_banned_count: banned.points[0].value },
    }));
  });

  // emqx_prometheus_data_integration.erl: the overview counts, then rules (label id), actions and
  // connectors (label id `type:name`).
  const RULE_KEYS = ['matched', 'failed', 'passed', 'failed.exception', 'failed.no_result', 'actions.total', 'actions.success', 'actions.failed', 'actions.failed.out_of_service', 'actions.failed.unknown'];
  const ACTION_KEYS: [string, Family['type']][] = [
    ['matched', 'counter'], ['dropped', 'counter'], ['success', 'counter'], ['failed', 'counter'], ['inflight', 'gauge'], ['received', 'counter'],
    ['late_reply', 'counter'], ['retried', 'counter'], ['retried.success', 'counter'], ['retried.failed', 'counter'],
    ['dropped.resource_stopped', 'counter'], ['dropped.resource_not_found', 'counter'], ['dropped.queue_full', 'counter'],
    ['dropped.other', 'counter'], ['dropped.expired', 'counter'], ['queuing', 'gauge'],
  ];
  const metricName = (prefix: string, key: string) => `${prefix}_${key.replace(/\./g, '_')}`;
  app.get<{ Querystring: { mode: string } }>('/prometheus/data_integration', { config: { public: true }, schema: { querystring: statsQuery } }, async (request, reply: FastifyReply) => {
    scrapeAuth(request);
    const mode = request.query.mode;
    const rules = store.rules.list();
    const actions = await Promise.all(store.actions.list().map(async (r) => {
      const id = `${r.type}:${r.name}`;
      const view = await store.actions.view(r);
      return { id, enable: view.enable === false ? 0 : 1, status: statusNumber(view.status), metrics: (store.actions.metrics(id).metrics ?? {}) as Record<string, number> };
    }));
    const connectors = await Promise.all(store.connectors.list().map(async (r) => {
      const view = await store.connectors.view(r);
      return { id: `${r.type}:${r.name}`, enable: view.enable === false ? 0 : 1, status: statusNumber(view.status) };
    }));
    const overview: Family[] = [
      { name: 'emqx_rules_count', type: 'gauge', points: [{ labels: {}, value: rules.length }] },
      { name: 'emqx_connectors_count', type: 'gauge', points: [{ labels: {}, value: connectors.length }] },
    ];
    if (store.profile.hasApp('emqx_schema_registry')) overview.push({ name: 'emqx_schema_registrys_count', type: 'gauge', points: [{ labels: {}, value: store.state.schema_registry?.length ?? 0 }] });
    const ruleFamilies: Family[] = [
      { name: 'emqx_rule_enable', type: 'gauge', points: rules.flatMap((r) => perMode(mode, { id: r.id }, () => (r.enable ? 1 : 0))) },
      ...RULE_KEYS.map((key): Family => ({
        name: metricName('emqx_rule', key), type: 'counter',
        points: rules.flatMap((r) => perMode(mode, { id: r.id }, ownOnly((store.rules.metrics(r.id).metrics as Record<string, number>)[key] ?? 0))),
      })),
    ];
    const actionFamilies: Family[] = [
      { name: 'emqx_action_enable', type: 'gauge', points: actions.flatMap((a) => perMode(mode, { id: a.id }, () => a.enable)) },
      { name: 'emqx_action_status', type: 'gauge', points: actions.flatMap((a) => perMode(mode, { id: a.id }, () => a.status)) },
      ...ACTION_KEYS.map(([key, type]): Family => ({ name: metricName('emqx_action', key), type, points: actions.flatMap((a) => perMode(mode, { id: a.id }, ownOnly(a.metrics[key] ?? 0))) })),
    ];
    const connectorFamilies: Family[] = [
      { name: 'emqx_connector_enable', type: 'gauge', points: connectors.flatMap((c) => perMode(mode, { id: c.id }, () => c.enable)) },
      { name: 'emqx_connector_status', type: 'gauge', points: connectors.flatMap((c) => perMode(mode, { id: c.id }, () => c.status)) },
    ];
    return sendFamilies(request, reply, [...overview, ...ruleFamilies, ...actionFamilies, ...connectorFamilies], () => ({
      data_integration_overview: Object.fromEntries(overview.map((f) => [f.name, f.points[0].value])),
      rules: familiesJson(ruleFamilies),
      actions: familiesJson(actionFamilies),
      connectors: familiesJson(connectorFamilies),
    }));
  });

  // emqx_prometheus_schema_validation.erl and emqx_prometheus_message_transformation.erl (e5.8.9,
  // Enterprise): per entry its enable gauge and its matched/failed/succeeded counters. Both label
  // the entry `validation_name` (the transformation collector's validation_point/3 too).
  const chainCollector = (path: string, prefix: string, jsonKey: string, chain: typeof store.schemaValidations | typeof store.messageTransformations) => {
    app.get<{ Querystring: { mode: string } }>(path, { config: { public: true }, schema: { querystring: statsQuery } }, async (request, reply: FastifyReply) => {
      scrapeAuth(request);
      const entries = chain.list();
      const family = (key: string, type: Family['type'], value: (e: (typeof entries)[number]) => (node: string) => number): Family => ({
        name: `${prefix}_${key}`, type, points: entries.flatMap((e) => perMode(request.query.mode, { validation_name: e.name }, value(e))),
      });
      const families = [
        family('enable', 'gauge', (e) => () => (e.enable ? 1 : 0)),
        ...(['matched', 'failed', 'succeeded'] as const).map((key) => family(key, 'counter', (e) => ownOnly(chain.nodeMetrics(e.name)[key]))),
      ];
      return sendFamilies(request, reply, families, () => ({ [jsonKey]: familiesJson(families) }));
    });
  };
  chainCollector('/prometheus/schema_validation', 'emqx_schema_validation', 'schema_validations', store.schemaValidations);
  chainCollector('/prometheus/message_transformation', 'emqx_message_transformation', 'message_transformations', store.messageTransformations);

  // --- Cluster (§22.3) on the simulated fixture nodes.
  const invitations: Invitation[] = [];
  const badRequest = (message: string) => apiError(400, 'BAD_REQUEST', message);

  app.get('/cluster', async () => ({ name: store.clusterLinks.clusterName, nodes: store.cluster.names(), self: store.cluster.self }));

  app.get('/cluster/topology', async () => store.cluster.all()
    .filter((n) => n.role === 'core')
    .map((core) => ({ core_node: core.node, replicant_nodes: store.cluster.all().filter((n) => n.role === 'replicant').map((n) => ({ node: n.node, streams: 1 })) })));

  const inviteProblem = (node: string): string | null => {
    if (node === store.cluster.self) return 'Cannot invite self';
    if (store.cluster.has(node)) return `{already_in_cluster,'${node}'}`;
    if (!store.cluster.knows(node)) return `{badrpc,nodedown}`;
    return null;
  };

  // emqx_mgmt_api_cluster.erl schema("/cluster/:node/invite") (v5.5.1 to 6.2.2): the body is
  // hoconsc:ref(timeout), a struct of `timeout` alone.
  app.put<{ Params: { node: string }; Body: { timeout?: number } }>('/cluster/:node/invite', {
    schema: { params: nodeParams, body: { type: 'object', additionalProperties: false, properties: { timeout: { type: 'integer', minimum: 0 } } } },
  }, async (request, reply) => {
    const { node } = request.params;
    const timeout = request.body?.timeout;
    if (timeout !== undefined && timeout < 5000) throw badRequest('timeout cannot be less than 5000ms');
    const problem = inviteProblem(node);
    const now = store.clock.now();
    if (problem) {
      invitations.push({ node, started_at: now, finished_at: now, reason: problem });
      throw badRequest(problem);
    }
    store.cluster.join(node);
    invitations.push({ node, started_at: now, finished_at: now });
    return reply.code(200).send();
  });

  app.put<{ Params: { node: string } }>('/cluster/:node/invite_async', { config: { noBody: true }, schema: { params: nodeParams } }, async (request, reply) => {
    const { node } = request.params;
    if (node === store.cluster.self) throw badRequest("Can't invite self");
    if (invitations.some((i) => i.node === node && i.finished_at === undefined)) throw badRequest('The invitation task already created for this node');
    const task: Invitation = { node, started_at: store.clock.now() };
    invitations.push(task);
    // The join takes a moment, so the console can show the task in progress.
    const timer = setTimeout(() => {
      task.finished_at = store.clock.now();
      const problem = inviteProblem(node);
      if (problem) task.reason = problem;
      else store.cluster.join(node);
    }, 1000);
    timer.unref();
    return reply.code(200).send();
  });

  app.get('/cluster/invitation', async () => {
    // The newest task per node counts.
    const latest = new Map<string, Invitation>();
    for (const task of invitations) latest.set(task.node, task);
    const tasks = [...latest.values()];
    const time = (ms: number) => rfc3339(ms, 'ms');
    return {
      succeed: tasks.filter((t) => t.finished_at !== undefined && !t.reason).map((t) => ({ node: t.node, started_at: time(t.started_at), finished_at: time(t.finished_at!) })),
      in_progress: tasks.filter((t) => t.finished_at === undefined).map((t) => ({ node: t.node, started_at: time(t.started_at) })),
      failed: tasks.filter((t) => t.reason).map((t) => ({ node: t.node, started_at: time(t.started_at), finished_at: time(t.finished_at!), reason: t.reason })),
    };
  });

  app.delete<{ Params: { node: string } }>('/cluster/:node/force_leave', { schema: { params: nodeParams } }, async (request, reply) => {
    const { node } = request.params;
    if (!node.includes('@')) throw badRequest(`invalid node name: ${node}`);
    if (node === store.cluster.self) throw badRequest("Can't leave self");
    if (!store.cluster.leave(node)) throw badRequest('node_not_found');
    return reply.code(204).send();
  });
}
