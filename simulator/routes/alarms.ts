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

  // emqx_mgmt_api_alarms.erl (5.8.9) force_deactivate_alarm/2: the named alarm on every node; the
  // profile table keeps it out of 5.5.
  app.post<{ Body: { name?: string } }>('/alarms/force_deactivate', {
    schema: { body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string', maxLength: 256 } } } },
  }, async (request, reply) => {
    const name = request.body?.name;
    if (!name) return reply.code(400).send({ code: 'INVALID_PARAMETER', message: 'name is required' });
    const done = store.cluster.names().map((node) => store.alarms.deactivate(node, name));
    if (!done.includes(true)) return reply.code(400).send({ code: 'NOT_FOUND', message: 'Alarm not found or already deactivated' });
    return reply.code(204).send();
  });
}
