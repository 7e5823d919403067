// EMQX module emqx_auto_subscribe_api: GET and PUT /mqtt/auto_subscribe (the whole topic list, §17).
import type { FastifyInstance } from 'fastify';
import type { AutoSubscribeTopic } from '../store/messaging/auto-subscribe.ts';

const topic = {
  type: 'object',
  required: ['topic'],
  additionalProperties: false,
  properties: {
    topic: { type: 'string', minLength: 1, maxLength: 65535 },
    qos: { type: 'integer', enum: [0, 1, 2], default: 0 },
    rh: { type: 'integer', enum: [0, 1, 2], default: 0 },
    rap: { type: 'integer', enum: [0, 1], default: 0 },
    nl: { type: 'integer', enum: [0, 1], default: 0 },
  },
} as const;
// Far above EMQX's limit of 20, so the 409 below is what a long list gets.
const topics = { type: 'array', maxItems: 1000, items: topic } as const;

export default async function autoSubscribe(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/mqtt/auto_subscribe', { schema: { response: { 200: topics } } }, async () => store.autoSubscribe.list());

  app.put<{ Body: AutoSubscribeTopic[] }>('/mqtt/auto_subscribe', { schema: { body: topics, response: { 200: topics } } },
    async (request) => store.autoSubscribe.update(request.body));
}
