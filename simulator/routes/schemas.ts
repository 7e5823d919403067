// EMQX emqx_dashboard_schema_api: GET /schemas/{name} form schemas (part 2 §4.10).
import type { FastifyInstance } from 'fastify';

export default async function schemas(_app: FastifyInstance): Promise<void> {}
