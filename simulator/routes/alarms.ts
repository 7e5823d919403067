// EMQX module emqx_mgmt_api_alarms: GET /alarms (active or history, envelope A), DELETE /alarms.
import type { FastifyInstance } from 'fastify';
import { pageQueryProperties, type PageQuery } from '../store/pagination.ts';

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageQueryProperties,
    // Default true: without it the list shows active alarms; false shows the history.
    activated: { type: 'boolean', default: true },
  },
};

export default async function alarms(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get<{ Querystring: PageQuery & { activated: boolean } }>('/alarms', { schema: { querystring } }, async (request) => {
    const { activated, page, limit } = request.query;
    return store.alarms.list(activated, { page, limit });
  });

  // Clears deactivated alarms only.
  app.delete('/alarms', async (_request, reply) => {
    store.alarms.clearHistory();
    return reply.code(204).send();
  });
}
