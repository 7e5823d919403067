// EMQX emqx_rule_engine_api: rules, rule_test, rule_events, rule_engine (part 2 §5): the rule list
// with its filters and page envelope, create (201) / read / merge-update / delete, per-rule
// metrics and their reset, the SQL tester and the event catalogue.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { ruleEvents } from '../rules/events.ts';
import { pageQueryProperties, paginateRows, type PageQuery } from '../store/pagination.ts';
import type { RuleBody, RuleRecord, Rules } from '../store/integration/rules.ts';
import { inNamespace, listedScopes, namespaceOf, scopeOf } from './namespace.ts';
import { topicMatches } from '../lib/topic.ts';

const republishArgs = {
  type: 'object',
  properties: {
    topic: { type: 'string', maxLength: 65535 },
    qos: { anyOf: [{ type: 'integer', minimum: 0, maximum: 2 }, { type: 'string', maxLength: 1024 }] },
    retain: { anyOf: [{ type: 'boolean' }, { type: 'string', maxLength: 1024 }] },
    payload: { type: 'string', maxLength: 1048576 },
    mqtt_properties: { type: 'object', additionalProperties: { type: 'string', maxLength: 65535 } },
    user_properties: { type: 'string', maxLength: 65535 },
    direct_dispatch: { anyOf: [{ type: 'boolean' }, { type: 'string', maxLength: 1024 }] },
  },
} as const;

const action = {
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 512 },
    {
      type: 'object',
      required: ['function'],
      properties: { function: { type: 'string', minLength: 1, maxLength: 512 }, args: { type: 'object' } },
      // A republish output needs its arguments with at least the topic.
      if: { properties: { function: { const: 'republish' } } },
      then: { required: ['args'], properties: { args: { ...republishArgs, required: ['topic'] } } },
    },
  ],
} as const;

const ruleProperties = {
  name: { type: 'string', maxLength: 1024 },
  sql: { type: 'string', minLength: 1, maxLength: 1048576 },
  actions: { type: 'array', maxItems: 1000, items: action },
  enable: { type: 'boolean' },
  description: { type: 'string', maxLength: 65535 },
  metadata: { type: 'object' },
} as const;

// emqx_rule_engine_api.erl: the body is the rule_creation hocon struct, so a field it lacks is
// unknown_fields (the read-only fields GET shows are taken out first, see ruleBody).
const createBody = {
  type: 'object',
  required: ['sql'],
  additionalProperties: false,
  properties: { id: { type: 'string', maxLength: 255 }, ...ruleProperties },
} as const;

// id, status, node_status, metrics … in a PUT body are ignored (removed by the schema).
const updateBody = { type: 'object', additionalProperties: false, properties: ruleProperties } as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 255 } } } as const;

const listQuery = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    enable: { type: 'boolean' },
    from: { type: 'string' },
    like_id: { type: 'string' },
    like_from: { type: 'string' },
    match_from: { type: 'string' },
    like_description: { type: 'string' },
    action: { type: 'array', items: { type: 'string' } },
    source: { type: 'array', items: { type: 'string' } },
  },
} as const;

// emqx_rule_api_schema.erl fields("rule_test") (v5.5.1 to 6.2.2): `context` and `sql`.
const testBody = {
  type: 'object',
  required: ['sql', 'context'],
  additionalProperties: false,
  properties: { sql: { type: 'string', maxLength: 1048576 }, context: { type: 'object' } },
} as const;

// emqx_rule_api_schema.erl (v5.8.9) fields("rule_apply_test"): the test context and whether
// actions stop after rendering their templates (default true).
const applyTestBody = {
  type: 'object',
  additionalProperties: false,
  properties: { context: { type: 'object' }, stop_action_after_template_rendering: { type: 'boolean' } },
} as const;

interface ListQuery extends PageQuery {
  enable?: boolean;
  from?: string;
  like_id?: string;
  like_from?: string;
  match_from?: string;
  like_description?: string;
  action?: string[];
  source?: string[];
}

/** `/rules*` writes take JSON only (415 otherwise), as emqx_rule_engine_api declares. */
async function jsonOnly(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const type = String(request.headers['content-type'] ?? '');
  if (request.body !== undefined && !type.includes('application/json')) {
    throw apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type');
  }
}

/**
 * What a rule read back carries beside its config: emqx_rule_engine_api.erl
 * filter_out_request_body/1 drops it from POST/PUT bodies before the config check, so a rule
 * can be sent back as it was read.
 */
const READ_ONLY = ['id', 'status', 'node_status', 'node_metrics', 'metrics', 'node'];

async function ruleBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await jsonOnly(request, reply);
  const body = request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  // POST /rules takes the new rule's id from the body before filtering.
  for (const key of READ_ONLY) if (!(key === 'id' && request.method === 'POST')) delete body[key];
}

const notFound = () => apiError(404, 'NOT_FOUND', 'Rule Id Not Found');

export default async function rules(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const engine = store.rules;
  engine.log = (line) => app.log.info(line);

  app.get<{ Querystring: ListQuery }>('/rules', { schema: { querystring: listQuery } }, async (request) => {
    const q = request.query;
    const fuzzy = q.like_id !== undefined || q.like_from !== undefined || q.match_from !== undefined || q.like_description !== undefined;
    const keep = (engine: Rules, rule: RuleRecord): boolean => {
      const from = engine.from(rule);
      if (q.enable !== undefined && rule.enable !== q.enable) return false;
      if (q.from !== undefined && !from.includes(q.from)) return false;
      if (q.like_id !== undefined && !rule.id.includes(q.like_id)) return false;
      if (q.like_from !== undefined && !from.some((f) => f.includes(q.like_from as string))) return false;
      if (q.match_from !== undefined && !from.some((f) => topicMatches(q.match_from as string, f))) return false;
      if (q.like_description !== undefined && !rule.description.includes(q.like_description)) return false;
      if (q.action?.length && !rule.actions.some((a) => typeof a === 'string' && q.action!.includes(a))) return false;
      if (q.source?.length && !q.source.some((s) => from.includes(`$bridges/${s}`) || from.includes(`$sources/${s}`))) return false;
      return true;
    };
    const rows = listedScopes(store, request).flatMap(([ns, { rules }]) => rules.list().filter((r) => keep(rules, r)).map((rule) => ({ ns, rules, rule })));
    return paginateRows(rows, q, ({ ns, rules, rule }) => inNamespace(rules.info(rule), ns), { count: !fuzzy });
  });

  app.post<{ Body: RuleBody }>('/rules', { preValidation: ruleBody, schema: { body: createBody } }, async (request, reply) => {
    const ns = namespaceOf(store, request);
    const engine = store.namespaces.scope(ns).rules;
    const rule = await engine.create(request.body);
    return reply.code(201).send(inNamespace(engine.info(rule), ns));
  });

  app.get<{ Params: { id: string } }>('/rules/:id', { schema: { params: idParams } }, async (request) => {
    const ns = namespaceOf(store, request);
    const engine = store.namespaces.scope(ns).rules;
    const rule = engine.get(request.params.id);
    if (!rule) throw notFound();
    return inNamespace(engine.info(rule), ns);
  });

  app.put<{ Params: { id: string }; Body: RuleBody }>('/rules/:id', { preValidation: ruleBody, schema: { params: idParams, body: updateBody } }, async (request) => {
    const ns = namespaceOf(store, request);
    const engine = store.namespaces.scope(ns).rules;
    return inNamespace(engine.info(await engine.update(request.params.id, request.body)), ns);
  });

  app.delete<{ Params: { id: string } }>('/rules/:id', { schema: { params: idParams } }, async (request, reply) => {
    if (!(await scopeOf(store, request).rules.remove(request.params.id))) throw notFound();
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/rules/:id/metrics', { schema: { params: idParams } }, async (request) => {
    const engine = scopeOf(store, request).rules;
    if (!engine.get(request.params.id)) throw notFound();
    return engine.metrics(request.params.id);
  });

  app.put<{ Params: { id: string } }>('/rules/:id/metrics/reset', { config: { noBody: true }, schema: { params: idParams } }, async (request, reply) => {
    const engine = scopeOf(store, request).rules;
    if (!engine.get(request.params.id)) throw notFound();
    engine.resetMetrics(request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Body: { sql: string; context: Record<string, unknown> } }>('/rule_test', { preValidation: jsonOnly, schema: { body: testBody } },
    async (request) => engine.test(request.body.sql, request.body.context));

  app.post<{ Params: { id: string }; Body: { context?: Record<string, unknown>; stop_action_after_template_rendering?: boolean } }>('/rules/:id/test',
    { preValidation: jsonOnly, schema: { params: idParams, body: applyTestBody } },
    async (request) => scopeOf(store, request).rules.applyTest(request.params.id, request.body.context ?? {}, request.body.stop_action_after_template_rendering ?? true));

  app.get('/rule_events', async () => ruleEvents((a) => app.store.profile.has(a)));

  app.get('/rule_engine', async () => engine.settingsAnswer());

  // The body is checked by the release's rule_engine schema in the store, as hocon checks it.
  app.put<{ Body: Record<string, unknown> }>('/rule_engine', { schema: { body: { type: 'object' } } },
    async (request) => engine.updateSettings(request.body));
}
