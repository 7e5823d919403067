// EMQX module emqx_mgmt_api_nodes: /nodes, /nodes/{node}, /nodes/{node}/metrics, /nodes/{node}/stats.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';

interface NodeParams {
  node: string;
}

const params = { type: 'object', required: ['node'], properties: { node: { type: 'string', maxLength: 256 } } };

function notFound(node: string) {
  return apiError(404, 'NOT_FOUND', `Node not found: ${node}`);
}

export default async function nodes(app: FastifyInstance): Promise<void> {
  const { cluster } = app.store;

  app.get('/nodes', async () => cluster.all());

  app.get<{ Params: NodeParams }>('/nodes/:node', { schema: { params } }, async (request) => {
    const info = cluster.info(request.params.node);
    if (!info) throw notFound(request.params.node);
    return info;
  });

  app.get<{ Params: NodeParams }>('/nodes/:node/metrics', { schema: { params } }, async (request) => {
    const metrics = cluster.metrics(request.params.node);
    if (!metrics) throw notFound(request.params.node);
    return metrics;
  });

  app.get<{ Params: NodeParams }>('/nodes/:node/stats', { schema: { params } }, async (request) => {
    const stats = cluster.stats(request.params.node);
    if (!stats) throw notFound(request.params.node);
    return stats;
  });
}
