// EMQX emqx_mgmt_api_banned: GET/POST/DELETE /banned and DELETE /banned/{as}/{who}
// (emqx-api-part1 §14). A new ban also kicks the matching connected clients.
import type { FastifyInstance } from 'fastify';
import { kickBanned } from '../broker/banned.ts';
import { pageQueryProperties } from '../store/pagination.ts';

const filter = { type: 'string', maxLength: 1024 } as const;
const epoch = { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'integer', minimum: 0 }] } as const;

export default async function banned(app: FastifyInstance): Promise<void> {
  const { store, bridge } = app;

  app.get<{ Querystring: Record<string, unknown> & { page: number; limit: number } }>('/banned', {
    schema: {
      querystring: {
        type: 'object',
        properties: {
          ...pageQueryProperties, clientid: filter, username: filter, peerhost: filter,
          like_clientid: filter, like_username: filter, like_peerhost: filter, like_peerhost_net: filter,
        },
      },
    },
  }, async (request) => store.banned.list(request.query));

  app.post<{ Body: Record<string, unknown> }>('/banned', {
    schema: {
      body: {
        // emqx_mgmt_api_banned.erl fields(ban): a hocon struct, so a field it lacks is unknown_fields.
        type: 'object', required: ['as', 'who'], additionalProperties: false,
        properties: { as: { type: 'string' }, who: { type: 'string', maxLength: 1024 }, by: { type: 'string', maxLength: 1024 }, reason: { type: 'string', maxLength: 4096 }, at: epoch, until: epoch },
      },
    },
  }, async (request) => {
    const record = await store.banned.create(request.body);
    await kickBanned(store, bridge, record);
    return store.banned.view(record);
  });

  app.delete('/banned', async (_request, reply) => {
    await store.banned.clear();
    return reply.code(204).send();
  });

  app.delete<{ Params: { as: string; who: string } }>('/banned/:as/:who', {
    schema: { params: { type: 'object', required: ['as', 'who'], properties: { as: { type: 'string', maxLength: 32 }, who: { type: 'string', maxLength: 1024 } } } },
  }, async (request, reply) => {
    await store.banned.remove(request.params.as, request.params.who);
    return reply.code(204).send();
  });
}
