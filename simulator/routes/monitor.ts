// EMQX module emqx_dashboard_monitor_api: /monitor, /monitor/nodes/{node}, /monitor_current, /monitor_current/nodes/{node}.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: { latest: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 } },
};
const params = { type: 'object', required: ['node'], properties: { node: { type: 'string', maxLength: 256 } } };

// Cluster figures that are the same on every node, taken once instead of summed (§6).
const TAKEN_ONCE = new Set(['topics', 'retained_msg_count', 'license_quota', 'shared_subscriptions']);

function notFound(node: string) {
  return apiError(404, 'NOT_FOUND', `Node not found: ${node}`);
}

export default async function monitor(app: FastifyInstance): Promise<void> {
  const { store } = app;

  /** The current object of one node, with the EE license quota and the 5.8 shared subscriptions. */
  function current(node: string): Record<string, number> | null {
    const rates = store.monitor.current(node);
    const info = store.cluster.info(node);
    if (!rates || !info) return null;
    // 5.8 emqx_dashboard_monitor.erl stats(shared_subscriptions): the cluster's
    // `subscriptions.shared.count` (left out by the profile before 5.6).
    const shared = store.cluster.stats(node)?.['subscriptions.shared.count'] ?? 0;
    return { ...rates, retained_msg_count: store.mqtt.retained.size, node_uptime: info.uptime, license_quota: store.license.quota, shared_subscriptions: shared };
  }

  app.get<{ Querystring: { latest?: number } }>('/monitor', { schema: { querystring } }, async (request) =>
    store.monitor.query(null, request.query.latest));

  app.get<{ Params: { node: string }; Querystring: { latest?: number } }>('/monitor/nodes/:node', {
    schema: { params, querystring },
  }, async (request) => {
    const samples = store.monitor.query(request.params.node, request.query.latest);
    if (!samples) throw notFound(request.params.node);
    return samples;
  });

  // emqx_dashboard_monitor_api.erl (5.8.9) monitor(delete, _): clears the samples, 204.
  app.delete('/monitor', async (_request, reply) => {
    store.monitor.clear();
    return reply.code(204).send();
  });

  app.get('/monitor_current', async () => store.monitor.clusterCurrent(store.cluster.names().map((node) => {
    const { node_uptime: _uptime, ...values } = current(node) ?? {};
    return values;
  }), TAKEN_ONCE));

  app.get<{ Params: { node: string } }>('/monitor_current/nodes/:node', { schema: { params } }, async (request) => {
    const values = current(request.params.node);
    if (!values) throw notFound(request.params.node);
    return values;
  });
}
