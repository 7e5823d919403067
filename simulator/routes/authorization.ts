// EMQX emqx_authz_api_sources, emqx_authz_api_settings, emqx_authz_api_cache and
// emqx_authz_api_mnesia: sources, their order and status, settings, the cache, and the built-in
// database rules per client id, per username and for all (emqx-api-part2 §3).
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { clearAllAuthzCaches } from '../broker/authz-cache.ts';
import { SOURCE_TYPES } from '../store/access/authz.ts';
import { pageQueryProperties } from '../store/pagination.ts';

type Json = Record<string, any>;

const typeParams = { type: 'object', required: ['type'], properties: { type: { type: 'string', maxLength: 64 } } } as const;
const object = { type: 'object' } as const;
const BASE = '/authorization/sources/built_in_database/rules';
// emqx_authz_api_sources.erl fields(position) (v5.5.1 to 6.2.2): `position` alone.
const positionBody = { type: 'object', additionalProperties: false, properties: { position: {} } } as const;
// emqx_authz_api_sources.erl fields(request_sources_order) (v5.8.9 to 6.2.2): an array of `{type}`.
const orderBody = { type: 'array', items: { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { type: 'string' } } } } as const;
// emqx_authz_api_mnesia.erl fields(rule_item): topic, permission, action, qos, retain; from 5.9 also
// clientid_re, username_re, zone, zone_re, listener, listener_re and ipaddr (e5.10.4, 6.2.2; the
// store/profile.ts FIELDS row refuses them before). Bodies are fields(rules_for_username) (an array
// of them on POST), fields(rules_for_clientid) and fields(rules): `rules` beside the name.
const ruleItem = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(['topic', 'permission', 'action', 'qos', 'retain', 'clientid_re', 'username_re', 'zone', 'zone_re', 'listener', 'listener_re', 'ipaddr'].map((k) => [k, {}])),
} as const;
const rulesFor = (key: string) => ({ type: 'object', additionalProperties: false, properties: { [key]: {}, rules: { type: 'array', items: ruleItem } } } as const);

function sourceType(params: { type: string }): string {
  if (!(SOURCE_TYPES as readonly string[]).includes(params.type)) {
    throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', reason: 'unable_to_convert_to_enum_symbol', path: 'type', value: params.type }));
  }
  return params.type;
}

export default async function authorization(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const { authz } = store;

  app.get('/authorization/sources', async () => ({ sources: authz.list() }));

  app.post<{ Body: Json }>('/authorization/sources', { schema: { body: object } }, async (request, reply) => {
    await authz.create(request.body);
    return reply.code(204).send();
  });

  app.put<{ Body: unknown }>('/authorization/sources/order', { schema: { body: orderBody } }, async (request, reply) => {
    await authz.order((request.body as { type: string }[]).map((e) => e.type));
    return reply.code(204).send();
  });

  app.get<{ Params: { type: string } }>('/authorization/sources/:type', { schema: { params: typeParams } }, async (request) => authz.get(sourceType(request.params)));

  app.put<{ Params: { type: string }; Body: Json }>('/authorization/sources/:type', { schema: { params: typeParams, body: object } }, async (request, reply) => {
    await authz.update(sourceType(request.params), request.body);
    return reply.code(204).send();
  });

  app.delete<{ Params: { type: string } }>('/authorization/sources/:type', { schema: { params: typeParams } }, async (request, reply) => {
    await authz.remove(sourceType(request.params));
    return reply.code(204).send();
  });

  app.get<{ Params: { type: string } }>('/authorization/sources/:type/status', { schema: { params: typeParams } }, async (request) => authz.status(sourceType(request.params)));

  app.post<{ Params: { type: string }; Body: { position?: unknown } }>('/authorization/sources/:type/move', { schema: { params: typeParams, body: positionBody } }, async (request, reply) => {
    await authz.move(sourceType(request.params), request.body.position);
    return reply.code(204).send();
  });

  app.get('/authorization/settings', async () => authz.settings());

  app.put<{ Body: Json }>('/authorization/settings', { schema: { body: object } }, async (request) => authz.updateSettings(request.body));

  app.delete('/authorization/cache', async (_request, reply) => {
    clearAllAuthzCaches(store);
    return reply.code(204).send();
  });

  // Built-in database rules.
  for (const kind of ['users', 'clients'] as const) {
    const like = kind === 'users' ? 'like_username' : 'like_clientid';
    const body = rulesFor(kind === 'users' ? 'username' : 'clientid');
    const nameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 1024 } } } as const;

    app.get<{ Querystring: Json }>(`${BASE}/${kind}`, {
      schema: { querystring: { type: 'object', properties: { ...pageQueryProperties, [like]: { type: 'string', maxLength: 1024 } } } },
    }, async (request) => authz.listRules(kind, { page: request.query.page, limit: request.query.limit, like: request.query[like] }));

    app.post<{ Body: unknown }>(`${BASE}/${kind}`, { schema: { body: { type: 'array', items: body } } }, async (request, reply) => {
      await authz.addRules(kind, request.body);
      return reply.code(204).send();
    });

    app.get<{ Params: { name: string } }>(`${BASE}/${kind}/:name`, { schema: { params: nameParams } }, async (request) => authz.getRules(kind, request.params.name));

    app.put<{ Params: { name: string }; Body: Json }>(`${BASE}/${kind}/:name`, { schema: { params: nameParams, body } }, async (request, reply) => {
      await authz.putRules(kind, request.params.name, request.body);
      return reply.code(204).send();
    });

    app.delete<{ Params: { name: string } }>(`${BASE}/${kind}/:name`, { schema: { params: nameParams } }, async (request, reply) => {
      await authz.removeRules(kind, request.params.name);
      return reply.code(204).send();
    });
  }

  app.get(`${BASE}/all`, async () => authz.allRules());

  app.post<{ Body: { rules?: unknown } }>(`${BASE}/all`, { schema: { body: { type: 'object', additionalProperties: false, properties: { rules: { type: 'array', items: ruleItem } } } } }, async (request, reply) => {
    await authz.setAllRules(request.body.rules);
    return reply.code(204).send();
  });

  app.delete(`${BASE}/all`, async (_request, reply) => {
    await authz.setAllRules([]);
    return reply.code(204).send();
  });

  app.delete(BASE, async (_request, reply) => {
    await authz.purgeRules();
    return reply.code(204).send();
  });
}
