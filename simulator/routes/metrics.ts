// EMQX module emqx_mgmt_api_metrics: GET /metrics, aggregated or per node (optionally one node).
import type { FastifyInstance } from 'fastify';

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // The handler defaults to false whatever its doc string says (emqx-api-part1 §5.3).
    aggregate: { type: 'boolean', default: false },
    node: { type: 'string', maxLength: 256 },
  },
};

export default async function metrics(app: FastifyInstance): Promise<void> {
  const { cluster } = app.store;

  app.get<{ Querystring: { aggregate: boolean; node?: string } }>('/metrics', { schema: { querystring } }, async (request) => {
    const { aggregate, node } = request.query;
    if (aggregate) return cluster.aggregateMetrics();
    // An unknown node gives an empty list, not an error.
    const names = node === undefined ? cluster.names() : cluster.names().filter((n) => n === node);
    return names.map((name) => ({ node: name, ...cluster.metrics(name) }));
  });
}
