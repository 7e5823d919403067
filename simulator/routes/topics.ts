// EMQX module emqx_mgmt_api_topics: GET /topics (the cluster's routes, envelope A) and GET /topics/{topic}.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { paginateRows, pageQueryProperties, type PageQuery } from '../store/pagination.ts';
import { routeTopic, topicFilterProblem } from '../lib/topic.ts';

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageQueryProperties,
    topic: { type: 'string', maxLength: 65535 },
    node: { type: 'string', maxLength: 256 },
  },
};
const params = { type: 'object', required: ['topic'], properties: { topic: { type: 'string', maxLength: 65535 } } };

export default async function topics(app: FastifyInstance): Promise<void> {
  const { routes } = app.store;

  app.get<{ Querystring: PageQuery & { topic?: string; node?: string } }>('/topics', { schema: { querystring } }, async (request) => {
    const { page, limit, node } = request.query;
    const topic = request.query.topic;
    // EMQX spells this code INVALID_PARAMTER here (§10.2); kept as the broker sends it.
    if (topic !== undefined && topicFilterProblem(topic)) throw apiError(400, 'INVALID_PARAMTER', 'topic_filter_invalid');
    // `$share/<group>/<topic>` asks for the route of <topic>.
    const wanted = topic === undefined ? undefined : routeTopic(topic);
    const rows = wanted === undefined ? routes.all() : routes.of(wanted);
    const matching = node === undefined ? rows : [...rows].filter((r) => r.node === node);
    return paginateRows(matching, { page, limit }, (r) => r);
  });

  app.get<{ Params: { topic: string } }>('/topics/:topic', { schema: { params } }, async (request) => {
    const found = routes.of(routeTopic(request.params.topic));
    if (found.length === 0) throw apiError(404, 'TOPIC_NOT_FOUND', 'Topic not found');
    return found;
  });
}
