// EMQX module emqx_cluster_link_api (e5.8.9): /cluster/links, the links to other clusters with
// their status, and each link's metrics (store/cluster/cluster-links.ts, broker/cluster-link.ts).
import type { FastifyInstance } from 'fastify';
import type { Obj } from '../rules/values.ts';

const nameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 255 } } } as const;

// fields("link") of emqx_cluster_link_schema.erl; `name` comes from the path on PUT.
const linkFields = {
  enable: { type: 'boolean' },
  name: { type: 'string', maxLength: 255 },
  server: { type: 'string', minLength: 1, maxLength: 1024 },
  clientid: { type: 'string', maxLength: 65535 },
  username: { type: 'string', maxLength: 65535 },
  password: { type: 'string', maxLength: 65535 },
  ssl: { type: 'object' },
  topics: { type: 'array', maxItems: 10_000, items: { type: 'string', maxLength: 65535 } },
  pool_size: { type: 'integer', minimum: 1 },
  retry_interval: { type: 'string', maxLength: 64 },
  max_inflight: { type: 'integer', minimum: 0 },
  resource_opts: { type: 'object' },
} as const;
const createBody = { type: 'object', required: ['name', 'server', 'topics'], additionalProperties: false, properties: linkFields } as const;
const { name: _name, ...updateFields } = linkFields;
const updateBody = { type: 'object', required: ['server', 'topics'], additionalProperties: false, properties: updateFields } as const;

type Named = { Params: { name: string } };

export default async function clusterLink(app: FastifyInstance): Promise<void> {
  const links = app.store.clusterLinks;

  app.get('/cluster/links', async () => links.list().map((l) => links.view(l)));

  app.post<{ Body: Obj }>('/cluster/links', { schema: { body: createBody } }, async (request, reply) => {
    const created = await links.create(links.validate(request.body));
    return reply.code(201).send(links.view(created));
  });

  app.get<Named>('/cluster/links/link/:name', { schema: { params: nameParams } }, async (request) => links.view(links.get(request.params.name)));

  app.put<Named & { Body: Obj }>('/cluster/links/link/:name', { schema: { params: nameParams, body: updateBody } }, async (request) => {
    const previous = links.get(request.params.name);
    return links.view(await links.update(links.validate({ ...request.body, name: request.params.name }, previous)));
  });

  app.delete<Named>('/cluster/links/link/:name', { schema: { params: nameParams } }, async (request, reply) => {
    await links.remove(request.params.name);
    return reply.code(204).send();
  });

  app.get<Named>('/cluster/links/link/:name/metrics', { schema: { params: nameParams } }, async (request) => links.metrics(request.params.name));

  app.put<Named>('/cluster/links/link/:name/metrics/reset', { schema: { params: nameParams }, config: { noBody: true } }, async (request, reply) => {
    links.resetMetrics(request.params.name);
    return reply.code(204).send();
  });
}
