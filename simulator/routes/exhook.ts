// EMQX module emqx_exhook_api (emqx-api-part1 §20): ExHook servers in boot order with status from
// a real TCP probe, their hooks and metrics, and reordering. 404s carry code BAD_REQUEST as EMQX
// does (except PUT, which says NOT_FOUND).
import type { FastifyInstance } from 'fastify';

interface NameParams {
  name: string;
}

const nameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 256 } } } as const;
const metrics = {
  type: 'object',
  properties: { succeed: { type: 'integer' }, failed: { type: 'integer' }, rate: { type: 'number' }, max_rate: { type: 'number' } },
} as const;
const nodeMetrics = { type: 'array', items: { type: 'object', properties: { node: { type: 'string' }, metrics } } } as const;
const hook = {
  type: 'object',
  properties: { name: { type: 'string' }, params: { type: 'object', additionalProperties: true }, metrics, node_metrics: nodeMetrics },
} as const;
const detail = {
  type: 'object',
  additionalProperties: true,
  properties: {
    name: { type: 'string' },
    enable: { type: 'boolean' },
    url: { type: 'string' },
    metrics,
    node_metrics: nodeMetrics,
    node_status: {
      type: 'array',
      items: { type: 'object', properties: { node: { type: 'string' }, status: { type: 'string' }, reason: { type: 'string' } } },
    },
    hooks: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, params: { type: 'object', additionalProperties: true } } } },
  },
} as const;
const serverFields = {
  enable: { type: 'boolean' },
  url: { type: 'string', minLength: 1, maxLength: 2048 },
  request_timeout: { type: 'string', pattern: '^\\d+(ms|s|m)?$' },
  failed_action: { type: 'string', enum: ['deny', 'ignore'] },
  ssl: { type: 'object', additionalProperties: true },
  socket_options: { type: 'object', additionalProperties: true },
  auto_reconnect: { anyOf: [{ type: 'string', pattern: '^\\d+(ms|s|m)?$' }, { const: false }] },
  pool_size: { type: 'integer', minimum: 1, maximum: 1024 },
} as const;
const serverName = { type: 'string', minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9]+[A-Za-z0-9-_]*$' } as const;

export default async function exhook(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const exhooks = store.exhooks;

  app.addHook('onReady', async () => exhooks.startTimer());
  app.addHook('onClose', async () => exhooks.stopTimer());
  store.onStateReplaced(() => exhooks.forget());

  app.get('/exhooks', { schema: { response: { 200: { type: 'array', items: detail } } } }, async () => exhooks.list());

  app.post<{ Body: Record<string, unknown> & { name: string } }>('/exhooks', {
    schema: {
      // emqx_exhook_api.erl server_conf_schema/0, a hocon struct: a field it lacks is unknown_fields.
      body: { type: 'object', required: ['name', 'url'], additionalProperties: false, properties: { name: serverName, ...serverFields } },
      response: { 200: detail },
    },
  }, async (request) => exhooks.create(request.body));

  app.get<{ Params: NameParams }>('/exhooks/:name', { schema: { params: nameParams, response: { 200: detail } } },
    async (request) => exhooks.get(request.params.name));

  app.put<{ Params: NameParams; Body: Record<string, unknown> }>('/exhooks/:name', {
    schema: { params: nameParams, body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, ...serverFields } }, response: { 200: detail } },
  }, async (request) => exhooks.update(request.params.name, request.body));

  app.delete<{ Params: NameParams }>('/exhooks/:name', { schema: { params: nameParams } }, async (request, reply) => {
    await exhooks.remove(request.params.name);
    return reply.code(204).send();
  });

  app.get<{ Params: NameParams }>('/exhooks/:name/hooks', { schema: { params: nameParams, response: { 200: { type: 'array', items: hook } } } },
    async (request) => exhooks.hooks(request.params.name));

  // emqx_exhook_api.erl fields(move_req) (v5.5.1 to 6.2.2): `position` alone.
  app.post<{ Params: NameParams; Body: { position: string } }>('/exhooks/:name/move', {
    schema: { params: nameParams, body: { type: 'object', required: ['position'], additionalProperties: false, properties: { position: { type: 'string', maxLength: 300 } } } },
  }, async (request, reply) => {
    await exhooks.move(request.params.name, request.body.position);
    return reply.code(204).send();
  });
}
