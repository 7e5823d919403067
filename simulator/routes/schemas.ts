// EMQX emqx_dashboard_schema_api: GET /schemas/{name} form schemas (part 2 §4.10), no auth as the broker.
import type { FastifyInstance } from 'fastify';
import { SCHEMA_NAMES, schemaDocument, type SchemaName } from '../schemas/index.ts';

export default async function schemas(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { name: SchemaName } }>('/schemas/:name', {
    config: { public: true },
    schema: { params: { type: 'object', properties: { name: { type: 'string', enum: SCHEMA_NAMES } }, required: ['name'] } },
  }, async (request, reply) => reply.type('application/json; charset=utf-8').send(schemaDocument(request.params.name)));
}
