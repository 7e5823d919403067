// EMQX emqx_bridge_v2_api: actions and sources, probes, metrics, types (part 2 §4.3–§4.6). The
// same routes serve `/actions*` and `/sources*`: list, create (201), read, update (200), delete
// (204; refused with the rule ids while rules use it unless `also_delete_dep_actions=true`),
// enable, `start`, metrics and their reset, the dry-run probe, the summary and the type lists.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import type { ChannelRecord, Channels } from '../store/integration/actions.ts';
import { inNamespace, listedScopes, namespaceOf, scopeOf } from './namespace.ts';
import type { Json } from '../store/integration/connectors.ts';

const id = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const idParams = { type: 'object', required: ['id'], properties: { id } } as const;
const enableParams = { type: 'object', required: ['id', 'enable'], properties: { id, enable: { type: 'boolean' } } } as const;
const operation = { type: 'string', enum: ['start'] } as const;
const operationParams = { type: 'object', required: ['id', 'operation'], properties: { id, operation } } as const;
const nodeOperationParams = {
  type: 'object', required: ['node', 'id', 'operation'], properties: { node: { type: 'string', minLength: 1, maxLength: 255 }, id, operation },
} as const;
const deleteQuery = { type: 'object', properties: { also_delete_dep_actions: { type: 'boolean', default: false } } } as const;
// Type-specific fields are checked by the store against the config-schema reference.
const createBody = {
  type: 'object', required: ['type', 'name'],
  properties: { type: { type: 'string', minLength: 1, maxLength: 255 }, name: { type: 'string', maxLength: 1024 }, connector: { type: 'string', maxLength: 1024 } },
} as const;
const updateBody = { type: 'object', properties: { connector: { type: 'string', maxLength: 1024 } } } as const;

function routesOf(app: FastifyInstance, base: 'actions' | 'sources'): void {
  const { store } = app;
  const one = base === 'actions' ? 'action' : 'source';
  /** The actions or sources of the request's namespace (`?ns=`, 6.x). */
  const scoped = (request: FastifyRequest): Channels => scopeOf(store, request)[base];
  const view = async (request: FastifyRequest, record: ChannelRecord) => inNamespace(await scoped(request).view(record), namespaceOf(store, request));
  const listed = (request: FastifyRequest, show: (channels: Channels, r: ChannelRecord, ns: string | null) => Promise<unknown>) =>
    Promise.all(listedScopes(store, request).map(([ns, scope]) => Promise.all(scope[base].list().map((r) => show(scope[base], r, ns))))).then((lists) => lists.flat());

  app.get(`/${base}`, async (request) => listed(request, async (channels, r, ns) => inNamespace(await channels.view(r), ns)));
  app.get(`/${base}_summary`, async (request) => listed(request, (channels, r) => channels.summary(r)));
  app.get(`/${one}_types`, async () => store[base].types());

  app.post<{ Body: Json }>(`/${base}`, { schema: { body: createBody } }, async (request, reply) => {
    const record = await scoped(request).create(request.body);
    return reply.code(201).send(await view(request, record));
  });

  app.get<{ Params: { id: string } }>(`/${base}/:id`, { schema: { params: idParams } }, async (request) => view(request, scoped(request).find(request.params.id)));

  app.put<{ Params: { id: string }; Body: Json }>(`/${base}/:id`, { schema: { params: idParams, body: updateBody } },
    async (request) => view(request, await scoped(request).update(request.params.id, request.body)));

  app.delete<{ Params: { id: string }; Querystring: { also_delete_dep_actions: boolean } }>(`/${base}/:id`,
    { schema: { params: idParams, querystring: deleteQuery } }, async (request, reply) => {
      const result = await scoped(request).remove(request.params.id, request.query.also_delete_dep_actions);
      if (result.refusedBy) {
        return reply.code(400).send({ code: 'BAD_REQUEST', message: `Cannot delete ${one} while active rules are depending on it`, rules: result.refusedBy });
      }
      return reply.code(204).send();
    });

  app.get<{ Params: { id: string } }>(`/${base}/:id/metrics`, { schema: { params: idParams } }, async (request) => scoped(request).metrics(request.params.id));

  app.put<{ Params: { id: string } }>(`/${base}/:id/metrics/reset`, { schema: { params: idParams }, config: { noBody: true } }, async (request, reply) => {
    scoped(request).resetMetrics(request.params.id);
    return reply.code(204).send();
  });

  app.put<{ Params: { id: string; enable: boolean } }>(`/${base}/:id/enable/:enable`, { schema: { params: enableParams }, config: { noBody: true } },
    async (request, reply) => {
      await scoped(request).enable(request.params.id, request.params.enable);
      return reply.code(204).send();
    });

  app.post<{ Params: { id: string; operation: string } }>(`/${base}/:id/:operation`, { schema: { params: operationParams }, config: { noBody: true } },
    async (request, reply) => {
      await scoped(request).start(request.params.id);
      return reply.code(204).send();
    });

  app.post<{ Params: { node: string; id: string; operation: string } }>(`/nodes/:node/${base}/:id/:operation`,
    { schema: { params: nodeOperationParams }, config: { noBody: true } }, async (request, reply) => {
      if (!app.store.cluster.names().includes(request.params.node)) throw apiError(404, 'NOT_FOUND', `Node not found: ${request.params.node}`);
      await scoped(request).start(request.params.id);
      return reply.code(204).send();
    });

  app.post<{ Body: Json }>(`/${base}_probe`, { schema: { body: createBody } }, async (request, reply) => {
    await scoped(request).probe(request.body);
    return reply.code(204).send();
  });
}

export default async function actions(app: FastifyInstance): Promise<void> {
  routesOf(app, 'actions');
  routesOf(app, 'sources');
}
