// EMQX emqx_mt_api (managed namespaces, 5.10 and 6.x): the list the console's namespace picker
// reads, create and delete. emqx_mt_api.erl at 6.2.2: `GET /mt/managed_ns_list` answers the names
// in order, `limit` of them (100 by default, ?DEFAULT_PAGE_SIZE) after `last_ns` (exclusive) or
// from `first_ns` (inclusive), never both (400), with an RFC 8288 `link: <?…>; rel="next"`
// header when more follow (paginated_response/4); `POST /mt/ns/:ns` is 204, or 400 with the
// reason (`already_exists`, the table full); `DELETE /mt/ns/:ns` is 204, also for an unknown name.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';

const nsParams = { type: 'object', required: ['ns'], properties: { ns: { type: 'string', maxLength: 1024 } } } as const;
const listQuery = {
  type: 'object',
  properties: { last_ns: { type: 'string' }, first_ns: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
} as const;

export default async function managedNamespaces(app: FastifyInstance): Promise<void> {
  const { namespaces } = app.store;

  app.get<{ Querystring: { last_ns?: string; first_ns?: string; limit?: number } }>('/mt/managed_ns_list', { schema: { querystring: listQuery } },
    async (request, reply) => {
      const { last_ns: last, first_ns: first, limit = 100 } = request.query;
      if (last !== undefined && first !== undefined) throw apiError(400, 'BAD_REQUEST', '`last_ns` and `first_ns` are mutually exclusive; use at most one.');
      const items = namespaces.list().filter((name) => (first !== undefined ? name >= first : name > (last ?? ''))).slice(0, limit + 1);
      if (items.length <= limit) return items;
      const page = items.slice(0, limit);
      const [key, value] = first !== undefined ? ['first_ns', items[limit]] : ['last_ns', page[limit - 1]];
      reply.header('link', `<?${new URLSearchParams({ [key]: value, limit: String(limit) })}>; rel="next"`);
      return page;
    });

  app.post<{ Params: { ns: string } }>('/mt/ns/:ns', { schema: { params: nsParams }, config: { noBody: true } }, async (request, reply) => {
    await namespaces.create(request.params.ns);
    return reply.code(204).send();
  });

  app.delete<{ Params: { ns: string } }>('/mt/ns/:ns', { schema: { params: nsParams } }, async (request, reply) => {
    await namespaces.remove(request.params.ns);
    return reply.code(204).send();
  });
}
