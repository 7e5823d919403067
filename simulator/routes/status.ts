// EMQX module emqx_mgmt_api_status: GET /status (no auth), also served at the root as /status.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type StatusRequest = FastifyRequest<{ Querystring: { format: 'text' | 'json' } }>;

/** The route options and handler shared by /api/v5/status and /status. */
export function statusRoute(app: FastifyInstance) {
  const node = app.store.cluster.self;
  return {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { format: { type: 'string', enum: ['text', 'json'], default: 'text' } },
      },
    },
    config: { public: true },
    handler: async (request: StatusRequest, reply: FastifyReply) => {
      if (request.query.format === 'json') {
        return { node_name: node, rel_vsn: app.store.profile.versionWithPrefix, broker_status: 'started', app_status: 'running' };
      }
      return reply.type('text/plain; charset=utf-8').send(`Node ${node} is started\nemqx is running`);
    },
  };
}

export default async function status(app: FastifyInstance): Promise<void> {
  app.get('/status', statusRoute(app));
}
