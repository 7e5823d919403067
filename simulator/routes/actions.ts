// EMQX emqx_bridge_v2_api: actions and sources, probes, metrics, types (part 2 §4.3–§4.6). The
// same routes serve `/actions*` and `/sources*`: list, create (201), read, update (200), delete
// (204; refused with the rule ids while rules use it unless `also_delete_dep_actions=true`),
// enable, `start`, metrics and their reset, the dry-run probe, the summary and the type lists.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import type { Channels } from '../store/integration/actions.ts';
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

function routesOf(app: FastifyInstance, base: 'actions' | 'sources', channels: Channels): void {
  const one = base === 'actions' ? 'action' : 'source';

  app.get(`/${base}`, async () => Promise.all(channels.list().map((r) => channels.view(r))));
  app.get(`/${base}_summary`, async () => Promise.all(channels.list().map((r) => channels.summary(r))));
  app.get(`/${one}_types`, async () => channels.types());

  app.post<{ Body: Json }>(`/${base}`, { schema: { body: createBody } }, async (request, reply) => {
    const record = await channels.create(request.body);
    return reply.code(201).send(await channels.view(record));
  });

  app.get<{ Params: { id: string } }>(`/${base}/:id`, { schema: { params: idParams } }, async (request) => channels.view(channels.find(request.params.id)));

  app.put<{ Params: { id: string }; Body: Json }>(`/${base}/:id`, { schema: { params: idParams, body: updateBody } },
    async (request) => channels.view(await channels.update(request.params.id, request.body)));

  app.delete<{ Params: { id: string }; Querystring: { also_delete_dep_actions: boolean } }>(`/${base}/:id`,
    { schema: { params: idParams, querystring: deleteQuery } }, async (request, reply) => {
      const result = await channels.remove(request.params.id, request.query.also_delete_dep_actions);
      if (result.refusedBy) {
        return reply.code(400).send({ code: 'BAD_REQUEST', message: `Cannot delete ${one} while active rules are depending on it`, rules: result.refusedBy });
      }
      return reply.code(204).send();
    });

  app.get<{ Params: { id: string } }>(`/${base}/:id/metrics`, { schema: { params: idParams } }, async (request) => channels.metrics(request.params.id));

  app.put<{ Params: { id: string } }>(`/${base}/:id/metrics/reset`, { schema: { params: idParams }, config: { noBody: true } }, async (request, reply) => {
    channels.resetMetrics(request.params.id);
    return reply.code(204).send();
  });

  app.put<{ Params: { id: string; enable: boolean } }>(`/${base}/:id/enable/:enable`, { schema: { params: enableParams }, config: { noBody: true } },
    async (request, reply) => {
      await channels.enable(request.params.id, request.params.enable);
      return reply.code(204).send();
    });

  app.post<{ Params: { id: string; operation: string } }>(`/${base}/:id/:operation`, { schema: { params: operationParams }, config: { noBody: true } },
    async (request, reply) => {
      await channels.start(request.params.id);
      return reply.code(204).send();
    });

  app.post<{ Params: { node: string; id: string; operation: string } }>(`/nodes/:node/${base}/:id/:operation`,
    { schema: { params: nodeOperationParams }, config: { noBody: true } }, async (request, reply) => {
      if (!app.store.cluster.names().includes(request.params.node)) throw apiError(404, 'NOT_FOUND', `Node not found: ${request.params.node}`);
      await channels.start(request.params.id);
      return reply.code(204).send();
    });

  app.post<{ Body: Json }>(`/${base}_probe`, { schema: { body: createBody } }, async (request, reply) => {
    await channels.probe(request.body);
    return reply.code(204).send();
  });
}

export default async function actions(app: FastifyInstance): Promise<void> {
  routesOf(app, 'actions', app.store.actions);
  routesOf(app, 'sources', app.store.sources);
}
