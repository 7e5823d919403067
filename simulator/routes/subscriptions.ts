// EMQX module emqx_mgmt_api_subscriptions: GET /subscriptions, every subscription of the cluster (envelope A).
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import type { SubscriptionFilters } from '../store/messaging/clients.ts';
import { pageQueryProperties, type PageQuery } from '../store/pagination.ts';
import { parseShare, topicFilterProblem } from '../lib/topic.ts';

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageQueryProperties,
    node: { type: 'string', maxLength: 256 },
    clientid: { type: 'string', maxLength: 65535 },
    topic: { type: 'string', maxLength: 65535 },
    match_topic: { type: 'string', maxLength: 65535 },
    qos: { type: 'integer', minimum: 0, maximum: 2 },
    share_group: { type: 'string', maxLength: 256 },
  },
};

export default async function subscriptions(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get<{ Querystring: PageQuery & SubscriptionFilters }>('/subscriptions', { schema: { querystring } }, async (request) => {
    const { page, limit, ...filters } = request.query;
    const match = filters.match_topic;
    // A shared subscription cannot be a match filter (§10.1).
    if (match !== undefined && (topicFilterProblem(match) || parseShare(match))) {
      throw apiError(400, 'INVALID_PARAMETER', 'match_topic_invalid');
    }
    const found = store.clients.subscriptions(filters, { page, limit });
    // emqx_mgmt_api_subscriptions.erl (5.8.9) marks each subscription durable or not; every
    // session here lives in memory. The profile leaves the field out before 5.8.
    return { ...found, data: found.data.map((s) => ({ ...s, durable: false })) };
  });
}
