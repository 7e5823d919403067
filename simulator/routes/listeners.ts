// EMQX module emqx_mgmt_api_listeners: GET /listeners (read-only here; configuration comes later).
import type { FastifyInstance } from 'fastify';

export default async function listeners(app: FastifyInstance): Promise<void> {
  const { store } = app;
  app.get<{ Querystring: { type?: string } }>('/listeners', {
    schema: { querystring: { type: 'object', properties: { type: { type: 'string', enum: ['tcp', 'ssl', 'ws', 'wss', 'quic'] } } } },
  }, async (request) => store.listeners.list(request.query.type));
}
