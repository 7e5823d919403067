// EMQX module emqx_rewrite_api: GET and PUT /mqtt/topic_rewrite (the whole rule list, §17).
import type { FastifyInstance } from 'fastify';
import type { RewriteRule } from '../store/messaging/rewrite.ts';

const rule = {
  type: 'object',
  required: ['action', 'source_topic', 'dest_topic', 're'],
  additionalProperties: false,
  properties: {
    action: { type: 'string', enum: ['subscribe', 'publish', 'all'] },
    source_topic: { type: 'string', maxLength: 65535 },
    dest_topic: { type: 'string', maxLength: 65535 },
    re: { type: 'string', maxLength: 4096 },
  },
} as const;
// Far above EMQX's limit of 19, so the 413 below is what a long list gets.
const rules = { type: 'array', maxItems: 1000, items: rule } as const;

export default async function rewrite(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/mqtt/topic_rewrite', { schema: { response: { 200: rules } } }, async () => store.rewrite.list());

  app.put<{ Body: RewriteRule[] }>('/mqtt/topic_rewrite', { schema: { body: rules, response: { 200: rules } } },
    async (request) => store.rewrite.update(request.body));
}
