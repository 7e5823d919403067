// EMQX emqx_connector_api: connectors, their probes and types (part 2 §4.2): list, create (201),
// read, update (200), delete (204, refused while actions or sources use the connector), enable,
// the `start` operation cluster-wide or per node, and the dry-run probe (400 TEST_FAILED); also
// emqx_bridge_api's v1 `/bridges_probe`, which tries the same connection.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { probeMqtt } from '../connectors/mqtt.ts';
import { probeConfig } from '../connectors/probe.ts';
import { apiError } from '../plugins/errors.ts';
import { entryFields, refuseUnknownFields } from '../store/config/schema-check.ts';
import { CATALOGUE_CONNECTORS, typeFields, type ConnectorRecord, type Json } from '../store/integration/connectors.ts';
import { inNamespace, listedScopes, namespaceOf, scopeOf } from './namespace.ts';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 1024 } } } as const;
const enableParams = {
  type: 'object', required: ['id', 'enable'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 1024 }, enable: { type: 'boolean' } },
} as const;
const operationParams = {
  type: 'object', required: ['id', 'operation'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 1024 }, operation: { type: 'string', enum: ['start'] } },
} as const;
const nodeOperationParams = {
  type: 'object', required: ['node', 'id', 'operation'],
  properties: { node: { type: 'string', minLength: 1, maxLength: 255 }, ...operationParams.properties },
} as const;
// Type-specific fields are checked by the store against the config-schema reference.
const createBody = {
  type: 'object', required: ['type', 'name'],
  properties: { type: { type: 'string', minLength: 1, maxLength: 255 }, name: { type: 'string', maxLength: 1024 } },
} as const;
const updateBody = { type: 'object' } as const;

export default async function connectors(app: FastifyInstance): Promise<void> {
  const { store } = app;
  /** The connectors of the request's namespace (`?ns=`, 6.x). */
  const scoped = (request: FastifyRequest) => scopeOf(store, request).connectors;
  const view = async (request: FastifyRequest, record: ConnectorRecord) => inNamespace(await scoped(request).view(record), namespaceOf(store, request));

  app.get('/connectors', async (request) => (await Promise.all(listedScopes(store, request)
    .map(([ns, { connectors }]) => Promise.all(connectors.list().map(async (r) => inNamespace(await connectors.view(r), ns)))))).flat());

  app.post<{ Body: Json }>('/connectors', { schema: { body: createBody } }, async (request, reply) => {
    const record = await scoped(request).create(request.body);
    return reply.code(201).send(await view(request, record));
  });

  app.get<{ Params: { id: string } }>('/connectors/:id', { schema: { params: idParams } }, async (request) => view(request, scoped(request).find(request.params.id)));

  app.put<{ Params: { id: string }; Body: Json }>('/connectors/:id', { schema: { params: idParams, body: updateBody } },
    async (request) => view(request, await scoped(request).update(request.params.id, request.body)));

  app.delete<{ Params: { id: string } }>('/connectors/:id', { schema: { params: idParams } }, async (request, reply) => {
    const all = scoped(request);
    const record = all.find(request.params.id);
    const users = all.dependents(record);
    if (users.actions.length || users.sources.length) {
      const ids = [...users.actions.map((n) => `action:${record.type}:${n}`), ...users.sources.map((n) => `source:${record.type}:${n}`)];
      return reply.code(400).send({
        code: 'BAD_REQUEST',
        message: `Cannot delete connector while there are active channels defined for this connector: ${ids.join(', ')}`,
        ...users,
      });
    }
    await all.remove(request.params.id);
    return reply.code(204).send();
  });

  app.put<{ Params: { id: string; enable: boolean } }>('/connectors/:id/enable/:enable', { schema: { params: enableParams }, config: { noBody: true } },
    async (request, reply) => {
      await scoped(request).enable(request.params.id, request.params.enable);
      return reply.code(204).send();
    });

  app.post<{ Params: { id: string; operation: string } }>('/connectors/:id/:operation', { schema: { params: operationParams }, config: { noBody: true } },
    async (request, reply) => {
      await scoped(request).start(request.params.id);
      return reply.code(204).send();
    });

  app.post<{ Params: { node: string; id: string; operation: string } }>('/nodes/:node/connectors/:id/:operation',
    { schema: { params: nodeOperationParams }, config: { noBody: true } }, async (request, reply) => {
      if (!store.cluster.names().includes(request.params.node)) throw apiError(404, 'NOT_FOUND', `Node not found: ${request.params.node}`);
      await scoped(request).start(request.params.id);
      return reply.code(204).send();
    });

  // emqx_bridge_api.erl '/bridges_probe': a dry run of a v1 bridge (its connector and action in
  // one body): 204 when the target answers, 400 TEST_FAILED with the reason otherwise. The body is
  // checked first (filter_check_request_and_translate_body/2 against
  // emqx_bridge_schema:post_request/0), so a field the type's v1 struct in the release's `bridges`
  // root lacks is a 400 BAD_REQUEST unknown_fields (emqx_bridge_http_schema.erl old_type_field/0
  // takes `http` for `webhook`).
  app.post<{ Body: Json }>('/bridges_probe', { schema: { body: createBody } }, async (request, reply) => {
    const { type: v1Type, name: _name, ...config } = request.body;
    const type = v1Type === 'webhook' ? 'http' : String(v1Type);
    const known = typeFields('connectors', type) !== null || CATALOGUE_CONNECTORS.includes(type);
    if (!known || !store.profile.hasBridgeType(type)) throw apiError(400, 'BAD_REQUEST', `Invalid bridge type: ${String(v1Type)}`);
    const v1Struct = entryFields(store.profile.version, 'bridges', type === 'http' ? 'webhook' : type);
    if (v1Struct) refuseUnknownFields(v1Struct, config);
    const health = type === 'mqtt' ? await probeMqtt(config) : await probeConfig(type, config);
    if (health.status !== 'connected') throw apiError(400, 'TEST_FAILED', health.reason ?? 'unreachable');
    return reply.code(204).send();
  });

  app.post<{ Body: Json }>('/connectors_probe', { schema: { body: createBody } }, async (request, reply) => {
    await scoped(request).probe(request.body);
    return reply.code(204).send();
  });
}
