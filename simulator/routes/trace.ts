// EMQX module emqx_mgmt_api_trace: /trace, /trace/{name}, /trace/{name}/stop, /log_detail,
// /log (envelope G) and /download (a zip named by content-disposition), emqx-api-part1 §18.
import type { FastifyInstance } from 'fastify';
import { apiError } from '../plugins/errors.ts';
import { parseEpochSecond } from '../lib/time.ts';
import { TRACE_NAME, type PayloadEncode, type TraceType } from '../store/messaging/trace.ts';

interface TraceBody {
  name: string;
  type: TraceType;
  clientid?: string;
  topic?: string;
  ip_address?: string;
  payload_encode?: PayloadEncode;
  start_at?: string | number;
  end_at?: string | number;
  formatter?: string;
}

interface NameParams {
  name: string;
}

const time = { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'integer', minimum: 0 }] } as const;
const body = {
  type: 'object',
  required: ['name', 'type'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 256, pattern: TRACE_NAME.source },
    type: { type: 'string', enum: ['clientid', 'topic', 'ip_address'] },
    clientid: { type: 'string', maxLength: 65535 },
    topic: { type: 'string', maxLength: 65535 },
    ip_address: { type: 'string', maxLength: 64 },
    payload_encode: { type: 'string', enum: ['text', 'hex', 'hidden'] },
    start_at: time,
    end_at: time,
    // 5.7+ only; accepted and ignored, the simulator writes text.
    formatter: { type: 'string', enum: ['text', 'json'] },
  },
} as const;
const traceProperties = {
  name: { type: 'string' }, type: { type: 'string' }, clientid: { type: 'string' }, topic: { type: 'string' },
  ip_address: { type: 'string' }, payload_encode: { type: 'string' }, start_at: { type: 'string' }, end_at: { type: 'string' },
  status: { type: 'string' }, log_size: { type: 'object', additionalProperties: { type: 'integer' } },
} as const;
const trace = { type: 'object', properties: traceProperties } as const;
// A name that could never have been created is refused before the store sees it (S22).
const params = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 256, pattern: TRACE_NAME.source } } } as const;
const nodeQuery = { node: { type: 'string', maxLength: 256 } } as const;
const logQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...nodeQuery,
    bytes: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1, default: 1000 },
    position: { type: 'integer', minimum: 0, default: 0 },
  },
} as const;

function epoch(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseEpochSecond(value);
  if (ms === null) throw apiError(400, 'INVALID_PARAMS', `The rfc3339 specification not satisfied: ${value}`);
  return ms;
}

export default async function traceRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.get('/trace', { schema: { response: { 200: { type: 'array', items: trace } } } }, async () => store.traces.list());

  app.post<{ Body: TraceBody }>('/trace', { schema: { body, response: { 200: trace } } }, async (request) => {
    const b = request.body;
    const filter = b[b.type];
    if (filter === undefined) throw apiError(400, 'INVALID_PARAMS', `required ${b.type} field`);
    return store.traces.create({
      name: b.name, type: b.type, filter, payload_encode: b.payload_encode, start_at: epoch(b.start_at), end_at: epoch(b.end_at),
    });
  });

  app.delete('/trace', async (_request, reply) => {
    await store.traces.clear();
    return reply.code(204).send();
  });

  app.delete<{ Params: NameParams }>('/trace/:name', { schema: { params } }, async (request, reply) => {
    await store.traces.remove(request.params.name);
    return reply.code(204).send();
  });

  app.put<{ Params: NameParams }>('/trace/:name/stop', {
    config: { noBody: true },
    schema: { params, response: { 200: { type: 'object', properties: { enable: { type: 'boolean' }, name: { type: 'string' } } } } },
  }, async (request) => store.traces.stop(request.params.name));

  app.get<{ Params: NameParams }>('/trace/:name/log_detail', {
    schema: {
      params,
      response: { 200: { type: 'array', items: { type: 'object', properties: { node: { type: 'string' }, size: { type: 'integer' }, mtime: { type: 'integer' } } } } },
    },
  }, async (request) => store.traces.detail(request.params.name));

  app.get<{ Params: NameParams; Querystring: { node?: string; bytes: number; position: number } }>('/trace/:name/log', {
    schema: {
      params,
      querystring: logQuery,
      response: {
        200: {
          type: 'object',
          properties: { items: { type: 'string' }, meta: { type: 'object', properties: { position: { type: 'integer' }, bytes: { type: 'integer' } } } },
        },
      },
    },
  }, async (request) => store.traces.read(request.params.name, request.query));

  app.get<{ Params: NameParams; Querystring: { node?: string } }>('/trace/:name/download', {
    schema: { params, querystring: { type: 'object', additionalProperties: false, properties: nodeQuery } },
  }, async (request, reply) => {
    const { filename, data } = await store.traces.archive(request.params.name, request.query.node);
    return reply.header('content-type', 'application/x-zip').header('content-disposition', `attachment; filename=${filename}`).send(data);
  });
}
