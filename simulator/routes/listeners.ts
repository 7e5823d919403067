// EMQX module emqx_mgmt_api_listeners (emqx-api-part1 §22.1): list, status by type, create, read,
// update (merge), delete, and start/stop/restart, acting on real sockets through the store.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { ConfigError } from '../store/config/config-roots.ts';
import { LISTENER_TYPES, type ListenerType } from '../store/config/listeners.ts';

const ID = '^(tcp|ssl|ws|wss|quic):[A-Za-z0-9_-]+$';
const params = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 256 } } };
const actionParams = {
  type: 'object', required: ['id', 'action'],
  properties: { id: { type: 'string', maxLength: 256 }, action: { type: 'string', enum: ['start', 'stop', 'restart'] } },
};
const configBody = { type: 'object', properties: { id: { type: 'string', maxLength: 256 }, type: { type: 'string', enum: [...LISTENER_TYPES] } } };

function notFound() {
  return apiError(404, 'BAD_LISTENER_ID', 'Listener id not found');
}

function badRequest(err: unknown): never {
  if (err instanceof ConfigError) {
    throw apiError(400, 'BAD_REQUEST', JSON.stringify({ kind: 'validation_error', path: err.path, reason: err.reason }));
  }
  throw err;
}

export default async function listeners(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get<{ Querystring: { type?: string } }>('/listeners', {
    schema: { querystring: { type: 'object', properties: { type: { type: 'string', enum: [...LISTENER_TYPES] } } } },
  }, async (request) => store.listeners.list(request.query.type));

  app.get('/listeners_status', async () => store.listeners.statusByType());

  app.post<{ Body: Record<string, unknown> & { type: ListenerType; name: string } }>('/listeners', {
    schema: {
      body: {
        type: 'object', required: ['type', 'name'],
        properties: { type: { type: 'string', enum: [...LISTENER_TYPES] }, name: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 64 } },
      },
    },
  }, async (request) => {
    const { type, name } = request.body;
    const created = await store.listeners.create(type, name, request.body).catch(badRequest);
    if (!created) throw apiError(400, 'BAD_LISTENER_ID', 'Already Exist');
    return store.listeners.detail(`${type}:${name}`);
  });

  app.get<{ Params: { id: string } }>('/listeners/:id', { schema: { params } }, async (request) => {
    const detail = store.listeners.detail(request.params.id);
    if (!detail) throw notFound();
    return detail;
  });

  const update = async (id: string, body: Record<string, unknown>) => {
    if (!new RegExp(ID).test(id) || !store.listeners.has(id)) throw notFound();
    const bodyId = body.id ?? (body.type && body.name ? `${String(body.type)}:${String(body.name)}` : undefined);
    if ((bodyId !== undefined && bodyId !== id) || (body.type !== undefined && body.type !== id.split(':')[0])) {
      throw apiError(400, 'BAD_LISTENER_ID', "Path and body's listener id not match");
    }
    await store.listeners.update(id, body).catch(badRequest);
    return store.listeners.detail(id);
  };

  app.put<{ Params: { id: string }; Body: Record<string, unknown> }>('/listeners/:id', { schema: { params, body: configBody } }, (request) => update(request.params.id, request.body));
  // Deprecated alias of PUT.
  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/listeners/:id', { schema: { params, body: configBody } }, (request) => update(request.params.id, request.body));

  app.delete<{ Params: { id: string } }>('/listeners/:id', { schema: { params } }, async (request, reply) => {
    if (!store.listeners.has(request.params.id)) throw notFound();
    await store.listeners.remove(request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string; action: 'start' | 'stop' | 'restart' } }>('/listeners/:id/:action', { config: { noBody: true }, schema: { params: actionParams } }, async (request, reply) => {
    if (!store.listeners.has(request.params.id)) throw notFound();
    await store.listeners.action(request.params.id, request.params.action).catch(badRequest);
    return reply.code(200).send();
  });
}
