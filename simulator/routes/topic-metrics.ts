// EMQX module emqx_topic_metrics_api: /mqtt/topic_metrics (list, add, reset) and
// /mqtt/topic_metrics/{topic} (one topic, delete), emqx-api-part1 §12.
import type { FastifyInstance } from 'fastify';

interface TopicParams {
  topic: string;
}

const params = { type: 'object', required: ['topic'], properties: { topic: { type: 'string', maxLength: 65535 } } } as const;
const metric = {
  type: 'object',
  properties: {
    topic: { type: 'string' }, create_time: { type: 'string' }, reset_time: { type: 'string' },
    metrics: { type: 'object', additionalProperties: { type: 'number' } },
  },
} as const;

export default async function topicMetrics(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/mqtt/topic_metrics', { schema: { response: { 200: { type: 'array', items: metric } } } }, async () => store.topicMetrics.list());

  // An empty topic is refused by the handler with its own message, not by the schema.
  app.post<{ Body: { topic: string } }>('/mqtt/topic_metrics', {
    schema: {
      body: { type: 'object', required: ['topic'], additionalProperties: false, properties: { topic: { type: 'string', maxLength: 65535 } } },
      response: { 200: metric },
    },
  }, async (request) => store.topicMetrics.add(request.body.topic));

  app.put<{ Body: { action: 'reset'; topic?: string } }>('/mqtt/topic_metrics', {
    schema: {
      body: {
        type: 'object', required: ['action'], additionalProperties: false,
        properties: { action: { type: 'string', enum: ['reset'] }, topic: { type: 'string', maxLength: 65535 } },
      },
      response: { 200: { anyOf: [metric, { type: 'array', items: metric }] } },
    },
  }, async (request) => store.topicMetrics.reset(request.body.topic));

  app.get<{ Params: TopicParams }>('/mqtt/topic_metrics/:topic', { schema: { params, response: { 200: metric } } },
    async (request) => store.topicMetrics.get(request.params.topic));

  app.delete<{ Params: TopicParams }>('/mqtt/topic_metrics/:topic', { schema: { params } }, async (request, reply) => {
    await store.topicMetrics.remove(request.params.topic);
    return reply.code(204).send();
  });
}
