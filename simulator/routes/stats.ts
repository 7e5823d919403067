// EMQX module emqx_mgmt_api_stats: GET /stats, one object when aggregated, else one per node.
import type { FastifyInstance } from 'fastify';

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: { aggregate: { type: 'boolean', default: false } },
};

export default async function stats(app: FastifyInstance): Promise<void> {
  const { cluster } = app.store;

  app.get<{ Querystring: { aggregate: boolean } }>('/stats', { schema: { querystring } }, async (request) => {
    if (request.query.aggregate) return cluster.aggregateStats();
    return cluster.names().map((node) => ({ node, ...cluster.stats(node) }));
  });
}
